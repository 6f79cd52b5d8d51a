"""Rate limits, lockout and bounded work, so that no caller can guess passwords, flood the
server with writes or take its memory (docs/server.md, "Limits").

- Rate limits per address and per account (`Limiter`), counted by the `limits` library in
  fixed windows, in a storage every process of the server shares: the server's database by
  default (`hegemon.store.counters`), Redis when $HEGEMON_RATE_LIMITS names it, or this
  process's memory (``memory://``). A refusal is a 429 with ``Retry-After``.
- Lockout after failed sign-ins: failures are counted per account name (whether an
  account has it or not, so that a refusal never tells which names exist) and per
  address, in growing windows, so that the delay grows with the guesses; while a count is
  full even the right password is refused; a sign-in that succeeds clears the name's.
- argon2 bounded in concurrency (`BoundedHasher`, 64 MiB a hash by default), and imports
  (`Slots`): past a short wait, a 503 with ``Retry-After``.

Every setting comes from the environment (`Limits.from_environment`) with defaults a
public site can live with; `create_app` takes a `Limits` for tests to set their own.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import math
import os
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Literal, TypeVar

import anyio
from argon2 import PasswordHasher
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from limits import RateLimitItem, parse_many
from limits.errors import StorageError
from limits.storage import Storage, storage_from_string
from limits.strategies import FixedWindowRateLimiter
from starlette.types import ASGIApp, Receive, Scope, Send

from hegemon.server.auth import AuthError
from hegemon.store import Store
from hegemon.store.counters import Counts, DatabaseStorage

log = logging.getLogger("hegemon.limits")

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")  # reads: every other method is a write

T = TypeVar("T")


def _setting(variable: str, default: T) -> T:
    return field(default=default, metadata={"variable": variable})


@dataclass(frozen=True)
class Limits:
    """The server's limits. Rates are in `limits`' notation, several separated by ``;``:
    ``5/minute;20/hour`` (each must hold)."""

    storage: str = _setting("HEGEMON_RATE_LIMITS", "")  # "": the server's database
    prefix: str = _setting("HEGEMON_RATE_LIMITS_PREFIX", "hegemon")  # of every counter's key
    signin: str = _setting("HEGEMON_LIMIT_SIGNIN", "30/minute;300/hour")  # by address
    failures_account: str = _setting("HEGEMON_LIMIT_FAILURES_ACCOUNT", "5/minute;20/hour;100/day")
    failures_address: str = _setting("HEGEMON_LIMIT_FAILURES_ADDRESS", "20/minute;100/hour;500/day")
    signup: str = _setting("HEGEMON_LIMIT_SIGNUP", "5/hour;20/day")  # accounts by address
    writes_account: str = _setting("HEGEMON_LIMIT_WRITES_ACCOUNT", "100/minute;1500/hour")
    writes_address: str = _setting("HEGEMON_LIMIT_WRITES_ADDRESS", "300/minute;5000/hour")
    press: str = _setting("HEGEMON_LIMIT_PRESS", "30/minute")  # messages sent by an account
    hashes: int = _setting("HEGEMON_HASHES", 2)  # argon2 hashes (and sign-ins) at once
    hash_wait: float = _setting("HEGEMON_HASH_WAIT", 3.0)  # seconds, then 503
    imports: int = _setting("HEGEMON_IMPORTS", 1)  # game files imported at once
    import_wait: float = _setting("HEGEMON_IMPORT_WAIT", 10.0)  # seconds, then 503

    RATES = ("signin", "failures_account", "failures_address", "signup", "writes_account",
             "writes_address", "press")  # fmt: skip

    def __post_init__(self) -> None:
        for name in self.RATES:
            _rates(self, name)
        for name in ("hashes", "imports", "hash_wait", "import_wait"):
            if getattr(self, name) <= 0:
                raise ValueError(f"${_variable(name)} {getattr(self, name)}: must be above 0")

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] = os.environ) -> Limits:
        """The limits the environment sets, the defaults for the rest; a ValueError names
        the variable that is wrong and why."""
        given: dict[str, Any] = {}  # Any: each field's own type, made from its default's
        for item in fields(cls):
            text = environ.get(item.metadata["variable"], "")
            if text:
                read: Callable[[str], object] = type(item.default)  # str, int or float
                try:
                    given[item.name] = read(text)
                except ValueError:
                    variable = item.metadata["variable"]
                    raise ValueError(f"${variable} {text!r}: not a number") from None
        return cls(**given)


def _variable(name: str) -> str:
    variable: str = next(f for f in fields(Limits) if f.name == name).metadata["variable"]
    return variable


def _rates(limits: Limits, name: str) -> tuple[RateLimitItem, ...]:
    text = getattr(limits, name)
    try:
        return tuple(parse_many(text))
    except ValueError:
        raise ValueError(
            f"${_variable(name)} {text!r}: expected rates such as '5/minute;20/hour'"
        ) from None


class Refused(Exception):
    """A request refused by a limit: its answer's status and detail, and the seconds after
    which to try again (``Retry-After``)."""

    status = 429

    def __init__(self, detail: str, retry_after: int) -> None:
        super().__init__(detail)
        self.detail, self.retry_after = detail, retry_after

    def answer(self) -> JSONResponse:
        headers = {"Retry-After": str(self.retry_after)}
        return JSONResponse({"detail": self.detail}, self.status, headers=headers)


class Limited(Refused):
    """Refused by a rate limit (429)."""


class Busy(Refused):
    """Work the server has no room for now (503)."""

    status = 503


@dataclass(frozen=True)
class Rule:
    """One limit: its rates, the name of its counters, and what a refusal says."""

    key: str
    rates: tuple[RateLimitItem, ...]
    detail: str


class Limiter:
    """The server's rate limits, on their shared storage. Each check talks to that storage:
    it is called from the thread a route or dependency runs in, never the event loop."""

    def __init__(self, limits: Limits, store: Store) -> None:
        self.prefix = limits.prefix
        self.storage = _storage(limits.storage, store)
        self.counters = FixedWindowRateLimiter(self.storage)

        def rule(key: str, name: str, detail: str) -> Rule:
            return Rule(key, _rates(limits, name), detail)

        self.signin = rule("signin", "signin", "too many sign-in attempts from this address")
        self.failures_account = rule(
            "failed-account", "failures_account", "too many failed sign-ins for this account"
        )
        self.failures_address = rule(
            "failed-address", "failures_address", "too many failed sign-ins from this address"
        )
        self.signup = rule("signup", "signup", "too many accounts opened from this address")
        self.writes_account = rule("writes-account", "writes_account",
                                   "too many changes by this account")  # fmt: skip
        self.writes_address = rule("writes-address", "writes_address",
                                   "too many changes from this address")  # fmt: skip
        self.press = rule("press", "press", "too many messages sent by this account")

    @contextlib.contextmanager
    def signing_in(self, request: Request, name: str) -> Iterator[None]:
        """Around a sign-in: refused while the name or the address has too many failures
        (even with the right password), counted as a failure if it raises AuthError, and
        the name's failures cleared if it succeeds."""
        address, account = client_address(request), _account_key(name)
        self.hit(self.signin, address, request)
        self.check(self.failures_account, account, request)
        self.check(self.failures_address, address, request)
        try:
            yield
        except AuthError:
            self.count(self.failures_account, account)
            self.count(self.failures_address, address)
            raise
        for rate in self.failures_account.rates:
            self.counters.clear(rate, self.prefix, self.failures_account.key, account)

    def opening_account(self, request: Request) -> None:
        self.hit(self.signup, client_address(request), request)

    def writing(self, request: Request, user_id: int) -> None:
        """A write by the signed-in account from the request's address: the address's
        count, then the account's (`writing_from`, and the account's own rate)."""
        self.hit_each(
            request,
            [(self.writes_address, client_address(request)), (self.writes_account, str(user_id))],
        )

    def writing_from(self, request: Request) -> None:
        """A write from the request's address, by nobody signed in (every write counts:
        `deps.writes_by_address`)."""
        self.hit(self.writes_address, client_address(request), request)

    def sending(self, request: Request, user_id: int) -> None:
        """A message sent by the account (`Limits.press`)."""
        self.hit(self.press, str(user_id), request)

    def hit(self, rule: Rule, who: str, request: Request) -> None:
        """Count one more of the rule's events for `who`; Limited if that is too many."""
        self.hit_each(request, [(rule, who)])

    def hit_each(self, request: Request, events: Sequence[tuple[Rule, str]]) -> None:
        """Count one more of each rule's events for its `who`, in turn: Limited by the
        first that is one too many (the rest then not counted, as if counted apart)."""
        full = self._count_each(events)
        if full is not None:
            self._refuse(*full, request)

    def _count_each(
        self, events: Sequence[tuple[Rule, str]]
    ) -> tuple[Rule, str, list[RateLimitItem]] | None:
        """Count each rule's event for its `who` in each of its rates' windows, in turn
        (in one transaction where the counters are in the database), up to the first that
        goes past a rate: that rule, who, and the rates it goes past."""
        if not isinstance(self.storage, DatabaseStorage):
            return _first_full(events, self._hit_rates)
        with self.storage.counting() as counts:
            return _first_full(events, lambda rule, who: self._count(counts, rule, who))

    def _count(self, counts: Counts, rule: Rule, who: str) -> list[RateLimitItem]:
        """One more of the rule's events for `who` in each of its rates' windows (every
        rate counts it), in the transaction of `counts`: the rates it goes past."""
        windows = [(rate.key_for(self.prefix, rule.key, who), rate.get_expiry())
                   for rate in rule.rates]  # fmt: skip
        hits = counts.incr_all(windows)
        return [rate for rate, count in zip(rule.rates, hits, strict=True) if count > rate.amount]

    def _hit_rates(self, rule: Rule, who: str) -> list[RateLimitItem]:
        """One more of the rule's events for `who` in `limits`' own storage."""
        return [
            rate for rate in rule.rates if not self.counters.hit(rate, self.prefix, rule.key, who)
        ]

    def check(self, rule: Rule, who: str, request: Request) -> None:
        """Limited if `who` has used up one of the rule's rates (counting nothing)."""
        full = [
            rate for rate in rule.rates if not self.counters.test(rate, self.prefix, rule.key, who)
        ]
        if full:
            self._refuse(rule, who, full, request)

    def count(self, rule: Rule, who: str) -> None:
        for rate in rule.rates:
            self.counters.hit(rate, self.prefix, rule.key, who)

    def _refuse(self, rule: Rule, who: str, full: list[RateLimitItem], request: Request) -> None:
        """Limited, with the seconds until the last of the full windows ends."""
        now = time.time()
        ends = max(
            self.counters.get_window_stats(rate, self.prefix, rule.key, who).reset_time
            for rate in full
        )
        retry_after = max(1, math.ceil(ends - now))
        log.warning(
            "refused",
            extra={
                "limit": rule.key,
                "rates": ";".join(str(rate) for rate in full),
                "address": client_address(request),
                "user_id": getattr(request.state, "user_id", None),
                "method": request.method,
                "path": request.url.path,
                "retry_after": retry_after,
            },
        )
        raise Limited(f"{rule.detail}: try again in {retry_after} s", retry_after)


def _first_full(
    events: Sequence[tuple[Rule, str]], count: Callable[[Rule, str], list[RateLimitItem]]
) -> tuple[Rule, str, list[RateLimitItem]] | None:
    """Each event counted in turn (`count` gives the rates it goes past), up to the first
    that goes past one: its rule, who, and those rates."""
    for rule, who in events:
        full = count(rule, who)
        if full:
            return rule, who, full
    return None


def _storage(url: str, store: Store) -> Storage:
    """Where the counters are kept: the server's database unless `url` names another."""
    if not url:
        return DatabaseStorage(store=store, wrap_exceptions=True)
    storage = storage_from_string(url, wrap_exceptions=True)
    assert isinstance(storage, Storage), f"{url}: an asynchronous storage; give a synchronous one"
    return storage


def _account_key(name: str) -> str:
    """An account name as its counters know it: in any case, hashed (so that the counters
    do not list the names tried) and short."""
    return hashlib.sha256(name.lower().encode()).hexdigest()[:32]


def client_address(request: Request) -> str:
    """The caller's address (behind a proxy trusted by ``--forwarded-allow-ips``, the
    address the proxy says it serves)."""
    return request.client.host if request.client else "unknown"


def limiter(request: Request) -> Limiter:
    found: Limiter = request.app.state.limiter
    return found


class BoundedHasher(PasswordHasher):
    """argon2 with at most `slots` hashes at once (each takes its memory cost, 64 MiB by
    default): a hash that cannot start within `wait` seconds is refused (Busy), so that a
    storm of sign-ins waits or is refused rather than taking the server's memory."""

    def __init__(self, hasher: PasswordHasher, slots: int, wait: float) -> None:
        super().__init__(
            hasher.time_cost, hasher.memory_cost, hasher.parallelism, hasher.hash_len,
            hasher.salt_len, hasher.encoding, hasher.type,
        )  # fmt: skip
        self.slots = threading.BoundedSemaphore(slots)
        self.wait = wait

    @contextlib.contextmanager
    def _slot(self) -> Iterator[None]:
        if not self.slots.acquire(timeout=self.wait):
            raise Busy("too many sign-ins at once: try again in a few seconds", 2)
        try:
            yield
        finally:
            self.slots.release()

    def hash(self, password: str | bytes, *, salt: bytes | None = None) -> str:
        with self._slot():
            return super().hash(password, salt=salt)

    def verify(self, hash: str | bytes, password: str | bytes) -> Literal[True]:
        with self._slot():
            return super().verify(hash, password)


class Slots:
    """At most `size` of a kind of work at once, for requests in the event loop: a request
    that cannot start within `wait` seconds is refused (Busy)."""

    def __init__(self, size: int, wait: float, what: str) -> None:
        self.semaphore = anyio.Semaphore(size)
        self.wait, self.what = wait, what

    async def acquire(self) -> None:
        """One of the slots, waited for in the event loop; Busy if none frees in time."""
        with anyio.move_on_after(self.wait):
            await self.semaphore.acquire()
            return
        raise Busy(f"too many {self.what} at once: try again in a few seconds", 5)

    @contextlib.asynccontextmanager
    async def taken(self) -> AsyncIterator[None]:
        await self.acquire()
        try:
            yield
        finally:
            self.semaphore.release()


HASHING_ROUTES = {("POST", "/api/sessions"), ("POST", "/api/accounts")}


class HashingGate:
    """The ASGI middleware that lets at most `Limits.hashes` sign-ins and account openings
    into the application at once: the others wait in the event loop, not each in a worker
    thread (a storm of them would take every thread and stop every other request), and
    after `Limits.hash_wait` seconds are refused (503)."""

    def __init__(self, app: ASGIApp, slots: Slots) -> None:
        self.app, self.slots = app, slots

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or (scope["method"], scope["path"]) not in HASHING_ROUTES:
            await self.app(scope, receive, send)
            return
        try:
            await self.slots.acquire()
        except Busy as exc:
            await exc.answer()(scope, receive, send)
            return
        try:
            await self.app(scope, receive, send)
        finally:
            self.slots.semaphore.release()


def install(app: FastAPI, limits: Limits) -> None:
    """The limits on the app: its rate limiter, its import slots, the gate of sign-ins,
    and their refusals as answers (the bodies' limits are `hegemon.server.bodies.BodyLimit`)."""
    app.state.limiter = Limiter(limits, app.state.store)
    app.state.imports = Slots(limits.imports, limits.import_wait, "imports")
    app.state.signing_in = Slots(limits.hashes, limits.hash_wait, "sign-ins")
    app.add_middleware(HashingGate, slots=app.state.signing_in)

    @app.exception_handler(Refused)
    def refused(request: Request, exc: Refused) -> JSONResponse:
        return exc.answer()

    @app.exception_handler(StorageError)
    def unreachable(request: Request, exc: StorageError) -> JSONResponse:
        log.error("rate-limit storage failed", extra={"error": type(exc.storage_error).__name__})
        return Busy("the rate limits' storage does not answer: try again", 5).answer()
