"""A short scripted classic game, played by ``make run`` to show the judge at work."""

from __future__ import annotations

from collections.abc import Iterator

from hegemon.game import Game
from hegemon.notation import parse_order, split_power
from hegemon.orders import Order
from hegemon.position import OBSERVER
from hegemon.report import phase_report
from hegemon.variants import load_variant

SCRIPT = [
    """
    England: F lon - nth
    England: F edi - nrg
    England: A lvp - yor
    France: A par - bur
    France: A mar S A par - bur
    France: F bre - mid
    Germany: A mun - bur
    Germany: A ber - kie
    Germany: F kie - den
    Russia: A war - gal
    Austria: A vie - gal
    Austria: A bud - ser
    Austria: F tri - alb
    Italy: A ven - tyr
    Italy: A rom - ven
    Italy: F nap - ion
    Turkey: A con - bul
    Turkey: F ank - bla
    Russia: F sev - bla
    """,
    """
    England: F nth C A yor - nwy
    England: A yor - nwy
    England: F nrg S A yor - nwy
    France: F mid - spa/nc
    France: A bur - bel
    France: A mar - spa
    Germany: F den H
    Germany: A kie - hol
    Germany: A mun H
    Austria: A ser - gre
    Austria: F alb S A ser - gre
    Russia: A war - gal
    Italy: F ion - tun
    Italy: A tyr - mun
    Turkey: A bul - rum
    """,
    """
    England: Build F edi
    France: Build F bre
    Germany: Build A ber
    Germany: Build F kie
    Austria: Build F tri
    Italy: Build F nap
    Turkey: Build A con
    """,
    """
    Germany: A hol - bel
    Germany: A mun - bur
    Germany: F den - ska
    England: F nth S A hol - bel
    England: A nwy H
    France: A bel H
    France: A mar - bur
    """,
    """
    France: A bel R pic
    """,
]


def play() -> Iterator[str]:
    """Yield the report of each phase of the scripted game, in order."""
    variant = load_variant("classic")
    game = Game.new(variant)
    for script in SCRIPT:
        orders: dict[str, list[Order]] = {}
        for line in filter(None, (raw.strip() for raw in script.splitlines())):
            power, text = split_power(line)
            orders.setdefault(power or "", []).append(parse_order(text, variant.board))
        for power, given in orders.items():
            game.set_orders(power, given)
        yield phase_report(variant, game.adjudicate(), OBSERVER)
