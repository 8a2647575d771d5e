#!/bin/sh
# Checks the fakes by hand-free means: every fakecc trigger and fake_timed_cc's time model.
# Usage: sh tests/fakes/selftest.sh   (prints one line per check, exits 1 on any failure)
here=$(cd "$(dirname "$0")" && pwd)
tiny=$here/../fixtures/specs/tiny.c
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

check() { # check NAME EXPECTED ACTUAL
    if [ "$2" = "$3" ]; then echo "ok   $1"; else echo "FAIL $1: expected '$2', got '$3'"; failures=$((failures + 1)); fi
}

cc=$here/fakecc
"$cc" -O2 "$tiny" -o "$work/ok"; check "fakecc plain build" 0 $?
"$work/ok" > /dev/null; check "fakecc plain binary runs" 0 $?
FAKECC_FAIL_ON=-funroll-loops "$cc" -O2 -funroll-loops "$tiny" -o "$work/f" 2> /dev/null; check "FAKECC_FAIL_ON" 1 $?
FAKECC_FAIL_ON=-funroll-loops "$cc" -O2 -fno-unroll-loops "$tiny" -o "$work/f"; check "FAKECC_FAIL_ON matches exactly" 0 $?
FAKECC_CRASH_ON="-O3 --param=max-unroll-times=16" "$cc" -O2 --param=max-unroll-times=16 "$tiny" -o "$work/c" 2> /dev/null
check "FAKECC_CRASH_ON (list)" 139 $?
FAKECC_HANG_ON=-ftracer timeout -s KILL 1 "$cc" -O2 -ftracer "$tiny" -o "$work/h" 2> /dev/null
check "FAKECC_HANG_ON hangs" 137 $?
FAKECC_BAD_BINARY_CRASH_ON=-O3 "$cc" -O3 "$tiny" -o "$work/bc" && { "$work/bc"; check "bad binary crashes" 139 $?; } 2> /dev/null
FAKECC_BAD_BINARY_HANG_ON=-O3 "$cc" -O3 "$tiny" -o "$work/bh" && timeout -s KILL 1 "$work/bh"
check "bad binary hangs" 137 $?
FAKECC_BAD_BINARY_NAN_ON=-ffast-math "$cc" -ffast-math "$tiny" -o "$work/bn" && check "bad binary prints nan" "nan nan nan nan" "$("$work/bn" | tr '\n' ' ' | sed 's/ $//')"
FAKECC_BAD_BINARY_FAIL_ON=-fipa-pta "$cc" -fipa-pta "$tiny" -o"$work/bf" && { "$work/bf"; check "bad binary exits 3" 3 $?; } 2> /dev/null
echo 'int main(void){return 0;}' | FAKECC_FAIL_ON=-O2 "$cc" -O2 -c -o /dev/null -x c -; check "probe compiles bypass triggers" 0 $?
FAKECC_FAIL_ON=-O2 "$cc" -O2 -Q --help=params > /dev/null; check "discovery passes through" 0 $?
check "FAKECC_NATIVE_MARCH stands in for native" "-march= x86-64-v2" \
    "$(FAKECC_NATIVE_MARCH=x86-64-v2 "$cc" -march=native -Q --help=target | grep -E '^ +-march=' | tr -s ' \t' ' ' | sed 's/^ //')"

tc=$here/fake_timed_cc
FAKE_BUILD_HANG_ON="-fno-inline -ftracer" timeout -s KILL 1 "$tc" -O2 -ftracer "$tiny" -o "$work/th"
check "FAKE_BUILD_HANG_ON hangs" 137 $?
FAKE_BUILD_HANG_ON=-ftracer "$tc" -O2 -fno-tracer "$tiny" -o "$work/tn"; check "FAKE_BUILD_HANG_ON matches exactly" 0 $?
report_times() { # report_times ARTIFACT N: the reported times of N runs, space-separated
    i=0; out=""
    while [ $i -lt "$2" ]; do "$1" "$work/m.json" > /dev/null; out="$out $(tr -dc '0-9.' < "$work/m.json")"; i=$((i + 1)); done
    echo $out
}
"$tc" -O2 "$tiny" -o "$work/t1"; check "timed -O2 with jitter" "100.000000 100.500000 99.500000 100.250000 99.750000 100.000000" "$(report_times "$work/t1" 6)"
FAKE_JITTER=0 "$tc" -O2 -O3 -funroll-loops --param=max-unroll-times=16 -march=native "$tiny" -o "$work/t2"
check "timed product of factors" "58.140000" "$(report_times "$work/t2" 1)"
FAKE_JITTER=0 "$tc" -O2 -fno-inline "$tiny" -o "$work/t3"; check "timed -fno-inline" "130.000000" "$(report_times "$work/t3" 1)"
cp "$work/t3" "$work/t3b"
drifting() { FAKE_DRIFT_FILE="$work/drift" FAKE_DRIFT=-0.5 "$1" "$work/m.json" > /dev/null; tr -dc '0-9.' < "$work/m.json"; }
check "FAKE_DRIFT shared by every artifact" "130.000000 78.848986 47.824327" \
    "$(drifting "$work/t3") $(drifting "$work/t3b") $(drifting "$work/t3")"
echo 3 > "$work/in"
check "timed output scaled" "3 4.5 6 7.5 9 10.5 12 13.5" "$("$work/t1" - "$work/in" | tr '\n' ' ' | sed 's/ $//')"
"$tc" -O2 -ffast-math "$tiny" -o "$work/t4"
check "timed fast-math output" "1.001 1.5015 2.002 2.5025 3.003 3.5035 4.004 4.5045" "$("$work/t4" - | tr '\n' ' ' | sed 's/ $//')"
"$tc" -O2 "$work/missing.c" -o "$work/t5" 2> /dev/null; check "timed missing source" 1 $?

[ $failures = 0 ] || exit 1
