"""bench/beside_build_timing.py's figures without a GPU: how far apart back-to-back requests read
(pair_spread, within each block and never across two) and the beside / idle ratio (ratio_line)."""

import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

import beside_build_timing  # noqa: E402


def test_back_to_back_ratios_are_taken_within_each_block_only():
    steady, moved = [1.0, 1.0, 1.0], [2.0, 2.0, 2.0]
    assert beside_build_timing.pair_spread([steady, moved]) == (1.0, 1.0, 0.0), "the jump between blocks is no pair"
    low, high, share = beside_build_timing.pair_spread([[1.0, 1.2, 1.0, 1.0, 1.0, 1.0]])
    assert (round(low, 4), round(high, 4)) == (0.8333, 1.2)
    assert share == 0.4
    assert beside_build_timing.pair_spread([[1.0, 1.0], [3.0]]) is None


def test_the_beside_figure_is_the_median_beside_over_the_median_of_the_idle_around_it():
    line, ratio = beside_build_timing.ratio_line("trial 0 x", [1.2, 1.3, 1.1], [1.0, 1.0], [1.0, 1.1])
    assert round(ratio, 4) == 1.2
    assert line == "trial 0 x: beside 1.2000 ms (3 requests), idle 1.0000 ms (4), ratio 1.2000"
    assert beside_build_timing.ratio_line("t", [], [1.0], [1.0]) == ("t: no requests to compare", None)
