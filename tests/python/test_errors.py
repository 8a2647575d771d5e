"""One table from the command line's exit codes to exceptions (routetune.errors.EXIT_CODES),
used by every function that runs the executable; real failures map through it too."""

import signal
import stat

import pytest

import routetune
from conftest import FAKES, copy_spec

# The design's exit codes (docs/design.md, `routetune --help`), written out here rather than
# read from the package's table, so a wrong row in the table fails.
DOCUMENTED = [
    (1, routetune.Failure),
    (2, routetune.BadInput),
    (3, routetune.StaleLock),
    (4, routetune.TamperedLock),
    (5, routetune.ReviewVerdict),
    (130, routetune.Interrupted),
    (77, routetune.Failure),
]


@pytest.fixture
def fake_executable(tmp_path, monkeypatch):
    """ROUTETUNE_EXECUTABLE: a script that says something on stderr, then exits with
    $FAKE_EXIT, or kills itself with $FAKE_SIGNAL."""
    script = tmp_path / "routetune"
    script.write_text('#!/bin/sh\necho "fake routetune: $1 failed on purpose" >&2\n'
                      'if [ -n "$FAKE_SIGNAL" ]; then kill -"$FAKE_SIGNAL" $$; fi\nexit "$FAKE_EXIT"\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("ROUTETUNE_EXECUTABLE", str(script))
    monkeypatch.delenv("FAKE_SIGNAL", raising=False)
    return script


CALLS = {
    "tune": lambda: routetune.tune("spec.toml", progress=False),
    "verify": lambda: routetune.verify("model.lock"),
    "flags": lambda: routetune.flags("model.lock"),
    "apply_lock": lambda: routetune.inductor.apply_lock("model.lock"),
    "promote": lambda: routetune.promote("study.sqlite", lock="model.lock"),
}


@pytest.mark.parametrize("code, expected", DOCUMENTED)
@pytest.mark.parametrize("call", sorted(CALLS))
def test_every_function_raises_the_exception_of_the_exit_code(fake_executable, monkeypatch, call, code, expected):
    monkeypatch.setenv("FAKE_EXIT", str(code))
    with pytest.raises(expected) as raised:
        CALLS[call]()
    error = raised.value
    assert type(error) is expected
    assert error.code == code
    assert error.command[0] == str(fake_executable)
    assert "failed on purpose" in error.stderr and "failed on purpose" in str(error)


@pytest.mark.parametrize("sent, expected", [(signal.SIGSEGV, routetune.Crashed), (signal.SIGINT, routetune.Interrupted)])
def test_an_executable_killed_by_a_signal(fake_executable, monkeypatch, sent, expected):
    monkeypatch.setenv("FAKE_EXIT", "0")
    monkeypatch.setenv("FAKE_SIGNAL", str(int(sent)))
    with pytest.raises(expected) as raised:
        routetune.verify("model.lock")
    if expected is routetune.Crashed:
        assert raised.value.code == -sent
        assert "SIGSEGV" in str(raised.value)
        assert isinstance(raised.value, routetune.Failure)


def test_interrupted_is_a_keyboard_interrupt_and_the_others_are_errors():
    assert issubclass(routetune.Interrupted, KeyboardInterrupt)
    assert not issubclass(routetune.Interrupted, Exception)
    for code, error in DOCUMENTED:
        if code != 130:
            assert issubclass(error, routetune.Error)


def test_a_bad_spec_is_bad_input_naming_the_file_and_nothing_runs(tmp_path):
    spec = copy_spec(tmp_path, "minimal", {'name = "tiny"': 'name = "tiny"\nrepeets = 3'})
    with pytest.raises(routetune.BadInput) as raised:
        routetune.tune(spec, progress=False)
    assert raised.value.code == 2
    assert "minimal.toml" in str(raised.value) and "repeets" in str(raised.value)
    assert not (tmp_path / ".routetune").exists()


def test_options_are_command_line_options_by_name(tmp_path):
    spec = copy_spec(tmp_path, "minimal")
    with pytest.raises(routetune.BadInput, match="--no-such-option"):
        routetune.tune(spec, no_such_option=3, progress=False)
    with pytest.raises(TypeError):
        routetune.tune(spec, json=True)
    study = routetune.tune(spec, routes="-O=[2|3]", max_routes=2, progress=False)
    assert study.expression == "-O=[2|3]"
    assert len(study.evaluations) == 2


def write_wrapper(folder, release):
    """A gcc wrapper whose --version names release: the study's fingerprint changes with it."""
    wrapper = folder / "cc-wrapper"
    wrapper.write_text('#!/bin/sh\nif [ "$1" = --version ]; then\n  gcc --version | sed "1s/^gcc/gcc-wrapper-%d/"\n'
                       '  exit 0\nfi\nexec gcc "$@"\n' % release)
    wrapper.chmod(0o755)
    return wrapper


def test_resume_is_continue_and_a_changed_environment_is_stale(tmp_path):
    wrapper = write_wrapper(tmp_path, 1)
    spec = copy_spec(tmp_path, "minimal", {"[compiler]\n": '[compiler]\npath = "%s"\n' % wrapper})
    first = routetune.tune(spec, progress=False)
    again = routetune.tune(spec, resume=True, progress=False)
    assert [e.route for e in again.evaluations] == [e.route for e in first.evaluations]
    write_wrapper(tmp_path, 2)
    with pytest.raises(routetune.StaleLock) as raised:
        routetune.tune(spec, resume=True, progress=False)
    assert raised.value.code == 3
    assert "gcc-wrapper-2" in raised.value.stderr


def test_no_executable_at_the_path_the_package_was_built_with_is_a_clear_failure(monkeypatch, tmp_path):
    monkeypatch.setenv("ROUTETUNE_EXECUTABLE", str(tmp_path / "gone"))
    with pytest.raises(routetune.Failure, match="cannot run"):
        routetune.verify("model.lock")


def test_a_study_with_no_eligible_route_is_a_failure_that_carries_the_study(tmp_path):
    spec = copy_spec(tmp_path, "minimal", {'name = "tiny"': 'name = "tiny"\nreference = "wrong.out"'})
    (tmp_path / "wrong.out").write_text("9\n9\n9\n9\n")  # tiny.c prints other numbers
    with pytest.raises(routetune.Failure) as raised:
        routetune.tune(spec, progress=False)
    study = raised.value.details
    assert raised.value.code == 1
    assert isinstance(study, routetune.Study)
    assert study.outcome == "no-eligible-route"
    assert study.evaluation("").status == "inaccurate"
    assert study.store == str(tmp_path / ".routetune" / "minimal.sqlite")


def test_a_runtime_failure_is_a_failure_with_the_cause(tmp_path):
    spec = copy_spec(tmp_path, "minimal", {
        "[compiler]\n": '[compiler]\npath = "%s"\n' % (FAKES / "fakecc"),
        'command = ["{compiler}", "{flags}", "tiny.c", "-o", "{artifact}"]':
            'command = ["{compiler}", "{flags}", "tiny.c", "-o", "{artifact}"]\nenv = { FAKECC_FAIL_ON = "-O2" }',
    })
    with pytest.raises(routetune.Failure, match="injected build failure") as raised:
        routetune.tune(spec, progress=False)
    assert raised.value.code == 1
    assert raised.value.details is None
