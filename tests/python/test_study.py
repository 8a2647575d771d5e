"""Studies as Python objects: routetune.tune runs a real study, routetune.open_study reads it
through the C++ library, and both say what `routetune report --format json` says."""

from pathlib import Path

import pytest

import routetune
from conftest import FAKES, cli, cli_json, copy_spec


def assert_matches_report(study, document):
    """Every field of study is the report document's key of the same meaning."""
    assert study.document == document
    assert study.name == document["study"]
    assert study.outcome == document["outcome"]
    assert study.spec == document["spec"]
    assert study.search == document["search"]
    assert study.expression == document["expression"]
    assert study.metric == document["metric"]
    assert study.fingerprint == document["fingerprint"]
    assert study.schema_version == document.get("schema_version")
    assert study.counts == document["counts"]
    assert study.default.route == document["default"]["route"] == ""
    assert study.default.status == document["default"]["status"]
    assert study.default.time == document["default"]["time"]
    assert list(study.default.time_ci95) == document["default"]["time_ci95"]
    if document["winner"] is None:
        assert study.winner is None
    else:
        assert study.winner.route == document["winner"]["route"]
        assert study.winner.speedup == document["winner"]["speedup"]
        assert list(study.winner.speedup_ci95) == document["winner"]["speedup_ci95"]
    assert len(study.evaluations) == len(document["evaluations"]) > 0
    for evaluation, row in zip(study.evaluations, document["evaluations"]):
        assert evaluation.route == row["route"]
        assert evaluation.status == row["status"]
        assert evaluation.phase == row["phase"]
        assert evaluation.time == row["time"]
        assert (list(evaluation.time_ci95) if evaluation.time_ci95 else None) == row["time_ci95"]
        assert evaluation.build_s == row["build_s"]
        assert evaluation.message == row["message"]
        assert evaluation.same_as == row.get("same_as")
        assert evaluation.route_changes == row["route_changes"]
        assert evaluation.confirmed == row.get("confirmed")
        assert set(evaluation.loss) == set(row["loss"])
        for case, loss in row["loss"].items():
            if loss is not None:
                assert evaluation.loss[case] == loss
    assert [c.route for c in study.confirmations] == [c["route"] for c in document["confirmations"]]


def test_a_real_gcc_study_tuned_from_python_reads_back_as_report_prints_it(tmp_path):
    spec = copy_spec(tmp_path, "minimal")
    tuned = routetune.tune(spec, progress=False)
    assert tuned.store == str(tmp_path / ".routetune" / "minimal.sqlite")
    assert Path(tuned.store).is_file()
    document = cli_json("report", tuned.store, "--format", "json")
    assert_matches_report(tuned, document)
    opened = routetune.open_study(tuned.store)
    assert_matches_report(opened, document)
    assert {e.route for e in opened.evaluations} == {"", "-O=3", "-funroll-loops=on"}
    assert all(e.status == "ok" and e.loss == {"tiny": 0.0} for e in opened.evaluations)


def test_a_confirmed_winner_reads_with_its_speedup_interval_and_the_rejected_routes(tmp_path):
    spec = copy_spec(tmp_path, "fake_timed", {"../../fakes/fake_timed_cc": str(FAKES / "fake_timed_cc")})
    store = tmp_path / "timed.sqlite"
    tuned = routetune.tune(spec, store=store, progress=False)
    study = routetune.open_study(store)
    assert_matches_report(study, cli_json("report", store, "--format", "json"))
    assert study.document == tuned.document
    assert study.outcome == "improved"
    assert study.metric == "rel_l2"   # the spec's [accuracy] metric
    assert study.winner.route == "-O=3"
    low, high = study.winner.speedup_ci95
    assert low <= study.winner.speedup <= high
    assert 1.2 < low and high < 1.3          # 100 / 80, within the fake's 0.5% jitter
    assert study.speedup == study.winner.speedup
    fast_math = study.evaluation("-ffast-math=on")
    assert fast_math.status == "inaccurate"
    assert all(loss > 1e-6 for loss in fast_math.loss.values())   # every output x 1.001
    assert study.evaluation("-O=3").status == "ok"
    assert study.counts["inaccurate"] == 1


def test_a_loss_that_is_not_a_finite_number_reads_back_as_the_one_recorded(tmp_path):
    spec = copy_spec(tmp_path, "minimal", {
        'routes = "-O=[2|3] -funroll-loops=[on|off]"': 'routes = "-O=[2|3]"',
        'command = ["{compiler}", "{flags}", "tiny.c", "-o", "{artifact}"]':
            'command = ["{compiler}", "{flags}", "tiny.c", "-o", "{artifact}"]\n'
            'env = { FAKECC_BAD_BINARY_NAN_ON = "-O3" }',
        "[compiler]\n": '[compiler]\npath = "%s"\n' % (FAKES / "fakecc"),
    })
    study = routetune.tune(spec, progress=False)
    nan_route = study.evaluation("-O=3")  # its binary prints nan: the loss is not finite
    assert nan_route.status == "inaccurate"
    row = next(e for e in study.document["evaluations"] if e["route"] == "-O=3")
    assert row["loss"]["tiny"] is None  # JSON has no NaN or infinity
    recorded = row["loss_nonfinite"]["tiny"]
    assert recorded in ("nan", "inf", "-inf")
    assert str(nan_route.loss["tiny"]) == recorded
    assert study.evaluation("").loss == {"tiny": 0.0}


def test_report_renders_every_format_as_the_command_line_does(tmp_path):
    spec = copy_spec(tmp_path, "minimal", {'routes = "-O=[2|3] -funroll-loops=[on|off]"': 'routes = "-O=[2|3]"'})
    study = routetune.tune(spec, progress=False)
    for format in ("table", "json", "markdown"):
        code, out, err = cli("report", study.store, "--format", format)
        assert code == 0, err
        assert routetune.report(study.store, format) == out
        assert study.report(format) == out
    assert "<html" in routetune.report(study.store, "html")


def test_a_store_that_is_not_there_or_a_bad_format_is_bad_input(tmp_path):
    with pytest.raises(routetune.BadInput) as missing:
        routetune.open_study(tmp_path / "nothing.sqlite")
    assert missing.value.code == 2
    assert "nothing.sqlite" in str(missing.value)
    spec = copy_spec(tmp_path, "minimal", {'routes = "-O=[2|3] -funroll-loops=[on|off]"': 'routes = "-O=[2|3]"'})
    study = routetune.tune(spec, progress=False)
    with pytest.raises(routetune.BadInput, match="valid: table, json, markdown, html"):
        routetune.report(study.store, "pdf")


def test_the_default_store_is_the_one_tune_uses(tmp_path):
    spec = copy_spec(tmp_path, "minimal")
    assert routetune.default_store(spec) == str(tmp_path / ".routetune" / "minimal.sqlite")
    assert routetune.default_store(spec, study="other") == str(tmp_path / ".routetune" / "other.sqlite")
