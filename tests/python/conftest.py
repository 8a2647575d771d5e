"""Shared set-up of the Python package's tests (run by ctest: tests/CMakeLists.txt, with
PYTHONPATH at build/python so `import routetune` is the build tree's package)."""

import json
import os
import shutil
import subprocess
import sys
import types
from pathlib import Path

import pytest

import routetune
from routetune import _cli

TESTS = Path(__file__).resolve().parent.parent
SPECS = TESTS / "fixtures" / "specs"
FAKES = TESTS / "fakes"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def copy_spec(folder, name, replace=None):
    """Copies tests/fixtures/specs/NAME.toml and tiny.c into folder (with replace's text
    substitutions); returns the spec's path."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(SPECS / "tiny.c", folder / "tiny.c")
    for extra in SPECS.glob("fake_input_*.txt"):
        shutil.copy(extra, folder / extra.name)
    text = (SPECS / (name + ".toml")).read_text()
    for old, new in (replace or {}).items():
        assert old in text, old
        text = text.replace(old, new)
    spec = folder / (name + ".toml")
    spec.write_text(text)
    return spec


def cli(*arguments, cwd=None):
    """Runs the routetune executable the package runs, directly: (exit code, stdout, stderr)."""
    done = subprocess.run([_cli.executable()] + [str(a) for a in arguments], cwd=cwd, capture_output=True,
                          text=True, timeout=600)
    return done.returncode, done.stdout, done.stderr


def cli_json(*arguments, cwd=None):
    code, out, err = cli(*arguments, cwd=cwd)
    assert code == 0, err
    return json.loads(out)


@pytest.fixture(scope="session")
def inductor_lock(tmp_path_factory):
    """A folder holding a real Inductor lock, model.lock, promoted by routetune from a study of
    tests/python/fixtures/inductor_fake (winner -inductor:max_autotune=on). Tests copy it."""
    folder = tmp_path_factory.mktemp("inductor") / "model"
    shutil.copytree(FIXTURES / "inductor_fake", folder)
    spec = folder / "spec.toml"
    spec.write_text(spec.read_text().replace("FAKE_INDUCTOR_PYTHON", str(FAKES / "fake_inductor_python")))
    study = routetune.tune(spec, progress=False)
    assert study.winner is not None and study.winner.route == "-inductor:max_autotune=on", study
    promotion = routetune.promote(study.store, lock=folder / "model.lock", reason="the Python package's tests")
    assert promotion.promoted and promotion.route == "-inductor:max_autotune=on", promotion
    return folder


@pytest.fixture
def lock_copy(inductor_lock, tmp_path):
    """A copy of inductor_lock's folder this test may change; returns its model.lock."""
    folder = tmp_path / "model"
    shutil.copytree(inductor_lock, folder, symlinks=True)
    return folder / "model.lock"


@pytest.fixture
def fake_torch(monkeypatch):
    """A stand-in for torch._inductor.config (PyTorch is not installed here) in sys.modules, with
    the entries the inductor_fake study tunes at their defaults; returns the config module."""
    torch = types.ModuleType("torch")
    inductor = types.ModuleType("torch._inductor")
    config = types.ModuleType("torch._inductor.config")
    config.max_autotune = False
    config.epilogue_fusion = True
    config.triton = types.SimpleNamespace(cudagraphs=False)
    torch._inductor = inductor
    inductor.config = config
    for name, module in (("torch", torch), ("torch._inductor", inductor), ("torch._inductor.config", config)):
        monkeypatch.setitem(sys.modules, name, module)
    monkeypatch.delenv("ROUTETUNE_INDUCTOR_ROUTE", raising=False)
    return config


@pytest.fixture(autouse=True)
def restore_environment(monkeypatch):
    """apply_lock exports the route's environment to os.environ; each test starts from the same."""
    saved = dict(os.environ)
    yield
    os.environ.clear()
    os.environ.update(saved)
