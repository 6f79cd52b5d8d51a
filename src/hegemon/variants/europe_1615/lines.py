"""What Europe 1615's reports and boards say beyond the standard ones: the states'
statuses as percentages (never the numbers), the diplomatic attacks (the one place
numbers are revealed), a power's own INFs, the victory points with what earned them, and
what the last build phase did."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from hegemon.influence.inf import AttackResult, Standing, shares
from hegemon.orders import place
from hegemon.variants.europe_1615.ledger import Award, Ledger
from hegemon.variants.europe_1615.states import EMPIRE, State

if TYPE_CHECKING:
    from hegemon.variants.europe_1615 import Europe1615


def attack_lines(variant: Europe1615, results: Iterable[AttackResult]) -> list[str]:
    """Each diplomatic attack in the order struck. Where one takes place, the INFs in its
    state are revealed (rules: "the only time when the GM reveals the numbers of INFs
    distributed to states in question"); a FAILED one reveals none."""
    lines = []
    for result in results:
        attack = result.attack
        state = variant.states[attack.state].name
        head = f"   {attack.attacker} attacks {attack.target} in {state}"
        if result.succeeded:
            numbers = ", ".join(f"{p} {n}" for p, n in sorted(result.before.items()) if n)
            lines.append(f"{head} ({numbers}): each loses {result.removed} INFs")
        else:
            empty = attack.target if result.before.get(attack.attacker) else attack.attacker
            lines.append(f"{head}: FAILED ({empty} has no INFs there)")
    return ["Diplomatic attacks", *lines] if lines else []


def status_lines(variant: Europe1615, ledger: Ledger, every: bool = False) -> list[str]:
    """Each state's status, religion and the powers' shares; the Empire's only ALIGNED or
    NEUTRAL (rules: "only reveals ... whether the Ottoman Empire is neutral"); captured
    states with the religion they keep for good. Only states with something to say,
    unless `every`."""
    lines = ["States"]
    for state in variant.states_by_name:
        status = _status(ledger, state)
        if every or status != Standing.UNMARKED:
            lines.append(f"   {state.heading}: {status}")
    return lines


def _status(ledger: Ledger, state: State) -> str:
    faith = ledger.religion.get(state.id)
    if state.id in ledger.captured:
        return "captured" + (f", {faith} for good" if faith else "")
    status = str(ledger.standing(state.id))  # its text: no call of the enumeration's `value`
    if state.kind == EMPIRE:
        return status
    patron = ledger.patron(state.id)
    percents = shares(ledger.inf.get(state.id, {}))
    # Sorted by power alone (each is there once): pairs would be compared as tuples.
    split = ", ".join([f"{p} {percents[p]}%" for p in sorted(percents)])
    return (
        status
        + (f" with {patron}" if patron else "")
        + (f"; {faith}" if faith else "")
        + (f" ({split})" if split else "")
    )


def own_lines(variant: Europe1615, ledger: Ledger, power: str, year: int | None) -> list[str]:
    """A power's own INFs, state by state, what it may still deploy in `year` (the year
    the ledger's income is for: the next one in the build phase; None once the game's
    last year has ended), and what only it may read of its secret VPs and annexations."""
    # Sorted by state alone (each is there once): pairs would be compared as tuples, and
    # every power's lines are written in every movement phase.
    inf, states = ledger.inf, variant.states
    held = [f"{states[s].name} {inf[s][power]}" for s in sorted(inf) if inf[s].get(power)]
    left = ledger.income.get(power, 0) - ledger.spent.get(power, 0)
    to_deploy = f"; {left} left to deploy in {year}" if year is not None else ""
    lines = [f"INFs of {power}: {', '.join(held) or 'none'}{to_deploy}"]
    return (
        lines + secret_lines(ledger, power) + secret_annexation_lines(ledger.secret_annexed, power)
    )


def secret_lines(ledger: Ledger, power: str) -> list[str]:
    """The victory points a power scored in secret (they would name the Empire's patron)."""
    secret = ledger.secret_awards.get(power)
    if not secret:
        return []
    return [f"Secret VPs of {power}, revealed when the game ends: {_awards(secret)}"]


def secret_annexation_lines(annexed: Mapping[str, str], power: str, new: bool = False) -> list[str]:
    """The provinces of the Empire a power annexed while its patron was secret (whether
    it did would tell whether it is the patron): all of them, or those `new` this year."""
    held = sorted(place(p) for p, annexer in annexed.items() if annexer == power)
    if not held:
        return []
    what = "Annexed this year" if new else "Annexed"
    return [f"{what} by {power}, secret while the Ottoman Empire's patron is: {', '.join(held)}"]


def standing_lines(variant: Europe1615, ledger: Ledger) -> list[str]:
    """What the last build phase did, then each power's victory points and what earned
    them (rules: SCORING PHASE), once a scoring has been held."""
    lines = ["", *ledger.year_end] if ledger.year_end else []
    if not ledger.vp and not ledger.awards:
        return lines
    width = max(map(len, variant.powers)) + 2
    lines += ["", "Victory points:"]
    for power in variant.powers:
        earned = ledger.awards.get(power, [])
        points = f"{ledger.vp.get(power, 0):>5}"
        lines.append(f"   {power:<{width}}{points}" + (f"  {_awards(earned)}" if earned else ""))
    return lines


def _awards(awards: list[Award]) -> str:
    by_year: dict[int, list[str]] = {}
    for year, what, points in awards:
        by_year.setdefault(year, []).append(f"{what} {points}")
    return "; ".join(f"{year}: {', '.join(items)}" for year, items in sorted(by_year.items()))
