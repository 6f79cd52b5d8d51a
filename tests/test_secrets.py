"""No player-facing output carries another power's secrets.

A hundred random games of each influence variant, and at every phase every output a
player or a program reads (the board as text and as JSON before the phase, with every
power's orders pending; the report and the results as JSON after it) is rendered for
every viewer and searched for the secrets of the other powers:
- everyone's pending orders, until they are adjudicated;
- orders secret until the end (Sub-Saharan's bids, Europe 1615's INF deployments and
  waivers), until the game is over;
- Europe 1615's ledger: a power's INFs in each state, its spending, its alliance offers
  and waivers, and the Ottoman Empire's patron (rules: STATUS, DIPLOMATIC ATTACK).

Each check has its counterpart: the power itself, and the game master, do read these
secrets somewhere, so the search cannot pass by finding nothing anywhere.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Iterator

import pytest

from hegemon.game import PhaseResult, Variant, chances_for, play_phase, settle
from hegemon.jsonio import phase_result_to_json, position_to_json
from hegemon.orders import Order, Secrecy
from hegemon.position import MASTER, OBSERVER, Position, Viewer
from hegemon.randomplay import random_orders
from hegemon.report import phase_report, position_report
from hegemon.variants import load_variant
from hegemon.variants.europe_1615 import OTTOMAN, Ledger

GAMES = 100
MAX_PHASES = 300


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


def _texts(orders: list[Order], secret_only: bool) -> set[str]:
    return {o.format() for o in orders if not secret_only or o.secrecy is Secrecy.UNTIL_END}


class Search:
    """Every output for every viewer, searched for the other powers' secrets."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.viewers = [OBSERVER, *(Viewer(power=p) for p in variant.powers)]
        self.own_secrets_seen: Counter[str] = Counter()

    def phase(self, before: Position, orders: dict[str, list[Order]], result: PhaseResult) -> None:
        variant = self.variant
        pending = {p: _texts(given, secret_only=False) for p, given in orders.items()}
        secret = {p: _texts(given, secret_only=True) for p, given in orders.items()}
        for viewer in self.viewers:
            # The board as JSON before the phase is the one the previous phase's results
            # hold, searched then; as text it is searched here, orders pending.
            shown_before = [position_report(variant, before, viewer)]
            shown_after = [
                phase_report(variant, result, viewer),
                json.dumps(phase_result_to_json(result, viewer)),
            ]
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

    @staticmethod
    def _absent(
        fragments: set[str], outputs: list[str], viewer: Viewer, power: str, what: str
    ) -> None:
        for fragment in fragments:
            for output in outputs:
                assert not _contains(output, fragment), (
                    f"{viewer} reads {what} of {power}: {fragment}"
                )


def _contains(output: str, fragment: str) -> bool:
    """The fragment as a whole: "3: FRA" is not in "13: FRA"."""
    if fragment not in output:  # the common case, and fast
        return False
    return re.search(rf"(?<!\w){re.escape(fragment)}(?!\w)", output) is not None


def _any_in(fragments: set[str], outputs: list[str]) -> bool:
    return any(_contains(output, fragment) for fragment in fragments for output in outputs)


def _ledger_checks(search: Search, before: Position, result: PhaseResult) -> None:
    """Europe 1615: the JSON views hold a power's own INF numbers, spending, offers and
    waivers only, and the Ottoman patron only for the patron; the text never names the
    patron or another power's INFs."""
    for position in (before, result.after):
        ledger = Ledger.of(position)
        patron = ledger.patron(OTTOMAN)
        for viewer in search.viewers:
            seen = position_to_json(position, viewer)["state"]["ledger"]
            others = set(search.variant.powers) - {viewer.power}
            assert not others & {p for held in seen["inf"].values() for p in held}
            for secret in ("spent", "offers", "waived"):
                assert not others & set(seen[secret]), f"{viewer} reads others' {secret}"
            if patron is not None and patron != viewer.power:
                assert seen["status"][OTTOMAN][1] is None, f"{viewer} reads the Ottoman patron"
                for text in (position_report(search.variant, position, viewer),):
                    assert f"Ottoman Empire: ALIGNED with {patron}" not in text
            if viewer.power and seen["inf"]:
                search.own_secrets_seen["inf"] += 1
    for viewer in search.viewers:
        report = phase_report(search.variant, result, viewer)
        for power in search.variant.powers:
            if power != viewer.power:
                assert f"INFs of {power}:" not in report, f"{viewer} reads {power}'s INFs"
    master = position_to_json(result.after, MASTER)["state"]["ledger"]
    if master["inf"] and Ledger.of(result.after).patron(OTTOMAN):
        search.own_secrets_seen["master"] += 1


@pytest.mark.parametrize("name", ["sub_saharan", "europe_1615"])
def test_no_output_carries_another_powers_secrets(name: str) -> None:
    variant = load_variant(name)
    search = Search(variant)
    phases = 0
    for seed in range(GAMES):
        for before, orders, result in _phases(variant, seed):
            search.phase(before, orders, result)
            if name == "europe_1615":
                _ledger_checks(search, before, result)
            phases += 1
    assert phases > GAMES * 20
    # The counterparts: the powers did read their own secrets, so the search was real.
    assert search.own_secrets_seen["orders"] > GAMES
    if name == "europe_1615":
        assert search.own_secrets_seen["inf"] > GAMES and search.own_secrets_seen["master"]
