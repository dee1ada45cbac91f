"""Ship-to-ship combat: the players' ships and their allies against one enemy ship or several
(BtQ L2353-2675;
``rules/btq_naval.md`` §4.2-4.12, ``rules/DECISIONS.md`` D15-D22), as the encounter engine
``"btq_naval"`` (:mod:`rules.engine`).

The battle, step by step (BtQ L2363-2496):

1. Establish the Conditions: the weather is set; the starting distance (3-5) is the
   setup's (an enemy ship may have her own), or the winner of a contested Awareness test
   between the first ship of each side chooses it (BtQ L2397-2402).
2. Discipline: on each of the players' ships the highest-ranking PC aboard hands his
   Discipline in cards to the other PCs aboard, each at most his own Discipline, for the
   whole battle (BtQ L2406-2407; N6).
3. Repair: a burning ship first takes its fire damage (BtQ L2666); a ship whose Crew or Ship
   Morale is Maimed must pass a Command or Discipline test to act this round (BtQ L2479,
   L2483-2484; D16, D20); then each ship may make one repair, or fight its fire (BtQ
   L2409-2416, L2671-2672).
4. Positioning: a contested Seamanship test for every pair of ships on the range chart
   (each of the players' ships against each enemy, with her full pool each time, BtQ
   L2498-2499); the winner moves that pair's distance by up to 1, 2 or 3 (BtQ L2418-2436);
   the Weather Gage (D17); Distance 0 means boarding, beyond 5 the pair loses contact.
   The ships of a boarding make no Positioning test against each other while it lasts, and
   no other pair may close to Distance 0 meanwhile (one boarding at a time).
5. How Will You Fight?: on each of the players' ships that will fire this round, each PC
   aboard not locked out by a repair makes a test, +1 to her Broadside! per success, -1 per
   failure (BtQ L2438-2453; N12, D19).
6. Broadside!: every ship that can fire does, against one shared Card of Fate, concentrated
   on one ship in range or split between two (the range taken off each part after the
   split, BtQ L2498-2506); every success card is a hit, its suit the area, its level the
   damage (BtQ L2457-2479), adjusted by the shot (BtQ L2609-2655; N13, N14, D21); all the
   hits are found before any is applied.
   Boarding: while two ships are locked at Distance 0, one round of their boarding
   (:mod:`rules.btq.boarding`, BtQ L2512-2533) is fought after Step 6 (step
   ``"boarding"``): each PC aboard either ship makes his own choices in it (decisions
   ``boarding.*``), the GM the NPCs'; their Crew tracks are the battle's. Their PCs take no
   part in Step 5 and the two do not fire at each other (a ship may still fire at another
   in range). Firebrands that set a ship on fire light the battle's fire (BtQ L2663-2669);
   a command casualty costs the ship's Positioning, Broadside! or gun repair -2 for the rest
   of the battle (BtQ L2526-2528). When it ends, the ship taken, or whose boarders are
   repelled, leaves the battle ``"taken"`` (N20), a ship that surrendered has struck, and
   ships that broke apart are at Distance 1; the battle goes on, or ends if a side has no
   ship left.
7. Continuing the Engagement: each captain continues, disengages or strikes his colours
   (BtQ L2481-2496); the captains of ships locked in a boarding are not asked; then back to
   Step 3.

A ship leaves the battle when she is sunk (Hull Dead), her Crew is Dead, her captain strikes,
she is taken by boarding, or she is beyond Distance 5 of every ship of the other side
(escaped); a ship with
``joins_round`` enters it at the start of that round, at her ``distance`` from every ship of
the other side (BtQ L2502). The battle ends when a side has no ship left in it (the other
wins; nobody, if its last ship escaped), when no two ships are within Distance 5, or when
every captain disengages (the outcome's ``boardings`` has each boarding's
:func:`rules.btq.boarding.report`). Safeguard, not a rule of the book: night
falls after :data:`NIGHTFALL_ROUND` rounds and the ships lose each other (result
``"disengaged"``). A ship that is lost (sunk, crew Dead, struck) takes one level of Ship
Morale (N22); under the setting ``fled_ship_morale`` so does one that flees beyond Distance 5.

Readings chosen where the book is silent (see also DECISIONS.md):

* A ship's test that no PC can make (no PC has the skill) is made by its NPC crew
  (BtQ L2360-2361). Among the PCs, the one posted to the station goes first (``master`` for
  Positioning and the Seamanship and Maritime tests, ``gunner`` for Broadside! and Gunnery,
  the commander for Command), else the PC with the highest skill.
* A PC's Discipline cards join every test he makes in the battle (N6), and so do the cards
  his traits add to a skill's tests (``trait_cards`` of the setup, until the character
  sheet works them out from his traits; BtQ L1210-1212, L2459-2460), but not to a test he
  makes unskilled (BtQ L1266-1269). Ship Morale's -1/-3
  (D20) applies to the ship's Positioning, Broadside! and Repair pools; the ship's damage
  penalties do not apply to Repair (BtQ L2415-2416). Gate tests (D16) take no penalty.
* Repair may use Seamanship or Maritime (Hull, Rigging), Gunnery or Engineering (Guns),
  First Aid or Command (Crew), Maritime, Soldiering or Engineering (fire), or the PC's
  Profession where it is appropriate (:data:`REPAIR_PROFESSIONS`; the setup's
  ``profession``); the tester uses his best of them.
  The repairer chooses which box his success clears, any "equal to, or lower than the level
  of the success" (BtQ L2410-2412); the default lifts the most penalty (N5).
* With no skill for a test (a gate, a repair, the Awareness test, a How Will You Fight?
  action) a character turns a single card, to which nothing is added, and its best success
  counts as Ordinary (BtQ L1266-1269). A commanding PC with no Command leaves the Command
  gate to his crew's Command (BtQ L2360-2362). The ship's own pools (Positioning,
  Broadside!) add the ship's figures to the officer's skill and are not unskilled tests.
* A ship with no cards for Positioning (a failed gate, or a pool of 0) turns none; the other
  ship turns its pool once and moves by its best success, if any (D18); there is no retest.
  In any other contest a side with no cards fails, and a failure of the other side is a
  mutual failure, retested (D3).
* A ship whose Ship Morale is Dead does nothing in a round but what her captain orders in
  Step 7: a Dead area allows no test (BtQ L1326-1328), and her crew is "on the verge of
  mutiny" (BtQ L1350-1351); her pools would take the Maimed -3. Great Hardship (D20) lifts
  an Injured or Maimed Ship Morale, not a Dead one.
* A PC who fights a fire sits out How Will You Fight? "for that round" (BtQ L2672) under
  either ``repair_lockout`` setting; the setting governs a repairer (D19).
* Weatherly reduces the weather's Speed penalty when there is one (it also tells against the
  other ship's speed), else the Handling penalty.
* A Joker drawn by a PC is played as the Card of Fate (a Perfect, which no other card
  betters), except in a Broadside!, where its suit picks the area hit: there the gunner's
  player declares it (decision ``broadside.joker``).
* A captain may strike his colours at any point (BtQ L2494): every decision he makes for
  his ship (``repair.action``, ``positioning.move``, ``broadside.ammo`` and
  ``broadside.target`` when he chooses them, ``continue.orders``) offers the option
  ``"strike"``: his ship leaves the battle at once (the battle ends, result ``"struck"``,
  if she was her side's last). The default policies strike only in Step 7.
* The shot is chosen by "the character commanding the guns" (BtQ L2609-2610): the PC posted
  as ``gunner``, else the PC who fires the Broadside!, else the captain.
* The default repair costs the least: the NPC crew when it has a skill for it, else the PC
  with the best pool who is not the commander, the helmsman or the gunner, the commander
  last (the book sends Midshipman Smith, BtQ L2577-2578).
* The general weather (setup ``general_weather``: ``wind``, ``precipitation``) changes every
  test of the battle only with the setting ``general_weather_in_ship_combat`` (D15; BtQ
  L1699-1709): its modifier joins each pool (Positioning, Broadside!, repairs, gates,
  Awareness, How Will You Fight?), mist and fog only Awareness; a test made unskilled keeps
  its one card.
* Becalmed, every ship lies still (Speed 0, Handling 0, BtQ L2365-2367); under the setting
  ``becalmed_tow`` (N10's option, the general weather's No Wind, BtQ L1701-1705) every ship
  sends out her boats to tow her: Speed 1, and half the cards, rounded down, of the pools
  her crew turns besides the move: the Broadside! (half before the range, the pool a split
  divides) and repairs (a single unskilled card stays one).
* With several ships, the Weather Gage is won once a pair (D17) and gives the winner +2 to
  her Broadside! that round once, however many pairs she won it in: it is part of the pool
  a split divides, as the book's London splits a pool of 10 (Weather Gage in it) into 5 and
  5 - 4 = 1 (BtQ L2504-2505). A split is offered between two ships in range (every whole
  division); a ship may fire only at a ship in her range that has not struck.

Participants: ``"gm"`` decides for the enemy ships, the allied ships with no PCs aboard and
all NPCs; ``"pc:<id>"`` for each PC; the decisions of one of the players' ships as a whole
belong to the senior PC aboard (``state["commanders"]``), but for the shot and where she
fires, which her gunner chooses. Decisions come one at a time, the players' ships' before
the enemy's, so a player never sees the enemy's choice before making his own (the GM sees
everything anyway).

Decision kinds (option keys in brackets):

* ``start.distance`` (``"3"``, ``"4"``, ``"5"``) - the Awareness winner's side.
* ``discipline.great_hardship`` (``"spend"``, ``"keep"``) - the commander, when the setting
  ``great_hardship`` is on and the PC ship's Ship Morale is damaged (D20).
* ``discipline.cards`` (``"0"``..``"n"``) - the commander, once per other PC.
* ``repair.action`` (``"none"``, ``"<area>:crew"``, ``"<area>:pc:<id>"``, area ``fire`` to
  fight a fire; ``"strike"``) - the captain of each ship that has something to repair.
* ``repair.box`` (``"1"`` Injured, ``"2"`` Maimed, ``"3"`` Dead) - the repairer (his captain
  for the crew), when his success may clear boxes of more than one level.
* ``positioning.move`` (``"0"``..``"5"`` the new distance, ``"escape"``; ``"strike"``) - the
  winner's captain.
* ``fight.action`` (``"none"`` or a skill key) - each PC, How Will You Fight?
* ``fight.opposition`` (``"static:1|3|5|7|9"``, ``"contested:<skill>"`` against the nearest
  foe's crew, ``"contested:<skill>:<ship>"`` against another's) - the GM, per test.
* ``broadside.ammo`` (``"roundshot"``, ``"grapeshot"``, ``"chainshot"``, ``"heated"``,
  ``"double"``; ``"strike"`` when the captain chooses) - for each ship about to fire, the
  PC commanding her guns (gunner), else her captain; a change after the first Broadside!
  costs -2 on that Broadside! (BtQ L2654-2655).
* ``broadside.target`` (``"<ship>"`` to concentrate, ``"<ship>=<n>,<ship>=<m>"`` to split
  the pool before the range; ``"strike"``) - the same, for a ship with more than one target
  in range.
* ``broadside.joker`` (a card such as ``"KD"``) - the PC gunner who turned a Joker.
* ``continue.orders`` (``"continue"``, ``"disengage"``, ``"strike"``) - each captain.
* ``boarding.tide``, ``boarding.action``, ``boarding.round``, ``boarding.surrender`` - the
  boarding's (:mod:`rules.btq.boarding`): each PC his own, the GM the NPCs'.

Draw order (what a :class:`rules.random.ScriptedSource` must hold, in order). For every test
the Card of Fate is turned first from the GM deck, then the PC ship's pool, then the enemy's
(for How Will You Fight?, the PC's pool and then the opposition's); a retest (D3) turns a new
Card of Fate and the same pools again. PCs draw from their own decks (``pc:<id>``, 52 cards
and a Joker); NPCs and the Card of Fate from the GM deck; every deck is gathered after each
test. The ships go in battle order, the players' side's first, each side's as its setup
lists them. Within a round:

1. fire: each burning ship's fire cards (GM deck, no Card of Fate);
2. gates to act (Crew Maimed: Command; Ship Morale Maimed: Discipline), ship by ship;
3. the repair tests, ship by ship;
4. for each pair (each of the players' ships against each enemy, in order): the Positioning
   gates (Rigging Maimed: Maritime, once a round a ship) and the Positioning test;
5. How Will You Fight?, one test per acting PC, ship by ship, in order of seniority;
6. Broadside! gates (Guns Maimed: Gunnery, then Hull Maimed: Seamanship), ship by ship; one
   shared Card of Fate; each firing ship's cards in one draw (a split's parts in turn);
7. a boarding's round, as :mod:`rules.btq.boarding` draws it.

The state is a JSON dict. Keys the web layer may read: ``round``, ``step`` (one of
:data:`STEPS`), ``weather``, ``pairs`` (``"<pc ship>|<enemy ship>"`` -> ``{"a", "b",
"distance"`` (0-5, 6 beyond the horizon; ``None`` before it is set), ``"gage"`` (``None`` or
``{"to", "round"}``)``}``), ``ships`` (id -> ship: ``name``, ``side``, ``type``, ``tracks``
area -> text, ``states`` area -> 0-3, ``morale``, ``fire``, ``ammo``, ``struck``, ``present``
(she has joined), ``out`` (``None`` or how she left) ...), ``sides`` (``{"pc": [ids],
"enemy": [ids]}``), ``order`` (every ship id), ``pcs`` (each with its ``ship``),
``commanders`` (ship -> PC id), ``discipline_cards``, ``result``. Use
:meth:`NavalEngine.view` for anything shown to a player.

Event kinds: ``battle.start``, ``awareness.test``, ``start.distance``,
``discipline.hardship``, ``discipline.cards``, ``round.start``, the boarding's
(``boarding.begin`` ... ``boarding.end``, :mod:`rules.btq.boarding`), ``fire.damage``,
``fire.spreads``, ``gate.test``, ``gate.mutiny``, ``repair.test``, ``positioning.test``,
``positioning.move``, ``weather_gage``, ``fight.action``, ``fight.test``, ``fight.total``,
``broadside.ammo``, ``broadside.split``, ``broadside.cannot_fire``, ``broadside.fire``,
``broadside.damage``, ``fire.start``, ``continue.orders``, ``ship.joins``, ``ship.leaves``,
``battle.end``.
"""

from __future__ import annotations

import marshal
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

from rules.btq import boarding as _boarding
from rules.btq.characters import MEASURES, NPC_CREW_SKILLS, SKILLS, DamageState
from rules.btq.personal_combat import COMBAT_TRAITS, MELEE, fighter_items, usable
from rules.btq.settings import resolve, upgraded
from rules.btq.ships import AREAS, SUIT_AREA, DamageTrack, broadside_hits, ship_stats
from rules.btq.tests import MAX_RETESTS, compare_successes, grade, successes
from rules.btq.weather import towing_pool
from rules.cards import (
    GM_DECK,
    JOKER,
    SUITS,
    Card,
    Deck,
    card_count,
    card_label,
    card_texts,
    parse_card,
    parse_cards,
)
from rules.engine import (
    GM,
    Decision,
    Event,
    IllegalAction,
    Option,
    Outcome,
    Scenario,
    State,
    load_scenarios,
    register,
)
from rules.random import RandomSource

__all__ = [
    "NavalEngine", "ENGINE", "STEPS", "WEATHER", "AMMUNITION", "STATIONS", "DIFFICULTIES",
    "NIGHTFALL_ROUND", "validate_setup", "positioning_pool", "broadside_pool", "repair_pool",
    "adjust_hits",
]

Ship = dict[str, Any]
"""A ship of the state (``state["ships"][id]``), as the module docstring describes it."""
Pair = dict[str, Any]
"""A pair of the range chart (``state["pairs"][key]``): ``a``, ``b``, ``distance``, ``gage``."""
Await = dict[str, Any]
"""The awaited decision (``state["await"]``): ``kind``, ``actor``, ``ship`` and its own keys."""
Parts = dict[str, int]
"""A pool's breakdown: part -> cards (negative for a penalty)."""
Events = list[Event] | None
"""The list a step appends its events to, or ``None`` when nobody reads them."""
_V = TypeVar("_V")

SIDES = _boarding.SIDES
OTHER = {"pc": "enemy", "enemy": "pc"}

STEPS = ("conditions", "discipline", "repair", "positioning", "how_will_you_fight",
         "broadside", "boarding", "continue", "over")
"""The value of ``state["step"]``: the book's seven steps (Repair opens each round) and the end."""

WEATHER: dict[str, tuple[str, int | None, int | None]] = {
    # key: (the book's name, Speed modifier, Handling modifier); Becalmed SETS both to 0.
    "becalmed": ("Becalmed", None, None),
    "steady_breeze": ("Steady Breeze", 0, 0),
    "good_wind": ("Good Wind", 0, -1),
    "high_seas": ("High Seas", -1, -2),
    "storm": ("Storm", -2, -3),
}
"""The ship-combat weather table (BtQ L2365-2367)."""

DISTANCES = {0: "Boarding", 1: "Broadside!", 2: "Long Range", 3: "Visual", 4: "Far Sight",
             5: "Horizon", 6: "beyond the horizon"}
"""The range chart (BtQ L2369-2391); 6 stands for "beyond Distance 5"."""
BEYOND = 6

AMMUNITION: dict[str, str] = {
    "roundshot": "Roundshot",
    "grapeshot": "Grapeshot",
    "chainshot": "Chainshot",
    "heated": "Heated Shot",
    "double": "Double-shotted",
}
"""The loads of a ship's guns (BtQ L2609-2655)."""

_AMMO_PENALTY = {"heated": 2, "double": 2}
_CHANGE_PENALTY = 2
_AMMO_LEVELS: dict[str | None, dict[str, int]] = {
    # one hit in the area gains (+1) or loses (-1) a level (BtQ L2611-2650; N13)
    "grapeshot": {"crew": 1, "rigging": -1, "hull": -1},
    "chainshot": {"crew": -1, "guns": -1, "rigging": 1},
}

STATIONS = ("captain", "lieutenant", "master", "gunner", "boatswain", "surgeon", "purser",
            "carpenter", "marine", "midshipman", "mate", "rating")
"""Stations aboard (the ``ships`` app's postings): ``master`` takes the helm, ``gunner`` the
guns."""

DIFFICULTIES = {1: "Easy", 3: "Routine", 5: "Challenging", 7: "Damned Hard!", 9: "Heroic"}
"""Static difficulty pools for How Will You Fight? (BtQ L1255-1264)."""

REPAIR_SKILLS = {
    "hull": ("seamanship", "maritime"),
    "rigging": ("seamanship", "maritime"),
    "guns": ("gunnery", "engineering"),
    "crew": ("first_aid", "command"),
    "fire": ("maritime", "soldiering", "engineering"),
}
"""Skills that may repair each area or fight a fire (BtQ L2409-2413, L2671)."""

REPAIR_PROFESSIONS = {
    "hull": frozenset({"carpenter", "shipwright"}),
    "rigging": frozenset({"sailmaker", "rigger", "ropemaker"}),
    "guns": frozenset({"gunsmith", "blacksmith", "armourer"}),
    "crew": frozenset({"surgeon", "physician", "apothecary"}),
    "fire": frozenset(),
}
"""The professions "appropriate" to each repair (BtQ L2410-2413 names none: a reading from
the examples, Carpenter and Sailmaker, ``rules/btq_naval.md`` §4.5); a PC whose setup names
one of them may repair that area with his Profession skill."""

GENERAL_WIND = {"no_wind": 0, "light_wind": 0, "strong_wind": -1, "storm_winds": -2,
                "typhoon": -3}
GENERAL_PRECIPITATION = {"no_rain": 0, "mist": 0, "fog": 0, "squall": -1, "storm_snow": -2,
                         "blizzard": -3}
_MIST = {"mist": -2, "fog": -4}
"""The general weather's modifiers to every test (BtQ L1699-1709; ``rules/btq_missions.md``
§6.1), which a ship battle applies only with the setting ``general_weather_in_ship_combat``
(D15): wind and precipitation add up; mist and fog are -2 and -4 to Awareness alone. (No
Wind is the ship table's Becalmed.)"""

TOW_SPEED = 1
"""A becalmed ship's Speed with her boats towing (BtQ L1703-1705; setting ``becalmed_tow``)."""


def _towing(st: State) -> bool:
    """Whether every ship's boats tow her: becalmed, under the setting ``becalmed_tow``."""
    return st["weather"] == "becalmed" and st["settings"]["becalmed_tow"]


def _tow_cut(total: int) -> int:
    """The cards a pool of ``total`` loses while the boats tow: the half it does not keep
    (:func:`rules.btq.weather.towing_pool`, rounded down; nothing from a pool of 0 or less)."""
    return total - towing_pool(total) if total > 0 else 0


GAGE_BONUS = 2
NIGHTFALL_ROUND = 60
"""Safeguard: after this many rounds night falls and the ships lose each other."""

_PENALTY = (0, 1, 3, 0)
_GRADE = ("failure", "ordinary", "critical", "perfect")
_AREA_NAMES = {"hull": "Hull", "guns": "Guns", "crew": "Crew", "rigging": "Rigging",
               "fire": "fire"}
_DEAD, _MAIMED, _INJURED = DamageState.DEAD, DamageState.MAIMED, DamageState.INJURED


# --- setup -----------------------------------------------------------------------------------

def _int(value: Any, what: str, low: int, high: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low or (
            high is not None and value > high):
        span = f"{low}-{high}" if high is not None else f"at least {low}"
        raise ValueError(f"{what} must be a whole number {span}, not {value!r}")
    return value


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{what} must be a non-empty text")
    return value


def _skills(block: Any, allowed: Iterable[str], what: str) -> dict[str, int]:
    if block is None:
        block = {}
    if not isinstance(block, dict):
        raise ValueError(f"{what} must be a mapping of skill to value")
    unknown = sorted(set(block) - set(allowed))
    if unknown:
        raise ValueError(f"{what}: unknown skill {unknown[0]!r}; known: {', '.join(allowed)}")
    return {k: _int(block.get(k, 0), f"{what} {k}", 0, 20) for k in allowed}


def _ship_setup(entry: Any, i: int) -> Ship:
    if not isinstance(entry, dict):
        raise ValueError(f"ship {i + 1} must be a mapping")
    sid = _text(entry.get("id"), f"ship {i + 1}: id")
    name = _text(entry.get("name", sid), f"ship {i + 1}: name")
    where = _the(name, False)
    if set(sid) & {"|", ":"}:
        raise ValueError(f"{where}: a ship's id cannot contain '|' or ':' (id {sid!r})")
    side = entry.get("side")
    if side not in SIDES:
        raise ValueError(f"{where}: side must be 'pc' or 'enemy', not {side!r}")
    traits = entry.get("traits") or []
    if not isinstance(traits, list | tuple):
        raise ValueError(f"{where}: traits must be a list of trait names")
    overrides = entry.get("overrides") or {}
    try:
        stats = ship_stats(entry.get("type"), traits, overrides)  # type: ignore[arg-type]
    except (ValueError, TypeError) as exc:
        raise ValueError(f"{where}: {exc}") from None
    tracks = entry.get("tracks") or {}
    if not isinstance(tracks, dict) or set(tracks) - set(AREAS):
        raise ValueError(f"{where}: tracks must map areas ({', '.join(AREAS)}) to track text")
    norm_tracks = {}
    for area in AREAS:
        if area in tracks:
            try:
                track = DamageTrack.parse(tracks[area])
            except ValueError as exc:
                raise ValueError(f"{where}: {area}: {exc}") from None
            if track.sizes != stats.boxes[area]:
                raise ValueError(f"{where}: the {area} track {str(track)!r} does not fit a "
                                 f"{area} of {'/'.join(map(str, stats.boxes[area]))} boxes")
        else:
            track = DamageTrack.clean(stats.boxes[area])
        norm_tracks[area] = str(track)
    for area in ("hull", "crew"):
        if DamageTrack.parse(norm_tracks[area]).state == _DEAD:
            raise ValueError(f"{where}: a ship whose {area} is Dead cannot fight")
    ammo = entry.get("ammo")
    if ammo is not None and ammo not in AMMUNITION:
        raise ValueError(f"{where}: ammo must be one of {', '.join(AMMUNITION)}")
    discipline = entry.get("discipline")
    joins = entry.get("joins_round")
    if joins is not None:
        _int(joins, f"{where}: joins_round", 2, NIGHTFALL_ROUND)
    distance = entry.get("distance")
    if distance is not None:
        if side == "pc" and joins is None:
            raise ValueError(f"{where}: only an enemy ship, or a ship that joins the battle "
                             "later, has a distance of her own")
        _int(distance, f"{where}: distance", 1 if joins else 3, 5)
    elif joins is not None:
        raise ValueError(f"{where}: a ship that joins the battle later needs the distance "
                         "she joins at")
    return {
        "id": sid,
        "name": name,
        "side": side,
        "type": entry["type"],
        "traits": list(stats.traits),
        "overrides": dict(overrides),
        "tracks": norm_tracks,
        "morale": _int(entry.get("morale", 0), f"{where}: morale", 0, 3),
        "crew": _skills(entry.get("crew"), NPC_CREW_SKILLS, f"{where}: crew"),
        "discipline": None if discipline is None else _int(discipline, f"{where}: discipline",
                                                             0, 20),
        "fire": _int(entry.get("fire", 0), f"{where}: fire", 0, 52),
        "ammo": ammo,
        "distance": distance,
        "joins_round": joins,
        "officers": _officers_setup(entry.get("officers"), where),
    }


def _officers_setup(officers: Any, where: str) -> list[dict]:
    """A ship's named officers, for a boarding (BtQ L2519-2528): each a fighter with his
    ``post`` and ``command`` (:func:`rules.btq.boarding.officer`); none by default."""
    if officers is None:
        return []
    if not isinstance(officers, list):
        raise ValueError(f"{where}: officers must be a list")
    return [_boarding.officer(o, f"{where}: officer {i + 1}") for i, o in enumerate(officers)]


def _pc_setup(entry: Any, i: int, pc_ships: dict[str, Ship]) -> dict[str, Any]:
    """``pc_ships``: the players' side's ships (id -> setup, as :func:`_ship_setup` returns
    them), the first the default ship of a PC."""
    if not isinstance(entry, dict):
        raise ValueError(f"PC {i + 1} must be a mapping")
    pid = _text(entry.get("id"), f"PC {i + 1}: id")
    name = _text(entry.get("name", pid), f"PC {i + 1}: name")
    where = name
    if ":" in pid:
        raise ValueError(f"{where}: an id cannot contain ':' (PC id {pid!r})")
    first = next(iter(pc_ships.values()))
    ship = entry.get("ship", first["id"])
    if ship not in pc_ships:
        names = [_the(s["name"], False) for s in pc_ships.values()]
        aboard = (f"the PC ship, {names[0]}" if len(names) == 1 else
                  f"the players' ships ({', '.join(names)})")
        raise ValueError(f"{where}: the PCs serve aboard {aboard}, not ship {ship!r}")
    station = entry.get("station")
    if station is not None and station not in STATIONS:
        raise ValueError(f"{where}: unknown station {station!r}; known: {', '.join(STATIONS)}")
    return {
        "id": pid,
        "name": name,
        "ship": ship,
        "seniority": _int(entry.get("seniority", 0), f"{where}: seniority", 0),
        "discipline": _int(entry.get("discipline", 1), f"{where}: discipline", 0, 20),
        "skills": _skills(entry.get("skills"), SKILLS, f"{where}: skills"),
        "trait_cards": _trait_cards(entry.get("trait_cards"), where),
        "ship_reputation": _ship_reputation(entry.get("ship_reputation"), where),
        "profession": _profession(entry.get("profession"), where),
        "station": station,
        "weapons": _weapons_setup(entry.get("weapons"), where),
        "health": _health_setup(entry.get("health", "healthy"), where),
        "guts": _int(entry.get("guts", 1), f"{where}: guts", 1, 20),
        "combat_traits": _combat_traits_setup(entry.get("combat_traits"), where),
        **_combat_items_setup(entry.get("combat_items"), where),
        **_scratched_setup(entry.get("scratched", False), where),
    }


def _combat_items_setup(value: Any, where: str) -> dict[str, list[dict[str, Any]]]:
    """``{"combat_items": [...]}``: the special weapons a PC brings to a boarding's fights,
    each ``{"name", "weapon", "cards"}`` (BtQ L1013; :func:`rules.btq.personal_combat.
    fighter_items`). Nothing when he has none (a setup's games stay as they were)."""
    items = fighter_items(value, where)
    return {"combat_items": items} if items else {}


def _scratched_setup(value: Any, where: str) -> dict[str, bool]:
    """``{"scratched": True}`` when the PC's sheet has Is But A Scratch, Sir!'s extra wound
    level already spent (D12; healed only when his Health is): then a boarding's first
    wound counts in full. Nothing when it is not (a setup's games stay as they were)."""
    if not isinstance(value, bool):
        raise ValueError(f"{where}: scratched must be true or false, not {value!r}")
    return {"scratched": True} if value else {}


def _combat_traits_setup(block: Any, where: str) -> dict[str, int]:
    """The traits a PC brings to a boarding's fights: name -> times
    (:data:`rules.btq.personal_combat.COMBAT_TRAITS`); none by default."""
    if block is None:
        return {}
    if not isinstance(block, dict) or set(block) - set(COMBAT_TRAITS):
        raise ValueError(f"{where}: combat_traits maps traits of personal combat "
                         f"({', '.join(COMBAT_TRAITS)}) to the times taken")
    return {k: _int(v, f"{where}: {k}", 1, 3) for k, v in block.items()}


def _health_setup(health: Any, where: str) -> str:
    """A PC's Health as his sheet has it, for a boarding's fights (BtQ L1309-1328): healthy,
    injured or maimed (a Dead man fights no battle)."""
    if health not in ("healthy", "injured", "maimed"):
        raise ValueError(f"{where}: health must be healthy, injured or maimed, not {health!r}")
    return health


def _weapons_setup(weapons: Any, where: str) -> list[str] | None:
    """A PC's hand-to-hand weapons for a boarding (BtQ L1584-1621; A5: only melee at
    Distance 0); ``None`` for the cutlass, the sailor's weapon (BtQ L1611)."""
    if weapons is None:
        return None
    if not isinstance(weapons, list) or not weapons:
        raise ValueError(f"{where}: weapons must list at least one weapon")
    try:
        melee = [w for w in weapons if usable(w, MELEE)]
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None
    if not melee:
        raise ValueError(f"{where}: name a hand-to-hand weapon to board with")
    return list(weapons)


def _profession(name: Any, where: str) -> str | None:
    """The PC's profession (his Profession skill's), lower case; ``None`` if not given."""
    if name is None:
        return None
    return _text(name, f"{where}: profession").strip().lower()


def _trait_cards(block: Any, where: str) -> dict[str, int]:
    """A PC's ``trait_cards`` (skill -> the cards his traits add to its tests, 1-5): only
    the skills named, for the "sheet" part to fill from his traits."""
    if block is None:
        return {}
    if not isinstance(block, dict):
        raise ValueError(f"{where}: trait_cards must be a mapping of skill to cards")
    unknown = sorted(set(block) - set(SKILLS))
    if unknown:
        raise ValueError(f"{where}: trait_cards: unknown skill {unknown[0]!r}")
    return {k: _int(v, f"{where}: trait_cards {k}", 1, 5) for k, v in block.items()}


def _ship_reputation(block: Any, where: str) -> dict[str, Any] | None:
    """The ship reputation a PC uses for his ship in this battle, ``{"id", "name", "cards"}``
    (cards 0-20, as ``rules.btq.missions.ship_reputation_cards`` counts them), or ``None``:
    one ship reputation instead of a personal one (BtQ L770-772; ``btq_characters.md``
    A22)."""
    if block is None:
        return None
    if not isinstance(block, dict) or set(block) != {"id", "name", "cards"}:
        raise ValueError(f"{where}: ship_reputation must be a mapping of id, name and cards")
    return {"id": _text(block["id"], f"{where}: ship_reputation id"),
            "name": _text(block["name"], f"{where}: ship_reputation name"),
            "cards": _int(block["cards"], f"{where}: ship_reputation cards", 0, 20)}


def validate_setup(setup: dict) -> dict:
    """Check a ``btq_naval`` setup and return it normalised (every track, skill and setting
    filled in). The shape is in :class:`NavalEngine`'s docstring. Raises ``ValueError`` with
    the reason."""
    if not isinstance(setup, dict):
        raise ValueError("the setup must be a mapping")
    unknown = sorted(set(setup) - {"weather", "start_distance", "settings", "ships", "pcs",
                                   "general_weather"})
    if unknown:
        raise ValueError(f"unknown setup key {unknown[0]!r}")
    weather = setup.get("weather")
    if weather not in WEATHER:
        raise ValueError(f"weather must be one of {', '.join(WEATHER)}, not {weather!r}")
    start = setup.get("start_distance")
    if start is not None and start not in (3, 4, 5):
        raise ValueError("start_distance must be 3, 4 or 5, or null for an "
                         "Awareness test")
    settings = resolve(setup.get("settings"))
    ships = setup.get("ships")
    if not isinstance(ships, list) or len(ships) < 2:
        raise ValueError("ships must list at least two ships: the players' ('pc') and an "
                         "'enemy'")
    ships = [_ship_setup(s, i) for i, s in enumerate(ships)]
    ids = [s["id"] for s in ships]
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        raise ValueError(f"two ships share the id {twice[0]!r}: each ship needs its own")
    for side, what in (("pc", "the players' ('pc')"), ("enemy", "an 'enemy'")):
        if not any(s["side"] == side and s["joins_round"] is None for s in ships):
            raise ValueError(f"ships must include {what} ship at the start of the battle")
    pc_ships = {s["id"]: s for s in ships if s["side"] == "pc"}
    pcs = setup.get("pcs") or []
    if not isinstance(pcs, list):
        raise ValueError("pcs must be a list")
    pcs = [_pc_setup(p, i, pc_ships) for i, p in enumerate(pcs)]
    ids = [p["id"] for p in pcs]
    if len(set(ids)) != len(ids):
        raise ValueError("two PCs share an id")
    general = setup.get("general_weather") or {}
    if not isinstance(general, dict) or set(general) - {"wind", "precipitation"}:
        raise ValueError("general_weather must be a mapping of 'wind' and 'precipitation'")
    for key, table in (("wind", GENERAL_WIND), ("precipitation", GENERAL_PRECIPITATION)):
        if key in general and general[key] not in table:
            raise ValueError(f"general_weather {key} must be one of {', '.join(table)}, "
                             f"not {general[key]!r}")
    return {"weather": weather, "start_distance": start, "settings": settings, "ships": ships,
            "pcs": pcs, "general_weather": {"wind": general.get("wind", "light_wind"),
                                            "precipitation": general.get("precipitation",
                                                                         "no_rain")}}


def _general_mods(setup: dict) -> dict[str, int]:
    """``{"tests", "awareness"}``: the general weather's modifier to every test and the
    extra one to Awareness, both 0 unless the setting applies them (D15)."""
    if not setup["settings"]["general_weather_in_ship_combat"]:
        return {"tests": 0, "awareness": 0}
    general = setup["general_weather"]
    return {"tests": GENERAL_WIND[general["wind"]]
            + GENERAL_PRECIPITATION[general["precipitation"]],
            "awareness": _MIST.get(general["precipitation"], 0)}


def _initial_state(setup: dict) -> State:
    ships = {}
    for entry in setup["ships"]:
        stats = ship_stats(entry["type"], entry["traits"], entry["overrides"])
        ship = dict(entry)
        del ship["overrides"]
        ship.update(rating=stats.rating, broadside=stats.broadside, speed=stats.speed,
                    handling=stats.handling,
                    boxes={a: list(stats.boxes[a]) for a in AREAS},
                    states={a: int(DamageTrack.parse(t).state) for a, t in entry["tracks"].items()},
                    fired=False, ammo_changed=False, struck=False,
                    hardship=False, present=entry["joins_round"] is None, out=None,
                    casualties={})
        ships[entry["id"]] = ship
    sides = {side: [s["id"] for s in setup["ships"] if s["side"] == side] for side in SIDES}
    order = sorted(setup["pcs"], key=lambda p: -p["seniority"])
    commanders: dict[str, str] = {}
    for pc in order:
        commanders.setdefault(pc["ship"], pc["id"])
    return {
        "engine": ENGINE_NAME,
        "settings": setup["settings"],
        "weather": setup["weather"],
        "general_weather": setup["general_weather"],
        "weather_mods": _general_mods(setup),
        "start_distance": setup["start_distance"],
        "round": 0,
        "step": "conditions",
        "ships": ships,
        "sides": sides,
        "order": sides["pc"] + sides["enemy"],
        "pairs": {_key(a, b): {"a": a, "b": b, "distance": None, "gage": None}
                  for a in sides["pc"] for b in sides["enemy"]},
        "pcs": {p["id"]: p for p in setup["pcs"]},
        "pc_order": [p["id"] for p in order],
        "aboard": {s: [p["id"] for p in order if p["ship"] == s] for s in sides["pc"]},
        "commanders": commanders,
        "discipline_cards": {},
        "rs": {},
        "await": None,
        "boarding": None,
        "boardings": [],
        "result": None,
    }


_STARTS: dict[bytes, State] = {}
_STARTS_KEPT = 256


def _kept_start(setup: dict) -> State:
    """The state before any card is turned. A Monte Carlo starts the same setup thousands of
    times, so the validated state is kept by the setup's ``marshal`` bytes (exact: they tell
    1 from 1.0 and from True, and refuse anything but plain JSON-like types; four times as
    fast as JSON text): it is shared, never to be changed (copy it, or thaw it)."""
    try:
        key = marshal.dumps(setup)
    except (TypeError, ValueError):
        return _initial_state(validate_setup(setup))
    state = _STARTS.get(key)
    if state is None:
        state = _initial_state(validate_setup(setup))
        if len(_STARTS) < _STARTS_KEPT:
            _STARTS[key] = state
    return state


# --- ships and pairs -------------------------------------------------------------------------

def _key(a: str, b: str) -> str:
    """The key of the pair of the players' ship ``a`` and the enemy ship ``b``."""
    return f"{a}|{b}"


def _pair(st: State, x: str, y: str) -> Pair:
    """The range chart of ships ``x`` and ``y`` (either order; one of each side)."""
    if st["ships"][x]["side"] == "pc":
        return st["pairs"][_key(x, y)]
    return st["pairs"][_key(y, x)]


def _other(pair: Pair, sid: str) -> str:
    return pair["b"] if pair["a"] == sid else pair["a"]


def _pair_items(st: State) -> list[tuple[str, Pair]]:
    """``(key, pair)`` of the range chart in the battle's order (``st["order"]``): a state
    read back from the database may hold its mappings' keys in another order (PostgreSQL's
    jsonb sorts them), and nothing the engine does may depend on that."""
    pairs = st["pairs"]
    if len(pairs) == 1:  # one ship a side, the commonest battle: nothing to sort
        return list(pairs.items())
    at = {sid: i for i, sid in enumerate(st["order"])}
    return sorted(pairs.items(), key=lambda kv: (at[kv[1]["a"]], at[kv[1]["b"]]))


def _by_order(st: State, mapping: dict[str, _V]) -> list[tuple[str, _V]]:
    """The items of ``mapping`` (ship id -> anything) in the battle's order, whatever order
    its keys were stored in (:func:`_pair_items`)."""
    if len(mapping) < 2:
        return list(mapping.items())
    at = {sid: i for i, sid in enumerate(st["order"])}
    return sorted(mapping.items(), key=lambda kv: at[kv[0]])


def _afloat(ship: Ship) -> bool:
    """Whether a ship is in the battle: she has joined and has not left it."""
    return ship["present"] and ship["out"] is None


def _engaged(st: State) -> list[Pair]:
    """The pairs on the range chart now: both ships in the battle, within Distance 5."""
    ships = st["ships"]
    found = []
    for _, p in _pair_items(st):  # a loop: a comprehension is a call of its own
        if _within(ships, p):
            found.append(p)
    return found


def _within(ships: dict[str, Ship], p: Pair) -> bool:
    """Whether pair ``p`` is on the range chart now (:func:`_engaged`); ``ships``: the
    state's ships."""
    a, b, distance = ships[p["a"]], ships[p["b"]], p["distance"]
    return (a["present"] and a["out"] is None and b["present"] and b["out"] is None
            and distance is not None and distance < BEYOND)


def _foes(st: State, sid: str) -> list[tuple[str, int]]:
    """The ships engaged with ship ``sid``, as ``[(foe id, distance)]`` in battle order.
    Kept with the pairs they were found on until a ship joins or leaves the battle
    (:class:`_Roster`): the list is read, never changed."""
    roster = _last_roster
    if roster.ships is not st["ships"]:
        roster = _new_roster(st)
    pairs = st["pairs"]
    kept = roster.foes.get(sid)
    if kept is not None and kept[0] is pairs:
        return kept[1]
    ships = st["ships"]
    own = ships[sid]
    found: list[tuple[str, int]] = []
    if own["present"] and own["out"] is None:  # (_afloat) else out of the battle: no foes
        for p in pairs.values():  # put in battle order below
            if p["a"] == sid:
                foe = p["b"]
            elif p["b"] == sid:
                foe = p["a"]
            else:
                continue
            other, distance = ships[foe], p["distance"]
            if (other["present"] and other["out"] is None and distance is not None
                    and distance < BEYOND):  # the pair is on the range chart (_within)
                found.append((foe, distance))
        if len(found) > 1:
            order = st["order"]
            found.sort(key=lambda fd: order.index(fd[0]))
    roster.foes[sid] = (pairs, found)
    return found


def _afloat_ids(st: State, side: str | None = None) -> list[str]:
    """The ships in the battle (:func:`_afloat`), of ``side`` if given, in battle order
    (``st["sides"][side]`` is the battle order of that side's ships). Kept until a ship joins
    or leaves the battle (:class:`_Roster`): the list is read, never changed."""
    roster = _last_roster
    if roster.ships is not st["ships"]:
        roster = _new_roster(st)
    found = roster.afloat.get(side)
    if found is not None:
        return found
    ships = st["ships"]
    found = []
    for s in st["order"] if side is None else st["sides"][side]:  # a comprehension is a call
        ship = ships[s]
        if ship["out"] is None and ship["present"]:
            found.append(s)
    roster.afloat[side] = found
    return found


class _Roster:
    """Who is in the battle of one state's ``ships``, as the policies and steps ask it over
    and over: :func:`_afloat_ids` by side (``None``: every side) and :func:`_foes` by ship,
    each with the state's ``pairs`` it was found on (the steps replace the pairs, never
    change them: :func:`_thaw`); and how each ship stands (:func:`_standing`). The steps
    change a state's ships in place, and only a change of a ship's ``present`` or ``out``
    changes who is in the battle: where a ship joins (:func:`_joiners`) or leaves
    (:func:`_settle`), :func:`_forget_roster` drops what is kept; where a ship's tracks,
    Great Hardship or command casualties or the Discipline cards change,
    :func:`_forget_standing` drops her standing (her Ship Morale changes only as she
    leaves). A state of its own (a copy, another battle, one read back) has ships of its
    own, and a roster of its own."""

    __slots__ = ("ships", "afloat", "foes", "standings")

    def __init__(self, ships: dict[str, Ship]) -> None:
        self.ships = ships
        self.afloat: dict[str | None, list[str]] = {}
        self.foes: dict[str, tuple[dict[str, Pair], list[tuple[str, int]]]] = {}
        self.standings: dict[str, _Standing] = {}


def _new_roster(st: State) -> _Roster:
    """A new :data:`_last_roster`, for state ``st``."""
    global _last_roster
    roster = _last_roster = _Roster(st["ships"])
    return roster  # this state's, whatever another thread has put there since


def _forget_roster() -> None:
    """Drop :data:`_last_roster`: a ship has just joined or left the battle."""
    global _last_roster
    _last_roster = _Roster({})


def _forget_standing(sid: str | None = None) -> None:
    """Drop ship ``sid``'s :class:`_Standing` from :data:`_last_roster` (``None``: every
    ship's): what it was worked out from has just changed. The last roster may be another
    state's: then this state's own is no longer kept, and made anew when asked."""
    standings = _last_roster.standings
    if sid is None:
        standings.clear()
    else:
        standings.pop(sid, None)


_last_roster = _Roster({})
"""The :class:`_Roster` of the last state asked about."""


def _resolve_ship(st: State, ship: str) -> str:
    """A ship's id from ``ship``: an id, or a side (``"pc"``, ``"enemy"``) that has one ship
    in the battle."""
    if ship in st["ships"]:
        return ship
    ids = _afloat_ids(st, ship) if ship in SIDES else []
    if len(ids) != 1:
        raise ValueError(f"{ship!r} names no ship of this battle alone")
    return ids[0]


def _aboard(st: State, sid: str) -> Sequence[str]:
    """The PCs aboard ship ``sid``, senior first."""
    return st["aboard"].get(sid, ())


def _public(st: State, sid: str) -> bool:
    """Whether what a ship's tests are made of may be shown to the players: the players'
    side's ships, not the enemy's (their crews are the GM's)."""
    return st["ships"][sid]["side"] == "pc"


# --- the ship's figures ----------------------------------------------------------------------

def _officer(st: State, sid: str, skill: str, station: str | None = None
             ) -> tuple[str | None, int]:
    """Who makes ship ``sid``'s ``skill`` test: ``(pc id or None for the NPC crew, value)``.
    Among the PCs aboard, the one posted to ``station`` goes first, else the one with the
    highest skill; with none who has it, the crew (BtQ L2360-2361). Worked out once a battle
    (:class:`_Figures`)."""
    return _figures(st).officer(st, sid, skill, station)


def _pc_officer(st: State, sid: str, skill: str, station: str | None
                ) -> tuple[str, int] | None:
    """:func:`_officer` among the PCs aboard alone; ``None`` if none of them has the skill."""
    best = None
    pcs = st["pcs"]
    for pid in st["aboard"].get(sid, ()):  # _aboard
        pc = pcs[pid]
        value = pc["skills"][skill]
        if value < 1:
            continue
        if station is not None and pc["station"] == station:
            return pid, value
        if best is None or value > best[1]:
            best = (pid, value)
    return best


class _ShipFigures:
    """What a battle never changes of one ship's Broadside! and Positioning pools
    (:func:`_broadside_total`, :func:`_positioning_size`): ``gunner`` and ``helm``, the PCs
    (``None``: the crew) who fire her Broadside! and make her Positioning tests; ``guns``,
    the Broadside!'s fixed part (the gunner's Gunnery, his traits' and ship reputation's
    cards, the general weather, the ship's Broadside); ``helm_pool``, the Positioning's
    (the helmsman's Seamanship and the same cards, the general weather, Handling and the
    weather's Handling modifier); ``speed``, her Speed in this weather while she has her
    masts (:func:`_sailing`); ``repairers``, who may make her repairs, as the keys of
    :func:`_repairs` (``"pc:<id>"`` for each PC aboard, senior first, then ``"crew"``). A
    PC's Discipline cards are not in them: they are handed out in the battle."""

    __slots__ = ("gunner", "guns", "helm", "helm_pool", "speed", "repairers")

    def __init__(self, gunner: str | None, guns: int, helm: str | None, helm_pool: int,
                 speed: int, repairers: tuple[str, ...]) -> None:
        self.gunner = gunner
        self.guns = guns
        self.helm = helm
        self.helm_pool = helm_pool
        self.speed = speed
        self.repairers = repairers


class _Figures:
    """What a battle never changes, worked out once a battle from its state: the officer
    of each skill and station (:meth:`officer`), each tester's skill for each repair
    (:meth:`tester`), each ship's :class:`_ShipFigures` (``ships``) and whether the boats
    tow (``towing``, :func:`_towing`). They depend on the PCs, who is aboard, the ships'
    crews and figures, the weather and the settings, which the steps never change (they
    replace no PC and change none in place, :func:`_thaw`); beside them, ``best_skills``,
    each PC's best skill (:func:`_policy_fight_action`). Kept outside the state (a stored
    state never sees them) by the identity of the state's ``pcs`` (:func:`_figures`), which
    every copy of a battle shares, and every game of a Monte Carlo with the kept start; a
    state read back from the database has its own, so it is worked out afresh."""

    __slots__ = ("pcs", "aboard", "officers", "testers", "repair_bases", "ships", "best_skills",
                 "towing")

    def __init__(self, st: State) -> None:
        self.pcs: dict[str, Any] = st["pcs"]
        self.aboard: dict[str, list[str]] = st["aboard"]
        self.officers: dict[tuple[str, str, str | None], tuple[str | None, int]] = {}
        self.testers: dict[tuple[str, str, str], tuple[str, int]] = {}
        self.repair_bases: dict[tuple[str, str, str], tuple[int, int]] = {}
        self.ships: dict[str, _ShipFigures] = {}
        self.best_skills: dict[str, str] = {}
        self.towing = _towing(st)
        for sid in st["order"]:
            ship = st["ships"][sid]
            gunner, gunnery = self.officer(st, sid, "gunnery", "gunner")
            helm, seamanship = self.officer(st, sid, "seamanship", "master")
            speed, handling_mod = _sailing(st, sid)
            self.ships[sid] = _ShipFigures(
                gunner, gunnery + self._own(gunner, "gunnery") + _add_weather(None, st, "gunnery")
                + ship["broadside"],
                helm, seamanship + self._own(helm, "seamanship")
                + _add_weather(None, st, "seamanship") + ship["handling"] + handling_mod,
                speed, (*(f"pc:{p}" for p in _aboard(st, sid)), "crew"))

    def officer(self, st: State, sid: str, skill: str, station: str | None
                ) -> tuple[str | None, int]:
        """:func:`_officer`."""
        key = (sid, skill, station)
        found = self.officers.get(key)
        if found is None:
            found = self.officers[key] = (_pc_officer(st, sid, skill, station)
                                          or (None, st["ships"][sid]["crew"].get(skill, 0)))
        return found

    def tester(self, st: State, sid: str, who: str, area: str) -> tuple[str, int]:
        """:func:`_tester_value`."""
        key = (sid, who, area)
        found = self.testers.get(key)
        if found is None:
            found = self.testers[key] = _tester_value(st, sid, who, area)
        return found

    def repair_base(self, st: State, sid: str, who: str, area: str) -> tuple[int, int]:
        """``(value, fixed part)`` of a repair of ``area`` aboard ship ``sid`` by ``who``
        (``"crew"`` or a PC id): the tester's skill (:meth:`tester`) and what a battle never
        changes of :func:`_repair_size`, that skill with the traits' and ship reputation's
        cards and the general weather."""
        key = (sid, who, area)
        found = self.repair_bases.get(key)
        if found is None:
            skill, value = self.tester(st, sid, who, area)
            found = self.repair_bases[key] = (
                value, value + self._own(None if who == "crew" else who, skill)
                + _add_weather(None, st, skill))
        return found

    def _own(self, pid: str | None, skill: str) -> int:
        """The cards PC ``pid``'s traits and ship reputation add to a pool of ``skill``
        (:func:`_add_own` but for the Discipline cards); 0 for the crew."""
        if pid is None:
            return 0
        pc = self.pcs[pid]
        rep = pc.get("ship_reputation")
        return int(pc["trait_cards"].get(skill, 0)) + (int(rep["cards"]) if rep else 0)


_FIGURES: dict[int, _Figures] = {}
_FIGURES_KEPT = 64


def _figures(st: State) -> _Figures:
    """The :class:`_Figures` of the battle of state ``st``, kept by the identity of its
    ``pcs`` (the figures hold them, so that no other object takes their id) and worked out
    when missing or when its ``aboard`` is another battle's. The last battle's figures are
    looked at first: a battle asks for them some seventy times, one after another."""
    global _last_figures
    fig = _last_figures
    if fig.pcs is st["pcs"] and fig.aboard is st["aboard"]:
        return fig
    pcs = st["pcs"]
    kept = _FIGURES.get(id(pcs))
    if kept is not None and kept.pcs is pcs and kept.aboard is st["aboard"]:
        fig = kept
    else:
        if len(_FIGURES) >= _FIGURES_KEPT:
            _FIGURES.clear()
        fig = _FIGURES[id(pcs)] = _Figures(st)
    _last_figures = fig
    return fig


_last_figures = _Figures({"pcs": {}, "aboard": {}, "order": [], "weather": "", "settings": {}})
"""The figures :func:`_figures` returned last; at first those of no battle (no state holds
their ``pcs``), so that it need not ask whether there are any."""


def _who(st: State, sid: str, pid: str | None) -> str:
    if pid is not None:
        return st["pcs"][pid]["name"]
    return f"{_the(st['ships'][sid]['name'], False)}'s crew"


def _cards_of(st: State, pid: str | None) -> int:
    return st["discipline_cards"].get(pid, 0) if pid is not None else 0


def _traits_of(st: State, pid: str | None, skill: str) -> int:
    """The cards PC ``pid``'s traits add to his tests of ``skill`` (from the setup's
    ``trait_cards``; BtQ L1210-1212, L2459-2460 "Any traits from PCs"); 0 for the crew."""
    return st["pcs"][pid]["trait_cards"].get(skill, 0) if pid is not None else 0


def _weather_mod(st: State, skill: str) -> int:
    """The general weather's modifier to a test of ``skill`` (D15; 0 unless the setting
    applies it)."""
    mods = st["weather_mods"]
    return mods["tests"] + (mods["awareness"] if skill == "awareness" else 0)


def _add_weather(breakdown: Parts | None, st: State, skill: str) -> int:
    """The general weather's modifier to a pool of ``skill`` (:func:`_weather_mod`), added
    to ``breakdown`` unless it is ``None`` (the pool parts below all do this: the policies
    want only a pool's size, the events and the state its parts too)."""
    mods = st["weather_mods"]
    if not (mods["tests"] or mods["awareness"]):  # no modifier (_weather_mod)
        return 0
    mod = _weather_mod(st, skill)
    if mod and breakdown is not None:
        breakdown["general_weather"] = mod
    return mod


def _add_own(breakdown: Parts | None, st: State, pid: str | None, skill: str) -> int:
    """PC ``pid``'s Discipline cards, his traits' cards for ``skill`` and the cards of the
    ship reputation he uses (``ship_reputation``) in a pool: their sum, added part by part
    to ``breakdown`` (unless ``None``)."""
    if pid is None:  # the crew: none of them (_cards_of, _traits_of)
        return 0
    pc = st["pcs"][pid]
    cards = st["discipline_cards"].get(pid, 0)
    traits = pc["trait_cards"].get(skill, 0)
    rep = pc.get("ship_reputation")
    rep_cards = rep["cards"] if rep else 0
    if breakdown is not None:
        if cards:
            breakdown["discipline"] = cards
        if traits:
            breakdown["traits"] = traits
        if rep_cards:
            breakdown["ship_reputation"] = rep_cards
    return cards + traits + rep_cards


def _skill_pool(skill: str, value: int, cards: int = 0, traits: int = 0, weather: int = 0
                ) -> tuple[int, Parts]:
    """``(size, breakdown)`` of a test of a character's ``skill`` alone, with his ``cards``
    of Discipline, his ``traits``' cards and the general ``weather``'s modifier (floor 0,
    D2): with no skill (``value`` 0) he "can overturn a single card", to which nothing is
    added or taken away, and its best success counts as Ordinary (BtQ L1266-1269)."""
    if value <= 0:
        return 1, {skill: 0, "unskilled": 1}
    breakdown = {skill: value}
    if cards:
        breakdown["discipline"] = cards
    if traits:
        breakdown["traits"] = traits
    if weather:
        breakdown["general_weather"] = weather
    return max(0, value + cards + traits + weather), breakdown


_MORALE_PENALTY = (0, 1, 3, 3)
"""Ship Morale's penalty on the ship's pools (D20); Dead is no better than Maimed (and a
ship whose Ship Morale is Dead does not act at all: :func:`_act_gates`)."""


def _morale_penalty(st: State, ship: Ship, broadside: bool = False) -> int:
    """Ship Morale's penalty on one of ``ship``'s pools (``broadside``: her Broadside!).
    Great Hardship lifts an Injured or Maimed Ship Morale's penalty, not a Dead one's: a
    Dead area allows no test at all until it is healed (BtQ L1326-1328, L1421-1426). Under
    the setting ``maimed_morale_scope = "final_test"`` a Maimed (or Dead) Ship Morale's -3
    falls on the Broadside! alone, the test that settles the exchange, as the skirmish's
    falls on its final test (BtQ L1646-1647; btq_missions A1); by default on every pool
    (BtQ L1424; D20)."""
    if ship["hardship"] and ship["morale"] != _DEAD:
        return 0
    if (ship["morale"] >= _MAIMED and not broadside
            and st["settings"]["maimed_morale_scope"] == "final_test"):
        return 0
    return _MORALE_PENALTY[ship["morale"]]


def _add_casualty(breakdown: Parts | None, ship: Ship, test: str) -> int:
    """A command casualty of a boarding: the mate who took over makes ``test``
    (``"positioning"``, ``"broadside"``, ``"gun_repair"``) at -2 (BtQ L2526-2528)."""
    p = ship["casualties"].get(test)
    if not p:
        return 0
    if breakdown is not None:
        breakdown["command_casualty"] = p
    return p


def _add_penalties(breakdown: Parts | None, st: State, ship: Ship, areas: tuple[str, ...],
                   broadside: bool = False) -> int:
    """The damage penalties of ``areas`` and Ship Morale's (D20; :func:`_morale_penalty`),
    as a negative number."""
    states = ship["states"]
    total = 0
    for area in areas:
        p = _PENALTY[states[area]]
        if p:
            total -= p
            if breakdown is not None:
                breakdown[area] = -p
    if ship["morale"]:  # else no penalty (_morale_penalty)
        p = _morale_penalty(st, ship, broadside)
        if p:
            total -= p
            if breakdown is not None:
                breakdown["ship_morale"] = -p
    return total


def _sailing(st: State, sid: str) -> tuple[int, int]:
    """``(speed, weather's handling modifier)`` of a ship in this weather while she has her
    masts (BtQ L2365-2367, L2346-2347; demasted, her Speed is 0, BtQ L2479)."""
    ship = st["ships"][sid]
    _, speed_mod, handling_mod = WEATHER[st["weather"]]
    if speed_mod is None or handling_mod is None:  # Becalmed: Speed 0 and Handling 0
        speed, handling_mod = TOW_SPEED if _towing(st) else 0, -ship["handling"]
    else:
        if "Weatherly" in ship["traits"]:
            if speed_mod < 0:
                speed_mod += 1
            elif handling_mod < 0:
                handling_mod += 1
        speed = max(0, ship["speed"] + speed_mod)
    return speed, handling_mod


def _first_foe(st: State, sid: str, foes: list[tuple[str, int]] | None = None) -> str:
    """The first ship engaged with ``sid`` (of ``foes``, her :func:`_foes` if worked out
    already), else the first of the other side in the battle."""
    if foes is None:
        foes = _foes(st, sid)
    if foes:
        return foes[0][0]
    side = OTHER[st["ships"][sid]["side"]]
    return (_afloat_ids(st, side) or st["sides"][side])[0]


def positioning_pool(state: State, ship: str, against: str | None = None
                     ) -> tuple[int, dict[str, int]]:
    """The Positioning pool of ``ship`` (an id, or a side with one ship) against the ship
    ``against`` (default: her first foe), and its parts (BtQ L2422-2423, L2476-2479,
    L2498-2499; ``rules/btq_naval.md`` §4.6): the helmsman's Seamanship and Discipline cards,
    Handling, the weather, the difference of Speeds, less the Hull, Crew and Rigging
    penalties and Ship Morale. Floor 0 (D2)."""
    sid = _resolve_ship(state, ship)
    if against is None:
        against = _first_foe(state, sid)
    breakdown: dict[str, int] = {}
    return _positioning_size(state, sid, against, breakdown), breakdown


def _positioning_size(st: State, sid: str, against: str, breakdown: Parts | None = None
                      ) -> int:
    """:func:`positioning_pool`'s size, its parts added to ``breakdown`` unless ``None``."""
    ships = st["ships"]
    own, other = ships[sid], ships[against]
    if breakdown is None:  # the same sum, without writing the parts (_ShipFigures)
        figures = _figures(st).ships
        fig = figures[sid]
        total = (fig.helm_pool + (fig.speed if own["states"]["rigging"] != _DEAD else 0)
                 - (figures[against].speed if other["states"]["rigging"] != _DEAD else 0))
        if fig.helm is not None:
            total += st["discipline_cards"].get(fig.helm, 0)
        return max(0, total + _add_penalties(None, st, own, _HELM_AREAS)
                   + (own["casualties"].get("positioning") or 0))  # _add_casualty's sum
    pid, value = _officer(st, sid, "seamanship", "master")
    speed, handling_mod = _sailing(st, sid)
    diff = ((speed if own["states"]["rigging"] != _DEAD else 0)  # demasted: Speed 0 (BtQ L2479)
            - (_sailing(st, against)[0] if other["states"]["rigging"] != _DEAD else 0))
    breakdown["seamanship"] = value
    total = value + _add_own(breakdown, st, pid, "seamanship")
    total += _add_weather(breakdown, st, "seamanship")
    total += own["handling"] + handling_mod + diff
    breakdown["handling"] = own["handling"]
    if handling_mod:
        breakdown["weather"] = handling_mod
    if diff:
        breakdown["speed"] = diff
    total += _add_penalties(breakdown, st, own, _HELM_AREAS)
    total += _add_casualty(breakdown, own, "positioning")
    return max(0, total)


_HELM_AREAS = ("hull", "crew", "rigging")
"""The areas whose damage counts against Positioning (BtQ L2476-2479)."""


def _range_penalty(rating: int | None, distance: int) -> int:
    """Long Range: -2 for ships rated 1-3, -4 for 4-6 (BtQ L2379). Un-rated ships cannot fire
    at Distance 2 at all: that is :func:`_in_range`'s business."""
    if distance != 2 or rating is None:
        return 0
    return 2 if rating <= 3 else 4


def _in_range(ship: Ship, distance: int) -> bool:
    return distance == 1 or (distance == 2 and ship["rating"] is not None)


def _broadside_total(st: State, sid: str, situational: bool = True,
                     breakdown: Parts | None = None) -> int:
    """Ship ``sid``'s Broadside! before the range: what a split divides (BtQ L2499-2500,
    L2504-2505; N24). Not floored. Its parts are added to ``breakdown`` unless ``None``
    (the policies weigh the total alone)."""
    ship = st["ships"][sid]
    if breakdown is None:  # the same sum, without writing the parts (_ShipFigures)
        fig = _figures(st)
        own = fig.ships[sid]
        total = own.guns
        if own.gunner is not None:
            total += st["discipline_cards"].get(own.gunner, 0)
        if situational:
            rs = st["rs"]
            if sid in rs.get("gage", ()):
                total += GAGE_BONUS
            if "step5" in rs:
                total += rs["step5"].get(sid) or 0
            total -= _AMMO_PENALTY.get(ship["ammo"], 0)
            if ship["ammo_changed"]:
                total -= _CHANGE_PENALTY
        total += (_add_penalties(None, st, ship, _GUN_AREAS, True)
                  + (ship["casualties"].get("broadside") or 0))  # _add_casualty's sum
        return total - _tow_cut(total) if fig.towing else total
    pid, value = _officer(st, sid, "gunnery", "gunner")
    breakdown["gunnery"] = value
    total = value + _add_own(breakdown, st, pid, "gunnery")
    total += _add_weather(breakdown, st, "gunnery") + ship["broadside"]
    breakdown["broadside"] = ship["broadside"]
    if situational:
        rs = st["rs"]
        parts = []
        if sid in rs.get("gage", ()):
            parts.append(("weather_gage", GAGE_BONUS))
        step5 = rs["step5"].get(sid) if "step5" in rs else None
        if step5:
            parts.append(("how_will_you_fight", step5))
        ammo_cost = _AMMO_PENALTY.get(ship["ammo"], 0)
        if ammo_cost:
            parts.append(("ammunition", -ammo_cost))
        if ship["ammo_changed"]:
            parts.append(("changing_shot", -_CHANGE_PENALTY))
        for key, part in parts:
            total += part
            breakdown[key] = part
    total += _add_penalties(breakdown, st, ship, _GUN_AREAS, True)
    total += _add_casualty(breakdown, ship, "broadside")
    if _towing(st) and _tow_cut(total):
        breakdown["boats_towing"] = -_tow_cut(total)
        total -= _tow_cut(total)
    return total


_GUN_AREAS = ("hull", "crew", "guns")
"""The areas whose damage counts against a Broadside! (BtQ L2476-2479)."""


def broadside_pool(state: State, ship: str, *, target: str | None = None,
                   distance: int | None = None, situational: bool = True
                   ) -> tuple[int, dict[str, int]]:
    """The Broadside! pool of ``ship`` (an id, or a side with one ship) concentrated on
    ``target`` (default: her first foe) and its parts (BtQ L2457-2461, L2476-2479,
    L2652-2655; ``rules/btq_naval.md`` §4.8): the gunner's Gunnery and Discipline cards, the
    ship's Broadside, the Weather Gage, How Will You Fight?, less the shot's cost, the range,
    the Hull, Crew and Guns penalties and Ship Morale. Floor 0 (D2).

    ``distance`` defaults to the target's; ``situational=False`` leaves out what belongs to
    this round only (gage, Step 5) and the shot (for weighing a ship's strength).
    """
    sid = _resolve_ship(state, ship)
    breakdown: dict[str, int] = {}
    total = _broadside_total(state, sid, situational, breakdown)
    if distance is None:
        foe = target if target is not None else _first_foe(state, sid)
        distance = _pair(state, sid, foe)["distance"]
    rng = _range_penalty(state["ships"][sid]["rating"], distance)
    if rng:
        breakdown["range"] = -rng
    return max(0, total - rng), breakdown


def _tester_value(st: State, sid: str, who: str, area: str) -> tuple[str, int]:
    """Best ``(skill, value)`` of ``who`` (``"crew"`` or a PC id) among the skills that
    repair ``area`` (:data:`REPAIR_SKILLS`, and Profession for a PC of an appropriate
    profession, :data:`REPAIR_PROFESSIONS`)."""
    skills = REPAIR_SKILLS[area]
    if who == "crew":
        block = st["ships"][sid]["crew"]
    else:
        block = st["pcs"][who]["skills"]
        if st["pcs"][who]["profession"] in REPAIR_PROFESSIONS[area]:
            skills = (*skills, "profession")
    best = (skills[0], block.get(skills[0], 0))
    for skill in skills[1:]:
        value = block.get(skill, 0)
        if value > best[1]:
            best = (skill, value)
    return best


def repair_pool(state: State, ship: str, area: str, who: str) -> tuple[int, dict[str, int]]:
    """The pool of a repair of ``area`` (or ``"fire"``) aboard ``ship`` (an id, or a side
    with one ship) by ``who`` (``"crew"`` or a PC id): the tester's best allowed skill and
    his Discipline cards, less Ship Morale; the ship's damage does not count (BtQ
    L2409-2416, L2671; D20). A tester with none of the skills turns a single card,
    ``{skill: 0, "unskilled": 1}``, with nothing added or taken away, and his best success
    counts as Ordinary (BtQ L1266-1269): he can clear only an Injured box."""
    sid = _resolve_ship(state, ship)
    breakdown: dict[str, int] = {}
    return _repair_size(state, sid, area, who, breakdown), breakdown


def _repair_size(st: State, sid: str, area: str, who: str, breakdown: Parts | None = None
                 ) -> int:
    """:func:`repair_pool`'s size, its parts added to ``breakdown`` unless ``None`` (then
    what a battle never changes of it is the battle's :class:`_Figures`')."""
    if breakdown is None:  # the same sum, without writing the parts
        fig = _figures(st)
        value, total = fig.repair_base(st, sid, who, area)
        if value <= 0:
            return 1
        ship = st["ships"][sid]
        if who != "crew":
            total += st["discipline_cards"].get(who, 0)
        if ship["morale"]:
            total -= _morale_penalty(st, ship)
        if area == "guns":
            total += ship["casualties"].get("gun_repair") or 0  # _add_casualty's sum
        if fig.towing:
            total -= _tow_cut(total)
        return max(0, total)
    skill, value = _tester_value(st, sid, who, area)
    if value <= 0:
        breakdown.update({skill: 0, "unskilled": 1})
        return 1
    breakdown[skill] = value
    total = value + _add_own(breakdown, st, None if who == "crew" else who, skill)
    total += _add_weather(breakdown, st, skill)
    ship = st["ships"][sid]
    p = _morale_penalty(st, ship)
    if p:
        total -= p
        breakdown["ship_morale"] = -p
    if area == "guns":
        total += _add_casualty(breakdown, ship, "gun_repair")
    if _towing(st) and _tow_cut(total):
        breakdown["boats_towing"] = -_tow_cut(total)
        total -= _tow_cut(total)
    return max(0, total)



def adjust_hits(hits: list[tuple[str, int]], ammo: str | None, double_shot_extra: str = "per_area"
                ) -> list[tuple[str, int]]:
    """The hits of a Broadside! after its shot's effect (BtQ L2609-2655; N13, N14):
    grape- and chainshot raise or lower one hit per area (a raise takes the best hit below
    Dead, a lowering the best hit; an Ordinary lowered does nothing); double-shotting adds
    an Injured hit to Crew and to Hull if hit (``"per_area"``), or one per such hit
    (``"per_hit"``).

    >>> adjust_hits([("crew", 1), ("crew", 2), ("hull", 1)], "grapeshot")
    [('crew', 1), ('crew', 3)]
    >>> adjust_hits([("crew", 1), ("crew", 1), ("guns", 2)], "double")
    [('crew', 1), ('crew', 1), ('guns', 2), ('crew', 1)]
    """
    levels = _AMMO_LEVELS.get(ammo)
    if levels:
        hits = list(hits)
        for area, delta in levels.items():
            best = None
            for i, (a, level) in enumerate(hits):
                if a == area and (delta < 0 or level < 3) and (
                        best is None or level > hits[best][1]):
                    best = i
            if best is not None:
                hits[best] = (area, hits[best][1] + delta)
        hits = [h for h in hits if h[1] > 0]
    elif ammo == "double":
        struck = [a for a, _ in hits if a in ("crew", "hull")]
        if double_shot_extra == "per_area":
            struck = sorted(set(struck), key=struck.index)
        hits = list(hits) + [(a, 1) for a in struck]
    return hits


# --- cards and tests -------------------------------------------------------------------------

def _shown(cards: Iterable[Card], fate: Card, unskilled: bool = False) -> list[list[str]]:
    return [[str(c), _GRADE[grade(c, fate, unskilled=unskilled)]] for c in cards]


def _as_fate(cards: list[Card], fate: Card) -> list[Card]:
    """Undeclared Jokers played as the Card of Fate (the best card a test can have)."""
    if JOKER not in cards:  # cards are interned: the undeclared Joker is JOKER itself
        return cards
    return [JOKER.declare(fate) if c is JOKER else c for c in cards]


def _simple_test(st: State, source: RandomSource, sid: str, pid: str | None, size: int,
                 what: str, unskilled: bool = False) -> tuple[int, Card | None, list[Card]]:
    """A simple test (D4): ``size`` cards against a lone Card of Fate. Returns the best
    success level (0: failed), the Card of Fate and the cards (none for a pool of 0). An
    ``unskilled`` test's best success counts as Ordinary (BtQ L1266-1269)."""
    if size <= 0:
        return 0, None, []
    fate, (cards,) = source.draw_test(what, ((_deck_label(st, sid, pid), size, pid is not None),))
    cards = _as_fate(cards, fate)
    found = successes(cards, fate, unskilled=unskilled)
    return (found[0][0] if found else 0), fate, cards


def _deck_label(st: State, sid: str, pid: str | None) -> str:
    return f"pc:{pid}" if pid is not None else sid


def _contest(st: State, source: RandomSource, events: Events, kind: str,
             sides: Sequence[dict[str, Any]], text: str, one_draw_if_empty: bool = False
             ) -> tuple[str | None, int]:
    """A contested test between ``sides`` (two dicts with ``key``, ``side``, ``pid``,
    ``size``, ``label``, and, for the events, ``who``, ``breakdown`` and ``public``;
    optionally ``unskilled``), with the retests of D3; ``text`` names the test in the events
    (the names and parts are not read when ``events`` is ``None``). Returns ``(winner key
    or None, winner's best level)``. A side with no cards turns none; the other's failure
    is then a mutual failure, retested as D3 says, except where
    ``one_draw_if_empty`` (Positioning, D18): there the other side turns its pool once and
    wins with any success."""
    a, b = sides
    single = one_draw_if_empty and (a["size"] <= 0 or b["size"] <= 0)
    if a["size"] <= 0 and b["size"] <= 0:
        if events is not None:
            events.append(Event(f"{kind}.test", f"{text}: neither side has any cards; nothing "
                                "happens.", {"pools": {a["key"]: 0, b["key"]: 0},
                                             "winner": None}))
        return None, 0
    # each side's hand (a PC's from his own deck, else the GM deck's), the same every draw
    hands = ((a["label"], a["size"], a["pid"] is not None),
             (b["label"], b["size"], b["pid"] is not None))
    a_unskilled, b_unskilled = a.get("unskilled", False), b.get("unskilled", False)
    winner: str | None
    best: int
    for attempt in range(1 if single else MAX_RETESTS + 1):
        fate, (a_hand, b_hand) = source.draw_test(kind, hands)
        # the two sides spelled out, a then b (a comprehension costs a call of its own);
        # _as_fate only for a hand with a Joker, seldom drawn
        if JOKER in a_hand:
            a_hand = _as_fate(a_hand, fate)
        if JOKER in b_hand:
            b_hand = _as_fate(b_hand, fate)
        a_found = successes(a_hand, fate, unskilled=a_unskilled)
        b_found = successes(b_hand, fate, unskilled=b_unskilled)
        verdict = compare_successes(a_found, b_found)
        if verdict == "a":
            winner, best = a["key"], a_found[0][0]
        elif verdict == "b":
            winner, best = b["key"], b_found[0][0]
        else:
            winner, best = None, 0
        if events is not None:
            last = single or attempt == MAX_RETESTS
            events.append(_contest_event(kind, text, sides, attempt, fate, (a_hand, b_hand),
                                         verdict, winner, best, last))
        if winner is not None:
            return winner, int(best)
    return None, 0


def _contest_event(kind: str, text: str, sides: Sequence[dict[str, Any]], attempt: int,
                   fate: Card, hands: tuple[list[Card], list[Card]], verdict: str,
                   winner: str | None, best: int, last: bool) -> Event:
    data: dict[str, Any] = {"attempt": attempt + 1, "card_of_fate": str(fate),
                            "winner": winner, "verdict": verdict, "pools": {}}
    gm_data: dict[str, Any] = {}
    for s, cards in zip(sides, hands):
        data["pools"][s["key"]] = {"who": s["who"], "size": s["size"],
                                   "cards": _shown(cards, fate, s.get("unskilled", False))}
        if s["public"]:
            data["pools"][s["key"]]["breakdown"] = s["breakdown"]
        else:
            gm_data[s["key"]] = {"breakdown": s["breakdown"]}
    if winner is not None:
        level_name = _GRADE[best]
        article = "an" if level_name[0] in "aeiou" else "a"
        line = (f"{text}: {_side_name(sides, winner)} wins with {article} {level_name} "
                "success.")
    else:
        line = f"{text}: {'no success' if verdict == 'both_failed' else 'a full tie'}" + (
            "; nobody wins." if last else "; retest with a new Card of Fate.")
    return Event(f"{kind}.test", line, data, gm_data)


def _side_name(sides: Sequence[dict[str, Any]], key: str) -> str:
    return next(s["who"] for s in sides if s["key"] == key)



_NO_ARTICLE = frozenset({"HMS", "HM", "USS", "The", "La", "Le", "Les", "El", "Los", "Las", "Il"})


def _the(name: str, capital: bool = True) -> str:
    """A ship's name as a sentence names it: "The Corsair", but "HMS Hermes (22)" and
    "La Minerve (40)" as they are."""
    if name.split(" ", 1)[0] in _NO_ARTICLE:
        return name
    return f"{'The' if capital else 'the'} {name}"


# --- the flow --------------------------------------------------------------------------------

def _captain(st: State, sid: str | None) -> str:
    """The participant who decides for ship ``sid`` as a whole: the senior PC aboard, else
    the GM."""
    pid = st["commanders"].get(sid) if sid is not None else None
    return GM if pid is None else f"pc:{pid}"


def _gun_commander(st: State, sid: str) -> str:
    """Who chooses ship ``sid``'s shot and where she fires: "the character commanding the
    guns" (BtQ L2609-2610): the PC aboard posted as ``gunner``, else the PC who fires the
    Broadside!, else the ship's captain (:func:`_captain`)."""
    pcs = st["pcs"]
    for posted in _aboard(st, sid):  # the first posted as gunner
        if pcs[posted]["station"] == "gunner":
            return f"pc:{posted}"
    pid = _officer(st, sid, "gunnery", "gunner")[0]
    if pid is not None:
        return f"pc:{pid}"
    return _captain(st, sid)


def _await(st: State, kind: str, ship: str | None = None, actor: str | None = None,
           **extra: Any) -> None:
    """Await the decision ``kind`` of ship ``ship`` from ``actor`` (default: her captain);
    ``extra``: the decision's own keys."""
    st["await"] = {"kind": kind, "actor": actor or _captain(st, ship), "ship": ship, **extra}


def _finish(st: State, events: Events, result: str, winner: str | None, summary: str,
            losers: Iterable[str] = (), **data: Any) -> None:
    st["result"] = {"result": result, "winner": winner, "summary": summary,
                    "losers": list(losers), **data}
    st["step"] = "over"
    st["await"] = None
    if events is not None:
        events.append(Event("battle.end", summary, {"result": result, "winner": winner,
                                                      "losers": list(losers),
                                                      "round": st["round"], **data}))


def _hit_ship(st: State, sid: str, hits: Iterable[tuple[str, int]]) -> dict[str, str]:
    """Apply ``hits`` to ship ``sid``; returns her tracks after."""
    ship = st["ships"][sid]
    tracks = dict(ship["tracks"])
    states = dict(ship["states"])  # the areas not hit keep theirs
    for area, level in hits:
        track = DamageTrack.parse(tracks[area]).hit(level)
        tracks[area] = str(track)
        states[area] = int(track.state)
    ship["tracks"] = tracks
    ship["states"] = states
    _forget_standing(sid)
    return tracks


_LEAVES = {"sunk": "is holed and sinking: abandon ship!",
           "taken": "is taken by boarding.",
           "crew_dead": "has lost her crew and can fight no more.",
           "escaped": "is beyond Distance 5 of every enemy: she has escaped.",
           "struck": "strikes her colours."}
_LOST = frozenset({"sunk", "crew_dead", "struck", "taken"})


def _names(st: State, ids: Iterable[str]) -> str:
    """"the Condor and the Vulture"."""
    names = [_the(st["ships"][s]["name"], False) for s in ids]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _settle(st: State, events: Events, left: dict[str, str], escaper: str | None = None
            ) -> None:
    """Ships ``left`` (id -> ``"sunk"``, ``"crew_dead"``, ``"struck"``, ``"escaped"``) leave
    the battle (BtQ L2483, L2488-2496); a ship that is lost (sunk, crew Dead, struck) takes
    one level of Ship Morale (N22), and so does the ship that fled (``escaper``, when she
    leaves) under the setting ``fled_ship_morale`` (N22's option). The battle ends when a
    side has no ship left in it, or no two ships are within Distance 5 of each other: the
    other side wins, unless the last ship escaped (then nobody does). ``escaper``: the ship
    whose move broke the contact."""
    fled = escaper if st["settings"]["fled_ship_morale"] else None
    for sid, how in left.items():
        ship = st["ships"][sid]
        ship["out"] = how
        _forget_roster()
        if how in _LOST or (how == "escaped" and sid == fled):
            ship["morale"] = min(3, ship["morale"] + 1)
        if how == "struck":
            ship["struck"] = True
    if any(sid in left for sid in _grappled(st)):  # sunk, say, while boarding
        _end_boarding(st, events, None)
    remaining = {side: _afloat_ids(st, side) for side in SIDES}
    empty = [side for side in SIDES if not remaining[side]]
    if not empty and _engaged(st):
        if events is not None:
            for sid, how in left.items():
                events.append(Event("ship.leaves", f"{_the(st['ships'][sid]['name'])} "
                                    f"{_LEAVES[how]}", {"ship": sid, "how": how}))
        return
    lost = {sid: how for sid, how in left.items() if how in _LOST}
    losers = [side for side in empty if any(st["ships"][s]["side"] == side for s in lost)]
    last = {side: [h for s, h in left.items() if st["ships"][s]["side"] == side]
            for side in empty}
    if not empty or any(hows and hows[-1] == "escaped" for hows in last.values()):
        mover = escaper if escaper is not None else next(iter(left))
        side = st["ships"][mover]["side"]
        others = [s for s in st["order"] if st["ships"][s]["side"] != side
                  and st["ships"][s]["present"] and st["ships"][s]["out"] in (None, "escaped")]
        text = (f"{_the(st['ships'][mover]['name'])} takes the ships beyond Distance 5: "
                f"contact is broken and {_names(st, others)} cannot pursue." if others else
                f"{_the(st['ships'][mover]['name'])} escapes beyond Distance 5.")
        _finish(st, events, "escaped", None, text, losers, escaped=mover, **_fates(lost))
        return
    if len(empty) == 2:
        if all(h == "struck" for h in lost.values()):
            _finish(st, events, "struck", None, "Both captains strike their colours.", losers)
        else:
            _finish(st, events, "both_lost", None, " ".join(
                f"{_the(st['ships'][s]['name'])} {_LEAVES[h]}" for s, h in lost.items()),
                losers, **_fates(lost))
        return
    side = empty[0]
    winners = _names(st, remaining[OTHER[side]])
    sid, how = [(s, h) for s, h in lost.items() if st["ships"][s]["side"] == side][-1]
    name = _the(st["ships"][sid]["name"])
    if how == "struck":
        text = f"{name} strikes her colours and surrenders to {winners}."
    else:
        many = len(remaining[OTHER[side]]) > 1
        text = f"{name} {_LEAVES[how]} {winners[0].upper()}{winners[1:]} win{'' if many else 's'}."
    _finish(st, events, how, OTHER[side], text, losers, **_fates(lost))


def _fates(lost: dict[str, str]) -> dict[str, dict[str, str]]:
    fates = {sid: how for sid, how in lost.items() if how != "struck"}
    return {"fates": fates} if fates else {}


def _check_out(st: State, events: Events) -> None:
    """Ships sunk (Hull Dead) or without a crew (Crew Dead) leave the battle (BtQ
    L2488-2490)."""
    left = {}
    for sid in _afloat_ids(st):
        states = st["ships"][sid]["states"]
        if states["hull"] == _DEAD:
            left[sid] = "sunk"
        elif states["crew"] == _DEAD:
            left[sid] = "crew_dead"
    if left:
        _settle(st, events, left)


def _conditions(st: State, source: RandomSource, events: Events) -> None:
    unset = [s for s in st["sides"]["enemy"] if st["ships"][s]["present"]
             and st["ships"][s]["distance"] is None]
    if not unset or st["start_distance"] is not None:
        _set_start(st, events, st["start_distance"], "the story")
        return
    testers = []
    for side in SIDES:
        sid = _afloat_ids(st, side)[0]  # the first ship of each side: her lookout tests
        pid, value = _officer(st, sid, "awareness")
        size, breakdown = _skill_pool("awareness", value, 0, _traits_of(st, pid, "awareness"),
                                      _weather_mod(st, "awareness"))
        tester: dict[str, Any] = {"key": side, "ship": sid, "pid": pid, "size": size,
                                  "label": _deck_label(st, sid, pid), "unskilled": value <= 0}
        if events is not None:  # what the events say of him (_contest reads it for them)
            tester.update(who=_the(st["ships"][sid]["name"], False) if pid is None else
                          f"{_the(st['ships'][sid]['name'], False)} ({_who(st, sid, pid)})",
                          breakdown=breakdown, public=side == "pc")
        testers.append(tester)
    winner, _ = _contest(st, source, events, "awareness", testers,
                         "Awareness: who sets the starting distance")
    if winner is None:  # a stalemate: the story, that is the GM, decides (BtQ L2397)
        _await(st, "start.distance", actor=GM)
    else:
        _await(st, "start.distance", _afloat_ids(st, winner)[0])


def _set_start(st: State, events: Events, distance: int | None, by: str) -> None:
    """Every pair of ships at the start is at ``distance`` (an enemy ship's own distance
    first); ``by`` chose it."""
    pairs = {}
    for key, pair in _pair_items(st):
        a, b = st["ships"][pair["a"]], st["ships"][pair["b"]]
        if a["present"] and b["present"]:
            pair = {**pair, "distance": b["distance"] or distance}
        pairs[key] = pair
    st["pairs"] = pairs
    st["step"] = "discipline"
    if events is not None:
        at = sorted({p["distance"] for p in pairs.values() if p["distance"] is not None})
        if len(at) == 1:
            text = f"The battle starts at Distance {at[0]} ({DISTANCES[at[0]]}), chosen by {by}."
        else:
            text = "The battle starts: " + "; ".join(
                f"{_the(st['ships'][p['b']]['name'], False)} at Distance {p['distance']} from "
                f"{_the(st['ships'][p['a']]['name'], False)}" for p in pairs.values()
                if p["distance"] is not None) + "."
        events.append(Event("start.distance", text[0].upper() + text[1:],
                            {"distance": at[0] if len(at) == 1 else None, "by": by,
                             "pairs": {k: p["distance"] for k, p in pairs.items()}}))


def _discipline(st: State, source: RandomSource, events: Events) -> None:
    """Step Two on each of the players' ships, one after another: her senior PC hands out
    his Discipline (BtQ L2406-2407)."""
    rs = st["rs"]
    if "ships" not in rs:
        rs["ships"] = [s for s in st["sides"]["pc"] if s in st["commanders"]]
    while rs["ships"]:
        sid = rs["ships"][0]
        cmd = st["commanders"][sid]
        ship = st["ships"][sid]
        if "left" not in rs:
            if (st["settings"]["great_hardship"] and ship["morale"] in (_INJURED, _MAIMED)
                    and "hardship" not in rs and st["pcs"][cmd]["discipline"] >= 2):
                rs["hardship"] = True
                _await(st, "discipline.great_hardship", sid)
                return
            rs["left"] = st["pcs"][cmd]["discipline"] - (1 if ship["hardship"] else 0)
            rs["queue"] = [p for p in _aboard(st, sid)
                           if p != cmd and st["pcs"][p]["discipline"] > 0]
        if rs["left"] > 0 and rs["queue"]:
            _await(st, "discipline.cards", sid, pc=rs["queue"][0])
            return
        if events is not None:
            handed = sorted(st["discipline_cards"].items(),
                            key=lambda kv: st["pc_order"].index(kv[0])
                            if kv[0] in st["pc_order"] else len(st["pc_order"]))
            given = {st["pcs"][p]["name"]: n for p, n in handed if st["pcs"][p]["ship"] == sid}
            text = (f"hands out his Discipline: {', '.join(f'{n} +{c}' for n, c in given.items())}"
                    if given else "hands out no Discipline cards")
            events.append(Event("discipline.cards", f"{st['pcs'][cmd]['name']} {text}.",
                                {"commander": cmd, "ship": sid,
                                 "cards": {p: n for p, n in st["discipline_cards"].items()
                                           if st["pcs"][p]["ship"] == sid}}))
        rs["ships"] = rs["ships"][1:]
        for k in ("left", "queue", "hardship"):
            rs.pop(k, None)
    st["step"], st["rs"] = "repair", {}


def _begin_round(st: State, source: RandomSource, events: Events) -> None:
    prev = st["rs"]
    number = st["round"] + 1
    if number > NIGHTFALL_ROUND:
        _finish(st, events, "disengaged", None,
                f"Night falls after {NIGHTFALL_ROUND} rounds and the ships lose each other.",
                nightfall=True)
        return
    st["round"] = number
    next_round = st["settings"]["repair_lockout"] == "next_round"
    rs: dict[str, Any] = {
        "begun": True, "locked": list(prev.get("locked_next", [])) if next_round else [],
        "locked_next": [], "acts": {}, "fought_fire": [], "gage": [], "step5": {}}
    st["rs"] = rs
    _joiners(st, events)
    if events is not None:
        pairs = _engaged(st)
        if len(pairs) == 1:
            d = pairs[0]["distance"]
            text = f"Round {number}: the ships are at Distance {d} ({DISTANCES[d]})."
        else:
            text = f"Round {number}: " + "; ".join(
                f"{_the(st['ships'][p['a']]['name'], False)} and "
                f"{_the(st['ships'][p['b']]['name'], False)} at Distance {p['distance']}"
                for p in pairs) + "."
            text = text[0].upper() + text[1:]
        events.append(Event("round.start", text, {
            "round": number, "distance": pairs[0]["distance"] if len(pairs) == 1 else None,
            "pairs": {_key(p["a"], p["b"]): p["distance"] for p in pairs}}))
    for sid in _afloat_ids(st):
        ship = st["ships"][sid]
        if ship["fire"]:
            gm = Deck(GM_DECK)
            cards = source.draw(gm, ship["fire"], purpose=f"fire {sid}" if source.record
                                else "")
            hits = [(SUIT_AREA[c.suit], 1) for c in cards]
            tracks = _hit_ship(st, sid, hits)
            if events is not None:
                events.append(Event("fire.damage", f"Fire aboard {_the(ship['name'], False)}: "
                                    + ", ".join(f"{card_label(c)} Injured {_AREA_NAMES[a]}"
                                                for c, (a, _) in zip(cards, hits)) + ".",
                                    {"ship": sid, "cards": [str(c) for c in cards],
                                     "hits": [list(h) for h in hits], "tracks": tracks}))
    _check_out(st, events)
    if st["result"] is not None:
        return
    queue = []
    for sid in _afloat_ids(st):  # a gate leaves no ship out of the battle
        rs["acts"][sid] = True
        _act_gates(st, source, events, sid)
        if rs["acts"][sid] and any(_repairs(st, sid)):  # any() stops at the first found
            queue.append(sid)  # (a gate changes nothing that a repair needs)
    rs["repair_queue"] = queue


def _joiners(st: State, events: Events) -> None:
    """Ships that join the battle this round enter the range chart at their distance from
    every ship of the other side (BtQ L2502-2503: "The Condor ... is now joined by The
    Vulture (at Distance 4)")."""
    for sid in st["order"]:
        ship = st["ships"][sid]
        if ship["present"] or ship["joins_round"] != st["round"]:
            continue
        ship["present"] = True
        _forget_roster()
        pairs = dict(_pair_items(st))
        for key, pair in list(pairs.items()):
            if sid in (pair["a"], pair["b"]) and _afloat(st["ships"][_other(pair, sid)]):
                pairs[key] = {**pair, "distance": ship["distance"]}
        st["pairs"] = pairs
        if events is not None:
            events.append(Event("ship.joins", f"{_the(ship['name'])} ({ship['type']}) joins "
                                f"the battle at Distance {ship['distance']}.",
                                {"ship": sid, "side": ship["side"],
                                 "distance": ship["distance"]}))


def _gate(st: State, source: RandomSource, events: Events, sid: str, pid: str | None,
          skill: str, value: int, why: str) -> bool:
    """A gate test (D16): a simple test of the officer's skill and Discipline cards; with
    no skill, one card (BtQ L1266-1269)."""
    size, _ = _skill_pool(skill, value, _cards_of(st, pid), _traits_of(st, pid, skill),
                          _weather_mod(st, skill))
    best, fate, drawn = _simple_test(st, source, sid, pid, size, f"gate {skill}",
                                     unskilled=value <= 0)
    passed = best > 0
    if events is not None:
        ship = st["ships"][sid]
        who = _who(st, sid, pid)
        data = {"ship": sid, "why": why, "skill": skill, "who": who, "pool": size,
                "card_of_fate": str(fate) if fate else None,
                "cards": _shown(drawn, fate, value <= 0) if fate else [], "passed": passed}
        events.append(Event("gate.test", f"{_the(ship['name'])}: {why}; {who} tests "
                            f"{SKILLS.get(skill) or MEASURES[skill]}"
                            f"{' unskilled' if value <= 0 else ''} and "
                            f"{'passes' if passed else 'fails'}.", data,
                            {} if _public(st, sid) else {"value": value}))
    return passed


def _act_gates(st: State, source: RandomSource, events: Events, sid: str) -> None:
    """Whether ship ``sid`` acts this round: a Maimed Crew needs a Command test (BtQ L2479),
    a Maimed Ship Morale a Discipline test (BtQ L2483-2484; D16, D20), or under the setting
    ``maimed_morale_test = "command"`` a Command test (BtQ L1424; btq_missions A1). A Dead
    Ship Morale allows no test at all (a Dead area "cannot attempt another test", BtQ
    L1326-1328): the crew stands "on the verge of mutiny" (BtQ L1350-1351) and the ship
    does nothing this round but what her captain orders in Step 7."""
    ship = st["ships"][sid]
    rs = st["rs"]
    if ship["morale"] == _DEAD:
        rs["acts"][sid] = False
        if events is not None:
            events.append(Event("gate.mutiny", f"{_the(ship['name'])}: Ship Morale Dead; her "
                                "crew is on the verge of mutiny and the ship does nothing "
                                "this round.", {"ship": sid}))
        return
    if ship["states"]["crew"] == _MAIMED:
        pid, value = _commanding(st, sid, "command")
        if not _gate(st, source, events, sid, pid, "command", value,
                     "Crew Maimed: a Command test to act this round"):
            rs["acts"][sid] = False
            return
    if ship["morale"] == _MAIMED and not ship["hardship"]:
        what = st["settings"]["maimed_morale_test"]
        pid, value = _commanding(st, sid, what)
        if not _gate(st, source, events, sid, pid, what, value,
                     f"Ship Morale Maimed: a {MEASURES.get(what) or SKILLS[what]} test to act "
                     "this round"):
            rs["acts"][sid] = False


def _commanding(st: State, sid: str, what: str) -> tuple[str | None, int]:
    """The commanding officer's Command skill or Discipline: the commanding PC's, or for a
    ship without PCs the NPC captain's (``discipline``, else the crew's Command). A
    commanding PC with no Command leaves the Command test to the ship's crew when it has
    the skill (BtQ L2360-2362), else tests unskilled."""
    cmd = st["commanders"].get(sid)
    ship = st["ships"][sid]
    if cmd is not None:
        pc = st["pcs"][cmd]
        if what == "discipline":
            return cmd, pc["discipline"]
        if pc["skills"]["command"] > 0 or ship["crew"]["command"] <= 0:
            return cmd, pc["skills"]["command"]
        return None, ship["crew"]["command"]
    if what == "discipline" and ship["discipline"] is not None:
        return None, ship["discipline"]
    return None, ship["crew"]["command"]


def _repair_options(st: State, sid: str) -> list[str]:
    """Option keys of ship ``sid``'s repair: ``"none"``, ``"<area>:<who>"``."""
    return ["none", *(key for key, _ in _repairs(st, sid))]


def _repair_areas(st: State, sid: str) -> list[str]:
    """What ship ``sid`` has to repair: her damaged areas in the order of ``AREAS``, then
    ``"fire"`` if she burns. A ship locked in a boarding does not tend her Crew: her men
    are fighting it out (a reading; else a First Aid each round would undo the boarding's
    losses, BtQ L2528-2531)."""
    ship = st["ships"][sid]
    grappled = sid in _grappled(st)
    tracks = ship["tracks"]
    areas = []
    for a in AREAS:  # a loop: a comprehension is a call of its own
        if "x" in tracks[a] and not (grappled and a == "crew"):
            areas.append(a)
    if ship["fire"]:
        areas.append("fire")
    return areas


def _repairs(st: State, sid: str) -> Iterator[tuple[str, int]]:
    """The repairs ship ``sid`` can make, as ``("<area>:<who>", pool size)``, one at a
    time: each of her :func:`_repair_areas` by each of her repairers with a pool above 0."""
    testers = _figures(st).ships[sid].repairers
    for area in _repair_areas(st, sid):
        for who in testers:
            size = _repair_size(st, sid, area, who[3:] if who != "crew" else "crew")
            if size > 0:
                yield f"{area}:{who}", size


def _repair_step(st: State, source: RandomSource, events: Events) -> None:
    rs = st["rs"]
    if not rs.get("begun"):
        _begin_round(st, source, events)
        if st["result"] is not None:
            return
        rs = st["rs"]
    queue = []
    for sid in rs["repair_queue"]:  # a loop: a comprehension is a call of its own
        if _afloat(st["ships"][sid]):
            queue.append(sid)
    rs["repair_queue"] = queue
    if rs["repair_queue"]:
        _await(st, "repair.action", rs["repair_queue"][0])
        return
    for sid in _afloat_ids(st):
        ship = st["ships"][sid]
        if ship["fire"] and sid not in rs["fought_fire"]:
            ship["fire"] += 1
            if events is not None:
                events.append(Event("fire.spreads", f"Nobody fights the fire aboard "
                                    f"{_the(ship['name'], False)}: it spreads to "
                                    f"{card_count(ship['fire'])}.",
                                    {"ship": sid, "fire": ship["fire"]}))
    st["step"] = "positioning"


def _answer_repair(st: State, aw: Await, choice: str, source: RandomSource, events: Events
                   ) -> None:
    sid = aw["ship"]
    rs = st["rs"]
    rs["repair_queue"] = rs["repair_queue"][1:]
    if choice == "none":
        return
    area, _, who = choice.partition(":")
    pid = None if who == "crew" else who[3:]
    tester = pid or "crew"
    # the pool's size; its parts (repair_pool's) only where they are read
    size = _repair_size(st, sid, area, tester)
    breakdown = repair_pool(st, sid, area, tester)[1] if events is not None else None
    ship = st["ships"][sid]
    best, fate, cards = _simple_test(st, source, sid, pid, size, f"repair {area}",
                                     unskilled=_figures(st).tester(st, sid, tester, area)[1] <= 0)
    assert fate is not None  # a repair offered has a pool of at least 1 (_repairs)
    if pid is not None:
        # A fire-fighter sits out How Will You Fight? "for that round" (BtQ L2672), whatever
        # the setting says of a repairer (D19).
        same = area == "fire" or st["settings"]["repair_lockout"] == "same_round"
        key = "locked" if same else "locked_next"
        rs[key] = rs[key] + [pid]
    level = None
    if area == "fire":
        rs["fought_fire"] = rs["fought_fire"] + [sid]
        if best:
            ship["fire"] -= 1
    else:
        track = DamageTrack.parse(ship["tracks"][area])
        if len(track.repair_levels(best)) > 1:
            # "recover one box ... equal to, or lower than the level of the success" (BtQ
            # L2410-2412): which one is the repairer's choice.
            # the skill apart: the breakdown's keys come back sorted from a stored state
            if breakdown is None:
                breakdown = repair_pool(st, sid, area, tester)[1]
            rs["repair_made"] = {"ship": sid, "pid": pid, "area": area, "size": size,
                                 "skill": next(iter(breakdown)), "breakdown": breakdown,
                                 "best": best, "fate": str(fate),
                                 "cards": [str(c) for c in cards]}
            _await(st, "repair.box", sid,
                   actor=f"pc:{pid}" if pid is not None else _captain(st, sid),
                   area=area, best=best)
            return
        level = _clear_box(ship, area, best, None)
    if events is not None:
        assert breakdown is not None  # worked out above for the events
        events.append(_repair_event(st, sid, pid, area, size, breakdown, best, fate, cards,
                                    level))


def _clear_box(ship: Ship, area: str, best: int, level: int | None) -> DamageState | None:
    """Clear the box of ``level`` (``None``: the default one) that a repair success of
    ``best`` allows in the ship's ``area``; returns the level cleared or ``None``."""
    key = (ship["tracks"][area], best, level)
    repaired = _REPAIRED.get(key)
    if repaired is None:
        track, cleared = DamageTrack.parse(key[0]).repair(best, level)
        repaired = (str(track), int(track.state), cleared)
        if len(_REPAIRED) < _REPAIRS_KEPT:
            _REPAIRED[key] = repaired
    text, state, cleared = repaired
    if cleared is not None:
        ship["tracks"] = {**ship["tracks"], area: text}
        ship["states"] = {**ship["states"], area: state}
        _forget_standing(ship["id"])
    return cleared


_REPAIRED: dict[tuple, tuple] = {}
"""``(track text, success, level)`` -> ``(track text, state, level cleared)`` of
:func:`_clear_box`: a track's repair depends on nothing else, and a Monte Carlo repairs the
same few tracks over and over."""
_REPAIRS_KEPT = 50_000


def _answer_repair_box(st: State, aw: Await, choice: str, source: RandomSource,
                       events: Events) -> None:
    made = st["rs"].pop("repair_made")
    sid = made["ship"]
    level = _clear_box(st["ships"][sid], made["area"], made["best"], int(choice))
    if events is not None:
        fate = parse_card(made["fate"])
        cards = [parse_card(c) for c in made["cards"]]
        events.append(_repair_event(st, sid, made["pid"], made["area"], made["size"],
                                    made["breakdown"], made["best"], fate, cards, level,
                                    skill=made["skill"]))


def _repair_event(st: State, sid: str, pid: str | None, area: str, size: int, breakdown: Parts,
                  best: int, fate: Card, cards: list[Card], level: DamageState | None,
                  skill: str | None = None) -> Event:
    """The ``repair.test`` event of a repair just made; ``level``: the box cleared;
    ``skill`` the skill tested, by default the breakdown's first part (:func:`repair_pool`
    puts it first)."""
    ship = st["ships"][sid]
    name = _who(st, sid, pid)
    data = {"ship": sid, "area": area, "who": name, "skill": skill or next(iter(breakdown)),
            "pool": size, "card_of_fate": str(fate),
            "cards": _shown(cards, fate, "unskilled" in breakdown),
            "success": _GRADE[best]}
    if area == "fire":
        outcome = (f"the fire is down to {card_count(ship['fire'])}" if ship["fire"] else
                   "the fire is out") if best else "the fire does not grow"
        data["fire"] = ship["fire"]
    else:
        outcome = (f"one {level.label} box of the {_AREA_NAMES[area]} is repaired"
                   if level is not None else "nothing is repaired")
        data["track"] = ship["tracks"][area]
    gm_data: dict[str, Any] = {}
    (data if _public(st, sid) else gm_data)["breakdown"] = breakdown
    task = "fight the fire" if area == "fire" else f"repair the {_AREA_NAMES[area]}"
    tester = f"{_the(ship['name'])}: {name}" if pid is not None else name[0].upper() + name[1:]
    return Event("repair.test", f"{tester} tries to {task} ({card_count(size)} against "
                 f"{card_label(fate)}): {outcome}.", data, gm_data)


def _positions(st: State, source: RandomSource, events: Events, sid: str) -> bool:
    """Whether ship ``sid`` makes her Positioning tests this round: she acts, and with her
    Rigging Maimed passes a Maritime test first, once a round (BtQ L2478). Asked only for a
    pool above 0 (D16)."""
    rs = st["rs"]
    can = rs.setdefault("positions", {})
    if sid not in can:
        ok = rs["acts"][sid]
        if ok and st["ships"][sid]["states"]["rigging"] == _MAIMED:
            mpid, value = _officer(st, sid, "maritime", "master")
            ok = _gate(st, source, events, sid, mpid, "maritime", value,
                       "Rigging Maimed: a Maritime test to position")
        can[sid] = ok
    return can[sid]


def _positioning_step(st: State, source: RandomSource, events: Events) -> None:
    """Step Four: a Positioning test for every pair of ships on the range chart, the
    players' ships in order against each enemy in order (BtQ L2418-2436, L2498-2499)."""
    rs = st["rs"]
    if "pair_queue" not in rs:
        rs["pair_queue"] = [_key(p["a"], p["b"]) for p in _engaged(st)]
    while rs["pair_queue"]:
        key, rs["pair_queue"] = rs["pair_queue"][0], rs["pair_queue"][1:]
        pair = st["pairs"][key]
        if not _within(st["ships"], pair) or _grappled_pair(st, key):  # (_engaged)
            continue
        testers = []
        figures = _figures(st).ships
        for side, sid in (("pc", pair["a"]), ("enemy", pair["b"])):
            foe = _other(pair, sid)
            pid = figures[sid].helm
            breakdown: Parts | None = {} if events is not None else None
            size = _positioning_size(st, sid, foe, breakdown)
            if size and not _positions(st, source, events, sid):
                size = 0
            tester = {"key": side, "ship": sid, "pid": pid, "size": size,
                      "label": _deck_label(st, sid, pid)}
            if events is not None:
                tester.update(who=_the(st["ships"][sid]["name"], False), breakdown=breakdown,
                              public=side == "pc")
            testers.append(tester)
        text = "Positioning" + (f", {_the(st['ships'][pair['a']]['name'], False)} against "
                                f"{_the(st['ships'][pair['b']]['name'], False)}"
                                if events is not None and len(st["pairs"]) > 1 else "")
        winner, level = _contest(st, source, events, "positioning", testers, text,
                                 one_draw_if_empty=True)
        if winner is not None:
            _await(st, "positioning.move", pair["a" if winner == "pc" else "b"], pair=key,
                   reach=level)
            return
    st["step"] = "how_will_you_fight"


def _move_options(distance: int, reach: int, closest: int = 0) -> list[str]:
    """The keys of a Positioning winner's moves; ``closest`` 1 keeps a ship out of
    Distance 0 (:func:`_closest`)."""
    targets = sorted({min(BEYOND, max(closest, distance + k)) for k in range(-reach, reach + 1)})
    return ["escape" if t == BEYOND else str(t) for t in targets]


def _answer_move(st: State, aw: Await, choice: str, source: RandomSource, events: Events
                 ) -> None:
    sid = aw["ship"]
    pair = st["pairs"][aw["pair"]]
    foe = _other(pair, sid)
    old = pair["distance"]
    new = BEYOND if choice == "escape" else int(choice)
    pair = {**pair, "distance": new}
    st["pairs"] = {**st["pairs"], aw["pair"]: pair}
    ship, other = st["ships"][sid], st["ships"][foe]
    if events is not None:
        move = (f"holds at Distance {new}" if new == old else
                f"Distance {old} to {'beyond 5' if new == BEYOND else new}")
        against = f" against {_the(other['name'], False)}" if len(st["pairs"]) > 1 else ""
        events.append(Event("positioning.move", f"{_the(ship['name'])} wins the Positioning"
                            f"{against}: {move} ({DISTANCES[new]}).",
                            {"by": sid, "against": foe, "from": old, "to": new}))
    if new == BEYOND:
        alone = {s: "escaped" for s in (sid, foe) if not _foes(st, s)}
        if alone:
            _settle(st, events, alone, escaper=sid)
        return
    if new == 0:
        _begin_boarding(st, events, sid, foe, aw["pair"])
        return
    if pair["gage"] is None and _in_range(ship, new) and not _in_range(ship, old):
        # The Weather Gage: once a pair, to the winner whose move brings her into range;
        # +2 to her Broadside! this round (D17), split or not (BtQ L2504-2505).
        st["pairs"] = {**st["pairs"], aw["pair"]: {**pair, "gage": {"to": sid,
                                                                    "round": st["round"]}}}
        rs = st["rs"]
        again = sid in rs["gage"]
        if not again:
            rs["gage"] = rs["gage"] + [sid]
        if events is not None:
            against = f" against {_the(other['name'], False)}" if len(st["pairs"]) > 1 else ""
            bonus = ("it is hers already this round" if again else
                     f"+{GAGE_BONUS} to her Broadside! this round")
            events.append(Event("weather_gage", f"{_the(ship['name'])} takes the Weather Gage"
                                f"{against}: {bonus}.",
                                {"ship": sid, "against": foe, "bonus": 0 if again else GAGE_BONUS}))


def _targets(st: State, sid: str) -> list[tuple[str, int]]:
    """The ships ship ``sid`` may fire at now: in her range and not struck (BtQ L2379,
    L2494-2496), as ``[(id, distance)]``."""
    ship = st["ships"][sid]
    targets = []
    for f, d in _foes(st, sid):  # a loop: a comprehension is a call of its own
        if _in_range(ship, d):
            targets.append((f, d))
    return targets


def _will_fire(st: State, sid: str) -> bool:
    """Whether ship ``sid`` can fire this round: acting, a target in range, Guns not Dead,
    and a pool above 0 (BtQ L2379, L2476-2479, L2594-2595; D16)."""
    ship = st["ships"][sid]
    if not (st["rs"]["acts"].get(sid) and ship["states"]["guns"] != _DEAD):
        return False
    total = _standing(st, sid).total  # broadside_pool, less each target's range
    for _, d in _foes(st, sid):
        if _in_range(ship, d) and total - _range_penalty(ship["rating"], d) > 0:  # _targets
            return True
    return False


def _fight_step(st: State, source: RandomSource, events: Events) -> None:
    """Step Five on each of the players' ships that will fire this round (BtQ
    L2438-2453)."""
    rs = st["rs"]
    if "fight_queue" not in rs:
        ships = [s for s in _afloat_ids(st, "pc") if _aboard(st, s) and _will_fire(st, s)
                 and s not in _grappled(st)]
        rs["fight_ships"] = ships
        rs["fight_queue"] = [p for s in ships for p in _aboard(st, s) if p not in rs["locked"]]
        rs["fight_results"] = []
        if not ships:
            st["step"] = "broadside"
            return
    if rs["fight_queue"]:
        pid = rs["fight_queue"][0]
        _await(st, "fight.action", st["pcs"][pid]["ship"], actor=f"pc:{pid}", pc=pid)
        return
    if events is not None:
        for sid in rs["fight_ships"]:
            net = rs["step5"].get(sid, 0)
            events.append(Event("fight.total", f"How Will You Fight?: {net:+d} to "
                                f"{_the(st['ships'][sid]['name'], False)}'s Broadside!",
                                {"ship": sid, "modifier": net, "results": [
                                    r for r in rs["fight_results"]
                                    if st["pcs"][r["pc"]]["ship"] == sid]}))
    st["step"] = "broadside"


def _answer_fight_action(st: State, aw: Await, choice: str, source: RandomSource,
                         events: Events) -> None:
    rs = st["rs"]
    pid = aw["pc"]
    if choice == "none":
        rs["fight_queue"] = rs["fight_queue"][1:]
        if events is not None:
            events.append(Event("fight.action", f"{st['pcs'][pid]['name']} takes no part in "
                                "How Will You Fight? this round.", {"pc": pid, "skill": None}))
        return
    _await(st, "fight.opposition", aw["ship"], actor=GM, pc=pid, skill=choice)


def _opponents(st: State, sid: str) -> list[str]:
    """The enemy ships whose crews may oppose a PC of ship ``sid`` in How Will You Fight?:
    her foes, nearest first."""
    return [f for f, _ in sorted(_foes(st, sid), key=lambda fd: fd[1])]


def _answer_fight_opposition(st: State, aw: Await, choice: str, source: RandomSource,
                             events: Events) -> None:
    rs = st["rs"]
    pid, skill = aw["pc"], aw["skill"]
    pc = st["pcs"][pid]
    sid = pc["ship"]
    rs["fight_queue"] = rs["fight_queue"][1:]
    value = pc["skills"][skill]
    size, breakdown = _skill_pool(skill, value, _cards_of(st, pid), _traits_of(st, pid, skill),
                                  _weather_mod(st, skill))
    kind, _, arg = choice.partition(":")
    if kind == "static":
        opp_size = int(arg)
        opp: dict[str, Any] = {"key": "opposition", "ship": None, "pid": None,
                               "size": opp_size, "label": "opposition"}
        if events is not None:
            opp.update(who=f"{DIFFICULTIES[opp_size]} difficulty",
                       breakdown={"difficulty": opp_size}, public=True)
    else:
        opp_skill, _, foe = arg.partition(":")
        enemy = st["ships"][foe or _opponents(st, sid)[0]]
        opp_size = enemy["crew"][opp_skill]
        opp = {"key": "opposition", "ship": None, "pid": None, "size": opp_size,
               "label": "opposition"}
        if events is not None:
            opp.update(who=f"{_the(enemy['name'], False)}'s {SKILLS[opp_skill]}",
                       breakdown={opp_skill: opp_size}, public=False)
    sides = [
        {"key": "pc", "ship": sid, "pid": pid, "size": size, "who": pc["name"],
         "label": f"pc:{pid}", "breakdown": breakdown, "public": True,
         "unskilled": value <= 0},
        opp,
    ]
    text = ""
    if events is not None:
        unskilled = " unskilled" if value <= 0 else ""
        text = (f"How Will You Fight?: {pc['name']} ({SKILLS[skill]}{unskilled}) against "
                f"{opp['who']}")
    winner, _ = _contest(st, source, events, "fight", sides, text)
    delta = 0 if winner is None else {"pc": 1, "opposition": -1}[winner]
    rs["step5"] = {**rs["step5"], sid: rs["step5"].get(sid, 0) + delta}
    rs["fight_results"] = rs["fight_results"] + [{"pc": pid, "skill": skill, "modifier": delta}]


def _broadside_step(st: State, source: RandomSource, events: Events) -> None:
    """Step Six: each ship that can fire chooses her shot and, with more than one target in
    range, whether to concentrate or split her fire; then all fire against one shared Card
    of Fate (BtQ L2457-2470, L2498-2506, L2609-2655)."""
    rs = st["rs"]
    if "fire_queue" not in rs:
        rs["firing"] = [s for s in _afloat_ids(st) if _will_fire(st, s)]
        rs["fire_queue"], rs["loaded"], rs["aims"] = list(rs["firing"]), [], {}
    while rs["fire_queue"]:
        sid = rs["fire_queue"][0]
        targets = _targets(st, sid)
        if not _afloat(st["ships"][sid]) or not targets:
            rs["fire_queue"] = rs["fire_queue"][1:]
            continue
        if sid not in rs["loaded"]:
            _await(st, "broadside.ammo", sid, actor=_gun_commander(st, sid))
            return
        if len(targets) > 1:
            _await(st, "broadside.target", sid, actor=_gun_commander(st, sid))
            return
        rs["aims"] = {**rs["aims"], sid: {targets[0][0]: None}}
        rs["fire_queue"] = rs["fire_queue"][1:]
    firing: dict[str, dict[str, Any]] = {}
    for sid in rs["firing"]:
        if sid not in rs["aims"] or not _afloat(st["ships"][sid]):
            continue
        ship = st["ships"][sid]
        pid, value = _officer(st, sid, "gunnery", "gunner")
        shots = _shots(st, sid, rs["aims"][sid], events is not None)
        if not any(shot["size"] for shot in shots):
            if events is not None:
                data: dict[str, Any] = {"ship": sid}
                gm_data: dict[str, Any] = {}
                (data if _public(st, sid) else gm_data)["breakdown"] = (
                    shots[0]["breakdown"] if shots else {})
                events.append(Event("broadside.cannot_fire", f"{_the(ship['name'])} has no "
                                    "cards for a Broadside!: she cannot fire.", data, gm_data))
            continue
        if ship["states"]["guns"] == _MAIMED and not _gate(
                st, source, events, sid, pid, "gunnery", value,
                "Guns Maimed: a Gunnery test to fire"):
            continue
        if ship["states"]["hull"] == _MAIMED:
            mpid, value = _officer(st, sid, "seamanship", "master")
            if not _gate(st, source, events, sid, mpid, "seamanship", value,
                         "Hull Maimed: a Seamanship test to fire"):
                continue
        firing[sid] = {"pid": pid, "shots": [s for s in shots if s["size"]]}
    if not firing:
        st["step"] = "continue"
        return
    # One draw a ship: a split's sub-pools come from the same deck, in target order.
    ordered = _by_order(st, firing)
    fate, hands = source.draw_test("broadside", [
        (_deck_label(st, sid, f["pid"]), sum(s["size"] for s in f["shots"]), f["pid"] is not None)
        for sid, f in ordered])
    for (_, f), hand in zip(ordered, hands):
        cards = card_texts(hand)
        for shot in f["shots"]:
            shot["cards"], cards = cards[:shot["size"]], cards[shot["size"]:]
    rs["volley"] = {"fate": str(fate), "firing": firing}
    _next_joker(st, events)


def _shots(st: State, sid: str, aim: dict[str, int | None], itemised: bool = True
           ) -> list[dict[str, Any]]:
    """Ship ``sid``'s sub-pools for ``aim`` (target -> cards of the total, ``None`` for all
    of it): each the share less the range to its target, floored at 0 (BtQ L2499-2500,
    L2504-2505; N24), with its breakdown (``split``: the cards sent elsewhere) unless
    ``itemised`` is false (nobody reads it: the sizes are the same, the breakdown's sum)."""
    ship = st["ships"][sid]
    if not itemised:
        total = _broadside_total(st, sid, True)
        sized = []
        for target, share in _by_order(st, aim):  # a loop: a comprehension is a call
            if _afloat(st["ships"][target]):
                rng = _range_penalty(ship["rating"], _pair(st, sid, target)["distance"])
                sized.append({"target": target,
                              "size": max(0, (total if share is None else share) - rng)})
        return sized
    breakdown: dict[str, int] = {}
    total = _broadside_total(st, sid, True, breakdown)
    shots = []
    for target, share in _by_order(st, aim):
        if not _afloat(st["ships"][target]):
            continue
        distance = _pair(st, sid, target)["distance"]
        parts = dict(breakdown)
        if share is not None:
            parts["split"] = share - total
        rng = _range_penalty(ship["rating"], distance)
        if rng:
            parts["range"] = -rng
        shots.append({"target": target, "size": max(0, sum(parts.values())),
                      "breakdown": parts})
    return shots


def _next_joker(st: State, events: Events) -> None:
    """Ask the PC gunner who turned a Joker which card it is (its suit picks the area hit),
    one at a time; with none left, resolve the volley."""
    for sid, f in _by_order(st, st["rs"]["volley"]["firing"]):
        if f["pid"] is None:
            continue
        for i, shot in enumerate(f["shots"]):
            if "JK" in shot["cards"]:
                _await(st, "broadside.joker", sid, actor=f"pc:{f['pid']}", pc=f["pid"], shot=i)
                return
    _resolve_volley(st, events)


def _answer_joker(st: State, aw: Await, choice: str, source: RandomSource, events: Events
                  ) -> None:
    shot = st["rs"]["volley"]["firing"][aw["ship"]]["shots"][aw["shot"]]
    cards = shot["cards"]
    cards[cards.index("JK")] = f"JK={choice}"
    _next_joker(st, events)


def _answer_target(st: State, aw: Await, choice: str, source: RandomSource, events: Events
                   ) -> None:
    rs = st["rs"]
    sid = aw["ship"]
    aim = {}
    for part in choice.split(","):
        target, _, share = part.partition("=")
        aim[target] = int(share) if share else None
    rs["aims"] = {**rs["aims"], sid: aim}
    rs["fire_queue"] = rs["fire_queue"][1:]
    if events is not None and len(aim) > 1:
        ship = st["ships"][sid]
        events.append(Event("broadside.split", f"{_the(ship['name'])} splits her fire: " +
                            ", ".join(f"{card_count(n or 0)} at "
                                      f"{_the(st['ships'][t]['name'], False)}"
                                      for t, n in aim.items()) + ".",
                            {"ship": sid, "split": aim},
                            visible_to=None if _public(st, sid) else frozenset()))


def _resolve_volley(st: State, events: Events) -> None:
    rs = st["rs"]
    volley = rs.pop("volley")
    fate = parse_card(volley["fate"])
    extra = st["settings"]["double_shot_extra"]
    many = len(st["pairs"]) > 1
    landed = []
    for sid, f in _by_order(st, volley["firing"]):
        ship = st["ships"][sid]
        for shot in f["shots"]:
            cards = parse_cards(shot["cards"])
            raw = broadside_hits(cards, fate)
            target = shot["target"]
            landed.append((sid, target, raw, adjust_hits(raw, ship["ammo"], extra)))
            if events is not None:
                data = {"ship": sid, "target": target, "card_of_fate": str(fate),
                        "size": shot["size"], "cards": _shown(cards, fate),
                        "hits": [list(h) for h in raw]}
                gm_data: dict[str, Any] = {}
                hidden = data if _public(st, sid) else gm_data
                hidden.update(breakdown=shot["breakdown"], ammo=ship["ammo"])
                at = f" at {_the(st['ships'][target]['name'], False)}" if many else ""
                events.append(Event("broadside.fire", f"{_the(ship['name'])} fires "
                                    f"{card_count(shot['size'])}{at} against {card_label(fate)}: "
                                    f"{_hits_text(raw)}.", data, gm_data))
        ship["fired"], ship["ammo_changed"] = True, False
    for sid, target_id, raw, hits in landed:
        target = st["ships"][target_id]
        tracks = _hit_ship(st, target_id, hits)
        if events is not None:
            by = f" from {_the(st['ships'][sid]['name'], False)}" if many else ""
            events.append(Event("broadside.damage", f"{_the(target['name'])} takes "
                                f"{_hits_text(hits)}{by}.",
                                {"ship": target_id, "by": sid, "hits": [list(h) for h in hits],
                                 "tracks": tracks, "states": dict(target["states"])}))
        if st["ships"][sid]["ammo"] == "heated" and any(level >= 2 for _, level in raw):
            target["fire"] += 1
            if events is not None:
                events.append(Event("fire.start",
                                    f"Heated shot sets {_the(target['name'], False)} on "
                                    f"fire ({card_count(target['fire'])}).",
                                    {"ship": target_id, "fire": target["fire"]}))
    st["step"] = "continue"
    _check_out(st, events)


def _hits_text(hits: list[tuple[str, int]]) -> str:
    if not hits:
        return "no hits"
    names = ("", "Injured", "Maimed", "Dead")
    return ", ".join(f"{names[level]} {_AREA_NAMES[area]}" for area, level in hits)


def _answer_ammo(st: State, aw: Await, choice: str, source: RandomSource, events: Events
                 ) -> None:
    sid = aw["ship"]
    rs = st["rs"]
    rs["loaded"] = rs["loaded"] + [sid]
    ship = st["ships"][sid]
    if choice == ship["ammo"]:
        return
    changed = ship["fired"]
    ship["ammo"] = choice
    ship["ammo_changed"] = ship["ammo_changed"] or changed
    if events is not None:
        events.append(Event("broadside.ammo", f"{_the(ship['name'])} "
                            f"{'changes to' if changed else 'loads'} {AMMUNITION[choice]}"
                            f"{f' (-{_CHANGE_PENALTY} on this Broadside!)' if changed else ''}.",
                            {"ship": sid, "ammo": choice, "changed": changed},
                            visible_to=None if _public(st, sid) else frozenset()))


def _continue_step(st: State, source: RandomSource, events: Events) -> None:
    """Step Seven: each captain continues, disengages or strikes (BtQ L2481-2496). The
    battle ends when every captain disengages; a ship that strikes leaves it."""
    rs = st["rs"]
    if st["boarding"] is not None and not rs.get("boarded"):
        st["step"] = "boarding"
        return
    orders = rs.setdefault("orders", {})
    grappled = _grappled(st)
    ids = [s for s in _afloat_ids(st) if s not in grappled] if grappled else _afloat_ids(st)
    for sid in ids:
        if sid not in orders:
            _await(st, "continue.orders", sid)
            return
    if events is not None and ids:
        events.append(Event("continue.orders", "Continuing the Engagement: " + "; ".join(
            f"{_the(st['ships'][s]['name'], False)} {_ORDERS[orders[s]]}" for s in ids) + ".",
            {"orders": {s: orders[s] for s in ids}}))
    strikers = {s: "struck" for s in ids if orders[s] == "strike"}
    if strikers:
        _settle(st, events, strikers)
        if st["result"] is not None:
            return
    if not _grappled(st) and all(orders[s] == "disengage" for s in _afloat_ids(st)):
        _finish(st, events, "disengaged", None, "Both captains disengage: the ships "
                "separate and sail away from each other." if len(ids) == 2 else
                "Every captain disengages: the ships separate and sail away from each other.")
        return
    st["step"], st["rs"] = "repair", {"locked_next": rs.get("locked_next", [])}


_ORDERS = {"continue": "continues", "disengage": "disengages", "strike": "strikes"}

_STRIKE = ("strike", "Strike the colours and surrender")
_STRIKE_ANYTIME = frozenset({"repair.action", "positioning.move", "broadside.ammo",
                             "broadside.target"})
"""Decision kinds that also offer the option ``"strike"`` when the ship's captain makes them
("At any point during the battle", BtQ L2494); ``continue.orders`` always offers it."""


def _answer(st: State, aw: Await, choice: str, source: RandomSource, events: Events) -> None:
    """Apply the answer ``choice`` to the awaited decision ``aw``."""
    kind = aw["kind"]
    if choice == "strike" and kind in _STRIKE_ANYTIME:
        _settle(st, events, {aw["ship"]: "struck"})
        return
    answer = _ANSWERS.get(kind)
    if answer is not None:
        answer(st, aw, choice, source, events)
    elif kind.startswith(_BOARDING):
        _answer_boarding(st, aw, choice, source, events)
    else:
        raise KeyError(kind)


def _answer_orders(st: State, aw: Await, choice: str, source: RandomSource, events: Events
                   ) -> None:
    st["rs"]["orders"] = {**st["rs"]["orders"], aw["ship"]: choice}


def _answer_start(st: State, aw: Await, choice: str, source: RandomSource, events: Events
                  ) -> None:
    sid = aw["ship"]
    _set_start(st, events, int(choice), _the(st["ships"][sid]["name"], False) if sid else "the GM")


def _answer_hardship(st: State, aw: Await, choice: str, source: RandomSource, events: Events
                     ) -> None:
    if choice == "spend":
        sid = aw["ship"]
        cmd = st["commanders"][sid]
        st["ships"][sid]["hardship"] = True
        _forget_standing(sid)
        if events is not None:
            events.append(Event("discipline.hardship", f"{st['pcs'][cmd]['name']} spends a "
                                "point of Discipline to overcome great hardship: the ship "
                                "ignores her Ship Morale this battle.",
                                {"commander": cmd, "ship": sid}))


def _answer_cards(st: State, aw: Await, choice: str, source: RandomSource, events: Events
                  ) -> None:
    rs = st["rs"]
    n = int(choice)
    if n:
        st["discipline_cards"] = {**st["discipline_cards"], aw["pc"]: n}
        _forget_standing(st["pcs"][aw["pc"]]["ship"])  # his cards count aboard his ship only
    rs["left"] -= n
    rs["queue"] = rs["queue"][1:]


# --- boarding (BtQ L2512-2533) ---------------------------------------------------------------

_BOARDING = "boarding."
"""The prefix of the decisions of a boarding fought inside the battle
(:mod:`rules.btq.boarding`)."""


def _grappled(st: State) -> tuple[str, ...]:
    """The two ships locked in the boarding, or none."""
    b = st["boarding"]
    return (b["attacker"], b["defender"]) if b is not None else ()


def _grappled_pair(st: State, key: str) -> bool:
    return st["boarding"] is not None and st["boarding"]["pair"] == key


def _closest(st: State, key: str) -> int:
    """How close a Positioning may bring pair ``key``: 1 while a boarding is fought (one
    boarding at a time, a reading: the book has one), else 0."""
    return 1 if st["boarding"] is not None and not _grappled_pair(st, key) else 0


def _begin_boarding(st: State, events: Events, attacker: str, defender: str, key: str) -> None:
    """The ships of pair ``key`` are at Distance 0: ``attacker``, who won the Positioning,
    boards ``defender`` (BtQ L2512-2515). The boarding's sub-state
    (:func:`rules.btq.boarding.from_naval`) is fought one boarding round a battle round,
    after Step 6; the other pairs go on with the battle's steps."""
    sub, evs = _boarding.begin(_boarding.from_naval(st, attacker=attacker, defender=defender))
    st["boarding"] = {"pair": key, "attacker": attacker, "defender": defender, "state": sub,
                      "fire": {}}
    if events is not None:
        events.extend(evs)


def _boarding_decision(st: State) -> Decision:
    return _boarding.pending(st["boarding"]["state"])[0]


def _boarding_step(st: State, source: RandomSource, events: Events) -> None:
    """One round of the boarding (:mod:`rules.btq.boarding`), its decisions asked of each
    PC and of the GM for the NPCs, then back to Step 7. The grappled ships' Crew tracks are
    the battle's: what the guns or the fire did to them counts in the melee, and what the
    melee does counts in the battle."""
    b, rs = st["boarding"], st["rs"]
    sub = b["state"]
    if "board_round" not in rs:
        rs["board_round"] = sub["round"]
        sub = {**sub, "ships": {k: {**v, "crew": st["ships"][k]["tracks"]["crew"]}
                                for k, v in sub["ships"].items()}}
        st["boarding"] = b = {**b, "state": sub}
    if sub["result"] is None and sub["round"] == rs["board_round"]:
        decision = _boarding.pending(sub)[0]
        _await(st, decision.kind, actor=decision.actor)
        return
    report = _boarding.report(sub)
    fire = dict(b["fire"])
    for sid, n in _by_order(st, report["fire"]):
        if n > fire.get(sid, 0):
            ship = st["ships"][sid]
            ship["fire"] += n - fire.get(sid, 0)
            fire[sid] = n
            if events is not None:
                events.append(Event("fire.start", f"Firebrands set {_the(ship['name'], False)} "
                                    f"on fire ({card_count(ship['fire'])}).",
                                    {"ship": sid, "fire": ship["fire"]}))
    for sid, penalties in report["penalties"].items():
        st["ships"][sid]["casualties"] = dict(penalties)
        _forget_standing(sid)
    st["boarding"] = {**b, "fire": fire}
    rs["boarded"] = True
    st["step"] = "continue"
    if report["result"] != "continuing":
        _end_boarding(st, events, report)
    else:
        _check_out(st, events)


def _answer_boarding(st: State, aw: Await, choice: str, source: RandomSource,
                     events: Events) -> None:
    b = st["boarding"]
    sub, evs = _boarding.apply(b["state"], aw["actor"], choice, source)
    st["boarding"] = {**b, "state": sub}
    if events is not None:
        events.extend(evs)
    for sid, ship in sub["ships"].items():
        own = st["ships"][sid]
        if own["tracks"]["crew"] != ship["crew"]:
            own["tracks"] = {**own["tracks"], "crew": ship["crew"]}
            own["states"] = {**own["states"], "crew": int(DamageTrack.parse(ship["crew"]).state)}
            _forget_standing(sid)


def _end_boarding(st: State, events: Events, report: _boarding.Report | None) -> None:
    """The boarding is over (``report``: :func:`rules.btq.boarding.report`, ``None`` when
    one of the ships left the battle otherwise: then it is recorded as broken off, with
    what it had done so far): a ship taken, or whose boarders were
    repelled, is taken (N20); one that surrendered has struck; the ships that broke apart
    are at Distance 1. Then the battle goes on, or ends if a side has no ship left."""
    b = st["boarding"]
    st["boarding"] = None
    done = {"pair": b["pair"], "attacker": b["attacker"], "defender": b["defender"]}
    if report is None:
        st["boardings"] = [*st["boardings"], {**done, **_boarding.report(b["state"]),
                                              "result": "broken_off"}]
        if events is not None:
            ships = _names(st, (b["attacker"], b["defender"]))
            events.append(Event("boarding.end", f"The boarding is over: {ships} are no "
                                "longer locked together.",
                                {"result": "broken_off", "winner": None, "loser": None}))
        return
    st["boardings"] = [*st["boardings"], {**done, **report}]
    if report["result"] == "broken_off":
        st["pairs"] = {**st["pairs"], b["pair"]: {**st["pairs"][b["pair"]], "distance": 1}}
    else:
        how = "struck" if report["result"] == "surrendered" else "taken"
        assert report["loser"] is not None  # a boarding that ended otherwise has a loser
        _settle(st, events, {report["loser"]: how})
    if st["result"] is None:
        _check_out(st, events)


_STEPS = {
    "conditions": _conditions,
    "discipline": _discipline,
    "repair": _repair_step,
    "positioning": _positioning_step,
    "how_will_you_fight": _fight_step,
    "broadside": _broadside_step,
    "boarding": _boarding_step,
    "continue": _continue_step,
}

_ANSWERS = {
    "start.distance": _answer_start,
    "discipline.great_hardship": _answer_hardship,
    "discipline.cards": _answer_cards,
    "repair.action": _answer_repair,
    "repair.box": _answer_repair_box,
    "positioning.move": _answer_move,
    "fight.action": _answer_fight_action,
    "fight.opposition": _answer_fight_opposition,
    "broadside.ammo": _answer_ammo,
    "broadside.target": _answer_target,
    "broadside.joker": _answer_joker,
    "continue.orders": _answer_orders,
}


def _run(st: State, source: RandomSource, events: Events) -> None:
    """Play the steps until a decision is awaited or the battle is over. Every step takes
    ``events``, the list it appends its events to, or ``None`` when nobody will read them
    (auto-play): then no event is built, and nothing else changes."""
    while st["await"] is None and st["result"] is None:
        _STEPS[st["step"]](st, source, events)


# --- decisions -------------------------------------------------------------------------------

def _options(st: State, aw: Await) -> tuple[str, list[tuple[str, str]]]:
    """``(prompt, [(key, label)])`` of the awaited decision, with ``"strike"`` where its
    captain may strike (:data:`_STRIKE_ANYTIME`)."""
    prompt, options = _choices(st, aw)
    if aw["kind"] in _STRIKE_ANYTIME and aw["actor"] == _captain(st, aw["ship"]):
        options = [*options, _STRIKE]
    return prompt, options


def _split_options(st: State, sid: str) -> list[tuple[str, str]]:
    """``broadside.target`` keys and labels: concentrate on each target in range, or split
    the total between two of them (BtQ L2498-2500)."""
    targets = [t for t, _ in _targets(st, sid)]
    total = max(0, _broadside_total(st, sid))
    options = []
    for t in targets:
        size = _shots(st, sid, {t: None})[0]["size"]
        options.append((t, f"Concentrate on {_the(st['ships'][t]['name'], False)} "
                           f"(Distance {_pair(st, sid, t)['distance']}, {card_count(size)})"))
    for i, t1 in enumerate(targets):
        for t2 in targets[i + 1:]:
            for n in range(1, total):
                a, b = _shots(st, sid, {t1: n, t2: total - n})
                options.append((f"{t1}={n},{t2}={total - n}",
                                f"Split: {n} at {_the(st['ships'][t1]['name'], False)} "
                                f"({card_count(a['size'])}), {total - n} at "
                                f"{_the(st['ships'][t2]['name'], False)} "
                                f"({card_count(b['size'])})"))
    return options


def _choices(st: State, aw: Await) -> tuple[str, list[tuple[str, str]]]:
    kind: str = aw["kind"]
    sid: Any = aw.get("ship")
    if kind.startswith(_BOARDING):
        decision = _boarding_decision(st)
        return decision.prompt, [(o.key, o.label) for o in decision.options]
    ship: Any = st["ships"][sid] if sid else None
    if kind == "start.distance":
        return ("Establishing Distance: at what distance does the battle start?",
                [(str(d), f"Distance {d} ({DISTANCES[d]})") for d in (3, 4, 5)])
    if kind == "discipline.great_hardship":
        return ("Overcome great hardship: spend 1 Discipline to ignore the ship's Ship Morale "
                "this battle?", [("spend", "Spend 1 Discipline"), ("keep", "Keep it")])
    if kind == "discipline.cards":
        pc = st["pcs"][aw["pc"]]
        top = min(st["rs"]["left"], pc["discipline"])
        return (f"Discipline: how many cards to {pc['name']} for this battle?",
                [(str(n), card_count(n)) for n in range(top + 1)])
    if kind == "repair.action":
        options = []
        for key in _repair_options(st, sid):
            if key == "none":
                options.append((key, "No repair this round"))
                continue
            area, _, who = key.partition(":")
            pid = None if who == "crew" else who[3:]
            size, breakdown = repair_pool(st, sid, area, pid or "crew")
            what = "Fight the fire" if area == "fire" else f"Repair the {_AREA_NAMES[area]}"
            skill = SKILLS[next(iter(breakdown))]
            how = f"{skill}, unskilled" if "unskilled" in breakdown else skill
            options.append((key, f"{what}: {_who(st, sid, pid)} ({how}, {card_count(size)})"))
        return f"Repair: what does {_the(ship['name'], False)} repair, and who?", options
    if kind == "repair.box":
        track = DamageTrack.parse(ship["tracks"][aw["area"]])
        options = []
        for level in track.repair_levels(aw["best"]):
            after = track.repair(aw["best"], level)[0]
            options.append((str(level), f"A {_LEVEL_NAMES[level]} box: the "
                                        f"{_AREA_NAMES[aw['area']]} becomes {after} "
                                        f"({_STATE_NAMES[after.state]})"))
        return (f"Repair: a {_GRADE[aw['best']]} success. Which box of "
                f"{_the(ship['name'], False)}'s {_AREA_NAMES[aw['area']]} is repaired?",
                options)
    if kind == "positioning.move":
        pair = st["pairs"][aw["pair"]]
        d = pair["distance"]
        foe_ship = st["ships"][_other(pair, sid)]
        options = []
        for key in _move_options(d, aw["reach"], _closest(st, aw["pair"])):
            t = BEYOND if key == "escape" else int(key)
            verb = ("Escape beyond Distance 5" if t == BEYOND else
                    f"Hold at Distance {t}" if t == d else
                    f"{'Close' if t < d else 'Open'} to Distance {t}")
            options.append((key, f"{verb} ({DISTANCES[t]})"))
        against = f" against {_the(foe_ship['name'], False)}" if len(st["pairs"]) > 1 else ""
        return (f"Positioning: {_the(ship['name'], False)} won{against} (up to {aw['reach']}). "
                "Where does the distance go?", options)
    if kind == "fight.action":
        pc = st["pcs"][aw["pc"]]
        # With no skill for what he means to do, a PC still turns one card (BtQ L1266-1269).
        pid = aw["pc"]
        sizes = {k: _skill_pool(k, v, _cards_of(st, pid), _traits_of(st, pid, k))[0]
                 for k, v in pc["skills"].items() if v > 0}
        options = [("none", "Take no part")] + [
            (k, f"{SKILLS[k]} ({card_count(n)})") for k, n in sizes.items()]
        options += [(k, f"{SKILLS[k]} (unskilled, 1 card)")
                    for k, v in pc["skills"].items() if v <= 0]
        return f"How Will You Fight?: what does {pc['name']} do?", options
    if kind == "fight.opposition":
        pc = st["pcs"][aw["pc"]]
        options = [(f"static:{n}", f"Static: {label} ({card_count(n)})")
                   for n, label in DIFFICULTIES.items()]
        for i, foe in enumerate(_opponents(st, pc["ship"])):
            enemy = st["ships"][foe]
            options += [(f"contested:{k}" + (f":{foe}" if i else ""),
                         f"Contested: {_the(enemy['name'], False)}'s {SKILLS[k]} ({v})")
                        for k, v in enemy["crew"].items() if v > 0]
        return (f"How Will You Fight?: {pc['name']} tests {SKILLS[aw['skill']]}. "
                "What opposes him?", options)
    if kind == "broadside.ammo":
        changing = ship["fired"]
        options = []
        for key, label in AMMUNITION.items():
            cost = _AMMO_PENALTY.get(key, 0) + (
                _CHANGE_PENALTY if changing and key != ship["ammo"] else 0)
            note = " (loaded)" if key == ship["ammo"] else ""
            options.append((key, f"{label}{note}{f' -{cost}' if cost else ''}"))
        verb = "Changing shot" if changing else "Cannon ammunition"
        return f"{verb}: what does {_the(ship['name'], False)} fire?", options
    if kind == "broadside.target":
        return (f"Broadside!: {_the(ship['name'], False)} has "
                f"{card_count(max(0, _broadside_total(st, sid)))} before the range. Where does "
                "she fire?", _split_options(st, sid))
    if kind == "broadside.joker":
        return ("Your Joker in the Broadside!: which card is it? Its suit picks the area hit.",
                [(str(c), card_label(c)) for c in _ALL_CARDS])
    if kind == "continue.orders":
        return (f"Continuing the Engagement: what are {_the(ship['name'], False)}'s orders?",
                [("continue", "Continue the engagement"), ("disengage", "Disengage"), _STRIKE])
    raise AssertionError(kind)


_LEVEL_NAMES = ("", "Injured", "Maimed", "Dead")
_STATE_NAMES = ("Healthy", "Injured", "Maimed", "Dead")
_ALL_CARDS = tuple(Card(r, s) for s in SUITS for r in range(2, 15))


def _participant(st: State, actor: object) -> str:
    """How a sentence names a participant: "the GM", a PC's name, else the key as given."""
    if actor == GM:
        return "the GM"
    pc = st["pcs"].get(actor[3:]) if isinstance(actor, str) and actor[:3] == "pc:" else None
    return pc["name"] if pc else repr(actor)


def _decision(st: State, aw: Await) -> Decision:
    prompt, options = _options(st, aw)
    return Decision(aw["actor"], aw["kind"], prompt,
                    tuple(Option(k, label) for k, label in options), _policy(st, aw))


# --- default policies ------------------------------------------------------------------------

def _free_boxes(ship: Ship) -> int:
    """The free boxes of a ship's Hull and Crew, the areas that end a battle."""
    tracks = ship["tracks"]
    return tracks["hull"].count(".") + tracks["crew"].count(".")


class _Standing:
    """What the default policies weigh of a ship as she stands (:func:`_standing`):
    ``total``, her Broadside! before the range without this round's parts and the shot
    (:func:`_broadside_total` with ``situational=False``); ``firepower``, that pool at
    Distance 1 (:func:`broadside_pool` with ``situational=False``: ``total`` floored at 0),
    0 with her Guns Dead; ``free``, her :func:`_free_boxes`."""

    __slots__ = ("total", "firepower", "free")

    def __init__(self, total: int, firepower: int, free: int) -> None:
        self.total = total
        self.firepower = firepower
        self.free = free


def _standing(st: State, sid: str) -> _Standing:
    """Ship ``sid``'s :class:`_Standing`. The policies weigh it some thirty times a battle,
    and it changes only when she is hit or repaired, her Ship Morale changes, she overcomes
    great hardship, a boarding costs her an officer or the Discipline cards are handed out:
    so it is kept in the state's :class:`_Roster` until one of those drops it
    (:func:`_forget_standing`, :func:`_forget_roster`)."""
    roster = _last_roster
    if roster.ships is not st["ships"]:
        roster = _new_roster(st)
    kept = roster.standings.get(sid)
    if kept is None:
        ship = st["ships"][sid]
        total = _broadside_total(st, sid, False)
        power = 0 if ship["states"]["guns"] == _DEAD else max(0, total)
        kept = roster.standings[sid] = _Standing(total, power, _free_boxes(ship))
    return kept


def _stronger(st: State, sid: str, foe: str) -> bool:
    """Whether ship ``sid`` hits ``foe`` at least as hard as ``foe`` hits her: each one's
    firepower over the other's free Hull and Crew boxes (:class:`_Standing`)."""
    own, other = _standing(st, sid), _standing(st, foe)
    return own.firepower / max(1, other.free) >= other.firepower / max(1, own.free)


def _preferred_distance(st: State, sid: str, foe: str) -> int:
    """Distance 2 for a rated ship against an enemy who cannot reply at 2, if her long-range
    pool is worth it; else Distance 1."""
    ship, other = st["ships"][sid], st["ships"][foe]
    if ship["rating"] is not None and other["rating"] is None and (  # broadside_pool's size
            _standing(st, sid).total - _range_penalty(ship["rating"], 2) >= 3):
        return 2
    return 1


def _should_strike(st: State, sid: str, guns_out: bool, foes: list[tuple[str, int]]) -> bool:
    """Strike against a foe in range whose guns work (of ``foes``, her :func:`_foes`) when
    ship ``sid``'s guns are out (no firepower, ``guns_out``: :class:`_Standing`) and her Hull
    is Maimed, or her Crew is Maimed and the foe barely hurt, or both guns out and Crew
    Maimed."""
    ship = st["ships"][sid]
    s = ship["states"]
    for foe, d in foes:
        other = st["ships"][foe]
        if not _in_range(other, d) or other["states"]["guns"] == _DEAD:
            continue
        if ((guns_out and s["hull"] >= _MAIMED) or (s["crew"] >= _MAIMED and (
                guns_out or max(other["states"].values()) <= _INJURED))):  # barely hurt
            return True
    return False


def _policy_repair(st: State, aw: Await) -> str:
    """The worst-damaged area (fire first), repaired by whoever it costs least: the NPC crew
    when it has a skill for it (no PC loses his How Will You Fight? action, D19); else the
    PC with the best pool who is not the commander, the helmsman or the gunner; else the
    helmsman or gunner; the commander only as the last resort (as the book's example sends
    Midshipman Smith, BtQ L2577-2578); an unskilled tester last of all."""
    sid = aw["ship"]
    ship = st["ships"][sid]
    fig = _figures(st)

    def score(a: str) -> int:
        track = DamageTrack.parse(ship["tracks"][a])
        weight = {"hull": 3, "crew": 3, "guns": 2, "rigging": 1}[a]
        return (10 * (track.state > 0) + 5 * any(track.segments[0]) + weight)
    # the fire first, then the areas worst first (the first of AREAS on a tie): the first
    # that someone aboard can repair is repaired, and the pools of that one alone are sized
    areas = _repair_areas(st, sid)  # the fire, if any, last
    if areas and areas[-1] == "fire":
        areas = ["fire", *sorted(areas[:-1], key=score, reverse=True)]
    else:
        areas.sort(key=score, reverse=True)
    sizes: dict[str, int] = {}
    for area in areas:
        for who in fig.ships[sid].repairers:
            size = _repair_size(st, sid, area, who[3:] if who != "crew" else "crew")
            if size > 0:
                sizes[f"{area}:{who}"] = size
        if sizes:
            break
    else:
        return "none"
    if f"{area}:crew" in sizes and fig.tester(st, sid, "crew", area)[1] > 0:
        return f"{area}:crew"
    busy = {fig.ships[sid].helm, fig.ships[sid].gunner}

    def cost(key: str) -> tuple[bool, int, int]:
        """Lower is cheaper: a skilled tester before an unskilled one; a PC with no post,
        the helmsman or gunner, the commander; then the bigger pool."""
        who = key.partition(":")[2]
        pid = "crew" if who == "crew" else who[3:]
        rank = (3 if pid == "crew" else 2 if pid == st["commanders"].get(sid)
                else 1 if pid in busy else 0)
        return fig.tester(st, sid, pid, area)[1] <= 0, rank, -sizes[key]
    return min(sizes, key=cost)


def _policy_move(st: State, aw: Await) -> str:
    """The weaker ship opens the distance as far as she can (escaping if she reaches beyond
    Distance 5); the stronger goes as near her :func:`_preferred_distance` as she can,
    neither boarding nor escaping. Worked out from the reach rather than from
    :func:`_move_options`' keys, which run from ``max(closest, distance - reach)`` to
    ``min(BEYOND, distance + reach)`` one by one: the farthest key is the last, and the key
    nearest the preferred distance among those from 1 to 5 is that distance held within
    them (one key alone is nearest when it lies outside)."""
    sid = aw["ship"]
    pair = st["pairs"][aw["pair"]]
    foe = _other(pair, sid)
    distance, reach = pair["distance"], aw["reach"]
    if not _stronger(st, sid, foe):
        return "escape" if distance + reach >= BEYOND else str(distance + reach)
    near = max(1, _closest(st, aw["pair"]), distance - reach)
    far = min(BEYOND - 1, distance + reach)
    return str(min(far, max(near, _preferred_distance(st, sid, foe))))


def _policy_fight_action(st: State, aw: Await) -> str:
    """The PC's best skill (the first of them on a tie; a battle never changes his skills,
    so it is looked for once, :class:`_Figures`), if its pool (:func:`_skill_pool`'s size,
    without the weather) has 3 cards or more; else no part."""
    pid = aw["pc"]
    skills = st["pcs"][pid]["skills"]
    best = _figures(st).best_skills
    skill = best.get(pid)
    if skill is None:
        skill = best[pid] = max(skills, key=skills.__getitem__)
    value = skills[skill]
    if value <= 0:  # unskilled: one card (_skill_pool)
        return "none"
    size = (value + st["discipline_cards"].get(pid, 0)  # _cards_of, _traits_of
            + st["pcs"][pid]["trait_cards"].get(skill, 0))
    return skill if size >= 3 else "none"


def _policy_target(st: State, aw: Await) -> str:
    """Concentrate on the target she hits hardest (the bigger pool, then the fewer free Hull
    and Crew boxes), as the London does (BtQ L2504-2505)."""
    sid = aw["ship"]
    return max((t for t, _ in _targets(st, sid)),
               key=lambda t: (_shots(st, sid, {t: None}, False)[0]["size"],
                              -_free_boxes(st["ships"][t])))


def _policy_joker(st: State, aw: Await) -> str:
    """The declaration that does the most harm: the Card of Fate (a Perfect) or a card of
    its rank in another suit (a Critical elsewhere)."""
    volley = st["rs"]["volley"]
    fate = parse_card(volley["fate"])
    shot = volley["firing"][aw["ship"]]["shots"][aw["shot"]]
    cards = [parse_card(c) for c in shot["cards"]]
    target = st["ships"][shot["target"]]
    ammo = st["ships"][aw["ship"]]["ammo"]
    extra = st["settings"]["double_shot_extra"]
    best, best_score = str(fate), None
    before = {a: DamageTrack.parse(target["tracks"][a]) for a in AREAS}  # parsed once
    for suit in (fate.suit, *(s for s in SUITS if s != fate.suit)):
        choice = Card(fate.rank, suit)
        played = [c.declare(choice) if c.rank == 0 and c.played_as is None else c for c in cards]
        tracks = dict(before)
        for area, level in adjust_hits(broadside_hits(played, fate), ammo, extra):
            tracks[area] = tracks[area].hit(level)
        score = 0  # 1000 for a Hull or Crew Dead, 10 a step of harm, 1 a box crossed
        for a in AREAS:  # a loop: a comprehension is a call of its own
            track = tracks[a]
            score += 10 * _HARM[track.state] + track.crossed
            if track.state == _DEAD and a in ("hull", "crew"):
                score += 1000
        if best_score is None or score > best_score:
            best, best_score = str(choice), score
    return best


_HARM = (0, 1, 3, 8)  # how much worse each damage state is for the ship that has it


def _policy_orders(st: State, aw: Await) -> str:
    sid = aw["ship"]
    foes = _foes(st, sid)
    if _should_strike(st, sid, _standing(st, sid).firepower == 0, foes):
        return "strike"
    return "continue" if _stronger(st, sid, _first_foe(st, sid, foes)) else "disengage"


def _policy_cards(st: State, aw: Await) -> str:
    """Fill the gunner first, then the helmsman, then the others (by seniority)."""
    rs = st["rs"]
    sid = aw["ship"]
    left = rs["left"]
    plan = {}
    own = _figures(st).ships[sid]
    first = [p for p in (own.gunner, own.helm) if p in rs["queue"]]
    for pid in dict.fromkeys(first + rs["queue"]):
        give = min(left, st["pcs"][pid]["discipline"])
        plan[pid] = give
        left -= give
    return str(plan.get(aw["pc"], 0))


def _policy_start(st: State, aw: Await) -> str:
    sid = aw["ship"]
    if sid is None:
        return "4"
    return "3" if _stronger(st, sid, _first_foe(st, sid)) else "5"


_POLICIES = {
    "start.distance": _policy_start,
    "discipline.great_hardship": lambda st, aw: "spend" if st["ships"][aw["ship"]]["morale"]
    == _MAIMED else "keep",
    "discipline.cards": _policy_cards,
    "repair.action": _policy_repair,
    "repair.box": lambda st, aw: str(DamageTrack.parse(
        st["ships"][aw["ship"]]["tracks"][aw["area"]]).best_repair_level(aw["best"])),
    "positioning.move": _policy_move,
    "fight.action": _policy_fight_action,
    "fight.opposition": lambda st, aw: "static:3",
    "broadside.ammo": lambda st, aw: st["ships"][aw["ship"]]["ammo"] or "roundshot",
    "broadside.target": _policy_target,
    "broadside.joker": _policy_joker,
    "continue.orders": _policy_orders,
}


def _policy(st: State, aw: Await) -> str:
    kind = aw["kind"]
    policy = _POLICIES.get(kind)
    if policy is not None:
        return policy(st, aw)
    if kind.startswith(_BOARDING):
        return _boarding_decision(st).default
    raise KeyError(kind)


# --- state copies ----------------------------------------------------------------------------

def _copy(value: Any) -> Any:
    if type(value) is dict:
        return {k: _copy(v) for k, v in value.items()}
    if type(value) is list:
        return [_copy(v) for v in value]
    return value


def _thaw(state: State) -> State:
    """A copy of ``state`` that the steps may change, sharing with ``state`` what they never
    change in place.

    The steps change in place only the state's top level, a ship's own keys and the round's
    scratch ``rs``; every other value (a ship's tracks, states and crew, the pairs, the PCs,
    the settings, the discipline cards, the awaited decision, the result) is replaced by a
    new one when it changes, never altered. So only those three are copied.
    """
    st = dict(state)
    st["ships"] = {sid: dict(ship) for sid, ship in state["ships"].items()}
    st["rs"] = _copy(state["rs"])
    return st


def _boarding_view(state: State, participant: str) -> dict[str, Any] | None:
    """The boarding being fought as ``participant`` sees it
    (:func:`rules.btq.boarding.view`: the enemy officers' statistics and the crews' pools
    are the GM's), with its ``pair``, ``attacker`` and ``defender``; ``None`` if none is."""
    b = state["boarding"]
    if b is None:
        return None
    seen = _boarding.view(b["state"], participant)
    return {**seen, "pair": b["pair"], "attacker": b["attacker"], "defender": b["defender"]}


# --- the engine ------------------------------------------------------------------------------

ENGINE_NAME = "btq_naval"

_OPEN_KEYS = ("id", "name", "side", "type", "tracks", "states", "fire", "struck", "present",
              "out")
"""What a player sees of an enemy ship."""


class NavalEngine:
    """The ``btq_naval`` encounter engine (:class:`rules.engine.Engine`).

    Setup (see :func:`validate_setup`)::

        {"weather": "becalmed" | "steady_breeze" | "good_wind" | "high_seas" | "storm",
         "general_weather": {"wind": GENERAL_WIND key, "precipitation": ...} (D15),
         "start_distance": None | 3 | 4 | 5,
         "settings": {...},                       # rules.btq.settings overrides
         "ships": [{"id", "name", "side": "pc" | "enemy", "type", "traits": [...],
                    "overrides": {...}, "tracks": {area: "x.|..|.."}, "morale": 0-3,
                    "crew": {skill: value}, "discipline": n (NPC captain), "fire": n,
                    "ammo": load,
                    "distance": 3-5 (an enemy's own start; 1-5 for a ship that joins),
                    "joins_round": n (she enters the battle at the start of round n),
                    "officers": [named officers for a boarding: rules.btq.boarding.officer
                                 (a fighter with "post" and "command")]}, ...],
         "pcs": [{"id", "name", "ship" (a 'pc' ship; default the first), "seniority",
                  "discipline", "skills": {...}, "station",
                  "trait_cards": {skill: 1-5} (what his traits add to those tests),
                  "ship_reputation": {"id", "name", "cards": 0-20} (the one he uses),
                  "profession": "Carpenter" (his Profession skill's),
                  "weapons": [his hand-to-hand weapons in a boarding; the cutlass if
                              none],
                  "health": "healthy" | "injured" | "maimed", "guts": n,
                  "combat_traits": {trait name: times} (for a boarding's fights),
                  "scratched": bool (Is But A Scratch, Sir! already spent on his sheet;
                               default false)}, ...]}

    Any number of ships on each side: the players' ships (``"pc"``, with or without PCs
    aboard: an allied NPC ship has none) and the enemy's.
    """

    name = ENGINE_NAME
    title = "Beat to Quarters: ship to ship"

    def upgrade(self, state: State) -> State:
        """:func:`rules.btq.settings.upgraded`: a stored state's settings completed."""
        return upgraded(state)

    def validate_setup(self, setup: dict) -> dict:
        return validate_setup(setup)

    def start(self, setup: dict, source: RandomSource) -> tuple[State, list[Event]]:
        st = _copy(_kept_start(setup))  # a full copy: a caller's slip must not spoil it
        present = {side: [st["ships"][s] for s in _afloat_ids(st, side)] for side in SIDES}
        named = {side: " and ".join(f"{_the(s['name'], not i and side == 'pc')} ({s['type']})"
                                    for i, s in enumerate(ships))
                 for side, ships in present.items()}
        verb = "meets" if len(present["pc"]) == 1 else "meet"
        events = [Event("battle.start", f"{named['pc']} {verb} {named['enemy']}. Weather: "
                        f"{WEATHER[st['weather']][0]}.",
                        {"weather": st["weather"],
                         "ships": {s["id"]: {"name": s["name"], "type": s["type"],
                                             "side": s["side"], "tracks": s["tracks"]}
                                   for s in (*present["pc"], *present["enemy"])},
                         "pcs": {p: st["pcs"][p]["name"] for p in st["pc_order"]},
                         "commanders": dict(st["commanders"])})]
        _run(st, source, events)
        return st, events

    def auto_start(self, setup: dict, source: RandomSource) -> State:
        """The state :meth:`start` returns, drawn the same, without building its events: the
        start of a game for :meth:`auto_play`. It shares what never changes with the engine's
        kept start states, so it must not be changed in place (``auto_play`` never does)."""
        return self.auto_starter(setup)(source)

    def auto_starter(self, setup: dict) -> Callable[[RandomSource], State]:
        """:meth:`auto_start` of ``setup`` as a function of the game's source alone: the
        setup is read and looked up once for all the games that start from it (a Monte
        Carlo's)."""
        kept = _kept_start(setup)

        def start(source: RandomSource) -> State:
            st = _thaw(kept)
            _run(st, source, None)
            return st
        return start

    def participants(self, state: State) -> dict[str, str]:
        return {f"pc:{pid}": state["pcs"][pid]["name"] for pid in state["pc_order"]}

    def pending(self, state: State) -> list[Decision]:
        aw = state["await"]
        if aw is None or state["result"] is not None:
            return []
        return [_decision(state, aw)]

    def apply(self, state: State, actor: str, choice: str, source: RandomSource
              ) -> tuple[State, list[Event]]:
        if state["result"] is not None:
            raise IllegalAction(f"the battle is over: {state['result']['summary']}")
        aw = state["await"]
        if aw is None:
            raise IllegalAction("the battle waits for no decision")
        if actor != aw["actor"]:
            raise IllegalAction(f"it is for {_participant(state, aw['actor'])} to decide now, "
                                f"not {_participant(state, actor)}")
        prompt, options = _options(state, aw)
        if not isinstance(choice, str) or choice not in {k for k, _ in options}:
            raise IllegalAction(f"{choice!r} is not one of the choices for: {prompt}")
        st = _thaw(state)
        st["await"] = None
        events: list[Event] = []
        _answer(st, aw, choice, source, events)
        _run(st, source, events)
        return st, events

    def default_choice(self, state: State, decision: Decision) -> str:
        aw = state["await"]
        if aw is None or aw["kind"] != decision.kind:
            raise IllegalAction(f"{decision.kind} is not the decision the battle waits for")
        return _policy(state, aw)

    def auto_play(self, state: State, source: RandomSource) -> State:
        """The final state of ``state`` played to its end with the default policies: what
        :func:`rules.engine.play_out` returns, drawn the same, faster (one copy of the state,
        no decisions and no events built). The Monte Carlo uses it."""
        st = _thaw(state)
        while st["result"] is None:
            aw = st["await"]
            if aw is None:  # _run, spelled out: the next step
                _STEPS[st["step"]](st, source, None)
                continue
            policy = _POLICIES.get(aw["kind"])  # _policy, its commonest way spelled out
            choice = policy(st, aw) if policy is not None else _policy(st, aw)
            st["await"] = None
            _answer(st, aw, choice, source, None)
        return st

    def outcome(self, state: State) -> Outcome | None:
        result = state["result"]
        if result is None:
            return None
        ships = {sid: {"tracks": dict(s["tracks"]), "morale": s["morale"], "out": s["out"]}
                 for sid, s in state["ships"].items()}
        data = {k: v for k, v in result.items() if k not in ("result", "winner", "summary")}
        if state["boardings"]:
            data["boardings"] = _copy(state["boardings"])
        return Outcome(result["winner"], result["result"], result["summary"],
                       {"ships": ships, "rounds": state["round"], **data})

    def view(self, state: State, participant: str) -> dict:
        """The GM sees the whole state. Both see the boarding being fought as
        ``boarding_view`` (:func:`_boarding_view`). Anyone else sees the weather, round, step, every
        pair's distance and Weather Gage, every ship's name, side, type and damage, the
        players' ships in full, the PCs' names and stations, and their own PCs in full; never
        an enemy's crew, traits, figures, morale or shot, nor a ship that has not yet joined
        the battle."""
        if participant == GM:
            return {**_copy(state), "boarding_view": _boarding_view(state, GM)}
        own = participant[3:] if participant.startswith("pc:") else None
        # A ship that has not joined yet is the GM's secret (a reinforcement on its way).
        seen = [s for s in state["order"] if state["ships"][s]["present"]]
        ships = {}
        for sid in seen:
            ship = state["ships"][sid]
            if ship["side"] == "enemy":
                ships[sid] = {k: _copy(ship[k]) for k in _OPEN_KEYS}
            else:
                ships[sid] = _copy(ship)
        pcs = {pid: (_copy(pc) if pid == own else
                     {k: pc[k] for k in ("id", "name", "ship", "station")})
               for pid, pc in state["pcs"].items()}
        aw = state["await"]
        return {
            "engine": state["engine"], "weather": state["weather"], "round": state["round"],
            "step": state["step"], "ships": ships, "order": seen, "pcs": pcs,
            "pairs": {k: _copy(p) for k, p in state["pairs"].items()
                      if p["a"] in ships and p["b"] in ships},
            "sides": {side: [s for s in ids if s in ships]
                      for side, ids in state["sides"].items()},
            "pc_order": list(state["pc_order"]), "commanders": dict(state["commanders"]),
            "discipline_cards": dict(state["discipline_cards"]),
            "waiting_for": None if aw is None else {"actor": aw["actor"], "kind": aw["kind"]},
            "boarding_view": _boarding_view(state, participant),
            # a boarding's report holds both ships' Ship Morale: an enemy's is the GM's
            "boardings": [{**_copy(b), "morale": {k: m for k, m in b["morale"].items()
                                                  if state["ships"][k]["side"] != "enemy"}}
                          for b in state["boardings"]],
            "result": _copy(state["result"]),
        }

    def scenarios(self) -> dict[str, Scenario]:
        """The book's battles, from ``rules/btq/scenarios/naval/*.json``:
        ``hermes_vs_corsair`` (BtQ L2533-2603, TV-N06..TV-N09, with the book's cards and
        decisions: it ends on TV-N09's tracks), ``london_vs_condor`` (BtQ L2401-2402,
        L2422-2436, L2460-2470; TV-N02..TV-N05, to the London's first Broadside!),
        ``london_vs_vulture`` (BtQ L2498-2506; TV-N10 one on one, to the Broadside! pools),
        ``london_condor_and_vulture`` (BtQ L2498-2506; TV-N10: two Positioning tests, the
        split of a pool of 10), ``condor_boards_london`` (BtQ L2512-2515; TV-N11),
        ``london_on_fire`` (BtQ L2660-2669; TV-N12) and ``london_fights_fire`` (BtQ
        L2670-2674; TV-N13, D22). Where the book gives no cards for a step, the scenario's
        cards are made up to give the book's result, and its ``source`` says so."""
        return load_scenarios("rules.btq", "scenarios/naval")


ENGINE = register(NavalEngine())
