#!/usr/bin/env bash
# Makes a routetune executable that runs on a machine without Debian's libraries (the GPU
# machine): relinks BUILD's routetune (default build/, made by README's commands: Makefiles, or a
# Ninja build) with libstdc++, libgcc and SQLite linked in statically, and copies the shared
# libraries it still needs (libpq and what libpq pulls in, cpp-httplib), all but glibc's own,
# into OUT/lib (default OUT: .devbin; DEVBIN overrides it). The executable finds them through an
# RPATH of $ORIGIN/lib, which covers their own dependencies too and, unlike LD_LIBRARY_PATH,
# never reaches the processes routetune starts (a Python that imports torch must keep its own
# newer libstdc++). The link line is CMake's own (link.txt for Makefiles, `ninja -t commands`
# for Ninja), so the relink uses exactly the objects and libraries of the build; it is split
# into words and run as an argv, never through a shell. Build BUILD's routetune first.
# Output: OUT/routetune, OUT/lib/, and a line with the bytes of both.
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(cd "${1:-build}" && pwd)
out=${DEVBIN:-.devbin}
if [[ -f $build/build.ninja ]]; then
  link=$(ninja -C "$build" -t commands routetune | tail -1)
  link=${link#*&& }
  link=${link%% && :*}
elif [[ -f $build/CMakeFiles/routetune.dir/link.txt ]]; then
  link=$(head -1 "$build/CMakeFiles/routetune.dir/link.txt")
else
  echo "pack-device-binary: $build holds no CMake build of routetune (neither build.ninja nor" \
       "CMakeFiles/routetune.dir/link.txt); build it first: cmake -S . -B build && cmake --build build" >&2
  exit 2
fi
rm -rf "$out"  # a second run would find its own copies through the RPATH
mkdir -p "$out/lib"
out=$(cd "$out" && pwd)
sqlite_static=/usr/lib/x86_64-linux-gnu/libsqlite3.a
read -ra words <<< "$link"
argv=()
for ((i = 0; i < ${#words[@]}; i++)); do
  word=${words[i]}
  case $word in
    -o) argv+=(-o "$out/routetune"); i=$((i + 1)) ;;
    -lsqlite3|*/libsqlite3.so) ;;
    *) argv+=("$word") ;;
  esac
done
argv+=("$sqlite_static" -ldl -lm -lpthread -static-libstdc++ -static-libgcc -Wl,--disable-new-dtags
       "-Wl,-rpath,\$ORIGIN/lib")
(cd "$build" && "${argv[@]}")
glibc='^(linux-vdso|libc|libm|libdl|libpthread|librt|libresolv|ld-linux-x86-64)\.so'
ldd "$out/routetune" | awk '$3 ~ /^\// {print $1, $3}' | while read -r name path; do
  [[ $name =~ $glibc ]] || cp -L "$path" "$out/lib/$name"
done
echo "built $out/routetune; $(ls "$out/lib" | wc -l) libraries in $out/lib:"
ldd "$out/routetune" | grep -v "$out/lib" | awk '{print "  from the system:", $1}'
echo "bytes: $(du -sb "$out" | cut -f1) (routetune $(stat -c %s "$out/routetune"), lib $(du -sb "$out/lib" | cut -f1))"
