"""Minimal reproduction of issue 26's AOTInductor crash: on an H200 with PyTorch 2.11.0+cu130,
torch._inductor.aoti_compile_and_package built torchvision ResNet-18's package (57 s, 50 MB), and
torch._inductor.aoti_load_package on it died with a segmentation fault inside _load_aoti, in a
fresh process. Run on the H200 on 2026-12-05 (scripts/gpu-issue26.sh 1): both the one-layer
Linear package and ResNet-18's built, and both loads died with SIGSEGV in _load_aoti.

Why (found on an H100 on 2026-12-06, the same image): Inductor's compiler there is
/opt/gcc/bin/g++, a script over a relocated GCC 13.3 whose only libstdc++ is an archive, so the
package's wrapper library carries its own libstdc++ (it asks for no libstdc++.so); loaded beside
the process's shared libstdc++ (6.0.33), the two copies mix, and the wrapper's std::regex in
torch::aot_inductor::parse_device_str (as AOTInductorModelContainerCreateWithDevice builds the
model) calls the wrong locale facet and faults. Built with AOTI_CXX=/usr/bin/g++ (Debian's GCC 13,
shared libstdc++) the same packages load and match torch.compile's output. The project's answer
is python/routetune_aoti.py (a compiler that builds loadable packages, and a check of a package).
The speed-resnet step then ran on an H100 (2026-12-06, 12:59 UTC): the package gave torch.compile's
output but ran at 0.749-0.794 times its time in five rotating rounds (within 2-3.4% of a
freezing=on compile after the first round), and its first load took 52.8 s (docs/benchmarks.md).

  python3 docs/gpu/aoti_load_repro.py OUTDIR [STEP...]      (every step without STEP)
  AOTI_CXX=COMPILER ...                                     the compile steps build with COMPILER

Each step runs in a process of its own (python3 -X faulthandler THIS --step NAME ...), so a
segmentation fault ends only that step, names it, and prints the Python stack of the thread
that crashed; where gdb is installed, a load step runs under `gdb -batch -ex run -ex bt` for the
native stack, and where it is not (the earlier H200 runs gave no native stack), a load or metadata step runs with
LD_DEBUG=files and its log's last lines are printed: the last shared object the dynamic loader
opened or initialised before the fault; and with segv_backtrace.c (beside this file, built here
with the machine's C compiler) preloaded, which prints the faulting instruction's shared object and
the frames glibc's backtrace() unwinds, each resolved by addr2line where binutils are installed. The steps bisect where the crash lives:

  compile-linear   a one-layer model: export + aoti_compile_and_package -> OUTDIR/linear.pt2
  metadata-linear  the three calls _load_aoti makes, one at a time, with timestamps
  load-linear      aoti_load_package(linear.pt2) in a fresh process, run once, compare with eager
  toolchain-linear what built the package's wrapper library and what loads it: the C++ compiler
                   Inductor calls (its --version), torch's C++ ABI flag, and the wrapper .so taken
                   out of linear.pt2 (a zip): its NEEDED libraries, RUNPATH, the GLIBCXX versions it
                   asks for and the libstdc++ torch's process has loaded (no compile, no CUDA call)
  cpp-wrapper-linear torch.compile of the same model with Inductor's C++ wrapper (cpp_wrapper =
                   True, the code path AOTInductor's wrapper takes, built by the same compiler),
                   run in process: does a C++ wrapper crash outside a package too?
  compile-resnet   torchvision resnet18 (random weights, batch 16), the issue's model -> resnet18.pt2
  load-resnet      the issue's crash: aoti_load_package(resnet18.pt2) in a fresh process
  load-resnet-cpu-first   the same, but torch.cuda.init() and one CUDA tensor op before loading
                   (is the crash an uninitialised CUDA context in the loader?)
  same-process     compile and load resnet18 in one process (the state compile leaves)
  speed-resnet     resnet18.pt2's load cost (a first and a second load in one process) and its
                   speed against torch.compile of the model, default and freezing=on, in rounds
                   of 50 timed calls each, the order rotating (package_speed)

For each load that works it prints max |package - eager| and |package - torch.compile|, and the
median of 50 timed calls (CUDA events) of the package and of torch.compile's model. Output: one
line per step, "STEP: exit CODE (or signal N) in S s", then each step's last lines; the whole
log is what docs/gpu-adapters.md's AOTInductor section needs.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import time

STARTED = time.time()

STEPS = ["compile-linear", "metadata-linear", "load-linear", "toolchain-linear", "cpp-wrapper-linear", "compile-resnet", "load-resnet",
         "load-resnet-cpu-first", "same-process", "speed-resnet"]


def read_metadata(name, outdir):
    """The package's metadata and this device's, read the way _load_aoti reads them before it builds
    the loader: which of the three calls faults."""
    import torch

    path = os.path.join(outdir, name + ".pt2")
    print("metadata of %s at %.1f s" % (path, time.time() - STARTED), flush=True)
    metadata = torch._C._aoti.AOTIModelPackageLoader.load_metadata_from_package(path, "model")
    print("package metadata:", json.dumps(dict(metadata), sort_keys=True), flush=True)
    import torch._inductor.codecache

    device = torch._inductor.codecache.get_device_information(metadata["AOTI_DEVICE_KEY"])
    print("device information:", json.dumps({k: str(v) for k, v in device.items()}, sort_keys=True), flush=True)
    print("loader at %.1f s" % (time.time() - STARTED), flush=True)
    torch._C._aoti.AOTIModelPackageLoader(path, "model", False, 1, -1)
    print("loader built at %.1f s" % (time.time() - STARTED), flush=True)


def model_and_input(name):
    import torch

    torch.manual_seed(0)
    if name == "linear":
        return torch.nn.Linear(64, 32).cuda().eval(), torch.randn(8, 64, device="cuda")
    import torchvision

    return torchvision.models.resnet18().cuda().eval(), torch.randn(16, 3, 224, 224, device="cuda")


def compile_package(name, outdir):
    import torch

    model, example = model_and_input(name)
    if os.environ.get("AOTI_CXX"):
        # The C++ compiler Inductor builds the package's wrapper with (config.cpp.cxx), in place of
        # the machine's default: does the crash follow the compiler that linked the wrapper?
        torch._inductor.config.cpp.cxx = (None, os.environ["AOTI_CXX"])
    started = time.time()
    with torch.no_grad():
        exported = torch.export.export(model, (example,))
        path = torch._inductor.aoti_compile_and_package(exported, package_path=os.path.join(outdir, name + ".pt2"))
    print(json.dumps({"package": path, "bytes": os.path.getsize(path), "compile_s": round(time.time() - started, 1)}))


def median_ms(fn, example):
    import torch

    times = []
    with torch.no_grad():
        for _ in range(10):
            fn(example)
        torch.cuda.synchronize()
        for _ in range(50):
            start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            fn(example)
            stop.record()
            stop.synchronize()
            times.append(start.elapsed_time(stop))
    return sorted(times)[len(times) // 2]


def load_package(name, outdir, cuda_first=False):
    import torch

    if cuda_first:
        torch.cuda.init()
        (torch.ones(1, device="cuda") + 1).item()
    model, example = model_and_input(name)
    print("loading %s at %.1f s" % (os.path.join(outdir, name + ".pt2"), time.time() - STARTED), flush=True)
    package = torch._inductor.aoti_load_package(os.path.join(outdir, name + ".pt2"))
    print("loaded at %.1f s" % (time.time() - STARTED), flush=True)
    with torch.no_grad():
        eager = model(example)
        out = package(example)
        compiled = torch.compile(model)
        jit = compiled(example)
    print(json.dumps({"max_abs_vs_eager": (out - eager).abs().max().item(),
                      "max_abs_vs_compile": (out - jit).abs().max().item(),
                      "package_ms": median_ms(package, example), "compile_ms": median_ms(compiled, example)}))


def toolchain(name, outdir):
    import glob
    import tempfile
    import zipfile

    import torch
    from torch._inductor import cpp_builder

    if os.environ.get("AOTI_CXX"):
        torch._inductor.config.cpp.cxx = (None, os.environ["AOTI_CXX"])
    compiler = cpp_builder.get_cpp_compiler()
    version = subprocess.run([compiler, "--version"], capture_output=True, text=True).stdout.splitlines()[:1]
    print("inductor's compiler:", compiler, shutil.which(compiler), version, flush=True)
    with open(shutil.which(compiler) or compiler, "rb") as program:
        head = program.read(2000)
    if head.startswith(b"#!"):
        print("  it is a script:", head.decode(errors="replace").replace("\n", " | ")[:1500], flush=True)
    link = subprocess.run([compiler, "-###", "-shared", "-o", "/dev/null", "-x", "c++", "/dev/null"],
                          capture_output=True, text=True).stderr
    print("  how it links a shared library:", [line[:900] for line in link.splitlines() if "collect2" in line or "/ld" in line],
          flush=True)
    print("torch._C._GLIBCXX_USE_CXX11_ABI:", torch._C._GLIBCXX_USE_CXX11_ABI, flush=True)
    with open("/proc/self/maps") as maps:
        loaded = sorted({line.split()[-1] for line in maps if "libstdc++" in line})
    print("libstdc++ in this process:", loaded, flush=True)
    folder = tempfile.mkdtemp()
    with zipfile.ZipFile(os.path.join(outdir, name + ".pt2")) as package:
        libraries = [n for n in package.namelist() if n.endswith(".so")]
        print("libraries in the package:", libraries, flush=True)
        package.extractall(folder, libraries)
    for library in glob.glob(os.path.join(folder, "**", "*.so"), recursive=True):
        dynamic = subprocess.run(["readelf", "-d", library], capture_output=True, text=True).stdout
        print(os.path.basename(library), [l.split()[-1] for l in dynamic.splitlines() if "NEEDED" in l or "RUNPATH" in l or "RPATH" in l],
              flush=True)
        symbols = subprocess.run(["objdump", "-T", library], capture_output=True, text=True).stdout
        versions = sorted({w for w in symbols.split() if w.startswith(("GLIBCXX_", "CXXABI_"))})
        print("  versions asked for:", versions, flush=True)
        resolved = subprocess.run(["ldd", library], capture_output=True, text=True).stdout
        print("  ldd:", [l.strip() for l in resolved.splitlines() if "stdc++" in l or "torch" in l or "not found" in l], flush=True)


def cpp_wrapper(name):
    import torch
    import torch._inductor.config

    model, example = model_and_input(name)
    torch._inductor.config.cpp_wrapper = True
    started = time.time()
    with torch.no_grad():
        compiled = torch.compile(model)
        print("compiling with cpp_wrapper at %.1f s" % (time.time() - STARTED), flush=True)
        out = compiled(example)
        torch.cuda.synchronize()
        print("first call returned at %.1f s (%.1f s)" % (time.time() - STARTED, time.time() - started), flush=True)
        eager = model(example)
    print(json.dumps({"max_abs_vs_eager": (out - eager).abs().max().item(), "cpp_wrapper_ms": median_ms(compiled, example)}))


def package_speed(name, outdir, rounds=5):
    """What loading the package costs (a first and a second load in one process) and whether it
    runs at torch.compile's speed: torch.compile of the model (default config) and of a copy with
    freezing=on (the package's weights are constants, as a frozen build's are), then `rounds`
    rounds of the median of 50 calls of each, the order rotating; max |difference| of outputs."""
    import copy

    import torch
    import torch._inductor.config as config

    model, example = model_and_input(name)
    path = os.path.join(outdir, name + ".pt2")
    started = time.time()
    package = torch._inductor.aoti_load_package(path)
    load_s = time.time() - started
    started = time.time()
    torch._inductor.aoti_load_package(path)
    load_again_s = time.time() - started
    functions = {"package": package}
    with torch.no_grad():
        started = time.time()
        functions["compiled"] = torch.compile(model)
        functions["compiled"](example)
        compile_s = time.time() - started
        # Dynamo reads freezing when it traces (is_parameter_freezing), so it is set globally; the
        # options make a backend of its own, whose compiled entry Dynamo keeps apart from the
        # default's (its guards name the backend), so neither runs the other's code.
        config.freezing = True
        frozen_model = copy.deepcopy(model)
        started = time.time()
        functions["frozen"] = torch.compile(frozen_model, options={"freezing": True})
        functions["frozen"](example)
        frozen_s = time.time() - started
        outputs = {label: fn(example) for label, fn in functions.items()}
    print(json.dumps({"load_s": round(load_s, 3), "load_again_s": round(load_again_s, 3), "compile_s": round(compile_s, 1),
                      "frozen_compile_s": round(frozen_s, 1),
                      "max_abs_package_vs_compiled": (outputs["package"] - outputs["compiled"]).abs().max().item(),
                      "max_abs_package_vs_frozen": (outputs["package"] - outputs["frozen"]).abs().max().item()}), flush=True)
    labels = list(functions)
    for round_index in range(rounds):
        order = labels[round_index % len(labels):] + labels[:round_index % len(labels)]
        medians = {label: median_ms(functions[label], example) for label in order}
        print(json.dumps({"round": round_index, "order": order, "median_ms": medians,
                          "package/compiled": round(medians["package"] / medians["compiled"], 4),
                          "package/frozen": round(medians["package"] / medians["frozen"], 4)}), flush=True)


def step(name, outdir):
    import torch

    print("torch", torch.__version__, "cuda", torch.version.cuda, torch.cuda.get_device_name(0), flush=True)
    if name == "compile-linear":
        compile_package("linear", outdir)
    elif name == "metadata-linear":
        read_metadata("linear", outdir)
    elif name == "load-linear":
        load_package("linear", outdir)
    elif name == "toolchain-linear":
        toolchain("linear", outdir)
    elif name == "cpp-wrapper-linear":
        cpp_wrapper("linear")
    elif name == "compile-resnet":
        compile_package("resnet18", outdir)
    elif name == "load-resnet":
        load_package("resnet18", outdir)
    elif name == "load-resnet-cpu-first":
        load_package("resnet18", outdir, cuda_first=True)
    elif name == "speed-resnet":
        package_speed("resnet18", outdir)
    elif name == "same-process":
        compile_package("resnet18", outdir)
        load_package("resnet18", outdir)


def native_backtrace_handler(outdir):
    """segv_backtrace.c (beside this file) built with the machine's C compiler into outdir, for
    LD_PRELOAD: a native backtrace of a fatal signal where no gdb is installed; "" when no compiler
    builds it (then said)."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "segv_backtrace.c")
    library = os.path.join(outdir, "segv_backtrace.so")
    if compiler:
        done = subprocess.run([compiler, "-shared", "-fPIC", "-O1", "-o", library, source, "-ldl"],
                              capture_output=True, text=True)
        if done.returncode == 0:
            return library
        print("segv_backtrace.c did not build: %s" % done.stderr.strip()[-300:])
    else:
        print("no C compiler: no native backtrace")
    return ""


def resolved_frames(native):
    """The handler's lines, each frame in a shared object that is neither libc nor Python's also
    resolved by addr2line (function and source line, demangled) where binutils are installed."""
    addr2line = shutil.which("addr2line")
    resolved = []
    for line in native:
        match = re.search(r": (/\S+)\+(0x[0-9a-f]+) ", line)
        if addr2line and match and not re.search(r"/(libc|libpython|python3)[^/]*$", match.group(1)):
            done = subprocess.run([addr2line, "-f", "-C", "-i", "-e", match.group(1), match.group(2)],
                                  capture_output=True, text=True)
            line += "  => " + " | ".join(done.stdout.strip().splitlines())[:400]
        resolved.append(line)
    return resolved


def main(argv):
    if len(argv) == 4 and argv[1] == "--step":
        step(argv[2], argv[3])
        return 0
    if len(argv) < 2 or any(name not in STEPS for name in argv[2:]):
        sys.stderr.write(__doc__)
        return 2
    outdir = os.path.abspath(argv[1])
    os.makedirs(outdir, exist_ok=True)
    gdb = shutil.which("gdb")
    handler = "" if gdb else native_backtrace_handler(outdir)
    for name in argv[2:] or STEPS:
        started = time.time()
        command = [sys.executable, "-X", "faulthandler", os.path.abspath(__file__), "--step", name, outdir]
        env = dict(os.environ)
        loader_log = os.path.join(outdir, name + ".ld_debug")
        if gdb and name.startswith("load"):
            command = [gdb, "-batch", "-ex", "run", "-ex", "bt 30", "--args"] + command
        elif name.startswith(("load", "metadata")):
            env.update(LD_DEBUG="files", LD_DEBUG_OUTPUT=loader_log)
            if handler:
                env["LD_PRELOAD"] = handler
        done = subprocess.run(command, capture_output=True, text=True, timeout=600, env=env)
        code = "signal %d" % -done.returncode if done.returncode < 0 else "exit %d" % done.returncode
        print("%s: %s in %.1f s%s" % (name, code, time.time() - started, " (under gdb)" if command[0] == gdb else ""),
              flush=True)
        lines = (done.stdout + done.stderr).strip().splitlines()
        native = [line for line in lines if line.startswith(("segv_backtrace", "  frame"))]
        for line in [line for line in lines if line not in native][-60 if command[0] == gdb else -25:]:
            print("    " + line)
        for line in resolved_frames(native):
            print("    " + line)
        logs = [os.path.join(outdir, f) for f in os.listdir(outdir) if f.startswith(name + ".ld_debug")]
        for log in sorted(logs):
            with open(log, errors="replace") as handle:
                lines = [line.rstrip() for line in handle if "calling init" in line or "file=" in line]
            print("    LD_DEBUG %s, last of %d lines:" % (os.path.basename(log), len(lines)))
            for line in lines[-12:]:
                print("      " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
