"""The bot's orders beyond its units' own: builds, points spent (bids, deployments, IPs),
declarations, placements, rankings, whatever else a variant's menu offers, through its
forms alone (`hegemon.game.forms`) and judged by playouts.

Points are bought at the price a playout shows wins each form (a state led, a bid won),
the best gain a point first, the rest spread over those bought; or they go where the
forms' sites lie nearest the power's units and centers, spread over the most promising
forms or piled on one or a few: a few allocations are played against the same replies and
the best kept. A form of listed orders (a build, a declaration, a waiver) is given an
order only where a playout shows it gains something (a build adds a unit, a declared home
center counts), best gains first, while the phase's check accepts it; a ranking takes its
choices nearest first.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from hegemon.bots.heuristics import Outlook, preferred
from hegemon.bots.search import REPLIES, Playouts
from hegemon.game.forms import Amount, FormError, OneOf, OrderForm, Purse
from hegemon.orders import Order, UnitOrder

Accepts = Callable[[Sequence[Order]], bool]  # whether the phase's check takes these orders

TRIED = 6  # a form's listed orders tried by playouts, its most promising first
HEDGE = 10  # how many forms points are also tried spread over, the most promising
SPREADS = (2, 3)  # and how many more, besides all
SINGLES = 4  # the most promising forms each also tried with all the points alone
NAMED = 2  # forms with named values (a power to attack) tried, their most promising first
PRICES = (1, 3, 7)  # the points a form is tried with alone, fewest first, to find its price
MARGIN = 3  # points beyond a stake's price: the others may add theirs in the same phase


def spend(
    playouts: Playouts, forms: Sequence[OrderForm], units: Sequence[Order], accepts: Accepts
) -> list[Order]:
    """Orders for the forms beside the units' (`units` are the power's unit orders)."""
    outlook = playouts.outlook
    given: list[Order] = []
    against = REPLIES if playouts.moving else 1
    ranking = [f for f in forms if f.ranking and f.choices]
    for form in ranking:
        order = _ranked(outlook, form)
        if order is not None and accepts([*units, *given, order]):
            given.append(order)
    for purse, spenders in _by_purse(forms).items():
        given += _allocation(playouts, purse, spenders, [*units, *given], accepts, against)
    named = [f for f in forms if f.fields and all(isinstance(x, OneOf) for x in f.fields)]
    named.sort(key=lambda f: -outlook.form_value(f))
    for form in named[:NAMED]:
        given += _best_named(playouts, form, [*units, *given], accepts, against)
    for form in forms:
        if not form.fields and not form.ranking and form.unit is None and form.choices:
            given += _gains(playouts, form, [*units, *given], accepts, against)
    return given


def _ranked(outlook: Outlook, form: OrderForm) -> Order | None:
    """A ranking form's choices, the most promising first, as many as it takes."""
    order = preferred(outlook, form)
    picks = [i for o in order for i, c in enumerate(form.choices) if c.order == o]
    picks = picks[: form.most]
    try:
        return form.fill(picks, {})
    except FormError:
        return None


def _by_purse(forms: Sequence[OrderForm]) -> dict[Purse, list[OrderForm]]:
    """The forms with an amount to fill in, by the purse it comes out of."""
    purses: dict[str, Purse] = {}
    spenders: dict[str, list[OrderForm]] = {}
    for form in forms:
        if form.spends is not None and any(isinstance(x, Amount) for x in form.fields):
            purses.setdefault(form.spends.name, form.spends)
            spenders.setdefault(form.spends.name, []).append(form)
    return {purses[name]: found for name, found in spenders.items()}


def _allocation(
    playouts: Playouts,
    purse: Purse,
    forms: list[OrderForm],
    given: list[Order],
    accepts: Accepts,
    against: int,
) -> list[Order]:
    """The best of a few ways of spending the purse, by playouts: the forms bought at
    their prices (`_priced`); spread evenly over the ten most promising forms, or two,
    three or all of them; all on the most promising form (any left on the next), or on
    the second, or all on each of the next few alone (where a playout shows a state won
    by points piled on it). A form of listed orders (a bid for another's unit) gives the
    one that helps our orders most (supports a move of ours, makes way for it)."""
    outlook = playouts.outlook
    picks = {id(f): _helpful(outlook, f, given) for f in forms}
    forms = sorted(forms, key=lambda f: (-picks[id(f)][0], -outlook.form_value(f)))
    left = purse.left(given)
    if not forms or left <= 0:
        return []
    # The first way is kept unless a playout rates another better: bought at the prices
    # the playouts show, as points beyond what wins a state (or a bid) buy nothing more
    # there, and a point where it wins nothing is lost.
    pick = {id(f): picks[id(f)][1] for f in forms}
    ways = [_staked(forms, left)] if any(f.stake for f in forms) else []
    ways += [_priced(playouts, forms, pick, given, accepts, left), _spread(forms[:HEDGE], left)]
    ways += [_concentrated(forms[:3], left), _concentrated(forms[1:3], left)]
    ways += [_concentrated(forms[n : n + 1], left) for n in range(1, min(SINGLES, len(forms)))]
    ways += [_spread(forms[:count], left) for count in SPREADS if count < len(forms)]
    ways.append(_spread(forms, left))
    candidates = [
        c
        for c in (_filled([(f, picks[id(f)][1], points) for f, points in way]) for way in ways)
        if c and accepts([*given, *c])
    ]
    if not candidates:
        return []
    best, best_value = candidates[0], playouts.value([*given, *candidates[0]], against)
    for candidate in candidates[1:]:
        value = playouts.value([*given, *candidate], against)
        if value is None or best_value is None:
            break
        if value > best_value:
            best, best_value = candidate, value
    return best


def _priced(
    playouts: Playouts,
    forms: Sequence[OrderForm],
    pick: Mapping[int, int],
    given: list[Order],
    accepts: Accepts,
    left: int,
) -> list[tuple[OrderForm, int]]:
    """The forms bought at their prices. A form's price is the fewest points (of PRICES)
    with which a playout of it alone, against one reply, shows a gain (`pick`: its listed
    order, by the form's id): every form is tried at the lowest price, most promising
    first, then those not bought yet at the next, while the budget allows. The forms
    priced are bought best gain a point first while the points last; then those the
    budget left untried, at their least (most forms are won cheaply, and a point put
    where it gains nothing is the smaller loss); any points left are spread over all
    those bought, as the others' points (which the playout may not play) may outbid a
    narrow lead."""
    offers, tried = _probed(playouts, forms, pick, given, accepts, left)
    offers.sort(key=lambda offer: -offer[0])
    untried = [(form, _amount(form).least) for form in forms if id(form) not in tried]
    bought = []
    for form, points in [*((f, p) for _, f, p in offers), *untried]:
        if points <= left:
            bought.append((form, points))
            left -= points
    return _topped_up(bought, left)


def _staked(forms: Sequence[OrderForm], left: int) -> list[tuple[OrderForm, int]]:
    """The forms whose stakes the variant tells, bought at their prices (and a MARGIN),
    the best prize a point first while the points last; any left spread over those bought."""
    staked = [f for f in forms if f.stake is not None and f.stake.prize > 0]
    staked.sort(key=lambda f: -_prize(f) / (_price(f) + MARGIN))
    bought = []
    for form in staked:
        amount = _amount(form)
        points = min(amount.most, max(amount.least, _price(form) + MARGIN))
        if points <= left:
            bought.append((form, points))
            left -= points
    return _topped_up(bought, left)


def _prize(form: OrderForm) -> int:
    return form.stake.prize if form.stake is not None else 0


def _price(form: OrderForm) -> int:
    return form.stake.price if form.stake is not None else 0


Offer = tuple[float, OrderForm, int]  # a form's gain a point, and the points it takes


def _probed(
    playouts: Playouts,
    forms: Sequence[OrderForm],
    pick: Mapping[int, int],
    given: list[Order],
    accepts: Accepts,
    left: int,
) -> tuple[list[Offer], set[int]]:
    """Each form played alone at each price in turn, while the budget allows: the offers
    of those that gain at a price, and the forms tried (by id)."""
    offers: list[Offer] = []
    tried: set[int] = set()
    priced: set[int] = set()
    base = playouts.value(given, 1)
    if base is None:
        return offers, tried
    for points in (p for p in PRICES if p <= left):
        for form in forms:
            if id(form) in priced or points < _amount(form).least:
                continue
            orders = [*given, *(_filled([(form, pick[id(form)], points)]) or [])]
            accepted = len(orders) > len(given) and accepts(orders)
            value = playouts.value(orders, 1) if accepted else base
            if value is None:
                return offers, tried
            tried.add(id(form))
            if value > base:
                offers.append(((value - base) / points, form, points))
                priced.add(id(form))
    return offers, tried


def _topped_up(bought: list[tuple[OrderForm, int]], left: int) -> list[tuple[OrderForm, int]]:
    """`left` points more shared evenly between the forms bought, within each one's most."""
    extra = {id(form): points for form, points in _spread([f for f, _ in bought], left)}
    return [
        (form, min(points + extra.get(id(form), 0), _amount(form).most)) for form, points in bought
    ]


def _amount(form: OrderForm) -> Amount:
    return next(x for x in form.fields if isinstance(x, Amount))


def _helpful(outlook: Outlook, form: OrderForm, given: Sequence[Order]) -> tuple[float, int]:
    """How much the form's most helpful listed order helps ours, and which it is (the
    first, if it lists none)."""
    return max(
        ((outlook.helps(c.order, given), i) for i, c in enumerate(form.choices)),
        key=lambda found: (found[0], -found[1]),
        default=(0.0, 0),
    )


def _spread(forms: Sequence[OrderForm], left: int) -> list[tuple[OrderForm, int]]:
    """`left` points shared evenly between the forms (the first take any odd points),
    each given no less than it takes, until none are left."""
    shares = []
    for n, form in enumerate(forms):
        amount = _amount(form)
        share = min(amount.most, max(amount.least, -(-left // (len(forms) - n))))
        if share > left:
            break
        shares.append((form, share))
        left -= share
    return shares


def _concentrated(forms: Sequence[OrderForm], left: int) -> list[tuple[OrderForm, int]]:
    """`left` points put into as few of the forms as take them, in their order."""
    shares = []
    for form in forms:
        amount = _amount(form)
        share = min(amount.most, left)
        if share >= amount.least:
            shares.append((form, share))
            left -= share
        if left <= 0:
            break
    return shares


def _filled(way: Sequence[tuple[OrderForm, int, int]]) -> list[Order] | None:
    """The orders of one allocation: each form with its pick and its points."""
    orders = []
    for form, pick, points in way:
        if points <= 0:
            continue
        values: dict[str, int | str] = {}
        for field in form.fields:
            values[field.name] = field.values[0] if isinstance(field, OneOf) else points
        try:
            orders.append(form.fill([pick] if form.choices else [], values))
        except FormError:
            return None
    return orders


def _best_named(
    playouts: Playouts, form: OrderForm, given: list[Order], accepts: Accepts, against: int
) -> list[Order]:
    """The form filled with whichever of its named values a playout rates best, if any
    beats leaving it out."""
    base = playouts.value(given, against)
    if base is None:
        return []
    field = form.fields[0]
    assert isinstance(field, OneOf), "named: every field one of named values"
    best: list[Order] = []
    for value in field.values:
        try:
            order = form.fill([0] if form.choices else [], {f.name: value for f in form.fields})
        except FormError:
            continue
        if not accepts([*given, order]):
            continue
        score = playouts.value([*given, order], against)
        if score is None:
            break
        if score > base:
            best, base = [order], score
    return best


def _gains(
    playouts: Playouts, form: OrderForm, given: list[Order], accepts: Accepts, against: int
) -> list[Order]:
    """The form's listed orders that a playout shows gain something, best first, each
    while the check accepts it. With no playouts left, a listed order for a unit (a
    build) is given in the heuristics' order, as it is hardly ever a loss."""
    tried = preferred(playouts.outlook, form)[:TRIED]
    base = playouts.value(given, against)
    gains: list[tuple[float, Order]] = []
    for order in tried:
        score = None if base is None else playouts.value([*given, order], against)
        if base is None or score is None:
            gains = [(0.0, o) for o in tried if isinstance(o, UnitOrder)]
            break
        if score > base:
            gains.append((score - base, order))
    gains.sort(key=lambda g: -g[0])
    added: list[Order] = []
    for _, order in gains:
        if accepts([*given, *added, order]):
            added.append(order)
    return added
