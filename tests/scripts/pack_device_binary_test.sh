#!/usr/bin/env bash
# scripts/pack-device-binary.sh from README's build (BUILD, Makefiles): the packed binary runs,
# loads nothing from the system but glibc's own libraries (libpq, cpp-httplib and what they pull
# in come from its lib/ through the RPATH), and with its libraries fits the device's 64 MiB carry
# limit. Usage: pack_device_binary_test.sh BUILD
set -euo pipefail
build=$1
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp -d)/devbin
trap 'rm -rf "$(dirname "$out")"' EXIT
DEVBIN=$out bash "$source_dir/scripts/pack-device-binary.sh" "$build"
fail=0
glibc='^(linux-vdso|libc|libm|libdl|libpthread|librt|libresolv|ld-linux-x86-64)\.so'
while read -r name arrow path _; do
  [[ $name == /* ]] && { path=$name; name=$(basename "$name"); }
  [[ $arrow == "=>" || -n ${path:-} ]] || continue
  if [[ $path == "$out/lib/"* ]]; then continue; fi
  if [[ $name =~ $glibc ]]; then continue; fi
  echo "FAIL: the packed binary loads $name from the system ($path)"
  fail=1
done < <(ldd "$out/routetune")
for needed in libpq.so.5 libcpp-httplib; do
  ldd "$out/routetune" | grep "$needed" | grep -q "$out/lib/" || { echo "FAIL: $needed does not come from $out/lib"; fail=1; }
done
if ldd "$out/routetune" | grep -q "not found"; then echo "FAIL: unresolved libraries"; ldd "$out/routetune"; fail=1; fi
version=$(env -i "$out/routetune" --version) || { echo "FAIL: $out/routetune --version exited $?"; fail=1; }
[[ $version == routetune\ * ]] || { echo "FAIL: --version printed '$version'"; fail=1; }
bytes=$(du -sb "$out" | cut -f1)
limit=$((64 * 1024 * 1024))
echo "packed: $bytes bytes (the carry limit is $limit)"
((bytes < limit)) || { echo "FAIL: $bytes bytes do not fit the 64 MiB carry limit"; fail=1; }
exit $fail
