"""`cmake --install` puts the package where Debian's python3 imports it from, naming the
installed executable; the installed package works without the build tree."""

import os
import subprocess
import sys
from pathlib import Path

from conftest import copy_spec

BUILD = Path(os.environ["ROUTETUNE_BUILD_DIR"])  # set by ctest (tests/CMakeLists.txt)


def install_dir():
    cache = (BUILD / "CMakeCache.txt").read_text()
    line = next(l for l in cache.splitlines() if l.startswith("ROUTETUNE_PYTHON_INSTALL_DIR:"))
    return line.split("=", 1)[1]


def test_debian_python_imports_from_the_install_dir_under_usr_local_and_usr():
    sites = subprocess.run(["/usr/bin/python3", "-c", "import site; print('\\n'.join(site.getsitepackages()))"],
                           capture_output=True, text=True, check=True).stdout.split()
    assert "/usr/local/" + install_dir() in sites
    assert "/usr/" + install_dir() in sites


def test_the_installed_package_runs_the_installed_executable(tmp_path):
    prefix = tmp_path / "prefix"
    subprocess.run(["cmake", "--install", str(BUILD), "--prefix", str(prefix)], check=True, capture_output=True)
    spec = copy_spec(tmp_path / "study", "minimal", {'routes = "-O=[2|3] -funroll-loops=[on|off]"': 'routes = "-O=[2|3]"'})
    program = ("import sys, routetune, routetune_inductor, routetune_aoti\n"
               "print(routetune.__file__)\nprint(routetune_inductor.__file__)\nprint(routetune_aoti.__file__)\n"
               "print(routetune._cli.executable())\n"
               "study = routetune.tune(sys.argv[1], progress=False)\n"
               "print(routetune.open_study(study.store).outcome)\n")
    environment = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "ROUTETUNE_EXECUTABLE")}
    environment["PYTHONPATH"] = str(prefix / install_dir())
    done = subprocess.run([sys.executable, "-c", program, str(spec)], capture_output=True, text=True, env=environment,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    package, helper, aoti_helper, executable, outcome = done.stdout.split("\n")[:5]
    assert package == str(prefix / install_dir() / "routetune" / "__init__.py")
    assert helper == str(prefix / install_dir() / "routetune_inductor.py")
    assert aoti_helper == str(prefix / install_dir() / "routetune_aoti.py")
    assert executable == str(prefix / "bin" / "routetune")
    assert outcome in ("improved", "default-stays")
