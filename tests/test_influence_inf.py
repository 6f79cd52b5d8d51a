"""Europe 1615's influence economy as pure functions, on the rules' own examples."""

from __future__ import annotations

from hegemon.influence.inf import (
    Attack,
    Standing,
    attack_sequence,
    deploy,
    diplomatic_attacks,
    political_status,
    religious_control,
    shares,
)

RELIGION = {
    "England": "Protestant",
    "Scandinavia": "Protestant",
    "Austria": "Catholic",
    "France": "Catholic",
    "Spain": "Catholic",
}
SEQUENCE_1615 = ["England", "Austria", "Scandinavia", "France", "Spain"]


def test_deployments_accumulate() -> None:
    # "INFs will continue to accumulate in the minor states with each deployment".
    once = deploy({}, {"France": {"wur": 16, "lor": 25}})
    twice = deploy(once, {"France": {"lor": 5}, "Spain": {"lor": 3}})
    assert twice == {"wur": {"France": 16}, "lor": {"France": 30, "Spain": 3}}
    assert once == {"wur": {"France": 16}, "lor": {"France": 25}}  # nothing changed in place


def test_diplomatic_attack_example() -> None:
    # "Example of play": England 5, France 10, Spain 5 in LOR; England attacks France,
    # France attacks Spain, Spain attacks England; 1615 sequence England ... France, Spain.
    holdings = {"lor": {"England": 5, "France": 10, "Spain": 5}}
    attacks = [
        Attack("England", "lor", "France"),
        Attack("France", "lor", "Spain"),
        Attack("Spain", "lor", "England"),
    ]
    after, results = diplomatic_attacks(holdings, attacks, SEQUENCE_1615)
    assert after == {"lor": {"England": 0, "France": 0, "Spain": 0}}
    assert [(r.attack.attacker, r.succeeded, r.removed) for r in results] == [
        ("England", True, 5),  # England loses all; France is reduced to 5
        ("France", True, 5),  # France and Spain both reduced to zero
        ("Spain", False, 0),  # "Spain's order is reported as FAILED"
    ]
    assert results[1].before == {"England": 0, "France": 5, "Spain": 5}
    assert political_status(after["lor"], 5, 50).standing is Standing.UNMARKED


def test_attack_sequence_is_least_income_first_ties_as_last_year() -> None:
    incomes = {"Spain": 80, "France": 68, "England": 40, "Austria": 50, "Scandinavia": 50}
    assert attack_sequence(incomes, SEQUENCE_1615) == SEQUENCE_1615
    assert attack_sequence(incomes, ["Scandinavia", "Austria"])[1:3] == ["Scandinavia", "Austria"]


def test_alignment_needs_half_and_five_infs() -> None:
    # "ALIGNED if a single major power holds 50% or more ... and has minimally 5 INFs".
    assert political_status({"Spain": 5, "France": 5}, 5, 50).standing is Standing.NEUTRAL
    assert political_status({"Spain": 6, "France": 4}, 5, 50).patron == "Spain"
    assert political_status({"Spain": 4}, 5, 50).standing is Standing.UNMARKED
    assert political_status({"Spain": 4, "France": 3, "England": 3}, 5, 50).standing is (
        Standing.NEUTRAL  # no majority
    )


def test_hungary_aligned_with_england_at_53_percent() -> None:
    # Spring 1615 example: England holds 53% of Hungary's INFs against Austria.
    hungary = {"England": 16, "Austria": 14}
    assert shares(hungary) == {"England": 53, "Austria": 46}
    assert shares({"Scandinavia": 10, "England": 5}) == {"Scandinavia": 66, "England": 33}
    assert political_status(hungary, 5, 50).patron == "England"
    assert religious_control(hungary, RELIGION, 55) is None  # below a 55% year share
    assert religious_control(hungary, RELIGION, 50) == "Protestant"


def test_poland_aligned_with_austria_but_not_catholic_below_ten() -> None:
    # Spring 1615 example: Poland aligned with Austria, but Catholic INFs < 10.
    poland = {"Austria": 8}
    assert political_status(poland, 5, 50).patron == "Austria"
    assert religious_control(poland, RELIGION, 50) is None


def test_ottoman_empire_needs_fifteen_infs_and_the_years_share() -> None:
    # 1615: 90% and 15 INFs; fewer than 15 INFs leaves the Empire NEUTRAL.
    assert political_status({"Spain": 14}, 15, 90, True).standing is Standing.NEUTRAL
    assert political_status({"Spain": 18, "France": 2}, 15, 90, True).patron == "Spain"
    assert political_status({"Spain": 17, "France": 3}, 15, 90, True).standing is Standing.NEUTRAL


def test_religious_status_example_saxony_1618() -> None:
    # "Saxony has 60% INFs held by the Protestants ... in 1618 ... required 62% ... neutral".
    saxony = {"England": 12, "Scandinavia": 6, "Austria": 12}
    assert religious_control(saxony, RELIGION, 62) is None
    assert religious_control(saxony, RELIGION, 60) == "Protestant"
