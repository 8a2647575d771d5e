"""routetune_aoti: which C++ compiler builds an AOTInductor package this process can load, and
which packages would crash on load (a wrapper library that carries its own libstdc++), checked on
shared libraries built here by the real g++ and by a fake compiler that links libstdc++ as an
archive, as the device machine's /opt/gcc toolchain does (no torch needed)."""

import json
import os
import shutil
import subprocess
import sys
import types
import zipfile

import pytest

import routetune_aoti

REGEX_SOURCE = routetune_aoti.PROBE_SOURCE


def archive_linking_compiler(folder):
    """A fake C++ compiler: g++ with -static-libstdc++, so every shared library it links carries
    its own libstdc++ (the device machine's /opt/gcc/bin/g++ links only an archive libstdc++)."""
    path = folder / "g++-archive-only"
    path.write_text('#!/bin/sh\nexec g++ -static-libstdc++ "$@"\n')
    path.chmod(0o755)
    return str(path)


def shared_library(folder, name, compiler):
    source = folder / (name + ".cpp")
    source.write_text(REGEX_SOURCE)
    library = folder / (name + ".so")
    subprocess.run([compiler, "-shared", "-fPIC", "-o", str(library), str(source)], check=True)
    return library


def fake_config(cxx="g++"):
    return types.SimpleNamespace(cpp=types.SimpleNamespace(cxx=(None, cxx)))


@pytest.fixture(scope="module")
def libraries(tmp_path_factory):
    """(a library linked by g++, one linked by the archive-only fake), built once for the module."""
    folder = tmp_path_factory.mktemp("libraries")
    return shared_library(folder, "shared", "g++"), shared_library(folder, "own", archive_linking_compiler(folder))


def package(folder, name, library):
    """A .pt2-shaped zip holding library as its wrapper."""
    path = folder / (name + ".pt2")
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(name + "/data/aotinductor/model/constants.json", "{}")
        archive.write(library, name + "/data/aotinductor/model/wrapper.so")
    return path


def test_a_library_linked_with_an_archive_libstdcxx_carries_its_own(libraries):
    shared, own = libraries
    assert routetune_aoti.own_libstdcxx(str(shared)) is False
    assert routetune_aoti.own_libstdcxx(str(own)) is True


def test_the_first_compiler_that_links_libstdcxx_shared_is_set_in_the_config(tmp_path, monkeypatch):
    monkeypatch.delenv("ROUTETUNE_AOTI_CXX", raising=False)
    archive_only = archive_linking_compiler(tmp_path)
    config = fake_config(archive_only)
    assert routetune_aoti.candidates(config=config)[0] == archive_only
    chosen = routetune_aoti.use_loadable_compiler(config)
    assert chosen != archive_only
    assert routetune_aoti.compiler_problem(chosen, str(tmp_path)) == ""
    assert config.cpp.cxx == (None, chosen)


def test_a_named_compiler_is_the_only_one_tried(tmp_path, monkeypatch):
    archive_only = archive_linking_compiler(tmp_path)
    monkeypatch.setenv("ROUTETUNE_AOTI_CXX", archive_only)
    config = fake_config("g++")
    with pytest.raises(routetune_aoti.NoLoadableCompiler) as refused:
        routetune_aoti.use_loadable_compiler(config)
    assert archive_only + ": links libstdc++ into the library" in str(refused.value)
    assert config.cpp.cxx == (None, "g++")


def test_with_no_loadable_compiler_each_one_tried_is_named_with_why(tmp_path):
    archive_only = archive_linking_compiler(tmp_path)
    with pytest.raises(routetune_aoti.NoLoadableCompiler) as refused:
        routetune_aoti.choose_compiler([archive_only, "routetune-no-such-compiler"])
    message = str(refused.value)
    assert archive_only + ": links libstdc++ into the library" in message
    assert "routetune-no-such-compiler: not found" in message


def test_the_candidates_do_not_repeat_a_compiler():
    gxx = os.path.realpath(shutil.which("g++"))
    assert os.path.realpath("/usr/bin/g++") == gxx, "this test needs /usr/bin/g++ to be the g++ on PATH"
    chosen = routetune_aoti.candidates(config=fake_config(gxx))
    resolved = [os.path.realpath(shutil.which(c) or c) for c in chosen]
    assert len(resolved) == len(set(resolved)), chosen
    assert chosen[0] == gxx and "/usr/bin/g++" not in chosen


def test_a_package_whose_wrapper_carries_its_own_libstdcxx_is_refused(tmp_path, libraries):
    shared, own = package(tmp_path, "shared", libraries[0]), package(tmp_path, "own", libraries[1])
    with pytest.raises(routetune_aoti.UnloadablePackage) as refused:
        routetune_aoti.check_package(str(own))
    assert "own/data/aotinductor/model/wrapper.so carries its own libstdc++" in str(refused.value)
    routetune_aoti.check_package(str(shared))


def test_the_command_line_checks_and_chooses(tmp_path, libraries):
    helper = routetune_aoti.__file__
    own = libraries[1]
    checked = subprocess.run([sys.executable, helper, "--check", str(own)], capture_output=True, text=True)
    assert checked.returncode == 1 and "carries its own libstdc++" in checked.stderr
    chosen = subprocess.run([sys.executable, helper, "--choose", archive_linking_compiler(tmp_path), "g++"],
                            capture_output=True, text=True)
    assert chosen.returncode == 0 and json.loads(chosen.stdout) == {"compiler": "g++"}
    unknown = subprocess.run([sys.executable, helper, "--nothing"], capture_output=True, text=True)
    assert unknown.returncode == 2


def test_a_route_applied_on_the_aoti_path_also_sets_a_loadable_compiler(tmp_path, monkeypatch):
    import routetune_inductor

    monkeypatch.delenv("ROUTETUNE_AOTI_CXX", raising=False)
    monkeypatch.delenv("ROUTETUNE_BUILDS_AT_ONCE", raising=False)
    archive_only = archive_linking_compiler(tmp_path)
    config = fake_config(archive_only)
    config.max_autotune = False
    applied = routetune_inductor.apply_route(config=config, path="aoti", route={"max_autotune": "on"})
    assert applied == {"max_autotune": True} and config.max_autotune is True
    assert config.cpp.cxx[1] != archive_only
    assert routetune_aoti.compiler_problem(config.cpp.cxx[1], str(tmp_path)) == ""
    jit = fake_config(archive_only)
    jit.max_autotune = False
    routetune_inductor.apply_route(config=jit, path="jit", route={"max_autotune": "on"})
    assert jit.cpp.cxx == (None, archive_only), "the jit path leaves the compiler alone"


def test_a_route_on_the_aoti_path_with_no_loadable_compiler_sets_nothing(tmp_path, monkeypatch):
    import routetune_inductor

    monkeypatch.setenv("ROUTETUNE_AOTI_CXX", archive_linking_compiler(tmp_path))
    config = fake_config("g++")
    config.max_autotune = False
    with pytest.raises(routetune_aoti.NoLoadableCompiler):
        routetune_inductor.apply_route(config=config, path="aoti", route={"max_autotune": "on"})
    assert config.max_autotune is False and config.cpp.cxx == (None, "g++")
