"""AOTInductor packages that the process which builds them can also load (issue 26).

An AOTInductor package (``torch._inductor.aoti_compile_and_package``) holds a wrapper library
that Inductor links with the machine's C++ compiler. Where that compiler's only libstdc++ is an
archive (a relocated toolchain, or ``-static-libstdc++``), the wrapper carries its own copy of
libstdc++: it asks for no ``libstdc++.so`` and defines ``std::locale``'s members itself. Loaded by
``aoti_load_package`` into a process whose libstdc++ is the system's shared one, the two copies
mix (the dynamic linker binds some of the wrapper's references to the process's copy, others stay
with its own), and the wrapper's first ``std::regex`` (``parse_device_str``, as the model
container is created) looks up the wrong locale facet and dies of SIGSEGV. Seen on the device
machine: ``/opt/gcc/bin/g++`` (GCC 13.3, archive only) built a wrapper that crashed every load;
``/usr/bin/g++`` (GCC 13, shared libstdc++) built one that loaded, ran and matched
``torch.compile``'s output (docs/gpu-adapters.md, "AOTInductor packages").

    import routetune_aoti
    routetune_aoti.use_loadable_compiler()          # before aoti_compile_and_package
    routetune_aoti.check_package("model.pt2")        # after it: raises if the package would crash

``python3 routetune_aoti.py --choose [CXX...]`` prints, as JSON, the compiler it would use (no
torch needed: the candidates are named, or Inductor's default and the system's); ``--check PATH``
checks a package or a shared library (exit 1 when it carries its own libstdc++).

Needs binutils' ``readelf`` (it reads the libraries' dynamic sections).
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile

# A translation unit whose shared library needs libstdc++ (std::regex and std::locale, as the
# wrapper's parse_device_str does): how a compiler links it says how it links the wrapper.
PROBE_SOURCE = """#include <regex>
#include <string>
extern "C" int routetune_probe(const char* text) {
    return std::regex_match(std::string(text), std::regex("cuda:[0-9]+")) ? 1 : 0;
}
"""

# Where a C++ compiler that links libstdc++ as a shared library usually is, after the one the
# caller or Inductor names.
SYSTEM_COMPILERS = ("/usr/bin/g++", "/usr/bin/c++", "/usr/bin/clang++")


class UnloadablePackage(RuntimeError):
    """A package (or library) that carries its own libstdc++: loading it would crash."""


class NoLoadableCompiler(RuntimeError):
    """No candidate compiler links libstdc++ as a shared library."""


def own_libstdcxx(library, readelf="readelf"):
    """True when the shared library carries its own copy of libstdc++: it asks for no
    libstdc++.so (NEEDED) yet defines std::locale's members (its dynamic symbols)."""
    dynamic = subprocess.run([readelf, "-d", "-W", library], capture_output=True, text=True, check=True).stdout
    if any("(NEEDED)" in line and "libstdc++.so" in line for line in dynamic.splitlines()):
        return False
    symbols = subprocess.run([readelf, "--dyn-syms", "-W", library], capture_output=True, text=True, check=True).stdout
    for line in symbols.splitlines():
        fields = line.split()
        if len(fields) >= 8 and fields[6] != "UND" and fields[7].startswith("_ZNSt6locale"):
            return True
    return False


def compiler_problem(compiler, workdir):
    """Why compiler cannot build a loadable wrapper ("" when it can): it is not found, cannot
    build a shared library of PROBE_SOURCE, or links libstdc++ into it (own_libstdcxx)."""
    path = shutil.which(compiler)
    if not path:
        return "not found"
    source = os.path.join(workdir, "probe.cpp")
    library = os.path.join(workdir, "probe.so")
    with open(source, "w", encoding="utf-8") as handle:
        handle.write(PROBE_SOURCE)
    built = subprocess.run([path, "-shared", "-fPIC", "-o", library, source], capture_output=True, text=True)
    if built.returncode != 0:
        return "cannot build a shared library: " + (built.stderr.strip().splitlines() or ["exit %d" % built.returncode])[-1]
    if own_libstdcxx(library):
        return "links libstdc++ into the library (an archive libstdc++): its package would crash on load"
    return ""


def candidates(named=None, config=None):
    """The compilers to try, in order, without repeats (by resolved path): those named, else
    Inductor's (config.cpp.cxx's second item, or $CXX, or g++) then SYSTEM_COMPILERS."""
    if named:
        return list(named)
    inductor = (config.cpp.cxx[1] if config is not None else None) or os.environ.get("CXX") or "g++"
    chosen, seen = [], set()
    for compiler in (inductor,) + SYSTEM_COMPILERS:
        resolved = os.path.realpath(shutil.which(compiler) or compiler)
        if resolved not in seen:
            seen.add(resolved)
            chosen.append(compiler)
    return chosen


def choose_compiler(named=None, config=None):
    """The first of candidates(named, config) that builds a loadable wrapper; raises
    NoLoadableCompiler naming each one tried and why not."""
    tried = []
    with tempfile.TemporaryDirectory(prefix="routetune-aoti-") as workdir:
        for compiler in candidates(named, config):
            problem = compiler_problem(compiler, workdir)
            if not problem:
                return compiler
            tried.append("%s: %s" % (compiler, problem))
    raise NoLoadableCompiler("no C++ compiler builds an AOTInductor package this process can load (%s); "
                             "install one that links libstdc++ as a shared library (Debian's g++) or name "
                             "it in ROUTETUNE_AOTI_CXX" % "; ".join(tried))


def loadable_compiler(config):
    """choose_compiler's pick for config (an Inductor config, or None): only the one
    $ROUTETUNE_AOTI_CXX names when it is set."""
    named = [os.environ["ROUTETUNE_AOTI_CXX"]] if os.environ.get("ROUTETUNE_AOTI_CXX") else None
    return choose_compiler(named, config)


def use_loadable_compiler(config=None):
    """Sets torch._inductor.config.cpp.cxx (or config's) to loadable_compiler's pick and returns it."""
    if config is None:
        import torch._inductor.config as config
    compiler = loadable_compiler(config)
    config.cpp.cxx = (None, compiler)
    return compiler


def check_package(path):
    """Raises UnloadablePackage when a library of the package at path (a .pt2 zip, or one shared
    library) carries its own libstdc++ (own_libstdcxx), naming it."""
    if not zipfile.is_zipfile(path):
        if own_libstdcxx(path):
            raise UnloadablePackage("%s carries its own libstdc++: loaded beside this process's libstdc++ it "
                                    "crashes (build it with routetune_aoti.use_loadable_compiler)" % path)
        return
    with zipfile.ZipFile(path) as package, tempfile.TemporaryDirectory(prefix="routetune-aoti-") as folder:
        for member in package.namelist():
            if member.endswith(".so"):
                library = package.extract(member, folder)
                if own_libstdcxx(library):
                    raise UnloadablePackage("%s: its library %s carries its own libstdc++: aoti_load_package "
                                            "would crash (build it with routetune_aoti.use_loadable_compiler)"
                                            % (path, member))


def main(argv):
    if len(argv) >= 2 and argv[1] == "--choose":
        try:
            print(json.dumps({"compiler": choose_compiler(argv[2:] or None)}))
        except NoLoadableCompiler as error:
            print(error, file=sys.stderr)
            return 1
        return 0
    if len(argv) == 3 and argv[1] == "--check":
        try:
            check_package(argv[2])
        except UnloadablePackage as error:
            print(error, file=sys.stderr)
            return 1
        print("%s: loadable (no library carries its own libstdc++)" % argv[2])
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
