"""Wealth: buying with it, the Purser and Scavenge skills, the price list and prize money
(BtQ L1737-1854; ``rules/btq_missions.md`` §7, A2, A14, A16; ``rules/btq_characters.md``
§1.4; ``rules/DECISIONS.md`` D4, D7, D8).

Pure functions over plain values; the card tests themselves are :mod:`rules.btq.tests`
(through the ``btq_test`` engine at the table):

* :data:`PRICE_LIST` (BtQ L1837-1854) and :func:`price_item`;
* :func:`purchase_terms`: whether a purchase is forbidden, automatic or needs a Wealth test,
  the Influence gate of a Maimed Wealth, and the test's opposition (BtQ L1743-1753);
* :data:`PRIZE_TABLE`, :func:`prize_class`, :func:`prize_row`, :func:`prize_entries` and
  :func:`automatic_successes` (BtQ L1769-1835);
* :func:`rejudge_with_automatic`: a Wealth test's record judged again with a prize share's
  automatic successes added to the player's result (BtQ L1772-1773);
* :data:`SUPPLY_TESTS`: the Purser and Scavenge tests (BtQ L1755-1767).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rules.btq.characters import DamageState
from rules.btq.settings import resolve
from rules.btq.tests import SuccessLevel, compare_successes
from rules.cards import parse_card

MAX_WEALTH = 10
"""The top of the Wealth scale, the Royal Family (BtQ L1121-1123)."""

WEALTH_LEVELS: tuple[str, ...] = (
    "destitute, poor house", "peasant, farm worker", "shopkeeper, craftsman",
    "trader, artisan", "clergy, doctor, merchant", "land owner, fleet magnate",
    "lesser nobility, MP", "generals, admirals", "upper nobility", "lower ranks of royalty",
    "the Royal Family",
)
"""How a character of each Wealth 0-10 lives (BtQ L1121-1123)."""


class WealthError(ValueError):
    """A purchase or prize share the rules do not allow; the message says why."""


@dataclass(frozen=True, slots=True)
class PriceItem:
    """One line of the book's example Wealth test costs: ``key``, ``category``, ``name`` and
    ``cost`` on the Wealth scale (BtQ L1837-1854)."""

    key: str
    category: str
    name: str
    cost: int

    def as_dict(self) -> dict:
        return {"key": self.key, "category": self.category, "name": self.name,
                "cost": self.cost}


def _items(category: str, rows: str) -> tuple[PriceItem, ...]:
    items = []
    for row in rows.strip().splitlines():
        name, cost = row.rsplit(" ", 1)
        key = name.lower().replace("'", "").replace(" ", "_")
        items.append(PriceItem(key, category, name, int(cost)))
    return tuple(items)


PRICE_LIST: tuple[PriceItem, ...] = (
    *_items("Clothes", """
Sailor's Clothing 2
Officer's Clothing 3
Fine Officer's Clothing 4
Officer's Dress Uniform 5
Fine Dress Uniform 6
Town Clothing 3
Fine Town Clothing 4
Ladies' Clothing 3
Fine Ladies' Clothing 4"""),
    *_items("Weapons", """
Standard Sword 3
Fine Sword 4
Pair of Pistols 3
Fine Pair of Pistols 4"""),
    *_items("Livestock & Animals", """
Riding Horse 3
Fine Riding Horse 4
Scrawny mutt 1
Ship's Cat 1
Hunting Dog 3"""),
    *_items("Services", """
Carriage 3
Sedan Chair 2
Clerk 2
Lawyer 3
Surgeon 3
Bodyguard 2
Guide 1"""),
    *_items("Accommodation", """
Port Tavern 1
Port Lodging House 2
Well Appointed Hotel 3
Purchase shack 3
Purchase townhouse 4
Purchase country house 6
Purchase country estate 8"""),
    *_items("Entertainment", """
Dockside whore 1
High class courtesan 4
A meal at port 1
A fine meal at port 2
Seaman's musical instrument 1
Fine musical instrument 3
Night at the theatre 2
A book 2"""),
)
"""The book's example Wealth test costs, 40 items in six categories (BtQ L1837-1854;
``rules/btq_missions.md`` §7.5)."""

PRICES: dict[str, PriceItem] = {item.key: item for item in PRICE_LIST}

RARITY: dict[str, int] = {"common": -1, "ordinary": 0, "scarce": 1, "rare": 2}
"""The GM's adjustment of the opposition to the item's rarity (BtQ L1747: "depending on the
price and the rarity"; ``rules/btq_missions.md`` A2)."""


def price_item(key: str) -> PriceItem:
    """The price-list item ``key`` (``"officers_dress_uniform"``); :class:`WealthError` for
    an unknown one."""
    try:
        return PRICES[key]
    except KeyError:
        raise WealthError(f"{key!r} is not on the price list") from None


@dataclass(frozen=True, slots=True)
class PurchaseTerms:
    """How a purchase of ``cost`` goes for a character of Wealth ``wealth`` in ``state``
    (BtQ L1743-1753):

    * ``mode``: ``"forbidden"`` (``reason`` says why), ``"automatic"`` (no test: it is
      available and costs less than the Wealth) or ``"test"`` (a Wealth test against
      ``opposition`` cards, the player's pool Wealth less the damage penalty);
    * ``gate``: a Maimed Wealth first needs a passed Influence test (a simple test, D4) to
      make any purchase, automatic or not.
    """

    mode: str
    cost: int
    wealth: int
    state: DamageState
    opposition: int | None = None
    gate: bool = False
    reason: str = ""

    def as_dict(self) -> dict:
        return {"mode": self.mode, "cost": self.cost, "wealth": self.wealth,
                "state": self.state.name.lower(), "opposition": self.opposition,
                "gate": self.gate, "reason": self.reason}


def _whole(value, what: str, low: int = 0, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (
            high is not None and value > high):
        bound = f"{low} to {high}" if high is not None else f"at least {low}"
        raise WealthError(f"{what} must be a whole number, {bound}, not {value!r}")
    return value


def purchase_terms(*, wealth: int, state: DamageState | int, cost: int,
                   available: bool = True, rarity: str = "ordinary",
                   opposition: int | None = None) -> PurchaseTerms:
    """The terms of buying an item of ``cost`` with Wealth ``wealth`` whose damage state is
    ``state`` (BtQ L1743-1753; ``rules/btq_missions.md`` §7.3, A2):

    1. a cost above Wealth + 2 cannot be attempted ("Wealth 2 ... cannot attempt ... Wealth
       5"); a Dead Wealth buys nothing (no test in a Dead area, BtQ L1328);
    2. a Maimed Wealth needs an Influence test first (``gate``);
    3. available and costing less than the Wealth: automatic, no test;
    4. otherwise a Wealth test against ``opposition`` cards: the GM's number, by default the
       cost adjusted for ``rarity`` (:data:`RARITY`), never below 0.

    Raises :class:`WealthError` for values off the scale or an unknown rarity.
    """
    wealth = _whole(wealth, "Wealth", 0, MAX_WEALTH)
    cost = _whole(cost, "the cost", 0, MAX_WEALTH)
    state = DamageState(state)
    if rarity not in RARITY:
        raise WealthError(f"rarity must be one of {', '.join(RARITY)}, not {rarity!r}")
    if opposition is not None:
        opposition = _whole(opposition, "the opposition", 0, 51)
    if cost > wealth + 2:
        return PurchaseTerms("forbidden", cost, wealth, state, reason=(
            f"an item of cost {cost} is beyond Wealth {wealth} + 2: it cannot be attempted"))
    if state == DamageState.DEAD:
        return PurchaseTerms("forbidden", cost, wealth, state, reason=(
            "Wealth is Dead (bankrupt): nothing can be bought until a Mission restores it"))
    gate = state == DamageState.MAIMED
    if available and cost < wealth:
        return PurchaseTerms("automatic", cost, wealth, state, gate=gate)
    if opposition is None:
        opposition = max(0, cost + RARITY[rarity])
    return PurchaseTerms("test", cost, wealth, state, opposition, gate)


# --- Purser and Scavenge ---------------------------------------------------------------

SUPPLY_TESTS: dict[str, dict] = {
    "purser": {"skill": "purser", "label": "Purser",
               "intent": "Draw supplies from the Victualling Yard beyond the allowance",
               "kind": "static", "source": "BtQ L1755-1762"},
    "scavenge": {"skill": "scavenge", "label": "Scavenge",
                 "intent": "Find the items needed from the local people and islands",
                 "kind": "simple", "source": "BtQ L1764-1767; D4"},
}
"""The supply tests: Purser is tested against the Victualling Yard's clerks, a static test
(reputations may add cards); Scavenge at sea is a simple test (D4), which the GM may make
static against a difficulty. Neither puts an area at risk (``rules/btq_missions.md`` A14)."""


# --- Prize money -----------------------------------------------------------------------

PRIZE_CLASSES: dict[str, str] = {
    "unrated": "an un-rated vessel",
    "rated_4_6": "a rated 4-6 ship",
    "rated_1_3": "a rated 1-3 ship",
}
"""The class of the captured ship, the columns of the prize table (BtQ L1775-1777)."""

PRIZE_ROWS: dict[str, str] = {
    "captain": "Captain",
    "lieutenant": "Lieutenant",
    "midshipman": "Midshipman",
    "warrant_officer": "Warrant Officer",
    "able_seaman": "Able Seaman",
    "seaman": "Seaman",
}
"""The ranks of the prize table, its rows (BtQ L1779-1825)."""


def _entries(text: str) -> tuple[tuple[int, int], ...]:
    return tuple((int(e.split("(")[0]), int(e.split("(")[1].rstrip(")")))
                 for e in text.replace(" ", "").split(","))


PRIZE_TABLE: dict[str, dict[str, tuple[tuple[int, int], ...]]] = {
    "captain": {"unrated": _entries("5(1), 4(2), 3(3), 2(4)"),
                "rated_4_6": _entries("6(1), 5(2), 4(3), 3(4), 2(5)"),
                "rated_1_3": _entries("6(2), 5(3), 4(4), 3(5), 2(6)")},
    "lieutenant": {"unrated": _entries("4(1), 3(2), 2(3), 1(3)"),
                   "rated_4_6": _entries("5(1), 4(2), 3(3), 2(4)"),
                   "rated_1_3": _entries("5(2), 4(3), 3(4), 2(4)")},
    "midshipman": {"unrated": _entries("3(1), 2(3), 1(3)"),
                   "rated_4_6": _entries("4(1), 3(2), 2(3), 1(4)"),
                   "rated_1_3": _entries("4(2), 3(3), 2(3), 1(4)")},
    "warrant_officer": {"unrated": _entries("3(1), 2(3), 1(3)"),
                        "rated_4_6": _entries("4(1), 3(2), 2(3), 1(4)"),
                        "rated_1_3": _entries("4(2), 3(3), 2(3), 1(4)")},
    "able_seaman": {"unrated": _entries("2(2), 1(2)"),
                    "rated_4_6": _entries("3(1), 2(2), 1(3)"),
                    "rated_1_3": _entries("3(2), 2(2), 1(4)")},
    "seaman": {"unrated": _entries("2(1), 1(1)"),
               "rated_4_6": _entries("2(1), 1(2)"),
               "rated_1_3": _entries("3(1), 2(1), 1(3)")},
}
"""The prize shares, transcribed as printed: rank -> captured ship's class -> entries
``(L, k)``, "k automatic successes in a Wealth test against an opposition of L or lower"
(BtQ L1769-1825; ``rules/btq_missions.md`` §7.6; its irregular cells are the book's)."""

_ROW_OF_RANK: tuple[tuple[str, str], ...] = (
    ("captain", "captain"), ("commander", "captain"), ("lieutenant", "lieutenant"),
    ("marine officer", "lieutenant"), ("midshipman", "midshipman"),
    ("able seaman", "able_seaman"), ("landsman", "seaman"), ("seaman", "seaman"),
    ("mate", "petty_officer"), ("petty officer", "petty_officer"),
    ("master", "warrant_officer"), ("purser", "warrant_officer"),
    ("surgeon", "warrant_officer"), ("gunner", "warrant_officer"),
    ("boatswain", "warrant_officer"), ("bosun", "warrant_officer"),
    ("carpenter", "warrant_officer"), ("warrant", "warrant_officer"),
)
"""Words of a rank or position, in the order they are looked for, and the prize row they
mean; Commander shares as Captain, Landsman as Seaman, a Marine officer as Lieutenant
(``rules/btq_missions.md`` A16, a reading: the table leaves them out)."""


def prize_row(rank: str, settings: Mapping | None = None) -> str | None:
    """The prize table's row for a character of ``rank`` (free text: "Master", "Gunner's
    Mate", "Midshipman"), or ``None`` when no word of it is a rank. A Mate (Petty Officer)
    shares as a Warrant Officer, or as an Able Seaman when the campaign setting
    ``petty_officer_tier`` makes Petty Officers ratings (D7; ``rules/btq_missions.md`` A16).
    A "Mate" is looked for before the warrant officer it serves ("Gunner's Mate")."""
    text = (rank or "").lower()
    for word, row in _ROW_OF_RANK:
        if word in text:
            if row == "petty_officer":
                tier = resolve(settings)["petty_officer_tier"]
                return "warrant_officer" if tier == "warrant" else "able_seaman"
            return row
    return None


def prize_class(rating: int | None) -> str:
    """The prize class of a captured ship of ``rating`` (1-6, ``None`` un-rated: sloops,
    cutters, merchantmen) (BtQ L1775-1777)."""
    if rating is None:
        return "unrated"
    rating = _whole(rating, "a ship's rate", 1, 6)
    return "rated_1_3" if rating <= 3 else "rated_4_6"


def prize_entries(row: str, klass: str) -> tuple[tuple[int, int], ...]:
    """The entries ``(L, k)`` of ``row`` for a prize of ``klass``; :class:`WealthError`
    for an unknown one."""
    if row not in PRIZE_TABLE or klass not in PRIZE_CLASSES:
        raise WealthError(f"no prize share for {row!r} and {klass!r}")
    return PRIZE_TABLE[row][klass]


def automatic_successes(entries, opposition: int) -> int:
    """The automatic successes a prize share of ``entries`` gives in a Wealth test against
    ``opposition`` cards: the best ``k`` of the entries whose level is at or above the
    opposition; 0 above the highest level (``rules/btq_missions.md`` §7.6)."""
    return max((k for level, k in entries if opposition <= level), default=0)


def entries_text(entries) -> str:
    """``"4(2), 3(3), 2(3)"``, as the book writes a share."""
    return ", ".join(f"{level}({k})" for level, k in entries)


def rejudge_with_automatic(record: Mapping, who: str, automatic: int) -> dict:
    """Judge a finished Wealth test's ``record`` (:class:`rules.btq.tests.TestRecord` JSON)
    again with ``automatic`` Ordinary successes added to ``who``'s result (a prize share,
    BtQ L1772-1773). The automatic successes have no card: in a tie-break they rank below
    every real Ordinary (``rules/btq_missions.md`` §7.6). The rounds are judged in order and
    the first decided one stands, as the retests would have stopped there (D3).

    Returns ``{"outcome": "won" | "stalemate", "winner", "loser", "result": level name,
    "round": 1-based, "changed": bool}``.
    """
    if automatic < 1:
        raise WealthError("a prize share adds at least one automatic success")
    for rnd in record["rounds"]:
        chains = []
        for hand in rnd["hands"]:
            chain = [(SuccessLevel[lv.upper()], _rank(card))
                     for card, lv in zip(hand["cards"], hand["levels"]) if lv and lv != "failure"]
            chain.sort(reverse=True)
            if hand["who"] == who:
                chain += [(SuccessLevel.ORDINARY, 0)] * automatic
            chains.append((hand["who"], chain))
        (a_who, a), (b_who, b) = chains
        result = compare_successes(a, b)
        if result in ("a", "b"):
            win, lose = (a_who, b_who) if result == "a" else (b_who, a_who)
            best = (a if result == "a" else b)[0][0]
            return {"outcome": "won", "winner": win, "loser": lose,
                    "result": best.name.lower(), "round": rnd["number"],
                    "changed": win != record.get("winner")}
    return {"outcome": "stalemate", "winner": None, "loser": None, "result": None,
            "round": record["rounds"][-1]["number"], "changed": record.get("winner") is not None}


def _rank(card: str) -> int:
    played = parse_card(card.split("=")[-1])
    return played.rank
