"""routetune.verify and routetune.flags: what `routetune verify` and `routetune flags` decide,
as objects, with a lock that cannot be used raising the exception of its exit code."""

import json

import pytest

import routetune
from conftest import cli


def make_stale(lock):
    """The lock's spec changes after promotion: the lock is stale (spec.sha256 differs)."""
    spec = lock.parent / "spec.toml"
    spec.write_text(spec.read_text() + "# changed after the promotion\n")


def test_a_valid_lock_verifies_and_gives_its_route(lock_copy):
    verification = routetune.verify(lock_copy)
    assert verification.verdict == "valid"
    assert verification.route == "-inductor:max_autotune=on"
    assert verification.differences == []
    route = routetune.flags(lock_copy)
    assert route.route == "-inductor:max_autotune=on"
    assert route.source == "lock"
    assert route.environment["ROUTETUNE_INDUCTOR_ROUTE"] == "-inductor:max_autotune=on"
    code, out, err = cli("flags", lock_copy, "--format", "json")
    assert code == 0, err
    assert route.document == json.loads(out)


def test_every_format_is_the_command_lines_text(lock_copy):
    for format in ("shell", "env", "make", "cmake"):
        code, out, err = cli("flags", lock_copy, "--format", format)
        assert code == 0, err
        assert routetune.flags(lock_copy, format) == out


def test_a_stale_lock_raises_stale_lock_with_its_differences(lock_copy):
    make_stale(lock_copy)
    with pytest.raises(routetune.StaleLock) as raised:
        routetune.verify(lock_copy)
    verification = raised.value.details
    assert verification.verdict == "stale"
    assert [d.field for d in verification.differences] == ["spec.sha256"]
    with pytest.raises(routetune.StaleLock):
        routetune.flags(lock_copy)


def test_fallback_gives_the_default_route_and_is_logged(lock_copy):
    make_stale(lock_copy)
    route = routetune.flags(lock_copy, fallback=True)
    assert route.source == "fallback"
    assert route.route == ""
    assert route.environment["ROUTETUNE_INDUCTOR_ROUTE"] == ""
    log = lock_copy.parent / "model.lock.audit.jsonl"
    actions = [json.loads(line)["action"] for line in log.read_text().splitlines()]
    assert actions[-1] == "fallback"


def test_a_missing_lock_is_bad_input(tmp_path):
    with pytest.raises(routetune.BadInput):
        routetune.verify(tmp_path / "no.lock")
    with pytest.raises(routetune.BadInput):
        routetune.flags(tmp_path / "no.lock")


def test_a_route_without_a_confirmed_gain_is_refused_and_no_lock_is_written(lock_copy):
    store = lock_copy.parent / ".routetune" / "inductor_fake.sqlite"
    refused_lock = lock_copy.parent / "refused.lock"
    with pytest.raises(routetune.Failure) as raised:
        routetune.promote(store, lock=refused_lock, route="-inductor:epilogue_fusion=off")
    promotion = raised.value.details
    assert promotion.promoted is False
    assert promotion.route == "-inductor:epilogue_fusion=off"
    assert promotion.failures
    assert not refused_lock.exists()
