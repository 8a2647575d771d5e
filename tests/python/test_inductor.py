"""routetune.inductor.apply_lock on a real lock (promoted from an Inductor study whose Python
is a fake): torch._inductor.config (a stand-in module in sys.modules) gets the lock's route,
and only when routetune judges the lock usable here."""

import json
import os
import shutil

import pytest

import routetune
from conftest import FAKES, FIXTURES, copy_spec
from routetune import inductor


def untouched(config):
    return config.max_autotune is False and config.epilogue_fusion is True


def test_a_valid_lock_sets_the_config_from_its_route(lock_copy, fake_torch):
    applied = inductor.apply_lock(lock_copy)
    assert fake_torch.max_autotune is True
    assert fake_torch.epilogue_fusion is True
    assert applied.config == {"max_autotune": True}
    assert applied.source == "lock"
    assert applied.route == "-inductor:max_autotune=on"
    assert os.environ["ROUTETUNE_INDUCTOR_ROUTE"] == "-inductor:max_autotune=on"


def test_a_stale_lock_sets_nothing(lock_copy, fake_torch):
    spec = lock_copy.parent / "spec.toml"
    spec.write_text(spec.read_text() + "# changed after the promotion\n")
    with pytest.raises(routetune.StaleLock):
        inductor.apply_lock(lock_copy)
    assert untouched(fake_torch)
    assert "ROUTETUNE_INDUCTOR_ROUTE" not in os.environ


def test_a_stale_lock_with_fallback_applies_the_default_route(lock_copy, fake_torch):
    spec = lock_copy.parent / "spec.toml"
    spec.write_text(spec.read_text() + "# changed after the promotion\n")
    applied = inductor.apply_lock(lock_copy, fallback=True)
    assert applied.source == "fallback"
    assert applied.config == {}
    assert untouched(fake_torch)


def test_a_tampered_lock_sets_nothing(lock_copy, fake_torch):
    lock = json.loads(lock_copy.read_text())
    lock["route"] = "-inductor:epilogue_fusion=off"
    lock["environment"]["ROUTETUNE_INDUCTOR_ROUTE"] = "-inductor:epilogue_fusion=off"
    lock_copy.write_text(json.dumps(lock, indent=2, sort_keys=True) + "\n")
    with pytest.raises(routetune.TamperedLock):
        inductor.apply_lock(lock_copy)
    assert untouched(fake_torch)


def test_a_missing_lock_is_bad_input_and_sets_nothing(tmp_path, fake_torch):
    with pytest.raises(routetune.BadInput):
        inductor.apply_lock(tmp_path / "model.lock")
    assert untouched(fake_torch)


def test_a_bad_value_sets_no_entry_at_all(fake_torch):
    import routetune_inductor

    with pytest.raises(ValueError):
        routetune_inductor.apply_route(route={"epilogue_fusion": "off", "max_autotune": "maybe"})
    assert untouched(fake_torch)


def test_a_lock_of_another_adapter_is_bad_input_and_sets_nothing(tmp_path, fake_torch):
    spec = copy_spec(tmp_path, "fake_timed", {"../../fakes/fake_timed_cc": str(FAKES / "fake_timed_cc")})
    study = routetune.tune(spec, progress=False)
    routetune.promote(study.store, lock=tmp_path / "gcc.lock")
    with pytest.raises(routetune.BadInput, match="not an Inductor route"):
        inductor.apply_lock(tmp_path / "gcc.lock")
    assert untouched(fake_torch)
    assert "ROUTETUNE_INDUCTOR_ROUTE" not in os.environ


def test_builds_run_at_once_divide_the_cores_among_their_compile_workers():
    import routetune_inductor

    threads = routetune_inductor.compile_threads
    assert threads({"ROUTETUNE_BUILDS_AT_ONCE": "8"}, cores=16) == 2
    assert threads({"ROUTETUNE_BUILDS_AT_ONCE": "3"}, cores=16) == 5
    assert threads({"ROUTETUNE_BUILDS_AT_ONCE": "8"}, cores=2) == 1, "never below one worker"
    assert threads({"ROUTETUNE_BUILDS_AT_ONCE": "1"}, cores=16) is None, "one build: Inductor's own choice"
    assert threads({}, cores=16) is None, "not a build routetune runs (a deployed model): left alone"
    assert threads({"ROUTETUNE_BUILDS_AT_ONCE": "8", "TORCHINDUCTOR_COMPILE_THREADS": "6"}, cores=16) == 6


def test_a_build_beside_others_sets_the_config_s_compile_workers(fake_torch, monkeypatch):
    import routetune_inductor

    monkeypatch.setenv("ROUTETUNE_BUILDS_AT_ONCE", str(len(os.sched_getaffinity(0)) * 4))
    assert routetune_inductor.apply_route(route={"max_autotune": "on"}) == {"max_autotune": True}
    assert fake_torch.compile_threads == 1


def test_a_study_tells_each_build_how_many_builds_run_at_once(tmp_path):
    folder = tmp_path / "model"
    shutil.copytree(FIXTURES / "inductor_fake", folder)
    spec = folder / "spec.toml"
    spec.write_text(spec.read_text().replace("FAKE_INDUCTOR_PYTHON", str(FAKES / "fake_inductor_python")))
    routetune.tune(spec, progress=False, jobs=3, store=str(tmp_path / "study.sqlite"))
    builds = (folder / "builds.log").read_text().split("\n")[:-1]
    assert len(builds) >= 3, builds
    expected = "3 %d" % max(1, len(os.sched_getaffinity(0)) // 3)
    assert builds == [expected] * len(builds)
