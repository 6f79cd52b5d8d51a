"""Builds Hegemon, pure Python by default; with HEGEMON_COMPILE=1, its core compiled by mypyc.

The compiled core is the modules every phase runs through: the map and its convoy
routes, positions, orders, the rules hooks, legality, notation, the adjudicators, the
phase machine and the JSON path; and the variants' steps each of their phases takes (the
influence economies, Europe 1615's and Africa II's phase steps, Sub-Saharan's bidding and
rules). Everything else (the variants' classes, the server, drawing) stays Python and
imports them alike; docs/compiled-core.md says what compiled code asks of the modules
listed here.
"""

import os

from setuptools import setup

CORE = [
    "src/hegemon/convoys.py",
    "src/hegemon/board.py",
    "src/hegemon/position.py",
    "src/hegemon/orders.py",
    "src/hegemon/reasons.py",
    "src/hegemon/rules.py",
    "src/hegemon/legality.py",
    "src/hegemon/notation.py",
    "src/hegemon/jsonio.py",
    "src/hegemon/adjudication/outcome.py",
    "src/hegemon/adjudication/movement.py",
    "src/hegemon/beyond.py",
    "src/hegemon/adjudication/retreat.py",
    "src/hegemon/adjudication/adjustment.py",
    "src/hegemon/game/chance.py",
    "src/hegemon/game/ending.py",
    "src/hegemon/game/phases.py",
    "src/hegemon/game/machine.py",
    "src/hegemon/game/forms.py",
    "src/hegemon/game/reach.py",
    "src/hegemon/game/menus.py",
    "src/hegemon/influence/inf.py",
    "src/hegemon/influence/dp.py",
    "src/hegemon/influence/saved.py",
    "src/hegemon/variants/europe_1615/checks.py",
    "src/hegemon/variants/europe_1615/forms.py",
    "src/hegemon/variants/europe_1615/ledger.py",
    "src/hegemon/variants/europe_1615/lines.py",
    "src/hegemon/variants/europe_1615/preparation.py",
    "src/hegemon/variants/europe_1615/states.py",
    "src/hegemon/variants/europe_1615/rules.py",
    "src/hegemon/variants/europe_1615/scoring.py",
    "src/hegemon/variants/europe_1615/winter.py",
    "src/hegemon/variants/sub_saharan/bidding.py",
    "src/hegemon/variants/sub_saharan/rules.py",
    "src/hegemon/variants/africa_ii/autumn.py",
    "src/hegemon/variants/africa_ii/book.py",
    "src/hegemon/variants/africa_ii/declarations.py",
    "src/hegemon/variants/africa_ii/given.py",
    "src/hegemon/variants/africa_ii/guerillas.py",
    "src/hegemon/variants/africa_ii/holdings.py",
    "src/hegemon/variants/africa_ii/interventions.py",
    "src/hegemon/variants/africa_ii/landings.py",
    "src/hegemon/variants/africa_ii/ledger.py",
    "src/hegemon/variants/africa_ii/preparation.py",
    "src/hegemon/variants/africa_ii/rules.py",
    "src/hegemon/variants/africa_ii/scoring.py",
    "src/hegemon/variants/africa_ii/states.py",
]

if os.environ.get("HEGEMON_COMPILE") == "1":
    from mypyc.build import mypycify

    setup(ext_modules=mypycify(CORE, opt_level="3"))
else:
    setup()
