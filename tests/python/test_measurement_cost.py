"""bench/measurement_cost.py: each warm measurement's cost against issue 26's target (twice the
timed GPU work plus one second), read from a store and a summary written here as `tune --json`
and the SQLite store lay them out."""

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

import measurement_cost  # noqa: E402


def store_with(path, rows):
    """A store whose evaluation table holds rows: (phase, route, status, median_s, run_first_s,
    run_repeat_s), in that order."""
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE evaluation (id INTEGER PRIMARY KEY, route TEXT NOT NULL, phase TEXT NOT NULL, "
                       "status TEXT NOT NULL, median_s REAL, run_first_s REAL NOT NULL DEFAULT 0, "
                       "run_repeat_s REAL NOT NULL DEFAULT 0)")
    connection.executemany("INSERT INTO evaluation (phase, route, status, median_s, run_first_s, run_repeat_s) "
                           "VALUES (?, ?, ?, ?, ?, ?)", rows)
    connection.commit()
    connection.close()
    return str(path)


def test_the_ratio_is_the_request_over_twice_the_timed_work_plus_a_second():
    assert measurement_cost.ratio(1.2, 0.002, 50) == 1.2 / 1.2
    assert measurement_cost.ratio(3.55, 0.0012, 50) == 3.55 / (2 * 50 * 0.0012 + 1)


def test_rows_keep_measured_evaluations_in_order_and_leave_out_the_rest(tmp_path):
    store = store_with(tmp_path / "s.sqlite", [
        ("default", "", "ok", 0.001, 0.13, 0.13),
        ("fast", "-inductor:freezing=on", "ok", 0.0012, 3.55, 0.074),
        ("fast", "-inductor:max_autotune_gemm=on", "pending", None, 0, 0),
        ("fast", "-inductor:layout_optimization=off", "failed", None, 0, 0),
        ("fast", "forked", "ok", 0.001, 0, 0),
    ])
    rows = measurement_cost.cost_rows(store, 50)
    assert [row[1] for row in rows] == ["", "-inductor:freezing=on"]
    assert rows[1][5] == measurement_cost.ratio(3.55, 0.0012, 50) and rows[1][6] == measurement_cost.ratio(0.074, 0.0012, 50)


def test_each_reason_is_given_once_with_the_routes_that_gave_it():
    summary = {"code_identities": [
        {"route": "", "why": ["stopped at X"]},
        {"route": "-a", "why": ["refused: other code"]},
        {"route": "-b", "why": ["stopped at X"]},
        {"route": "", "why": ["stopped at X"]},
        {"route": "-c", "why": []},
    ]}
    assert measurement_cost.reasons(summary) == [("stopped at X", ["", "-b"]), ("refused: other code", ["-a"])]


def test_the_command_marks_each_miss_and_counts_them(tmp_path):
    store = store_with(tmp_path / "s.sqlite", [("default", "", "ok", 0.001, 0.13, 0.13),
                                               ("fast", "-inductor:freezing=on", "ok", 0.0012, 3.55, 0.074)])
    summary = tmp_path / "s.json"
    summary.write_text(json.dumps({"code_identities": [{"route": "-inductor:freezing=on", "why": ["traced"]}]}))
    done = subprocess.run([sys.executable, str(BENCH / "measurement_cost.py"), str(summary), store],
                          capture_output=True, text=True, check=True)
    lines = done.stdout.splitlines()
    assert "| default | `(default)` | 1.000 ms | 0.130 s | 0.130 s | 0.12, 0.12 |" in lines
    assert "| fast | `-inductor:freezing=on` | 1.200 ms | 3.550 s | 0.074 s | 3.17, 0.07 **miss** |" in lines
    assert "1 of 2 measured evaluations within the target; 1 miss it" in lines
    assert "why (`-inductor:freezing=on`): traced" in lines
