"""The attacker grid of the speechocean762 report: a cell the run's design does not have (an extra row under an
attacker or front-end that never runs it) reads '-', a cell the design has but that is missing reads 'not run'."""

from pydeid.report.speechocean_attacks import render_grid


def cell(eer):
    return {"eer": eer, "ci": [eer - 1, eer + 1], "dsys": 0.5, "boot": None}


def test_extra_rows_outside_their_column_are_not_reported_missing():
    attackers, front_ends = ["xvector", "ecapa"], ["energy", "none"]
    grid = {}
    for am, b in (("xvector", "plda"), ("xvector", "cosine"), ("ecapa", "cosine")):
        for fe in front_ends:
            grid[(am, fe, b, "original")] = cell(9.0)
            grid[(am, fe, b, "semi-informed_mcadams")] = cell(20.0)
    # the extra rows: the first attacker with VAD only; its cosine cell of parameter-shifted is missing
    grid[("xvector", "energy", "plda", "parameter-shifted_mcadams")] = cell(25.0)
    grid[("xvector", "energy", "plda", "informed-same-draws_mcadams")] = cell(22.0)
    grid[("xvector", "energy", "cosine", "informed-same-draws_mcadams")] = cell(23.0)
    del grid[("ecapa", "none", "cosine", "semi-informed_mcadams")]   # a design cell that did not finish
    md = render_grid(grid, ["mcadams"], attackers, front_ends, {"": "70.0", "mcadams": "80.0"}, "general LM")
    rows = {ln.split("|")[2].strip(): [c.strip() for c in ln.strip().strip("|").split("|")][3:]
            for ln in md.splitlines() if ln.startswith("| McAdams")}
    assert rows["parameter-shifted (extra)"] == ["25.0 [24.0, 26.0] / 0.50", "not run", "-", "-", "-", "-"]
    assert rows["informed-same-draws (extra)"][:3] == ["22.0 [21.0, 23.0] / 0.50", "23.0 [22.0, 24.0] / 0.50", "-"]
    assert rows["semi-informed"][-1] == "not run" and rows["semi-informed"].count("not run") == 1


def test_strongest_attacker_is_the_lowest_eer_across_attackers_back_ends_and_front_ends():
    from pydeid.report.speechocean_attacks import render_ranking, strongest
    grid = {("xvector", "energy", "plda", "semi-informed_mcadams"): cell(20.0),
            ("ecapa", "none", "cosine", "semi-informed_mcadams"): cell(15.0),
            ("ge2e", "none", "lda", "semi-informed_mcadams"): cell(12.0),
            ("ge2e", "energy", "cosine", "semi-informed_mcadams"): cell(13.0)}
    (am, b, fe), r = strongest(grid, "semi-informed_mcadams", ["xvector", "ecapa", "ge2e"], ["energy", "none"])
    assert (am, b, fe, r["eer"]) == ("ge2e", "lda", "none", 12.0)
    # without the pretrained attacker in the grid, the ECAPA without VAD
    assert strongest(grid, "semi-informed_mcadams", ["xvector", "ecapa"], ["energy", "none"])[0] == \
        ("ecapa", "cosine", "none")
    md, ranked = render_ranking(grid, ["mcadams"], ["xvector", "ecapa", "ge2e"], {}, {}, "general LM",
                                ["energy", "none"])
    assert ranked[0]["attacker"] == "GE2E (pretrained) LDA+cosine, no VAD" and "12.0 [11.0, 13.0]" in md
