"""The reference data of Horse, Foot and Guns, shipped as JSON in ``data/`` and read by one
typed loader: the master troop-type table with grades and costs (``troops.json``; digest
2.2, 2.3, 3.2; L52-145, L243-253, L272-289), the battlefield preparations
(``preparations.json``; digest 3.3, L190-202) and every army list in the text
(``lists.json``; digest 3.4, L353-397).

Army lists are written in the book's own notation, ``"2-4 BAY @4"`` (2 to 4 Bayonets at 4 AP
each), parsed here into :class:`Entry` and :class:`Option`. The list's price and counts win
over the generic table and limits (digest A12); :attr:`Option.table_price` keeps the table's
price so that a deviation can be shown. :func:`list_totals` computes an army list's least and
greatest cost (vectors G1-G18); :func:`validate_army` checks a bought army against its list
and raises :class:`rules.engine.IllegalAction` naming the rule broken.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from rules.engine import IllegalAction

CATEGORIES = ("staff", "mounted", "foot", "artillery", "naval", "logistics", "aeronauts")
"""Element categories (digest 2.1, L52-55)."""

GRADE_COST_KEY = {None: "basic", "E": "elite", "I": "inferior", "A": "active",
                  "L": "lethargic", "HVY": "heavy", "HOR": "horse"}
"""Which cost column a grade reads in the cost table (digest 3.2)."""

Band = tuple[int | None, int]
"""A dated value: (last year it applies, inclusive, or None for open-ended; the value)."""


@dataclass(frozen=True, slots=True)
class TroopType:
    """One row of the master troop-type table (digest 2.2). Distances in paces.

    ``dates``: the periods (first, last year; None open) the type exists in; ``move``: good /
    slow / difficult going allowance, None for artillery (see :func:`move_allowance`), naval
    and the immobile; ``ranges``: dated shooting ranges (first band whose year covers the
    battle's), empty for non-shooters, ``naval_range`` for the naval table; ``cf``: combat
    factors against Staff-or-Mounted / Dismounted-or-Foot / Other (None: cannot fight that
    category); ``dismounted_cf`` and ``dismounted_ranges`` for dismountables (digest 2.4);
    ``costs``: AP by cost column (None: the grade is not allowed); ``ee``: element
    equivalents (digest 2.3, A20)."""

    code: str
    name: str
    category: str
    dates: tuple[tuple[int | None, int | None], ...]
    depth: int
    move: tuple[int, int, int] | None
    ranges: tuple[Band, ...]
    naval_range: bool
    any_edge: bool
    cf: tuple[int | None, int | None, int | None]
    heavy_cf: tuple[int, int, int] | None
    heavy_long_range: int | None
    dismounted_cf: tuple[int, int, int] | None
    dismounted_ranges: tuple[Band, ...]
    ee: int
    costs: Mapping[str, int | None]

    @property
    def dismountable(self) -> bool:
        """Dragoons, Repeaters, Mounted Rifles and Rifle Cavalry (L118-120)."""
        return self.dismounted_cf is not None

    def exists_in(self, year: int) -> bool:
        """Whether the type may be fielded in ``year`` (its dates; no dates: any year)."""
        if not self.dates:
            return True
        return any((a is None or a <= year) and (b is None or year <= b) for a, b in self.dates)


@dataclass(frozen=True, slots=True)
class Option:
    """One way to fill a list entry: ``count`` elements of ``type`` (a troop code or a
    preparation code) at ``grade`` (None for basic) for ``price`` AP each (the list's price,
    else the table's). ``table_price`` is the cost table's price (None if the table forbids
    the grade); ``id`` names it in an army (``"e-bay-guards"``)."""

    id: str
    type: str
    grade: str | None
    price: int
    table_price: int | None
    note: str

    @property
    def is_preparation(self) -> bool:
        return self.type in preparations()

    @property
    def deviates(self) -> bool:
        """Whether the list charges another price than the cost table (the book's ⚠)."""
        return self.price != self.table_price


@dataclass(frozen=True, slots=True)
class Per:
    """A count tied to other entries: ``count`` elements for each whole ``each`` of the
    entries ``of`` (the Japanese 2 Rifled Artillery per 12 Rifles, L395-397)."""

    count: int
    each: int
    of: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Entry:
    """A line of an army list: between ``least`` and ``most`` elements, all from its
    ``options`` together; open only from ``first_year`` to ``last_year`` (None: always);
    ``per`` makes the count depend on other entries (then least/most are unused)."""

    least: int
    most: int
    options: tuple[Option, ...]
    first_year: int | None = None
    last_year: int | None = None
    per: Per | None = None

    def open_in(self, year: int | None) -> bool:
        if year is None:
            return True
        return ((self.first_year is None or self.first_year <= year)
                and (self.last_year is None or year <= self.last_year))

    @property
    def label(self) -> str:
        return " or ".join(f"{o.grade + '-' if o.grade else ''}{o.type} @{o.price}"
                           + (f" ({o.note})" if o.note else "") for o in self.options)


@dataclass(frozen=True, slots=True)
class Section:
    """A corps or contingent bought between ``count[0]`` and ``count[1]`` times (each time
    with its own ``entries``), open from ``first_year``; ``allied`` for an allied contingent."""

    id: str
    name: str
    count: tuple[int, int]
    entries: tuple[Entry, ...]
    first_year: int | None
    allied: bool


@dataclass(frozen=True, slots=True)
class ArmyList:
    """An army list of the text (digest 3.4): ``id`` (``"gnw-swedish"``), the ``war`` and
    ``side``, its ``years``, aggression factor ``ag`` (None where the book gives none), the
    suggested AP band ``ap``, the book's printed totals ``book`` (for vectors G), the army
    entries and the repeatable ``sections``."""

    id: str
    war: str
    side: str
    years: tuple[int, int]
    ag: int | None
    ap: tuple[int, int] | None
    book: Mapping[str, Any]
    entries: tuple[Entry, ...]
    sections: tuple[Section, ...]
    fragment: bool
    note: str
    source: str

    @property
    def title(self) -> str:
        return f"{self.war}: {self.side} {self.years[0]}-{self.years[1]}"

    def options(self) -> dict[str, Option]:
        """The army-level options by id."""
        return {o.id: o for e in self.entries for o in e.options}


@cache
def _load(name: str) -> dict:
    text = resources.files("rules.hfg").joinpath("data", f"{name}.json").read_text(
        encoding="utf-8")
    return json.loads(text)


def _bands(raw: Sequence) -> tuple[Band, ...]:
    return tuple((b[0], int(b[1])) for b in raw)


@cache
def troop_types() -> dict[str, TroopType]:
    """Every troop type by code (``"MUS"``); shared, callers must not change it."""
    out = {}
    for code, t in _load("troops")["types"].items():
        rng = t.get("range")
        dis = t.get("dismounted")
        out[code] = TroopType(
            code=code, name=t["name"], category=t["category"],
            dates=tuple((d[0], d[1]) for d in t.get("dates", ())), depth=t["depth"],
            move=tuple(t["move"]) if t.get("move") else None,  # type: ignore[arg-type]
            ranges=_bands(rng) if isinstance(rng, list) else (),
            naval_range=rng == "naval", any_edge=bool(t.get("any_edge")),
            cf=tuple(t["cf"]),  # type: ignore[arg-type]
            heavy_cf=tuple(t["heavy_cf"]) if "heavy_cf" in t else None,  # type: ignore[arg-type]
            heavy_long_range=t.get("heavy_long_range"),
            dismounted_cf=tuple(dis["cf"]) if dis else None,  # type: ignore[arg-type]
            dismounted_ranges=_bands(dis["range"]) if dis else (),
            ee=t.get("ee", 1), costs=dict(t["cost"]))
    return out


def troop_type(code: str) -> TroopType:
    """The troop type ``code``; ``ValueError`` naming the known codes."""
    types = troop_types()
    if code not in types:
        raise ValueError(f"unknown troop type {code!r}; known: {', '.join(types)}")
    return types[code]


def reference(name: str) -> dict:
    """A raw data section: ``"artillery_moves"``, ``"naval_moves"``, ``"naval_ranges"``,
    ``"flagship_cost"`` or ``"grades"`` of ``troops.json``. ``KeyError`` for another name."""
    data = _load("troops")
    if name == "types" or name not in data:
        raise KeyError(f"no HFG reference data {name!r}")
    return data[name]


@cache
def preparations() -> dict[str, dict]:
    """Battlefield preparations by code (``"REDOUBT"``): name, cost, max, who (digest 3.3)."""
    return _load("preparations")["preparations"]


def table_cost(code: str, grade: str | None = None) -> int | None:
    """The cost table's AP for one element of ``code`` at ``grade`` (None: basic; ``"E"``,
    ``"I"``, ``"A"``, ``"L"``, ``"HVY"``, ``"HOR"``), or for a preparation; None where the
    table forbids that grade (Elite Light Infantry) or gives no price (Submarine).
    ``ValueError`` for an unknown code or grade (digest 3.2, 3.3)."""
    if code in preparations():
        if grade is not None:
            raise ValueError(f"a preparation has no grade ({grade}-{code})")
        return int(preparations()[code]["cost"])
    if grade not in GRADE_COST_KEY:
        known = ", ".join(g for g in GRADE_COST_KEY if g)
        raise ValueError(f"unknown grade {grade!r}; known: {known}")
    t = troop_type(code)
    return t.costs.get(GRADE_COST_KEY[grade])


_ENTRY = re.compile(r"^(?:(\d+)(?:-(\d+))?\s+)?(?:(A|L|E|I|HVY|HOR)-)?([A-Z]+)"
                    r"(?:\s+@(\d+))?(?:\s+(.*))?$")


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _parse_entry(raw: str | Mapping[str, Any], where: str) -> Entry:
    spec: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {"e": raw}
    options = []
    least = most = None
    for n, part in enumerate(str(spec["e"]).split(" | ")):
        m = _ENTRY.match(part.strip())
        if not m:
            raise ValueError(f"{where}: cannot read the entry {part!r}")
        lo, hi, grade, code, price, note = m.groups()
        if n == 0 and "per" not in spec:
            if lo is None:
                raise ValueError(f"{where}: the entry {part!r} has no count")
            least, most = int(lo), int(hi or lo)
        elif lo is not None:
            raise ValueError(f"{where}: only the first option of {spec['e']!r} has a count")
        table = table_cost(code, grade)
        if price is None and table is None:
            raise ValueError(f"{where}: {part!r} has no price and the table gives none")
        label = f"{grade + '-' if grade else ''}{code}" + (f" {note}" if note else "")
        options.append(Option(id=_slug(label), type=code, grade=grade,
                              price=int(price) if price else int(table),  # type: ignore[arg-type]
                              table_price=table, note=note or ""))
    per = spec.get("per")
    return Entry(least=least or 0, most=most or 0, options=tuple(options),
                 first_year=spec.get("from"), last_year=spec.get("until"),
                 per=Per(per["count"], per["each"], tuple(per["of"])) if per else None)


def _unique(entries: Sequence[Entry], where: str) -> None:
    seen: set[str] = set()
    for e in entries:
        for o in e.options:
            if o.id in seen:
                raise ValueError(f"{where}: two entries are named {o.id!r}")
            seen.add(o.id)


@cache
def army_lists() -> dict[str, ArmyList]:
    """Every army list of the text by id, in the book's order."""
    out = {}
    for raw in _load("lists")["lists"]:
        where = raw["id"]
        entries = tuple(_parse_entry(e, where) for e in raw["entries"])
        _unique(entries, where)
        sections = []
        for s in raw.get("sections", ()):
            s_entries = tuple(_parse_entry(e, f"{where}/{s['id']}") for e in s["entries"])
            _unique(s_entries, f"{where}/{s['id']}")
            sections.append(Section(id=s["id"], name=s["name"], count=tuple(s["count"]),  # type: ignore[arg-type]
                                    entries=s_entries, first_year=s.get("from"),
                                    allied=bool(s.get("allied"))))
        out[where] = ArmyList(
            id=where, war=raw["war"], side=raw["side"], years=tuple(raw["years"]),  # type: ignore[arg-type]
            ag=raw.get("ag"), ap=tuple(raw["ap"]) if raw.get("ap") else None,  # type: ignore[arg-type]
            book=raw.get("book", {}), entries=entries, sections=tuple(sections),
            fragment=bool(raw.get("fragment")), note=raw.get("note", ""), source=raw["source"])
    return out


def army_list(list_id: str) -> ArmyList:
    """The army list ``list_id``; ``ValueError`` naming the known ones."""
    lists = army_lists()
    if list_id not in lists:
        raise ValueError(f"unknown army list {list_id!r}; known: {', '.join(lists)}")
    return lists[list_id]


def _entries_totals(entries: Sequence[Entry], year: int | None,
                    choices: frozenset[str]) -> tuple[int, int]:
    """Least and greatest AP of ``entries``: each open entry at its least / most count, an
    entry of several options at the option named in ``choices``, else at its cheapest for the
    least and its dearest for the greatest."""
    low = high = 0
    counts_low: dict[str, int] = {}
    counts_high: dict[str, int] = {}
    for e in entries:
        if not e.open_in(year) or e.per:
            continue
        chosen = [o for o in e.options if o.id in choices] or list(e.options)
        low += e.least * min(o.price for o in chosen)
        high += e.most * max(o.price for o in chosen)
        for o in e.options:
            counts_low[o.id], counts_high[o.id] = e.least, e.most
    for e in entries:
        if e.per and e.open_in(year):
            price, per = e.options[0].price, e.per
            low += per.count * (sum(counts_low.get(i, 0) for i in per.of) // per.each) * price
            high += per.count * (sum(counts_high.get(i, 0) for i in per.of) // per.each) * price
    return low, high


def list_totals(lst: ArmyList, *, year: int | None = None, choices: Sequence[str] = (),
                section: str | None = None, sections: bool = True) -> tuple[int, int]:
    """The least and greatest AP of the army list ``lst`` (digest 3.4, vectors G; A12: the
    totals are computed, never the book's). ``year`` keeps only the entries open then (None:
    every entry); ``choices`` names the option ids taken where an entry offers several
    (otherwise the cheapest counts for the least, the dearest for the greatest). ``section``
    gives one section's totals alone; ``sections=False`` leaves the sections out."""
    picked = frozenset(choices)
    if section is not None:
        found = [s for s in lst.sections if s.id == section]
        if not found:
            raise ValueError(f"{lst.title} has no section {section!r}")
        return _entries_totals(found[0].entries, year, picked)
    low, high = _entries_totals(lst.entries, year, picked)
    if sections:
        for s in lst.sections:
            if year is not None and s.first_year is not None and year < s.first_year:
                continue
            s_low, s_high = _entries_totals(s.entries, year, picked)
            low += s.count[0] * s_low
            high += s.count[1] * s_high
    return low, high


def _check_entries(entries: Sequence[Entry], counts: Mapping[str, int], year: int,
                   where: str) -> int:
    """The AP of ``counts`` (option id -> elements) bought from ``entries``; IllegalAction
    naming the entry whose count or year the purchase breaks."""
    known = {o.id: o for e in entries for o in e.options}
    for oid, n in counts.items():
        if oid not in known:
            raise IllegalAction(f"{where} has no entry {oid!r}; its entries are "
                                f"{', '.join(known)}")
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise IllegalAction(f"{where}: the number of {oid} must be a whole number, not {n!r}")
    total = 0
    for e in entries:
        have = sum(counts.get(o.id, 0) for o in e.options)
        total += sum(counts.get(o.id, 0) * o.price for o in e.options)
        if not e.open_in(year):
            if have:
                span = (f"from {e.first_year}" if e.first_year else "") + (
                    f" until {e.last_year}" if e.last_year else "")
                raise IllegalAction(f"{where}: {e.label} may only be taken {span.strip()}, "
                                    f"not in {year}")
            continue
        if e.per:
            base = sum(counts.get(i, 0) for i in e.per.of)
            need = e.per.count * (base // e.per.each)
            if have != need:
                raise IllegalAction(f"{where}: {e.label} comes {e.per.count} for every "
                                    f"{e.per.each} of {', '.join(e.per.of)}, so {need}; "
                                    f"you have {have}")
        elif not e.least <= have <= e.most:
            want = str(e.least) if e.least == e.most else f"{e.least} to {e.most}"
            raise IllegalAction(f"{where}: the army must have {want} of {e.label}; "
                                f"it has {have}")
    return total


def validate_army(army: Mapping[str, Any]) -> int:
    """Check an army against its list and return its cost in AP (digest 3.1, 3.4, A12).

    ``army``: ``{"list": id, "year": int, "counts": {option id: elements}, "sections":
    {section id: [{option id: elements}, ...]}, "points": agreed AP (optional)}``. Raises
    :class:`IllegalAction` in plain words for an unknown list or entry, a year outside the
    list, an entry below its least or above its most, an entry not open that year, a section
    bought too often or too rarely, or a cost above the agreed points."""
    try:
        lst = army_list(str(army.get("list")))
    except ValueError as exc:
        raise IllegalAction(str(exc)) from None
    year = army.get("year")
    if not isinstance(year, int) or not lst.years[0] <= year <= lst.years[1]:
        raise IllegalAction(f"the {lst.title} list is for {lst.years[0]}-{lst.years[1]}; "
                            f"the year {year!r} is outside it")
    total = _check_entries(lst.entries, army.get("counts") or {}, year, lst.title)
    bought = army.get("sections") or {}
    for sid in bought:
        if sid not in {s.id for s in lst.sections}:
            raise IllegalAction(f"{lst.title} has no section {sid!r}")
    for s in lst.sections:
        items = list(bought.get(s.id) or [])
        least = 0 if (s.first_year is not None and year < s.first_year) else s.count[0]
        most = 0 if (s.first_year is not None and year < s.first_year) else s.count[1]
        if not least <= len(items) <= most:
            want = str(least) if least == most else f"{least} to {most}"
            raise IllegalAction(f"{lst.title}: the army must have {want} {s.name}; it has "
                                f"{len(items)}")
        for n, counts in enumerate(items, 1):
            total += _check_entries(s.entries, counts, year, f"{lst.title}, {s.name} {n}")
    points = army.get("points")
    if points is not None and total > points:
        raise IllegalAction(f"the army costs {total} AP, more than the {points} AP agreed")
    return total
