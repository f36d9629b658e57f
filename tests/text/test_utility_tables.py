"""Seed 002's protocol table and seed 004 table 7 over several seeds: mean +- std, delta paired by seed."""

from pydeid.text.utility import mean_std, protocol_table, utility_table


def _cell(seed, v, t=None, vp=None):
    return {"seed": seed, "macro_f1": v, "train_macro_f1": t, "transformed_test_macro_f1": vp}


RES = {"cased-punct": {
    "none": dict(_cell(0, 0.80, 0.99, 0.80), runs={"0": _cell(0, 0.80, 0.99, 0.80), "1": _cell(1, 0.70, 0.97, 0.70),
                                                   "2": _cell(2, 0.75, 0.98, 0.75)}),
    "same_type": dict(_cell(0, 0.70), runs={"0": _cell(0, 0.70, 0.95, 0.72), "1": _cell(1, 0.66, 0.95, 0.70),
                                            "2": _cell(2, 0.65, 0.95, 0.71)})}}


def test_mean_std():
    assert mean_std([0.1, 0.2, 0.3]) == (0.2, 0.1) or abs(mean_std([0.1, 0.2, 0.3])[1] - 0.1) < 1e-12
    assert mean_std([0.5]) == (0.5, 0.0) and mean_std([None]) is None


def test_protocol_table_pairs_delta_by_seed():
    rows = [ln for ln in protocol_table(RES, "cased-punct").splitlines() if ln.startswith("| Replace")]
    cells = [c.strip() for c in rows[0].split("|")[2:7]]
    # deltas per seed: -0.10, -0.04, -0.10 -> mean -8.0, sample std 3.5 (points); not 70.3 - 75.0 unpaired
    assert cells == ["95.0 +- 0.0", "71.0 +- 1.0", "67.0 +- 2.6", "-8.0 +- 3.5", "3"]


def test_table7_shows_mean_and_std():
    t = utility_table(RES)
    assert "| 75.0% +- 5.0 " in t and "| 67.0% +- 2.6 " in t
