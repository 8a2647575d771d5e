"""docs/gpu/aoti_load_repro.py's native backtrace where no gdb is installed (the device machine's
image): segv_backtrace.c, built by the machine's C compiler and preloaded, names the faulting
function of a program that dies of SIGSEGV, and resolved_frames adds addr2line's function and
line. Checked on a small C program that crashes on purpose (no torch needed)."""

import subprocess
import sys
from pathlib import Path

REPRO_DIR = Path(__file__).resolve().parents[2] / "docs" / "gpu"
sys.path.insert(0, str(REPRO_DIR))

import aoti_load_repro  # noqa: E402

CRASHING = """#include <stdio.h>
void write_through_null(int* where) { *where = 1; }
int main(void) { fputs("before the fault\\n", stderr); write_through_null(0); return 0; }
"""


def crashing_program(folder):
    source = folder / "crash.c"
    source.write_text(CRASHING)
    program = folder / "crash"
    subprocess.run(["cc", "-g", "-O0", "-rdynamic", "-o", str(program), str(source)], check=True)
    return program


def test_a_fault_prints_the_faulting_function_and_its_callers(tmp_path):
    handler = aoti_load_repro.native_backtrace_handler(str(tmp_path))
    assert handler and Path(handler).is_file()
    done = subprocess.run([str(crashing_program(tmp_path))], env={"LD_PRELOAD": handler}, capture_output=True, text=True)
    assert done.returncode == -11, "the signal still ends the process as it would have"
    lines = done.stderr.splitlines()
    assert "before the fault" in lines
    assert any(line.startswith("segv_backtrace: signal 11 (Segmentation fault)") for line in lines), done.stderr
    instruction = [line for line in lines if line.startswith("segv_backtrace: instruction")]
    assert instruction and "(write_through_null+" in instruction[0], done.stderr
    frames = [line for line in lines if line.startswith("  frame")]
    assert any("(main+" in line for line in frames), done.stderr


def test_frames_are_resolved_to_function_and_line(tmp_path):
    handler = aoti_load_repro.native_backtrace_handler(str(tmp_path))
    done = subprocess.run([str(crashing_program(tmp_path))], env={"LD_PRELOAD": handler}, capture_output=True, text=True)
    native = [line for line in done.stderr.splitlines() if line.startswith(("segv_backtrace", "  frame"))]
    resolved = aoti_load_repro.resolved_frames(native)
    faulting = [line for line in resolved if line.startswith("segv_backtrace: instruction")][0]
    assert "=> write_through_null | " in faulting and "crash.c:2" in faulting, faulting
    assert len(resolved) == len(native)
