"""A game's deadline policy and what becomes of a power that sends no orders: explicit
settings of each game, chosen when it is created (docs/server.md, "Deadlines").

- `deadlines`: the length of each kind of phase in seconds, by the kind's name in lower
  case (``movement``, ``retreat``, ``adjustment``, or a variant's own, such as
  ``placement``) and ``other`` for the kinds not named; 0 sets no deadline (the game
  master adjudicates, or the players by all being ready).
- `early`: adjudicate as soon as every power awaited has marked itself ready.
- `grace`: seconds granted once per phase past the deadline when a power awaited has
  sent no orders at all.
- `disorder_after`: a power that sends no orders in this many phases in a row, where
  it had something to order, goes into civil disorder (0: never). A power that sends
  nothing holds, as its variant does with no orders (in Winter, the disbands of civil
  disorder); one in civil disorder is no longer awaited, and comes back by sending orders
  or when the game master gives its seat to another player.
- `disorder_bot`: a power in civil disorder is played by a bot (`hegemon.bots.Bot`), which
  gives its orders and says ready each phase as a player would, instead of holding; off
  by default, as the rules have a power in civil disorder hold. Its player comes back as
  above, and the bot stops.
- `pause_after`: a game whose deadline passes this many times in a row with nobody having
  sent orders or said ready, in phases that await someone, is paused by the server until
  its game master resumes it (0: never). An abandoned game stops there, rather than being
  adjudicated for ever.
- `press`: what the players may say to one another (`PressPolicy`, docs/server.md,
  "Press").
- `votes`: whether the players' votes (draw, concession, pause, resume) are secret until
  they pass, or public to every member (docs/server.md, "Votes").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta
from typing import Any, Literal

DAY = 24 * 3600


def _standard_lengths() -> dict[str, int]:
    return {"movement": 2 * DAY, "retreat": DAY, "adjustment": DAY, "other": DAY}


PressMode = Literal["full", "public", "none"]
VoteSecrecy = Literal["secret", "public"]


@dataclass(frozen=True)
class PressPolicy:
    """The press a game allows: `mode` full (private, group and public press), public
    (public press only) or none (gunboat); whether public press may be grey (its author
    hidden from every player); whether press goes on in the phases other than movement
    (retreats, adjustments, a variant's own); whether the game master reads the powers'
    private press. Messages to and from the game master are allowed in every game and
    phase: the game master's own channel is not negotiation between powers."""

    mode: PressMode = "full"
    grey: bool = False
    other_phases: bool = True
    master_reads: bool = False


@dataclass(frozen=True)
class Policy:
    deadlines: Mapping[str, int] = field(default_factory=_standard_lengths)
    early: bool = True
    grace: int = 0
    disorder_after: int = 2
    pause_after: int = 3
    disorder_bot: bool = False
    press: PressPolicy = field(default_factory=PressPolicy)
    votes: VoteSecrecy = "secret"

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Policy:
        """The policy a game stores (checked when the game was created); a setting added
        since a game was stored takes its default. (Any: the stored JSON's values are the
        fields' own, as `to_json` wrote them.)"""
        press = PressPolicy(**data.get("press", {}))
        return cls(**{**data, "press": press})

    def to_json(self) -> dict[str, object]:
        data = asdict(self)
        data["deadlines"] = dict(self.deadlines)
        return data

    def length(self, kind_name: str) -> int:
        """Seconds a phase of this kind lasts; 0 for no deadline."""
        name = kind_name.lower()
        return self.deadlines.get(name, self.deadlines.get("other", 0))

    def deadline(self, kind_name: str, now: datetime) -> datetime | None:
        seconds = self.length(kind_name)
        return now + timedelta(seconds=seconds) if seconds else None


NO_DEADLINES = Policy(deadlines={"other": 0}, early=True, grace=0, disorder_after=0)
