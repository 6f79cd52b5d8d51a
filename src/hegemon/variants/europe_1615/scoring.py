"""Victory points and victory (rules: SCORING PHASE, VICTORY CONDITIONS).

Each scoring awards a power the VPs of the centers it captured and of the states aligned
with it, doubled where the state is controlled by the patron's religion, none for a state
another minor's army not aligned with it occupies. An award that hangs on who the
Ottoman Empire's patron is (the Empire's own alignment; a state whose occupier is the
Empire's army) is kept apart, for its power's eyes only, until the game ends: public
totals would otherwise name the patron.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from hegemon.game import PLAYING, GameEnd, Termination, won_or_drawn
from hegemon.orders import place
from hegemon.position import PhaseKind, Position
from hegemon.variants.europe_1615.ledger import PROTESTANT, Award, Ledger
from hegemon.variants.europe_1615.states import EMPIRE, State

if TYPE_CHECKING:
    from hegemon.variants.europe_1615 import Europe1615


def score(variant: Europe1615, position: Position, ledger: Ledger) -> tuple[Ledger, list[str]]:
    """One scoring phase: every power's awards, public and secret, and a line for each
    power that scored in public."""
    year = position.phase.year
    awards = {p: list(a) for p, a in ledger.awards.items()}
    secret = {p: list(a) for p, a in ledger.secret_awards.items()}
    lines = []
    for power in variant.powers:
        if power in ledger.eliminated:
            continue
        public, hidden = _awards(variant, position, ledger, power, year)
        if public:
            awards.setdefault(power, []).extend(public)
            lines.append(f"{power} +{sum(a.points for a in public)}")
        if hidden:
            secret.setdefault(power, []).extend(hidden)
    vp = {p: sum(a.points for a in awards.get(p, [])) for p in variant.powers}
    scored = ledger.replace(awards=awards, secret_awards=secret, vp=vp)
    return scored, [f"Scoring {year}: {', '.join(lines) or 'nobody scores'}"]


def _awards(
    variant: Europe1615, position: Position, ledger: Ledger, power: str, year: int
) -> tuple[list[Award], list[Award]]:
    """The checklist: captured centers (1), aligned states (2), under the patron's
    religion (3), unless occupied by another minor's army not aligned with it (4)."""
    public: list[Award] = [
        Award(year, f"{center.capitalize()} captured", points)
        for center, points in _captures(variant, position, power)
    ]
    hidden: list[Award] = []
    captured = set(ledger.captured)  # asked of every state: a set's lookup, not a list's scan
    for state in variant.states.values():
        if state.id in captured:
            continue
        points, secret = _alignment(variant, position, ledger, state, power)
        if points:
            faith = ledger.religion.get(state.id)
            what = f"{state.name} aligned" + (
                f", {faith}" if faith == variant.religion[power] else ""
            )
            (hidden if secret else public).append(Award(year, what, points))
    return public, hidden


def _captures(variant: Europe1615, position: Position, power: str) -> list[tuple[str, int]]:
    homes = set(variant.powers[power].home_centers)
    # Only the power's own captures sorted, by name: not every center, as pairs.
    centers = sorted(c for c, owner in position.centers.items() if owner == power)
    captured = []
    for center in centers:
        if center not in homes:
            state = variant.state_of_province.get(center)
            captured.append(
                (center, state.vp_capture if state else variant.home_values.get(center, (0, 0))[1])
            )
    return captured


def _alignment(
    variant: Europe1615, position: Position, ledger: Ledger, state: State, power: str
) -> tuple[int, bool]:
    """The VPs a state not captured, aligned with `power`, gives it, and whether they
    name the Empire's patron (the state is the Empire, or the Empire's army occupies it)."""
    if ledger.patron(state.id) != power:
        return 0, False
    secret = state.kind == EMPIRE
    for province in state.provinces:
        occupant = position.unit_in(province)  # compiled, the dict beneath the view
        other = variant.state_of_owner.get(occupant.power) if occupant else None
        if other is None or other.id == state.id:
            continue
        if ledger.patron(other.id) != power:
            return 0, False
        secret = secret or other.kind == EMPIRE
    if ledger.religion.get(state.id) == variant.religion[power]:
        return state.vp_aligned_religious, secret
    return state.vp_aligned, secret


def reveal(ledger: Ledger) -> tuple[Ledger, list[str]]:
    """At the game's end, the awards and annexations kept secret join the public ones."""
    awards = {p: list(a) for p, a in ledger.awards.items()}
    lines = []
    for power, hidden in sorted(ledger.secret_awards.items()):
        if hidden:
            awards.setdefault(power, []).extend(hidden)
            lines.append(f"{power} +{sum(a.points for a in hidden)}")
    lines += [f"{place(p)} annexed by {q}" for p, q in sorted(ledger.secret_annexed.items())]
    if not lines:
        return ledger, []
    vp = {p: sum(a.points for a in awards.get(p, [])) for p in {*ledger.vp, *awards}}
    annexed = {**ledger.annexed, **ledger.secret_annexed}
    revealed = ledger.replace(
        awards=awards, secret_awards={}, vp=vp, annexed=annexed, secret_annexed={}
    )
    return revealed, [f"Kept secret until now (the Ottoman Empire's patron): {', '.join(lines)}"]


# --- the end ------------------------------------------------------------------------------


def ending(variant: Europe1615, position: Position) -> GameEnd:
    """Automatic Protestant Victory by Rome at any build phase; after the last year's
    Fall, the most VPs."""
    ledger = Ledger.of(position)
    holder = position.centers.get(variant.holy_city)
    # Asked after every phase: the Protestants listed only when Rome's holder is one of
    # them or the Empire, for whom alone they count.
    if holder is not None and (
        variant.religion.get(holder) == PROTESTANT or holder == variant.ottoman.name
    ):
        protestants = [
            p
            for p in variant.powers
            if variant.religion[p] == PROTESTANT and p not in ledger.eliminated
        ]
        if holder in protestants:
            return GameEnd(Termination.SOLO, winners=(holder,))
        if holder == variant.ottoman.name and protestants:
            return _best(variant, position, ledger, protestants)
    if position.phase.year < variant.end_year or position.phase.kind is not PhaseKind.ADJUSTMENT:
        return PLAYING
    return _winners(variant, position, ledger)


def _winners(variant: Europe1615, position: Position, ledger: Ledger) -> GameEnd:
    """An alliance whose VPs exceed all the others' wins together. Its members are bound
    to that rule to the end: they never win alone, so the best of the unallied players
    wins when no alliance does (rules: Optional Alliances and Victory Conditions)."""
    players = [p for p in variant.powers if p not in ledger.eliminated]
    for pair in ledger.allies:
        others = sum(ledger.total_vp(p) for p in variant.powers if p not in pair)
        if sum(ledger.total_vp(p) for p in pair) > others:
            return GameEnd(Termination.POINTS, winners=tuple(sorted(pair)))
    allied = {p for pair in ledger.allies for p in pair}
    unallied = [p for p in players if p not in allied]
    if not unallied:
        return GameEnd(Termination.LAST_YEAR, draw=tuple(players))
    return _best(variant, position, ledger, unallied)


def _best(
    variant: Europe1615, position: Position, ledger: Ledger, candidates: Sequence[str]
) -> GameEnd:
    """The most VPs; on a tie, the most supply centers; then the most INFs (the last
    year's income, the INFs a power had to deploy); a tie on all three is a draw."""
    counts = position.center_counts

    def rank(power: str) -> tuple[int, int, int]:
        return ledger.total_vp(power), counts.get(power, 0), ledger.income.get(power, 0)

    best = max(map(rank, candidates))
    leaders = tuple(p for p in candidates if rank(p) == best)
    return won_or_drawn(Termination.POINTS, leaders)
