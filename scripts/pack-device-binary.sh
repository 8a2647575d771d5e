#!/usr/bin/env bash
# Makes a routetune executable that runs on a machine without Debian's libraries (the GPU
# machine): relinks BUILD's routetune (default build/, made by README's commands) with
# libstdc++, libgcc and SQLite linked in statically, and copies the shared libraries it still
# needs (libpq and what libpq pulls in, cpp-httplib), all but glibc's own, into .devbin/lib.
# The executable finds them through an RPATH of $ORIGIN/lib, which covers their own
# dependencies too and, unlike LD_LIBRARY_PATH, never reaches the processes routetune starts
# (a Python that imports torch must keep its own newer libstdc++). Output: .devbin/routetune.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
out=.devbin
rm -rf "$out"  # a second run would find its own copies through the RPATH
mkdir -p "$out/lib"
link=$(ninja -C "$build" -t commands routetune | tail -1)
link=${link#*&& }
link=${link%% && :*}
link=${link/ -o routetune / -o $PWD/$out/routetune }
link=${link//-lsqlite3/}
link=${link//\/usr\/lib\/x86_64-linux-gnu\/libsqlite3.so/}
sqlite=/usr/lib/x86_64-linux-gnu/libsqlite3.a
(cd "$build" && eval "$link $sqlite -static-libstdc++ -static-libgcc -Wl,--disable-new-dtags -Wl,-rpath,'\$ORIGIN/lib'")
glibc='^(linux-vdso|libc|libm|libdl|libpthread|librt|libresolv|ld-linux-x86-64)\.so'
ldd "$out/routetune" | awk '$3 ~ /^\// {print $1, $3}' | while read -r name path; do
  [[ $name =~ $glibc ]] || cp -L "$path" "$out/lib/$name"
done
echo "built $out/routetune; $(ls "$out/lib" | wc -l) libraries in $out/lib:"
ldd "$out/routetune" | grep -v "$out/lib" | awk '{print "  from the system:", $1}'
