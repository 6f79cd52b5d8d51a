"""No player-facing output carries another power's secrets.

A hundred random games of each influence variant, and at every phase every output a
player or a program reads (the board as text and as JSON before the phase, with every
power's orders pending, and whose orders are in and awaited; the report and the results
as JSON after it) is rendered for every viewer and searched for the secrets of the other
powers:
- everyone's pending orders, until they are adjudicated;
- who sent what, in whose orders are in: the names listed are those the phase awaits
  whatever was sent, and a power is listed as received only for orders of its own (never
  for Europe 1615's orders for the Ottoman Empire, which would name its patron);
- orders secret until the end (Sub-Saharan's bids, Europe 1615's INF deployments,
  waivers and alliance offers, which its random players give now and then, the tests'
  own variant's objectives), until the game is over: the kinds the rules make secret are
  named here (`RULES_SECRETS`), not only read from the code under test;
- Africa II's IP spending, secret while pending (rules a.9: spending is "not upon other
  powers' IP expenditure") and published once adjudicated (a.7);
- Europe 1615's ledger: a power's INFs in each state, its spending, its alliance offers
  and waivers, and the Ottoman Empire's patron (rules: STATUS, DIPLOMATIC ATTACK): no INF
  number of another power outside a diplomatic attack that took place, and nothing that
  names the patron (its orders for the Empire's units, its awards for the alignment, a
  report that it may not dislodge the Empire's units).

Each check has its counterpart: the power itself, and the game master, do read these
secrets somewhere, so the search cannot pass by finding nothing anywhere.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from hegemon.game import Game, PhaseResult, Variant, chances_for, play_phase, settle
from hegemon.influence.orders import Bid, Deploy
from hegemon.jsonio import phase_result_to_json, position_to_json
from hegemon.orders import Order, Secrecy
from hegemon.position import MASTER, OBSERVER, Position, Viewer
from hegemon.randomplay import random_orders
from hegemon.report import order_status_lines, phase_report, position_report
from hegemon.variants import load_variant, load_variant_from
from hegemon.variants.africa_ii import Spend
from hegemon.variants.europe_1615.ledger import OTTOMAN, Ledger
from hegemon.variants.europe_1615.orders import AllianceOffer, CaptureWaiver, EmpireOrder
from tests.variants.outposts import Objective
from tests.wire import at

GAMES = 100
MAX_PHASES = 300
OUTPOSTS = Path(__file__).parent / "variants" / "outposts"

# The kinds of order the rules keep secret until the game ends, named here rather than
# read from the code under test (`Order.secrecy`), so that a kind made public by mistake
# is still searched for.
RULES_SECRETS: dict[str, tuple[type[Order], ...]] = {
    # 8.0: "DP allocations are not revealed to the other players until the end of the game"
    "sub_saharan": (Bid,),
    # STATUS: the GM "does not reveal the actual number of INFs deployed by each power";
    # Waiving the capture: "arranged by the player (and communicated to the GM)";
    # Optional Alliances: the alliance, not an offer, is "declared to the other players"
    "europe_1615": (Deploy, CaptureWaiver, AllianceOffer),
    "outposts": (Objective,),  # the objective a player names, which nobody else learns
    # a.9: IPs are spent in secret, but only until adjudicated (a.7: holdings published)
    "africa_ii": (),
}


def _phases(
    variant: Variant, seed: int
) -> Iterator[tuple[Position, dict[str, list[Order]], PhaseResult]]:
    rng = random.Random(seed)
    position = variant.initial_position()
    for _ in range(MAX_PHASES):
        orders = random_orders(variant, position, rng)
        result = play_phase(
            variant, position, orders, settle(chances_for(variant, position), None, rng)
        )
        yield position, orders, result
        if result.end:
            return
        position = result.after


def _texts(orders: list[Order]) -> set[str]:
    return {o.format() for o in orders}


def _secret_texts(orders: list[Order], secret_kinds: tuple[type[Order], ...]) -> set[str]:
    """The orders secret until the end, by the rules or by their own account, but for the
    orders for the Ottoman Empire's units: published under the Empire's name, what stays
    secret is their sender (`_empire_checks`)."""
    return {
        o.format()
        for o in orders
        if (isinstance(o, secret_kinds) or o.secrecy is Secrecy.UNTIL_END)
        and not isinstance(o, EmpireOrder)
    }


class Shown(NamedTuple):
    """What one viewer reads of a phase: the board before it, the report and the results
    as JSON (the position after it included)."""

    board: str
    report: str
    results: dict[str, Any]


class Search:
    """Every output for every viewer, searched for the other powers' secrets."""

    def __init__(self, variant: Variant, secret_kinds: tuple[type[Order], ...]) -> None:
        self.variant = variant
        self.secret_kinds = secret_kinds
        self.viewers = [OBSERVER, *(Viewer(power=p) for p in variant.powers)]
        self.own_secrets_seen: Counter[str] = Counter()
        self.shown: dict[Viewer, Shown] = {}  # the last phase's, for the variant's checks

    def phase(self, before: Position, orders: dict[str, list[Order]], result: PhaseResult) -> None:
        variant = self.variant
        for viewer in self.viewers:
            # The board as JSON before the phase is the one the previous phase's results
            # hold, searched then; as text it is searched here, orders pending.
            self.shown[viewer] = Shown(
                position_report(variant, before, viewer),
                phase_report(variant, result, viewer),
                phase_result_to_json(result, viewer),
            )
        self.search(orders, result)
        self._status(before, orders)

    def search(
        self,
        orders: dict[str, list[Order]],
        result: PhaseResult,
        also_before: dict[Viewer, list[str]] | None = None,
    ) -> None:
        """Search what each viewer was shown of the phase (`self.shown`, and any other
        output before the adjudication, `also_before`) for the other powers' secrets."""
        pending = {p: _texts(given) for p, given in orders.items()}
        secret = {p: _secret_texts(given, self.secret_kinds) for p, given in orders.items()}
        for viewer in self.viewers:
            shown = self.shown[viewer]
            shown_before = [shown.board, *(also_before or {}).get(viewer, [])]
            shown_after = [shown.report, json.dumps(shown.results)]
            mine = viewer.power or ""
            for power in orders:
                if viewer.sees(power):
                    continue
                theirs = pending[power] - pending.get(mine, set())
                self._absent(theirs, shown_before, viewer, power, "a pending order")
                if not result.end:
                    theirs = secret[power] - secret.get(mine, set())
                    self._absent(theirs, shown_after, viewer, power, "a secret order")
            if _any_in(secret.get(mine, set()), shown_after):
                self.own_secrets_seen["orders"] += 1

    def _status(self, before: Position, orders: dict[str, list[Order]]) -> None:
        """Whose orders are in, as everyone reads it: the same names as with nothing sent
        (those the phase awaits), and a power received only for orders of its own."""
        status = order_status_lines(Game(self.variant, before, pending=orders))
        assert _names(status) == _names(order_status_lines(Game(self.variant, before))), status
        received = _names(status[:1])
        for power in received & set(self.variant.powers):
            own = [o for o in orders.get(power, ()) if not isinstance(o, EmpireOrder)]
            assert own, f"{status[0]}: {power} sent only orders for the Ottoman Empire"
        self.own_secrets_seen["empire received"] += "Ottoman Empire" in received
        for given in orders.values():
            self.own_secrets_seen.update(type(o).__name__ for o in given)

    @staticmethod
    def _absent(
        fragments: set[str], outputs: list[str], viewer: Viewer, power: str, what: str
    ) -> None:
        for fragment in fragments:
            for output in outputs:
                assert not _contains(output, fragment), (
                    f"{viewer} reads {what} of {power}: {fragment}"
                )


def _names(lines: list[str]) -> set[str]:
    """The parties named in "Orders received from: ..." and "Awaiting orders from: ..."."""
    listed = {name for line in lines for name in line.partition(": ")[2].split(", ")}
    return listed - {"none", "nobody"}


def _contains(output: str, fragment: str) -> bool:
    """The fragment as a whole: "3: FRA" is not in "13: FRA"."""
    if fragment not in output:  # the common case, and fast
        return False
    return re.search(rf"(?<!\w){re.escape(fragment)}(?!\w)", output) is not None


def _any_in(fragments: set[str], outputs: list[str]) -> bool:
    return any(_contains(output, fragment) for fragment in fragments for output in outputs)


def _ledger_checks(search: Search, result: PhaseResult) -> None:
    """Europe 1615: the JSON views hold a power's own INF numbers, spending, offers,
    waivers and secret awards only, and the Ottoman patron only for the patron; the text
    never names the patron or another power's INFs. (The position before the phase was
    searched as the one after the phase before.)"""
    patron = Ledger.of(result.after).patron(OTTOMAN)
    for viewer, shown in search.shown.items():
        seen = shown.results["position"]["state"]["ledger"]
        others = set(search.variant.powers) - {viewer.power}
        assert not others & {p for held in seen["inf"].values() for p in held}
        for secret in ("spent", "offers", "waived", "secret_awards"):
            assert not others & set(seen[secret]), f"{viewer} reads others' {secret}"
        if patron is not None and patron != viewer.power:
            assert seen["status"][OTTOMAN][1] is None, f"{viewer} reads the Ottoman patron"
        for text in (shown.board, shown.report):
            for power in others:
                assert f"Ottoman Empire (Ot): ALIGNED with {power}" not in text
            _no_inf_numbers(search, text, viewer)
        if viewer.power and seen["inf"]:
            search.own_secrets_seen["inf"] += 1
    if at(position_to_json(result.after, MASTER), "state", "ledger", "inf") and patron:
        search.own_secrets_seen["master"] += 1


_PUBLIC_NUMBERS = ("INFs for ", "Builds: ", "Disbands: ")  # lines of a power's public numbers


def _no_inf_numbers(search: Search, text: str, viewer: Viewer) -> None:
    """No other power's INFs in the text but in a diplomatic attack that took place (the
    rules reveal those); the year's income, from public tables, and the builds due are
    the other numbers a report writes after a power's name."""
    powers = "|".join(p for p in search.variant.powers if p != viewer.power)
    assert not re.search(rf"INFs of (?:{powers}):", text), f"{viewer} reads another's INFs"
    for match in re.finditer(rf"^.*\b(?:{powers}) \d+(?![\d%]).*$", text, re.MULTILINE):
        line = match.group(0).lstrip()
        if not line.startswith(_PUBLIC_NUMBERS):
            assert " attacks " in line and "each loses" in line, f"{viewer} reads: {line}"


def _empire_checks(
    search: Search, before: Position, orders: dict[str, list[Order]], result: PhaseResult
) -> None:
    """Nothing a player reads names the Empire's patron: not its orders for the Empire's
    units (published under the Empire's name), nor a refusal to let it dislodge them, nor
    an award for the alignment before the game is over."""
    empire = [u for u in before.all_units.values() if u.power == "Ottoman Empire"]
    refusals = {f"may not dislodge {u.type.letter} {u.location.capitalize()}" for u in empire}
    for outcome in result.outcomes:
        assert not any(refusal in outcome.note for refusal in refusals), outcome.note
    for power, given in orders.items():
        sent = {o.format() for o in given if isinstance(o, EmpireOrder)}
        if not sent:
            continue
        for viewer, shown in search.shown.items():
            read = sent & set(shown.results["orders"].get(power, []))
            if viewer.sees(power):
                search.own_secrets_seen["empire orders"] += bool(read)
            elif not result.end:
                assert not read, f"{viewer} reads {power}'s orders for the Empire"
    if not result.end:
        public = search.shown[OBSERVER].results["position"]["state"]["ledger"]["awards"]
        assert "Ottoman Empire aligned" not in json.dumps(public)


def test_the_kinds_the_rules_make_secret_stay_secret_until_the_end() -> None:
    for kinds in RULES_SECRETS.values():
        for kind in kinds:
            assert kind.secrecy is Secrecy.UNTIL_END, kind.__name__


def _spending_checks(search: Search, orders: dict[str, list[Order]]) -> None:
    """Africa II: the IPs spent, searched for while pending like any order, are read by
    everyone once adjudicated (rules a.7), so that the search was for what is there."""
    spent = {o.format() for given in orders.values() for o in given if isinstance(o, Spend)}
    for shown in search.shown.values():
        assert all(_contains(shown.report, spend) for spend in spent)
    search.own_secrets_seen["spending published"] += bool(spent)


# The games are played in batches, one test each, so that the parallel suite shares them
# out among its workers instead of waiting at the end for one long test.
BATCHES = 4
VARIANTS = [("sub_saharan", 20), ("europe_1615", 20), ("outposts", 5), ("africa_ii", 40)]


@pytest.mark.parametrize("batch", range(BATCHES))
@pytest.mark.parametrize(("name", "fewest_phases"), VARIANTS)
def test_no_output_carries_another_powers_secrets(
    name: str, fewest_phases: int, batch: int
) -> None:
    variant = load_variant_from(OUTPOSTS) if name == "outposts" else load_variant(name)
    if name == "africa_ii":
        variant = variant.configure({"random_events": True})
    search = Search(variant, RULES_SECRETS[name])
    games = range(batch, GAMES, BATCHES)
    phases = 0
    for seed in games:
        for before, orders, result in _phases(variant, seed):
            search.phase(before, orders, result)
            if name == "europe_1615":
                _ledger_checks(search, result)
                _empire_checks(search, before, orders, result)
            if name == "africa_ii":
                _spending_checks(search, orders)
            phases += 1
    assert phases > len(games) * fewest_phases
    # The counterparts: the powers did read their own secrets, so the search was real.
    if name == "africa_ii":
        assert search.own_secrets_seen["spending published"] >= len(games) * 9
        return
    assert search.own_secrets_seen["orders"] > len(games)
    if name == "europe_1615":
        assert search.own_secrets_seen["inf"] > len(games) and search.own_secrets_seen["master"]
        assert search.own_secrets_seen["empire orders"]
        seen = search.own_secrets_seen
        assert seen["empire received"] and seen["AllianceOffer"] and seen["CaptureWaiver"], seen
