"""Europe 1615's year's end, played as its build phase begins (rules: BUILD/ADJUSTMENT
PHASE, Concerning neutrality, Capture of the minor state, GAIN AND LOSS OF INFLUENCE,
SCORING PHASE, ELIMINATION).

In this order: foreign units in neutral states are interned (so they capture nothing);
centers change hands; powers left without a center are eliminated; provinces without a
center are annexed; captured states leave the list, their units elsewhere disbanded; the
statuses are judged again; a scoring year scores; and the next year's INFs are counted,
or, once the game is over, what was kept secret is revealed. Each step leaves a line for
the reports, which show them once (`Ledger.year_end`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from hegemon.board import UnitKind
from hegemon.game.phases import change_hands
from hegemon.influence.inf import attack_sequence
from hegemon.orders import place
from hegemon.position import Position, Unit
from hegemon.variants.europe_1615.ledger import ISLAMIC, Ledger
from hegemon.variants.europe_1615.preparation import judge
from hegemon.variants.europe_1615.rules import EuropeRules, neutral_hosts
from hegemon.variants.europe_1615.scoring import ending, reveal, score
from hegemon.variants.europe_1615.states import EMPIRE, State

if TYPE_CHECKING:
    from hegemon.variants.europe_1615 import Europe1615


def enter(variant: Europe1615, position: Position) -> Position:
    """The build phase as it begins (`BuildPhase.enter`): internment, the centers changing
    hands as the ledger's statuses let them, then the rest of the year's end. The neutral
    states' provinces are found once for the internment and the captures."""
    ledger = Ledger.of(position)
    hosts = neutral_hosts(variant, ledger)
    position, interned = intern(position, hosts)
    captures = EuropeRules(variant, ledger, hosts=hosts).captures_centers
    taken = change_hands(variant, position, captures)
    return year_end(variant, taken, position.centers, interned)


def intern(position: Position, hosts: dict[str, State]) -> tuple[Position, list[Unit]]:
    """Concerning neutrality: an army of a power or of another state still in a NEUTRAL
    state (`hosts`: its provinces, each with its state) at the build phase "is then
    interned and disbanded", before it can capture."""
    interned = [
        unit
        for province, unit in position.units.items()
        if (host := hosts.get(province)) is not None and unit.power != host.name
    ]
    if not interned:  # most years: the position kept, not made anew with the same units
        return position, interned
    return _without(position, lambda unit: unit in interned), interned


Step = Callable[["Europe1615", Position, Ledger], tuple[Position, Ledger, list[str]]]


def year_end(
    variant: Europe1615, position: Position, before: Mapping[str, str], interned: Sequence[Unit]
) -> Position:
    """Everything after the centers changed hands (`before`: their owners until then),
    step by step, each step's lines gathered for the reports."""
    taken = {c: owner for c, owner in position.centers.items() if before.get(c) != owner}
    lines = [
        f"Winter {position.phase.year}",
        *_told("Interned in neutral states", _units(interned)),
        *_told("Centers taken", _owned_by(taken)),
    ]
    ledger = Ledger.of(position)
    steps: tuple[Step, ...] = (_eliminate, _annex, _withdraw, _judge, _score, _close)
    for step in steps:
        position, ledger, told = step(variant, position, ledger)
        lines += told
    return position.evolve(state=ledger.replace(year_end=lines))


def _told(what: str, listing: str) -> list[str]:
    return [f"   {what}: {listing}"] if listing else []


def _units(units: Sequence[Unit]) -> str:
    ordered = sorted(units, key=lambda u: u.location)
    return ", ".join(f"{u.type.letter} {place(u.location)} ({u.power})" for u in ordered)


def _owned_by(owners: Mapping[str, str]) -> str:
    return ", ".join(f"{place(c)} ({owner})" for c, owner in sorted(owners.items()))


def _without(position: Position, gone: Callable[[Unit], bool]) -> Position:
    return position.evolve(units={p: u for p, u in position.units.items() if not gone(u)})


def _eliminate(
    variant: Europe1615, position: Position, ledger: Ledger
) -> tuple[Position, Ledger, list[str]]:
    """ELIMINATION: a power left without a supply center, by the standard rules, is out:
    its units are disbanded, its INFs removed from every state (the statuses are judged
    again) and all its victory points ceded; it neither receives nor deploys INFs again."""
    counts = position.center_counts
    out = [p for p in variant.powers if p not in ledger.eliminated and not counts.get(p)]
    if not out:
        return position, ledger, []
    holdings = {s: {p: n for p, n in h.items() if p not in out} for s, h in ledger.inf.items()}
    ledger = ledger.replace(
        inf={s: h for s, h in holdings.items() if h},
        vp={p: n for p, n in ledger.vp.items() if p not in out},
        awards={p: a for p, a in ledger.awards.items() if p not in out},
        secret_awards={p: a for p, a in ledger.secret_awards.items() if p not in out},
        offers={p: a for p, a in ledger.offers.items() if p not in out},
        eliminated=[*ledger.eliminated, *out],
    )
    consequences = "units disbanded, INFs removed from every state, victory points ceded"
    told = _told("Eliminated", f"{', '.join(out)} ({consequences})")
    return _without(position, lambda u: u.power in out), ledger, told


def _annex(
    variant: Europe1615, position: Position, ledger: Ledger
) -> tuple[Position, Ledger, list[str]]:
    """BUILD/ADJUSTMENT PHASE: "Provinces without SCs held by a major power at the build
    phase are annexed to the power, unless it is an ALIGNED state to the power that
    occupies it"; waived ones excepted (`_annexes`). While the Empire's patron is secret,
    whether a power annexes a province of the Empire would tell whether it is the patron:
    those annexations are kept apart (`secret_annexed`), told to their power alone until
    the game ends."""
    annexed, secret = dict(ledger.annexed), dict(ledger.secret_annexed)
    told: dict[str, str] = {}
    units = position.units
    for province in sorted(units):  # the names alone: pairs would be compared as tuples
        unit = units[province]
        if not _annexes(variant, ledger, province, unit):
            continue
        annexed.pop(province, None)
        secret.pop(province, None)
        state = variant.state_of_province.get(province)
        if state is not None and state.kind == EMPIRE and ledger.patron(state.id):
            secret[province] = unit.power
            continue
        told[province] = unit.power
        if variant.first_holder.get(province) != unit.power:  # not taken back by its own
            annexed[province] = unit.power
    ledger = ledger.replace(annexed=annexed, secret_annexed=secret)
    return position, ledger, _told("Annexed", _owned_by(told))


def _annexes(variant: Europe1615, ledger: Ledger, province: str, unit: Unit) -> bool:
    """Whether the unit annexes the province it stands in: a major power's unit, on land
    without a center (a sea is nobody's land to annex) that is not its own already (one
    of its provinces, or one it annexed), not of a state aligned with it, and not waived."""
    space = variant.board.provinces[province]
    if unit.power not in variant.powers or space.center or space.is_sea:
        return False
    holder = ledger.annexed.get(province) or ledger.secret_annexed.get(province)
    if (holder or variant.first_holder.get(province)) == unit.power:
        return False
    state = variant.state_of_province.get(province)
    if state is not None and ledger.patron(state.id) == unit.power:
        return False
    return province not in ledger.waived.get(unit.power, [])


def _withdraw(
    variant: Europe1615, position: Position, ledger: Ledger
) -> tuple[Position, Ledger, list[str]]:
    """Capture of the minor state: "If a major power captures a minor state's supply
    center", the state leaves the list for good, with its INFs and alignment; its
    religion stays, and its units elsewhere are disbanded. A state of several centers
    leaves when any is taken; the Empire only when all are ("All SCs of the Ottoman
    Empire must be captured"); a state without a center when all of it is annexed. A
    center the Empire's units take does not withdraw its state, as the Empire is no major
    power: the state stays on the list without it (its units disbanded for want of a
    center at the adjustments, and not rebuilt there)."""
    captured = list(ledger.captured)
    # Asked of every state and its centers: sets' lookups, not a list's scan and a
    # Mapping's (compiled, a call).
    out, majors = set(captured), set(variant.powers)
    withdrawn = []
    for state in variant.states.values():
        if state.id in out:
            continue
        if state.centers:
            by_powers = [position.centers.get(c) in majors for c in state.centers]
            gone = all(by_powers) if state.kind == EMPIRE else any(by_powers)
        else:
            gone = all(p in ledger.annexed for p in state.provinces)
        if gone:
            captured.append(state.id)
            out.add(state.id)
            faith = ledger.religion.get(state.id)
            withdrawn.append(state.name + (f" ({faith} for good)" if faith else ""))
    holdings = {s: h for s, h in ledger.inf.items() if s not in out}
    status = {s: v for s, v in ledger.status.items() if s not in out}
    ledger = ledger.replace(captured=captured, inf=holdings, status=status)
    fallen = {variant.states[s].name for s in captured}
    disbanded = [u for u in position.units.values() if u.power in fallen]
    told = [
        *_told("Withdrawn from the list of states", ", ".join(withdrawn)),
        *_told("Disbanded with their captured state", _units(disbanded)),
    ]
    if disbanded:  # most years none: the position kept, not made anew with the same units
        position = _without(position, lambda u: u.power in fallen)
    return position, ledger, told


def _judge(
    variant: Europe1615, position: Position, ledger: Ledger
) -> tuple[Position, Ledger, list[str]]:
    """The statuses without what the year's end removed; religious control as it now is."""
    judged = judge(variant, ledger, position.phase.year)
    captured = set(judged.captured)  # asked of every state: a set's lookup, not a list's scan
    changed = [
        f"{variant.states[s].name} {judged.religion.get(s, 'neutral')}"
        for s in sorted(variant.states)
        if s not in captured and ledger.religion.get(s) != judged.religion.get(s)
    ]
    return position, judged, _told("Religious control now", ", ".join(changed))


def _score(
    variant: Europe1615, position: Position, ledger: Ledger
) -> tuple[Position, Ledger, list[str]]:
    if position.phase.year not in variant.scoring_years:
        return position, ledger, []
    ledger, scored = score(variant, position, ledger)
    return position, ledger, [f"   {line}" for line in scored]


def _close(
    variant: Europe1615, position: Position, ledger: Ledger
) -> tuple[Position, Ledger, list[str]]:
    """The next year's INFs; or, if the game ends here, what was kept secret."""
    if ending(variant, position.evolve(state=ledger)):
        ledger, revealed = reveal(ledger)
    else:
        ledger, revealed = _next_year(variant, position, ledger)
    return position, ledger, [f"   {line}" for line in revealed]


# --- the next year's INFs (rules: GAIN AND LOSS OF INFLUENCE) ------------------------------


def _next_year(variant: Europe1615, position: Position, ledger: Ledger) -> tuple[Ledger, list[str]]:
    """The year's INFs from the table, with what captures and losses add and take; spent
    INFs, attacks and waivers start afresh."""
    year = position.phase.year + 1
    income: dict[str, int] = {}
    held: dict[str, list[str]] = {}  # each owner's centers, in order, found in one pass
    centers = position.centers
    for center in sorted(centers):  # the names alone: pairs would be compared as tuples
        owner = centers[center]
        theirs = held.get(owner)
        if theirs is None:  # not `setdefault`, which, compiled, makes a list for every center
            held[owner] = [center]
        else:
            theirs.append(center)
    told = []
    for power in variant.powers:
        if power in ledger.eliminated:
            income[power] = 0
            continue
        owned = held.get(power, [])
        income[power], changes = _income(variant, position, ledger, power, year, owned)
        told.append(f"{power} {income[power]}" + (f" ({', '.join(changes)})" if changes else ""))
    sequence = attack_sequence(income, ledger.sequence)
    ledger = ledger.replace(income=income, sequence=sequence, spent={}, attacked=[], waived={})
    return ledger, [f"INFs for {year}: {', '.join(told)}"]


def _income(
    variant: Europe1615,
    position: Position,
    ledger: Ledger,
    power: str,
    year: int,
    held: Sequence[str],
) -> tuple[int, list[str]]:
    """The table's INFs, less the value of each home center lost or occupied by another
    power's client, plus that of each center captured (`held`: the power's centers, in
    order), but none from a minor state's center controlled by the opposite religion. With
    the changes, for the report."""
    base = variant.income_table[power].get(year, 0)
    changes: list[tuple[str, int]] = []
    homes = variant.powers[power].home_centers
    # Its own centers as a set, not each asked of the position's read-only view (compiled,
    # a Mapping's `get` is a method call).
    mine = set(held)
    for center in homes:
        owned = center in mine
        if not owned or _blocked(variant, position, ledger, center, power):
            why = "occupied" if owned else "lost"
            changes.append((f"{place(center)} {why}", -variant.home_values.get(center, (0, 0))[0]))
    faith = variant.religion[power]
    for center in held:
        if center in homes or _blocked(variant, position, ledger, center, power):
            continue
        state = variant.state_of_province.get(center)
        if state is None:
            changes.append((place(center), variant.home_values.get(center, (0, 0))[0]))
        elif ledger.religion.get(state.id) in (None, faith, ISLAMIC):
            changes.append((place(center), state.inf))
    total = base + sum(n for _, n in changes)
    return max(total, 0), [f"{what} {n:+d}" for what, n in changes if n]


def _blocked(
    variant: Europe1615, position: Position, ledger: Ledger, center: str, power: str
) -> bool:
    """GAIN AND LOSS (3): an owned center occupied by a minor army aligned with another
    power yields no INFs next year (an army of a neutral state has no effect)."""
    occupant = position.unit_in(center)  # compiled, the dict beneath the view
    state = variant.state_of_owner.get(occupant.power) if occupant else None
    if state is None:
        return False
    patron = ledger.patron(state.id)
    return patron is not None and patron != power


# --- the minor states' own builds ---------------------------------------------------------


def rebuilds(variant: Europe1615, position: Position) -> list[Unit]:
    """Re-building a minor state's army: an original unit that was disbanded comes back
    on its free center, if the state has not been captured. A unit that only moved away
    is still there: the count of the state's units of each kind tells. The Empire builds
    alike while it has no patron (who would otherwise order its builds), within its
    centers."""
    ledger = Ledger.of(position)
    kinds: dict[str, list[UnitKind]] = {}  # each owner's units' kinds, found in one pass
    for unit in position.units.values():
        kinds.setdefault(unit.power, []).append(unit.type)
    built = []
    for state in variant.states.values():
        if state.id in ledger.captured or (state.kind == EMPIRE and ledger.patron(state.id)):
            continue
        standing = kinds.get(state.name, [])
        room = position.center_counts.get(state.name, 0) - len(standing)
        if room <= 0:
            continue  # as many units as centers: none to rebuild
        missing = Counter(u.type for u in state.units) - Counter(standing)
        for unit in state.units:
            free = position.centers.get(unit.province) == state.name and (
                unit.province not in position.units
            )
            if room > 0 and missing[unit.type] > 0 and free:
                built.append(unit)
                missing[unit.type] -= 1
                room -= 1
    return built
