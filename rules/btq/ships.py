"""Ships: the Ship Roster, ship traits and damage tracks (BtQ L2204-2347, L2464-2479;
``rules/btq_naval.md`` §2-3, §4.8-4.9).

A ship has four damaged areas (:data:`AREAS`). Each area's damage track is three segments of
boxes - Injured, Maimed, Dead - with the same number of boxes in each segment on the roster
(traits add a box to every segment of one area). A hit of a level crosses a box in that
level's segment, or the next free box to the right when the segment is full (BtQ L2468-2469).
An area *has* a damage state once every box of that state's segment is crossed, whatever the
lower segments hold (BtQ L2476; the Corsair's Guns ``.|x|.`` is Maimed, BtQ L2563).

>>> stats = ship_stats("Brig Sloop", ["Expertly Coppered Bottom"])
>>> stats.speed, stats.handling, stats.broadside, stats.boxes["hull"]
(4, 3, 1, (2, 2, 2))
>>> track = DamageTrack.parse(".|.|.").hit(1).hit(1).hit(3)
>>> str(track), track.state.name
('x|x|x', 'DEAD')
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from rules.btq.characters import DamageState
from rules.btq.tests import graded
from rules.cards import Card

__all__ = [
    "AREAS", "SUIT_AREA", "DamageState", "ShipType", "SHIP_TYPES", "ShipTrait", "SHIP_TRAITS",
    "TRAIT_ALIASES", "canonical_trait", "trait_limit", "ShipStats", "ship_stats", "DamageTrack",
    "broadside_hits",
]

AREAS: tuple[str, ...] = ("hull", "guns", "crew", "rigging")
"""The four areas of a ship that take damage, in the book's order (BtQ L2310-2312)."""

SUIT_AREA: dict[str, str] = {"H": "crew", "D": "guns", "C": "rigging", "S": "hull"}
"""The area a hit strikes, by the suit of the card (BtQ L2464-2466)."""

COMMANDS = ("Lieutenant", "Commander", "Post Captain")


@dataclass(frozen=True)
class ShipType:
    """One row of the Ship Roster (BtQ L2245-2303, L2322-2333).

    ``rating`` is 1-6, or ``None`` for the un-rated cutters and sloops; ``guns_min`` and
    ``guns_max`` the range of guns of the type (``guns_max`` ``None``: open-ended, "100+");
    ``boxes`` maps each area to the boxes in its (Injured, Maimed, Dead) segments;
    ``broadside`` is the card bonus to the Broadside! test, ``handling`` to the Positioning
    test, ``speed`` the abstract relative speed; ``source`` the book lines.
    """

    name: str
    command: str
    rating: int | None
    guns_min: int
    guns_max: int | None
    boxes: dict[str, tuple[int, int, int]]
    broadside: int
    speed: int
    handling: int
    source: str


def _type(name: str, command: str, rating: int | None, guns: tuple[int, int | None],
          per_segment: int, broadside: int, speed: int, handling: int, source: str,
          **larger: int) -> ShipType:
    boxes = {area: (larger.get(area, per_segment),) * 3 for area in AREAS}
    return ShipType(name, command, rating, guns[0], guns[1], boxes, broadside, speed, handling,
                    f"BtQ L2245-2303, {source}")


SHIP_TYPES: dict[str, ShipType] = {
    t.name: t
    for t in (
        # "Up to 18" guns: the book gives no minimum, so any ship of the type has at least one.
        _type("Cutter", "Lieutenant", None, (1, 18), 1, 0, 4, 4, "L2322"),
        _type("Brig Sloop", "Commander", None, (1, 22), 2, 1, 3, 3, "L2322-2323"),
        _type("Ship Sloop", "Commander", None, (1, 28), 2, 1, 3, 3, "L2323", rigging=3),
        _type("Sixth Rate", "Post Captain", 6, (20, 28), 3, 2, 4, 1, "L2323-2324"),
        _type("Fifth Rate", "Post Captain", 5, (32, 44), 4, 2, 4, 2, "L2324"),
        _type("Fourth Rate", "Post Captain", 4, (50, 60), 5, 3, 3, 0, "L2329"),
        _type("Third Rate", "Post Captain", 3, (64, 80), 6, 4, 3, 0, "L2329-2330"),
        _type("Second Rate", "Post Captain", 2, (90, 98), 7, 5, 2, -1, "L2330-2331"),
        _type("First Rate", "Post Captain", 1, (100, None), 8, 6, 2, -2, "L2331-2333"),
    )
}
"""The nine types of the Ship Roster by name (the book counts Brig and Ship Sloops as one of
its "eight basic types", L2204-2205)."""


@dataclass(frozen=True)
class ShipTrait:
    """A ship trait (BtQ L2337-2347): card modifiers to ``speed``, ``handling`` and
    ``broadside``, and ``boxes`` added to every segment of an area (area -> boxes). Traits
    whose effect is not a number (Renowned Name, Wily Sea Dogs, Weatherly) have zeros here
    and are handled where they act."""

    name: str
    description: str
    speed: int = 0
    handling: int = 0
    broadside: int = 0
    boxes: dict[str, int] = field(default_factory=dict)
    source: str = ""


SHIP_TRAITS: dict[str, ShipTrait] = {
    t.name: t
    for t in (
        ShipTrait("Expertly Coppered Hull", "+1 Speed", speed=1, source="BtQ L2339-2340"),
        ShipTrait("Well-drilled Topmen", "+1 Handling", handling=1, source="BtQ L2340"),
        ShipTrait("Weight of Lead", "+1 Broadside", broadside=1, source="BtQ L2340-2341"),
        ShipTrait("Heart of Oak", "one extra box in each damage state of the Hull",
                  boxes={"hull": 1}, source="BtQ L2341-2342"),
        ShipTrait("Sturdy Rigging", "one extra box in each damage state of the Rigging",
                  boxes={"rigging": 1}, source="BtQ L2342-2343"),
        ShipTrait("Jolly Tars", "one extra box in each damage state of the Crew",
                  boxes={"crew": 1}, source="BtQ L2343-2344"),
        ShipTrait("Carronades", "one extra box in each damage state of the Guns",
                  boxes={"guns": 1}, source="BtQ L2344"),
        ShipTrait("Renowned Name",
                  "a new +1 ship Reputation, or +1 to an existing ship Reputation",
                  source="BtQ L2344-2345"),
        ShipTrait("Wily Sea Dogs", "+1 to the skill of one of the ship's officers or crew",
                  source="BtQ L2345-2346"),
        ShipTrait("Weatherly",
                  "in combat, a negative weather modifier to Speed or Handling is reduced "
                  "by 1 (for one of them)", source="BtQ L2346-2347"),
    )
}
"""The ten ship traits by name."""

TRAIT_ALIASES: dict[str, str] = {
    "Expertly Coppered Bottom": "Expertly Coppered Hull",  # the Hermes example, BtQ L2535
    "Well Drilled Topmen": "Well-drilled Topmen",  # the President, BtQ L3023-3049
}


def canonical_trait(name: str) -> str:
    """The :data:`SHIP_TRAITS` key for ``name``: the name itself, a known alias, or a
    qualified Wily Sea Dogs ("Wily Sea Dogs (Gunnery)", BtQ L2831). Raises ``ValueError``
    naming the trait if it is unknown."""
    if name in SHIP_TRAITS:
        return name
    if name in TRAIT_ALIASES:
        return TRAIT_ALIASES[name]
    base, paren, _ = name.partition("(")
    if paren and base.strip() == "Wily Sea Dogs":
        return "Wily Sea Dogs"
    raise ValueError(f"unknown ship trait {name!r}; known: {', '.join(SHIP_TRAITS)}")


def trait_limit(rating: int | None) -> int:
    """How many traits a ship may take: rated 1-3 three, rated 4-6 two, un-rated one
    (BtQ L2338-2339)."""
    if rating is None:
        return 1
    if not 1 <= rating <= 6:
        raise ValueError(f"a ship's rating is 1-6 or none, not {rating!r}")
    return 3 if rating <= 3 else 2


@dataclass(frozen=True)
class ShipStats:
    """A ship's figures for battle: the type's, plus its traits, plus any per-ship
    overrides. ``boxes`` maps each area to its (Injured, Maimed, Dead) segment sizes."""

    type_name: str
    traits: tuple[str, ...]
    rating: int | None
    broadside: int
    speed: int
    handling: int
    boxes: dict[str, tuple[int, int, int]]

    def clean_tracks(self) -> dict[str, DamageTrack]:
        """An undamaged track for every area."""
        return {area: DamageTrack.clean(self.boxes[area]) for area in AREAS}


_OVERRIDE_KEYS = ("broadside", "speed", "handling", "trait_limit", *AREAS)


def ship_stats(type_name: str, traits: Iterable[str] = (), overrides: dict | None = None
               ) -> ShipStats:
    """The battle figures of a ship of roster type ``type_name`` with ``traits``.

    ``overrides`` replaces figures after the traits are applied, for sample ships whose
    printed figures differ from the roster (HMS Phoebe's Handling +1, BtQ L2313-2316;
    ``rules/btq_naval.md`` N26): ``broadside``, ``speed``, ``handling`` (int), an area name
    -> boxes per segment (int, or three ints), ``trait_limit`` (int, the President's four
    traits, BtQ L3023-3049).

    Raises ``ValueError`` with the reason for an unknown type or trait, a trait taken twice,
    more traits than the rating allows (BtQ L2338-2339), or a bad override.
    """
    ship_type = SHIP_TYPES.get(type_name)
    if ship_type is None:
        raise ValueError(f"unknown ship type {type_name!r}; known: {', '.join(SHIP_TYPES)}")
    overrides = dict(overrides or {})
    unknown = sorted(set(overrides) - set(_OVERRIDE_KEYS))
    if unknown:
        raise ValueError(f"unknown ship override {unknown[0]!r}; "
                         f"known: {', '.join(_OVERRIDE_KEYS)}")
    names = tuple(canonical_trait(t) for t in traits)
    for i, name in enumerate(names):
        if name in names[:i]:
            raise ValueError(f"the trait {name!r} can only be taken once")
    limit = overrides.pop("trait_limit", None)
    if limit is None:
        limit = trait_limit(ship_type.rating)
    elif not isinstance(limit, int) or isinstance(limit, bool) or limit < 0:
        raise ValueError(f"trait_limit must be a whole number of traits, not {limit!r}")
    if len(names) > limit:
        kind = "an un-rated" if ship_type.rating is None else f"a rate {ship_type.rating}"
        raise ValueError(f"{kind} ship may take {limit} trait(s), not {len(names)}")
    chosen = [SHIP_TRAITS[n] for n in names]
    figures = {
        key: getattr(ship_type, key) + sum(getattr(t, key) for t in chosen)
        for key in ("broadside", "speed", "handling")
    }
    boxes: dict[str, tuple[int, int, int]] = {}
    for area in AREAS:
        extra = sum(t.boxes.get(area, 0) for t in chosen)
        injured, maimed, dead = ship_type.boxes[area]
        boxes[area] = (injured + extra, maimed + extra, dead + extra)
    for key, value in overrides.items():
        if key in AREAS:
            boxes[key] = _segment_sizes(key, value)
        elif not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"override {key} must be a whole number, not {value!r}")
        else:
            figures[key] = value
    if figures["speed"] < 0:
        raise ValueError(f"a ship's Speed cannot be negative ({figures['speed']})")
    return ShipStats(type_name, names, ship_type.rating, figures["broadside"], figures["speed"],
                     figures["handling"], boxes)


def _segment_sizes(area: str, value: Any) -> tuple[int, int, int]:
    """The boxes per segment an override gives ``area``: one number for all three, or three
    (any other value is refused)."""
    given = (value,) * 3 if isinstance(value, int) and not isinstance(value, bool) else value
    try:
        sizes: tuple[Any, ...] = tuple(given)
    except TypeError:
        sizes = ()
    if len(sizes) != 3 or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 1
                                  for n in sizes):
        raise ValueError(f"override {area} must be boxes per segment: a number of at least 1, "
                         f"or three of them, not {value!r}")
    return sizes[0], sizes[1], sizes[2]


_CROSSED = frozenset("xXn")
_FREE = frozenset(".¨")


class DamageTrack:
    """One area's damage track: three segments (Injured, Maimed, Dead) of boxes, each
    crossed or free. Immutable and hashable.

    Text form (the book's glyphs ``n`` and ``¨`` are accepted too): ``x`` a crossed box,
    ``.`` a free one, ``|`` between segments, e.g. ``"x.|..|.."``.
    """

    __slots__ = ("segments", "state", "_text")

    segments: tuple[tuple[bool, ...], ...]
    state: DamageState
    _text: str

    def __init__(self, segments: Iterable[Iterable[bool]]):
        segs = tuple(tuple(bool(b) for b in seg) for seg in segments)
        if len(segs) != 3 or not all(segs):
            raise ValueError("a damage track has three segments (Injured, Maimed, Dead) "
                             "of at least one box each")
        object.__setattr__(self, "segments", segs)
        state = DamageState.HEALTHY
        for level, seg in enumerate(segs, start=1):
            if all(seg):
                state = DamageState(level)
        object.__setattr__(self, "state", state)
        object.__setattr__(self, "_text", "|".join("".join("x" if b else "." for b in seg)
                                                    for seg in segs))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a DamageTrack is immutable")

    @classmethod
    def parse(cls, text: object) -> DamageTrack:
        """The track written as ``text`` (``"x.|..|.."``). Raises ``ValueError`` naming the
        problem: not text (a stored state or an API body can hold anything; typed ``object``
        so that the compiled kernel says so too), not three segments, an empty segment, or a
        character other than ``x``/``.`` (or the book's ``n``/``¨``)."""
        if not isinstance(text, str):
            raise ValueError(f"a damage track is written as text such as 'x.|..|..', "
                             f"not {text!r}")
        cached = _PARSED.get(text)
        if cached is not None:
            return cached
        parts = text.replace(" ", "").split("|")
        if len(parts) != 3:
            raise ValueError(f"damage track {text!r} must have three segments separated by "
                             "'|' (Injured|Maimed|Dead)")
        segments = []
        for name, part in zip(("Injured", "Maimed", "Dead"), parts):
            if not part:
                raise ValueError(f"damage track {text!r}: the {name} segment has no boxes")
            bad = set(part) - _CROSSED - _FREE
            if bad:
                raise ValueError(f"damage track {text!r}: {''.join(sorted(bad))!r} is not a "
                                 "box; write 'x' for crossed and '.' for free")
            segments.append(tuple(c in _CROSSED for c in part))
        track = cls(segments)
        if len(_PARSED) < _CACHE_LIMIT:
            _PARSED[text] = track
        return track

    @classmethod
    def clean(cls, sizes: Iterable[int]) -> DamageTrack:
        """An undamaged track with ``sizes`` boxes in its (Injured, Maimed, Dead) segments."""
        return cls((False,) * n for n in sizes)

    @property
    def sizes(self) -> tuple[int, ...]:
        """Boxes per segment."""
        return tuple(len(seg) for seg in self.segments)

    @property
    def crossed(self) -> int:
        """How many boxes are crossed: the x of its text (the default policies count them
        for every declaration of a Joker)."""
        return self._text.count("x")

    def hit(self, level: int) -> DamageTrack:
        """The track after one hit of ``level`` (1 Injured/Ordinary, 2 Maimed/Critical,
        3 Dead/Perfect): the first free box of that level's segment is crossed, else the
        next free box to the right; with none free to the right the hit is lost
        (BtQ L2468-2469; ``rules/btq_naval.md`` N2)."""
        key = (self.segments, level)
        cached = _HITS.get(key)
        if cached is not None:
            return cached
        if level not in (1, 2, 3):
            raise ValueError(f"a hit is of level 1 (Injured), 2 (Maimed) or 3 (Dead), "
                             f"not {level!r}")
        segs = [list(seg) for seg in self.segments]
        result = self
        for seg in segs[level - 1:]:
            if not all(seg):
                seg[seg.index(False)] = True
                result = DamageTrack(segs)
                break
        if len(_HITS) < _CACHE_LIMIT:
            _HITS[key] = result
        return result

    def repair_levels(self, max_level: int) -> tuple[int, ...]:
        """The levels (1 Injured, 2 Maimed, 3 Dead) of the boxes a repair with a success of
        ``max_level`` may clear: every level "equal to, or lower than the level of the
        success" with a crossed box (BtQ L2410-2412), lowest first."""
        return tuple(level for level in range(1, max(0, min(max_level, 3)) + 1)
                     if any(self.segments[level - 1]))

    def best_repair_level(self, max_level: int) -> int | None:
        """The level of the box the repairer clears by default: the one that lifts the most
        penalty, i.e. leaves the lowest damage state, and among those the highest level,
        the box hardest to clear later (``rules/btq_naval.md`` §4.5 item 5, N5). ``None`` if
        no box may be cleared. A Hull ``xx|x.|..`` repaired with a Critical clears an
        Injured box (``x.|x.|..``, Healthy), not the Maimed one (``xx|..|..``, Injured)."""
        levels = self.repair_levels(max_level)
        if not levels:
            return None
        return min(levels, key=lambda level: (self._cleared(level).state, -level))

    def _cleared(self, level: int) -> DamageTrack:
        seg = list(self.segments[level - 1])
        seg[len(seg) - 1 - seg[::-1].index(True)] = False
        segs = list(self.segments)
        segs[level - 1] = tuple(seg)
        return DamageTrack(segs)

    def repair(self, max_level: int, level: int | None = None
               ) -> tuple[DamageTrack, DamageState | None]:
        """Clear one crossed box at or below ``max_level`` (the repair test's success level):
        one of ``level`` if given (the repairer's choice, one of :meth:`repair_levels`), else
        the one :meth:`best_repair_level` picks (BtQ L2410-2412). Returns the new track and
        the level of the box cleared, or the same track and ``None`` if there was none to
        clear. Raises ``ValueError`` for a ``level`` the success does not allow or with no
        crossed box."""
        if level is None:
            level = self.best_repair_level(max_level)
            if level is None:
                return self, None
        elif level not in self.repair_levels(max_level):
            raise ValueError(f"a success of level {max_level} cannot clear a box of level "
                             f"{level} of the track {self}")
        return self._cleared(level), DamageState(level)

    def repairable(self, max_level: int) -> bool:
        """Whether a success of ``max_level`` would clear a box."""
        return any(any(seg) for seg in self.segments[:max(0, min(max_level, 3))])

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"DamageTrack('{self}')"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DamageTrack) and other.segments == self.segments

    def __hash__(self) -> int:
        return hash(self.segments)


# Tracks are small and few: the engines parse and hit the same ones over and over.
_CACHE_LIMIT = 50_000
_PARSED: dict[str, DamageTrack] = {}
_HITS: dict[tuple, DamageTrack] = {}


def broadside_hits(cards: Iterable[Card], fate: Card) -> list[tuple[str, int]]:
    """The hits a Broadside! scores, as ``(area, level)`` pairs in card order: every success
    card is a hit, its suit picks the area and its success level (1-3) the damage level
    (BtQ L2464-2469). A declared Joker counts as its card (``JK=KD`` is the KD); an undeclared
    one as the Card of Fate (``rules/DECISIONS.md`` D5).

    >>> from rules.cards import parse_card, parse_cards
    >>> broadside_hits(parse_cards("2S 3C 4S 4C KD QH 7S"), parse_card("4S"))
    [('hull', 1), ('hull', 3), ('rigging', 2), ('hull', 1)]
    """
    hits = []
    matches = graded(fate)
    for card in cards:
        level = matches[card][0]
        if level:
            played = card.played_as if card.played_as is not None else (
                fate if card.is_joker else card)
            hits.append((SUIT_AREA[played.suit], int(level)))
    return hits


@dataclass(frozen=True)
class SampleShip:
    """A sample ship of "Friends and Foes" and of the book's examples (BtQ L2313-2316,
    L2533-2536, L2831-3142; ``rules/btq_naval.md`` §5.1), as ``rules/btq/samples/ships.json``
    holds it: ``type`` the roster type her figures come from (``kind`` the book's own name
    for a type the roster lacks, the Barbary Brigantine and Xebec), ``traits``,
    ``overrides`` (only where the book's figures are not the roster's), the compact NPC
    ``crew`` block, ``printed`` the figures the book prints (an area's boxes per segment, one
    number or three), ``book_errors`` field -> why the fixture does not follow the print
    (the digest's recommendations, N26), ``source`` the book lines."""

    name: str
    guns: int | None
    nation: str
    type: str
    captain: str
    traits: tuple[str, ...]
    crew: dict[str, int]
    printed: dict
    book_errors: dict[str, str]
    source: str
    overrides: dict = field(default_factory=dict)
    kind: str = ""

    @property
    def display_name(self) -> str:
        return f"{self.name} ({self.guns})" if self.guns else self.name

    def stats(self) -> ShipStats:
        """Her figures: the roster's, her traits', her overrides."""
        return ship_stats(self.type, self.traits, self.overrides)

    def differences(self) -> dict[str, tuple]:
        """Where the printed figures differ from :meth:`stats`: field -> ``(printed,
        computed)``; ``"traits"`` -> ``(traits, the rating's limit)`` for more traits than
        the rating allows (BtQ L2338-2339). TV-N14: these are the book's errors."""
        stats = self.stats()
        found: dict[str, tuple] = {}
        for area in AREAS:
            printed = self.printed[area]
            printed = tuple(printed) if isinstance(printed, list) else (printed,) * 3
            if printed != stats.boxes[area]:
                found[area] = (printed, stats.boxes[area])
        for key in ("broadside", "speed", "handling"):
            if self.printed[key] != getattr(stats, key):
                found[key] = (self.printed[key], getattr(stats, key))
        limit = trait_limit(stats.rating)
        if len(self.traits) > limit:
            found["traits"] = (len(self.traits), limit)
        return found


def sample_ships() -> dict[str, SampleShip]:
    """The sample ships, name -> :class:`SampleShip`, in the book's order (a fresh copy on
    every call), read from this package's ``samples/ships.json``."""
    text = resources.files("rules.btq").joinpath("samples", "ships.json").read_text("utf-8")
    ships = {}
    for entry in json.loads(text):
        entry["traits"] = tuple(entry["traits"])
        ships[entry["name"]] = SampleShip(**entry)
    return ships
