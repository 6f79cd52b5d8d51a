"""The bodies requests send, checked before anything is read: types, lengths and counts
(the same limits as the CLI's readers, `hegemon.jsonio`), and no field that is not known,
so that a mistyped field is refused rather than ignored."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

from hegemon import jsonio
from hegemon.server.policy import Policy

Name = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_.\-]+$")]
Password = Annotated[str, Field(min_length=8, max_length=200)]
PowerName = Annotated[str, Field(min_length=1, max_length=60)]
OrderText = Annotated[str, Field(min_length=1, max_length=jsonio.MAX_ORDER_LENGTH)]
PhaseCode = Annotated[str, Field(min_length=1, max_length=12)]
Seconds = Annotated[int, Field(ge=0, le=10**8)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Credentials(Strict):
    name: Name
    password: Password


class SignIn(Credentials):
    cookie: bool = Field(False, description="also set the session as an HttpOnly cookie")


class PolicyIn(Strict):
    """Deadlines and missed orders (docs/server.md, "Deadlines")."""

    deadlines: dict[Annotated[str, Field(max_length=40)], Seconds] = Field(
        default_factory=lambda: dict(Policy().deadlines), max_length=20
    )
    early: bool = True
    grace: Seconds = 0
    disorder_after: Annotated[int, Field(ge=0, le=1000)] = 2
    pause_after: Annotated[int, Field(ge=0, le=1000)] = 3

    def policy(self) -> Policy:
        return Policy(
            dict(self.deadlines), self.early, self.grace, self.disorder_after, self.pause_after
        )


OptionValue = StrictInt | StrictBool | Annotated[StrictStr, Field(max_length=100)]


class NewGame(Strict):
    variant: Annotated[str, Field(min_length=1, max_length=60)]
    title: Annotated[str, Field(max_length=100)] = ""
    options: dict[Annotated[str, Field(max_length=60)], OptionValue] | None = Field(
        None, max_length=50
    )
    seats: list[PowerName] | None = Field(None, max_length=50)
    seed: Annotated[int, Field(ge=0, le=2**63 - 1)] | None = None
    policy: PolicyIn = Field(default_factory=PolicyIn)


class Seat(Strict):
    power: PowerName


class OrdersIn(Strict):
    orders: list[OrderText] = Field(max_length=jsonio.MAX_ORDERS)
    power: PowerName | None = Field(None, description="the game master names the power")
    replace: bool = Field(False, description="these orders replace all the power's earlier ones")
    phase: PhaseCode | None = Field(None, description="refuse if the game is at another phase")
    version: StrictInt | None = Field(None, description="refuse if the orders changed since")


class ReadyIn(Strict):
    power: PowerName | None = None
    ready: bool = True


DrawValue = Annotated[int, Field(ge=1, le=10**6)] | list[Annotated[str, Field(max_length=60)]]


class AdjudicateIn(Strict):
    draws: dict[Annotated[str, Field(max_length=60)], DrawValue] | None = Field(None, max_length=20)


class ExtendIn(Strict):
    seconds: Annotated[int, Field(ge=1, le=10**8)]


class ReplaceIn(Strict):
    power: PowerName
    user: Name


class DisorderIn(Strict):
    power: PowerName
    disorder: bool = True


class EndIn(Strict):
    draw: list[PowerName] = Field(default_factory=list, max_length=50)
    concede_to: PowerName | None = None


class ImportIn(Strict):
    game: dict[str, object] = Field(description="a CLI game file (docs/json.md)")
    title: Annotated[str, Field(max_length=100)] = ""
    policy: PolicyIn = Field(default_factory=PolicyIn)


RowId = Annotated[int, Path(ge=1, le=2**31 - 1, description="a game's number")]
PhaseNumber = Annotated[int, Path(ge=1, le=2**31 - 1, description="1 for the first phase played")]
