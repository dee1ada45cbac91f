"""Personal combat: the Combat Challenge of *Beat to Quarters* (BtQ L1565-1621;
``rules/btq_missions.md`` §4, A3-A5; ``rules/DECISIONS.md`` D2, D3, D11, D12), as the
encounter engine ``"btq_personal_combat"``, and the pieces the skirmish
(:mod:`rules.btq.skirmish`) and the boarding action (:mod:`rules.btq.boarding`) fight with.

There are no combat skills: a weapon gives the card pool, traits add to it (BtQ L1566-1567,
L1092-1101, L1086-1090). One challenge is one whole fight (BtQ L1581-1582). Every test is a
test of the card engine :mod:`rules.btq.tests` (one Card of Fate, D3 retests, Jokers):

* ``melee`` (hand to hand, BtQ L1572-1573) and ``fire`` (both sides shoot, BtQ L1576): both
  turn their weapon's pool against one Card of Fate and each deals its best success to the
  other's Health, at the same time. The D2 victor is the winner (A7).
* ``shot``: a target that cannot shoot back (BtQ L1575; A3): the attacker turns his pool
  against a lone Card of Fate (a simple test, D4), or against a difficulty pool the GM sets
  for cover; his best success is the wound.
* ``unengaged``: a foe busy with someone else (BtQ L1578-1579): the attacker turns two cards
  more against a lone Card of Fate and the foe deals nothing back.
* ``coup_de_grace``: a foe Maimed or unconscious offers no defence and dies, with no draw
  (BtQ L1578).

Wounds (:func:`wound`): the damage table (BtQ L1309-1328), a Brawl never kills but leaves its
victim Maimed and unconscious (BtQ L1620-1621), Is But A Scratch, Sir! (BtQ L1049-1050, D12:
the first wound taken while Healthy is one level lighter: an Ordinary is ignored, a Critical
leaves Injured, a Perfect Maimed), Cheat Death! (BtQ L1086-1087, D11: a wound that would take
an Injured or Maimed fighter to Dead is ignored, once per use of the trait; always used, since
death is the worst outcome). A fighter Injured in Health turns one card fewer; a Maimed one
must first pass a Guts simple test, Hard as Nails +3, and then turns three fewer (BtQ
L1314-1316, L1052). The weather of a scene is a static modifier on every pool (§6.1, A6),
computed here by :func:`weather_modifier` (kept in this module: ``rules/btq/weather.py`` is
the card tests' helper).

A Joker in a fight is played as the Card of Fate (a Perfect): in combat only the level of a
success counts, and no other card betters it (D5), so no player is asked to name it.

Setup of the engine (``validate_setup`` returns it normalised; ``ValueError`` with a reason)::

    {"fighters": [Fighter, Fighter],       # the attacker first
     "mode": "melee" | "fire" | "shot" | "unengaged" | "coup_de_grace",
     "band": "point_blank" | "normal" | "long" | "extreme" | null,   # fire, shot (and
                                           #   unengaged: a shot at a busy foe)
     "distance_ft": int | null,            # instead of band: the band is found from it (A5)
     "difficulty": int | null,             # shot only: the GM's pool for cover (A3)
     "weather": {"wind": key, "precipitation": key},
     "stakes": {"win": str, "lose": str}}
    Fighter {"id": "pc:<pk>" | "npc:<pk>", "name", "controller": "pc:<pk>" | "gm",
             "deck": "player" | "gm", "health": "healthy".."maimed", "guts": int,
             "weapons": [weapon key], "traits": {trait name: times},
             "items": [{"name": str, "weapon": weapon key, "cards": 1..2}]  (left out
                                           #   when none: special weapons, +1 card each
                                           #   with their weapon, BtQ L1013),
             "scratch": bool (Is But A Scratch still unspent), "cheat_death": int (uses left),
             "unconscious": bool, "secret": bool (GM-only statistics)}

Flow: each fighter who attacks chooses a weapon (decision ``combat.weapon``, by the fighter's
controller: a player for his PC, the GM for an NPC; the defender only in ``melee`` and
``fire``); the choices stay hidden until both are in; then the cards are turned. Events:
``combat.begin``, ``combat.gate`` (a Maimed fighter's Guts test), ``combat.draw`` (each
round of cards: ``card_of_fate`` and ``pools``), ``combat.wound``, ``combat.result``.
Draw order (for a :class:`rules.random.ScriptedSource`): the gates, attacker first; then the
Card of Fate and the attacker's pool and the defender's.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from rules.btq.characters import DamageState
from rules.btq.settings import resolve, upgraded
from rules.btq.tests import (
    Hand,
    Modifier,
    Pool,
    Side,
    SuccessLevel,
    TestRecord,
    contested_test,
    damage_after,
    simple_test,
    static_test,
)
from rules.cards import GM_DECK, PLAYER_DECK, card_count, card_label
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
    "WEAPONS", "BANDS", "MELEE", "WIND", "PRECIPITATION", "MODES", "CombatError", "Weapon",
    "range_band", "weapon_named", "weapon_pool", "fighter_pool", "weather_modifier",
    "weather_pool", "fighter", "fighter_items", "wound", "clash", "Clash",
    "PersonalCombatEngine", "ENGINE", "validate_setup",
]

BANDS = ("point_blank", "normal", "long", "extreme")
"""The range bands of a missile weapon, nearest first (BtQ L1584-1618; A5)."""
MELEE = "melee"
"""The "band" of hand-to-hand weapons."""
BAND_LABELS = {"point_blank": "Point Blank", "normal": "Normal", "long": "Long",
               "extreme": "Extreme", MELEE: "hand to hand"}


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon of the Tools of the Navy (BtQ L1584-1621): its ``label``; ``melee`` its
    hand-to-hand pool (``None`` for a gun); ``ranges`` band -> (feet, cards) for a missile
    weapon; ``traits`` the traits that add a card each time taken, ``strong`` those adding
    two (Strong as an Ox in a brawl, BtQ L1040-1041); ``brawl``: cannot kill (BtQ
    L1620-1621)."""

    label: str
    melee: int | None = None
    ranges: tuple[tuple[str, int, int], ...] = ()
    traits: tuple[str, ...] = ()
    strong: tuple[str, ...] = ()
    brawl: bool = False


WEAPONS: dict[str, Weapon] = {
    "musket": Weapon("Musket", ranges=(("point_blank", 10, 5), ("normal", 50, 3),
                                       ("long", 100, 2), ("extreme", 250, 1)),
                     traits=("Crackshot",)),
    "pistol": Weapon("Pistol", ranges=(("point_blank", 5, 4), ("normal", 20, 3),
                                       ("long", 50, 1), ("extreme", 100, 1)),
                     traits=("Duellist",)),
    "rifle": Weapon("Rifle", ranges=(("point_blank", 10, 6), ("normal", 100, 5),
                                     ("long", 200, 3), ("extreme", 400, 1)),
                    traits=("Crackshot",)),
    "thrown_knife": Weapon("Thrown knife", ranges=(("point_blank", 5, 3), ("normal", 10, 2),
                                                   ("long", 15, 1)),
                           traits=("Knife Fighting",)),
    "cutlass": Weapon("Cutlass", melee=4, traits=("Strong Swordarm",)),
    "sword": Weapon("Sword", melee=4, traits=("Strong Swordarm",)),
    "axe": Weapon("Axe", melee=4, traits=("Hack and Slay",)),
    "boarding_weapons": Weapon("Boarding weapons", melee=3, traits=("Ferocious Boarder",)),
    "knife": Weapon("Knives", melee=3, traits=("Knife Fighting",)),
    "bayonet": Weapon("Bayonet", melee=3, traits=("Handy in a Scrap",)),
    "brawl": Weapon("Brawl", melee=2, traits=("Handy in a Scrap", "Grappler"),
                    strong=("Strong as an Ox",), brawl=True),
}
"""The weapon tables (BtQ L1584-1621). The sword is the cutlass's 4 cards and the bayonet
takes Handy in a Scrap's "musket brawl" (A4); the cutlass counts as a sword for Strong
Swordarm (the curio "Classic Cutlass", BtQ L3642)."""

COMBAT_TRAITS = ("Crackshot", "Duellist", "Strong Swordarm", "Hack and Slay", "Knife Fighting",
                 "Ferocious Boarder", "Handy in a Scrap", "Grappler", "Strong as an Ox",
                 "Hard as Nails", "Is But A Scratch, Sir!", "Cheat Death!")
"""The traits this module applies (BtQ L1040-1101)."""

WIND = {"no_wind": ("No Wind", 0), "light": ("Light Wind", 0), "strong": ("Strong Wind", -1),
        "storm": ("Storm winds", -2), "typhoon": ("Typhoon", -3)}
PRECIPITATION = {"none": ("No Rain", 0), "mist": ("Mist/Fog", 0), "squall": ("Squall", -1),
                 "storm": ("Storm/Snow", -2), "blizzard": ("Blizzard", -3)}
"""The general weather table (BtQ L1699-1709); No Wind and Mist have no number (A6: 0)."""
CALM = {"wind": "light", "precipitation": "none"}

Mode = Literal["melee", "fire", "shot", "unengaged", "coup_de_grace"]
"""How a fight is fought (module docstring)."""
MODES: dict[Mode, str] = {
    "melee": "hand to hand", "fire": "an exchange of fire",
    "shot": "a shot at a target that cannot shoot back",
    "unengaged": "an attack on a foe busy elsewhere", "coup_de_grace": "a coup de grâce"}
UNENGAGED_BONUS = 2
"""The two extra cards against a foe who ignores you (BtQ L1578-1579)."""
HARD_AS_NAILS = 3
"""Cards Hard as Nails adds to the Guts test of a Maimed fighter (BtQ L1052)."""


class CombatError(ValueError):
    """A fight described in a way the rules do not allow; the message says why."""


Fighter = dict[str, Any]
"""A fighter as :func:`fighter` returns it (the shape is in the module docstring), with the
caller's own keys (a boarding's ``post``, ``ship``...)."""


def weather_modifier(weather: Mapping | None) -> int:
    """The static weather modifier of a scene, Wind plus Precipitation (they stack, BtQ
    L1699-1707): Storm winds and Storm/Snow make -4 (TV-07). ``CombatError`` for an
    unknown key."""
    weather = weather or CALM
    try:
        return WIND[weather.get("wind", "light")][1] + \
            PRECIPITATION[weather.get("precipitation", "none")][1]
    except KeyError as exc:
        raise CombatError(f"unknown weather {exc.args[0]!r}") from None


def weather_pool(weather: Mapping | None) -> int:
    """The weather's own card pool when it is the opponent: twice the modifier's size (BtQ
    L1711-1716; Storm winds and a Blizzard: 10 cards, TV-08)."""
    return 2 * abs(weather_modifier(weather))


def weather_words(weather: Mapping | None) -> str:
    """The weather of a scene in words, as the book's table names it (BtQ L1699-1709)."""
    weather = weather or CALM
    return f"{WIND[weather['wind']][0]}, {PRECIPITATION[weather['precipitation']][0]}"


def _weapon(key: str) -> Weapon:
    try:
        return WEAPONS[key]
    except KeyError:
        raise CombatError(f"unknown weapon {key!r}; known: {', '.join(WEAPONS)}") from None


def weapon_named(words: str) -> str | None:
    """The key of the weapon ``words`` names, by its key or its label in any case, singular
    or plural ("Pistols", "sword", "Thrown knife"; BtQ L1584-1621), as an item's sheet writes
    it (a special weapon's "+1 Musket tests", BtQ L2693); ``None`` for none of
    :data:`WEAPONS`."""
    wanted = words.strip().lower().replace("_", " ")
    for key, weapon in WEAPONS.items():
        names = (key.replace("_", " "), weapon.label.lower())
        if wanted in names or wanted.rstrip("s") in tuple(n.rstrip("s") for n in names):
            return key
    return None


def range_band(weapon: str, feet: int) -> str | None:
    """The band of a missile ``weapon`` at ``feet``: the first band whose listed distance is
    at least ``feet``, ``None`` beyond the last (out of range) (A5; BtQ L1584-1618; TV-17).
    ``CombatError`` for a hand-to-hand weapon or a negative distance."""
    w = _weapon(weapon)
    if not w.ranges:
        raise CombatError(f"{w.label} is a hand-to-hand weapon: it has no range bands")
    if not isinstance(feet, int) or isinstance(feet, bool) or feet < 0:
        raise CombatError(f"a distance is a whole number of feet, not {feet!r}")
    for band, limit, _ in w.ranges:
        if feet <= limit:
            return band
    return None


def usable(weapon: str, band: str) -> bool:
    """Whether ``weapon`` can be used at ``band`` (:data:`MELEE` or a range band)."""
    w = _weapon(weapon)
    if band == MELEE:
        return w.melee is not None
    return any(b == band for b, _, _ in w.ranges)


def weapon_pool(weapon: str, band: str = MELEE, traits: Mapping[str, int] | None = None,
                items: Iterable[Mapping] = ()) -> tuple[int, list[tuple[str, int]]]:
    """The cards of ``weapon`` at ``band`` with the traits and the ``items`` (a fighter's
    special weapons, :func:`fighter`) that add to it: ``(cards, [(source, cards)])`` (BtQ
    L1584-1621, L1086-1101; a special weapon "adds +1 to a combat test when using it", BtQ
    L1013): a musket at Long is 2, with Crackshot 3 (TV-17), with the Short-barrelled
    Carbine too 4 (BtQ L2693). ``CombatError`` if the weapon cannot be used there."""
    w = _weapon(weapon)
    if not usable(weapon, band):
        where = "hand to hand" if band == MELEE else f"at {BAND_LABELS.get(band, band)} range"
        raise CombatError(f"a {w.label.lower()} cannot be used {where}")
    base = w.melee if band == MELEE and w.melee is not None else \
        next(c for b, _, c in w.ranges if b == band)
    label = w.label if band == MELEE else f"{w.label} at {BAND_LABELS[band]} range"
    lines = [(label, base)]
    for name, times in sorted((traits or {}).items()):
        if name in w.traits:
            lines.append((name, times))
        elif name in w.strong:
            lines.append((name, 2 * times))
    lines.extend((item["name"], item["cards"]) for item in items if item["weapon"] == weapon)
    return sum(c for _, c in lines), lines


# --- fighters and wounds ------------------------------------------------------------------------


def _state(value: object, what: str) -> DamageState:
    if isinstance(value, str) and value.upper() in DamageState.__members__:
        return DamageState[value.upper()]
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 3:
        return DamageState(value)
    raise CombatError(f"{what} must be healthy, injured, maimed or dead, not {value!r}")


def _whole(value: object, what: str, low: int = 0, high: int = 99) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise CombatError(f"{what} must be a whole number from {low} to {high}, not {value!r}")
    return value


def _words(value: object, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise CombatError(f"{what} must be a non-empty text")
    return value.strip()


_FIGHTER_KEYS = {"id", "name", "controller", "deck", "health", "guts", "weapons", "traits",
                 "items", "scratch", "cheat_death", "unconscious", "secret"}


def fighter(data: Mapping, where: str = "a fighter", *, extra: frozenset[str] = frozenset()
            ) -> Fighter:
    """One fighter normalised (shape in the module's docstring; keys in ``extra`` are the
    caller's and kept as given). Defaults: ``controller`` the id for a ``pc:`` fighter, else
    ``"gm"``; ``deck`` ``"player"`` for a ``pc:``; Healthy; Guts 1; no traits; Is But A
    Scratch unspent if he has the trait; Cheat Death! once per time taken; no items (the key
    is then left out). A Dead fighter cannot fight. ``CombatError`` naming ``where`` and the
    field."""
    if not isinstance(data, Mapping):
        raise CombatError(f"{where} must be a mapping")
    unknown = sorted(set(data) - _FIGHTER_KEYS - extra)
    if unknown:
        raise CombatError(f"{where}: unknown key {unknown[0]!r}")
    fid = _words(data.get("id"), f"{where}'s id")
    pc = fid.startswith("pc:")
    traits = data.get("traits") or {}
    if isinstance(traits, list):
        counted: dict[str, int] = {}
        for name in traits:
            counted[name] = counted.get(name, 0) + 1
        traits = counted
    if not isinstance(traits, Mapping):
        raise CombatError(f"{where}: traits must map a trait's name to the times taken")
    for name, times in traits.items():
        if name not in COMBAT_TRAITS:
            raise CombatError(f"{where}: {name!r} is not a trait of personal combat; known: "
                              f"{', '.join(COMBAT_TRAITS)}")
        _whole(times, f"{where}: the times {name} is taken", 1, 3)
    weapons = data.get("weapons") or []
    if not isinstance(weapons, list) or not weapons:
        raise CombatError(f"{where}: name at least one weapon ({', '.join(WEAPONS)})")
    for key in weapons:
        _weapon(key)
    health = _state(data.get("health", "healthy"), f"{where}'s health")
    if health == DamageState.DEAD:
        raise CombatError(f"{where} is Dead and cannot fight")
    deck = data.get("deck", PLAYER_DECK if pc else GM_DECK)
    if deck not in (PLAYER_DECK, GM_DECK):
        raise CombatError(f"{where}: deck must be 'player' or 'gm'")
    out = {
        "id": fid,
        "name": _words(data.get("name"), f"{where}'s name"),
        "controller": data.get("controller") or (fid if pc else GM),
        "deck": deck,
        "health": health.name.lower(),
        "guts": _whole(data.get("guts", 1), f"{where}'s Guts", 1, 20),
        "weapons": list(dict.fromkeys(weapons)),
        "traits": {k: traits[k] for k in sorted(traits)},
        "scratch": bool(data.get("scratch", "Is But A Scratch, Sir!" in traits)),
        "cheat_death": _whole(data.get("cheat_death", traits.get("Cheat Death!", 0)),
                              f"{where}'s Cheat Death! uses", 0, 3),
        "unconscious": bool(data.get("unconscious", False)),
        "secret": bool(data.get("secret", not pc)),
    }
    items = fighter_items(data.get("items"), where)
    if items:
        out["items"] = items
    out.update({k: copy.deepcopy(data[k]) for k in extra if k in data})
    return out


def fighter_items(value: object, where: str) -> list[dict[str, Any]]:
    """A fighter's special weapons normalised: each ``{"name", "weapon", "cards"}``, a
    weapon of :data:`WEAPONS` and 1 or 2 cards (a special weapon +1, BtQ L1013; a priceless
    item +2, BtQ L1017). ``CombatError`` naming ``where`` and the item."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise CombatError(f"{where}: items must be a list of {{name, weapon, cards}}")
    out = []
    for item in value:
        if not isinstance(item, Mapping) or set(item) != {"name", "weapon", "cards"}:
            raise CombatError(f"{where}: each item has a name, a weapon and its cards")
        name = _words(item["name"], f"{where}: an item's name")
        _weapon(item["weapon"])
        out.append({"name": name, "weapon": item["weapon"],
                    "cards": _whole(item["cards"], f"{where}: the cards of {name}", 1, 2)})
    return out


def wound(who: Fighter, level: int, *, brawl: bool = False) -> tuple[Fighter, str]:
    """``who`` (a fighter) after a wound of success ``level`` (1 Ordinary, 2 Critical, 3
    Perfect) and a sentence saying what it did (BtQ L1309-1328): Is But A Scratch, Sir! makes
    the first wound taken while Healthy one level lighter (D12), Cheat Death! turns away a
    wound that would take him from Injured or Maimed to Dead (D11), and a Brawl leaves a
    fighter it would kill Maimed and unconscious (BtQ L1620-1621). Level 0 changes
    nothing."""
    who = dict(who)
    if not level:
        return who, ""
    before = _state(who["health"], "health")
    name = who["name"]
    if before == DamageState.HEALTHY and who.get("scratch"):
        who["scratch"] = False
        level -= 1
        if not level:
            return who, f"{name} shrugs the wound off: it is but a scratch."
    after = damage_after(before, SuccessLevel(level))
    note = ""
    if after == DamageState.DEAD and before in (DamageState.INJURED, DamageState.MAIMED) \
            and who.get("cheat_death", 0) > 0:
        who["cheat_death"] -= 1
        return who, f"{name} cheats death: the wound is ignored and he stays {before.label}."
    if after == DamageState.DEAD and brawl:
        after, who["unconscious"] = DamageState.MAIMED, True
        note = " and is beaten unconscious"
    who["health"] = after.name.lower()
    if after == before:
        return who, f"{name} is hit but is no worse than {before.label}{note}."
    return who, f"{name} goes from {before.label} to {after.label}{note}."


# --- one clash of two fighters ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Clash:
    """What one fight's cards did: ``levels`` id -> the best success each side dealt (0 for
    none); ``winner`` the id of the D2 victor (A7), ``None`` for a stalemate or a simple test
    failed; ``record`` the card test's record (``None`` when no card was turned)."""

    levels: dict[str, int]
    winner: str | None
    record: TestRecord | None


def _pool_lines(lines: Iterable[tuple[str, int]]) -> dict[str, int]:
    return {source: cards for source, cards in lines}


def fighter_pool(f: Fighter, weapon: str, band: str) -> tuple[int, list[tuple[str, int]]]:
    """:func:`weapon_pool` of fighter ``f``: with his traits and his items."""
    return weapon_pool(weapon, band, f["traits"], f.get("items", ()))


def combat_side(f: Fighter, weapon: str, band: str, *,
                extra: Iterable[tuple[str, int]] = (), settings: Mapping | None = None) -> Side:
    """The card-test :class:`rules.btq.tests.Side` of fighter ``f`` using ``weapon`` at
    ``band``: the weapon's pool, its traits and special weapons, ``extra`` modifiers
    (weather, Discipline cards, a bonus), and the Health penalty (Injured -1, Maimed -3; the
    Maimed fighter's gate is the caller's). Floor 0 (D2)."""
    base, lines = fighter_pool(f, weapon, band)
    mods = [Modifier(s, c) for s, c in lines[1:]] + [Modifier(s, c) for s, c in extra if c]
    health = _state(f["health"], "health")
    if health in (DamageState.INJURED, DamageState.MAIMED):
        mods.append(Modifier(f"Health {health.label}", -health.penalty))
    pool = Pool(lines[0][0], lines[0][1], tuple(mods))
    return Side(f["id"], pool, f["deck"], secret=f["secret"])


def gate(f: Fighter, source: RandomSource, settings: Mapping | None = None
         ) -> tuple[bool, Event | None]:
    """A Maimed fighter's Guts test before he fights (BtQ L1314-1316; D4): a simple test of
    his Guts, +3 with Hard as Nails (BtQ L1052). Returns ``(may fight, event)``; no test and
    no event for a fighter who is not Maimed."""
    if _state(f["health"], "health") != DamageState.MAIMED:
        return True, None
    mods = (Modifier("Hard as Nails", HARD_AS_NAILS),) if "Hard as Nails" in f["traits"] else ()
    side = Side(f["id"], Pool("guts", f["guts"], mods), f["deck"], secret=f["secret"])
    record = simple_test(side, source, settings, intent="to fight while Maimed")
    rnd = record.rounds[-1]
    passed = record.outcome == "passed"
    text = (f"{f['name']} is Maimed and must pass a Guts test to fight: Card of Fate "
            f"{card_label(rnd.fate)}, {_turned(rnd.hands[0])}. "
            f"{'He fights on.' if passed else 'He cannot fight.'}")
    data = {"who": f["id"], "passed": passed, "card_of_fate": str(rnd.fate),
            "pools": {"a": {"who": f["name"], "cards": [str(c) for c in rnd.hands[0].cards]}}}
    return passed, Event("combat.gate", text, data)


def _turned(hand: Hand) -> str:
    if not hand.cards:
        return "no card"
    best = hand.best
    cards = " ".join(card_label(c) for c in hand.cards)
    return f"{cards} ({'best ' + best.name.capitalize() if best else 'no success'})"


def draw_events(kind: str, record: TestRecord, names: Mapping[str, str], secret: set[str],
                *, what: str) -> list[Event]:
    """One event per round of ``record`` (the first draw and each D3 retest): the Card of
    Fate and every hand (``data``: ``card_of_fate``, ``pools`` key -> ``{"who", "cards"}``,
    the public pools' ``breakdown``); the breakdown of a ``secret`` side's pool is in
    ``gm_data`` only (players see its cards once turned, not its make-up)."""
    events = []
    for rnd in record.rounds:
        pools: dict[str, dict[str, object]] = {}
        hidden: dict[str, dict[str, object]] = {}
        parts = []
        for i, hand in enumerate(rnd.hands):
            key = "ab"[i] if i < 2 else f"p{i}"
            side = record.side(hand.who)
            name = names.get(hand.who, "the opposition")
            entry: dict[str, object] = {"who": name, "cards": [str(c) for c in hand.cards]}
            breakdown = _pool_lines(side.pool.lines())
            if hand.who in secret:
                hidden[key] = {"breakdown": breakdown}
            else:
                entry["breakdown"] = breakdown
            pools[key] = entry
            parts.append(f"{name} turns {_turned(hand)}")
        head = "" if rnd.number == 1 else f"Retest {rnd.number - 1}: "
        text = f"{head}{what}: Card of Fate {card_label(rnd.fate)}; " + "; ".join(parts) + "."
        data = {"card_of_fate": str(rnd.fate), "pools": pools, "retest": rnd.number - 1}
        events.append(Event(kind, text, data, {"pools": hidden} if hidden else {}))
    return events


def clash(a: Fighter, wa: str | None, b: Fighter, wb: str | None, source: RandomSource, *,
          band: str = MELEE, mode: Mode = "melee", difficulty: int | None = None,
          extra_a: Iterable[tuple[str, int]] = (), extra_b: Iterable[tuple[str, int]] = (),
          settings: Mapping | None = None, kind: str = "combat.draw",
          what: str = "The fight") -> tuple[Clash, list[Event]]:
    """One Combat Challenge between fighters ``a`` (attacker, weapon ``wa``) and ``b``
    (weapon ``wb``) in ``mode`` (module docstring): gates of Maimed fighters, then one card
    test. Returns the :class:`Clash` (the levels each dealt; wounds are the caller's, since a
    boarding melee sends them to the ships' Crews) and the events. A fighter who fails his
    gate turns no cards (D2). ``extra_a``/``extra_b``: ``(source, cards)`` modifiers."""
    settings = resolve(settings)
    events: list[Event] = []
    names = {a["id"]: a["name"], b["id"]: b["name"]}
    secret = {f["id"] for f in (a, b) if f["secret"]}
    if mode == "coup_de_grace":
        return Clash({a["id"]: SuccessLevel.PERFECT, b["id"]: 0}, a["id"], None), events
    engaged = mode in ("melee", "fire")
    fit_a, ev = gate(a, source, settings)
    events += [ev] if ev else []
    fit_b = True
    if engaged:
        fit_b, ev = gate(b, source, settings)
        events += [ev] if ev else []
    bonus = ((("foe busy elsewhere", UNENGAGED_BONUS),) if mode == "unengaged" else ())
    assert wa is not None  # a weapon is chosen for every fight but a coup de grâce
    side_a = combat_side(a, wa, band, extra=tuple(extra_a) + bonus)
    if not fit_a:
        side_a = Side(a["id"], Pool(side_a.pool.skill, 0, personal=False), a["deck"],
                      secret=a["secret"])
    if engaged:
        assert wb is not None  # the defender chooses a weapon when he fights back
        side_b = combat_side(b, wb, band, extra=extra_b)
        if not fit_b:
            side_b = Side(b["id"], Pool(side_b.pool.skill, 0, personal=False), b["deck"],
                          secret=b["secret"])
        record = contested_test(side_a, side_b, source, settings, intent=what)
    elif difficulty:
        record = static_test(side_a, difficulty, source, settings, intent=what)
    else:
        record = simple_test(side_a, source, settings, intent=what)
    events += draw_events(kind, record, names, secret, what=what)
    last = record.rounds[-1]
    levels = {a["id"]: int(last.hands[0].best or 0), b["id"]: 0}
    if engaged:
        levels[b["id"]] = int(last.hands[1].best or 0)
        winner = record.winner
    elif difficulty:
        winner = a["id"] if record.winner == a["id"] else None
        if winner is None:
            levels[a["id"]] = 0  # the cover held: the shot misses
    else:
        winner = a["id"] if record.outcome == "passed" else None
    return Clash(levels, winner, record), events


# --- the engine ---------------------------------------------------------------------------------

ENGINE_NAME = "btq_personal_combat"
_SETUP_KEYS = {"fighters", "mode", "band", "distance_ft", "difficulty", "weather", "stakes",
               "settings"}


def clean_weather(value: Mapping | None) -> dict[str, str]:
    """A scene's weather ``{"wind", "precipitation"}``, calm where left out (BtQ
    L1699-1709); ``CombatError`` for another key or an unknown value."""
    weather = dict(CALM, **(value or {}))
    if set(weather) != {"wind", "precipitation"}:
        raise CombatError("weather is {'wind', 'precipitation'}")
    weather_modifier(weather)
    return weather


def clean_stakes(value: object) -> dict[str, str]:
    """A fight's stakes, ``{"win", "lose", "stalemate"}`` -> text (empty where not given);
    ``CombatError`` for anything else."""
    value = value or {}
    if not isinstance(value, Mapping) or set(value) - {"win", "lose", "stalemate"}:
        raise CombatError("stakes map 'win', 'lose' (and 'stalemate') to text")
    return {k: str(value.get(k) or "").strip() for k in ("win", "lose", "stalemate")}


def validate_setup(setup: dict) -> dict:
    """Check a ``btq_personal_combat`` setup (module docstring) and return it normalised.
    ``ValueError`` with the reason: two fighters with different ids; the band (given or
    found from ``distance_ft``, A5) only for ``fire`` and ``shot``, where at least one of
    the attacker's weapons (and in ``fire`` the defender's) reaches; a coup de grâce only on
    a foe Maimed or unconscious (BtQ L1578); a difficulty only for a ``shot``."""
    if not isinstance(setup, Mapping):
        raise CombatError("the setup of a fight must be a mapping")
    unknown = sorted(set(setup) - _SETUP_KEYS)
    if unknown:
        raise CombatError(f"unknown setup key {unknown[0]!r}")
    fighters = setup.get("fighters")
    if not isinstance(fighters, list) or len(fighters) != 2:
        raise CombatError("a fight has two fighters: the attacker and his foe")
    a, b = (fighter(f, f"fighter {i + 1}") for i, f in enumerate(fighters))
    if a["id"] == b["id"]:
        raise CombatError("a fighter cannot fight himself")
    mode = setup.get("mode", "melee")
    if mode not in MODES:
        raise CombatError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    band = setup.get("band")
    feet = setup.get("distance_ft")
    if mode in ("fire", "shot") or (mode == "unengaged" and (band or feet) not in (None, MELEE)):
        if band is None and feet is not None:
            _whole(feet, "the distance in feet", 0, 10_000)
            reach = [range_band(w, feet) for w in a["weapons"] if WEAPONS[w].ranges]
            band = next((r for r in reach if r), None)
            if band is None:
                raise CombatError(f"at {feet} ft every weapon of {a['name']} is out of range")
        if band not in BANDS:
            raise CombatError(f"a shot needs a range band ({', '.join(BANDS)})")
    elif band not in (None, MELEE) or feet is not None:
        raise CombatError(f"{MODES[mode]} has no range band")
    else:
        band = MELEE
    if mode == "coup_de_grace" and not (b["health"] == "maimed" or b["unconscious"]):
        raise CombatError(f"a coup de grâce needs a foe Maimed or unconscious; {b['name']} "
                          f"is {b['health'].capitalize()}")
    if mode != "coup_de_grace":
        if not [w for w in a["weapons"] if usable(w, band)]:
            raise CombatError(f"{a['name']} has no weapon that can be used "
                              f"{'hand to hand' if band == MELEE else 'at that range'}")
        if mode in ("melee", "fire") and not [w for w in b["weapons"] if usable(w, band)]:
            raise CombatError(f"{b['name']} has no weapon to answer with: make it a shot or "
                              "an attack on a foe who does not engage")
    difficulty = setup.get("difficulty")
    if difficulty is not None:
        if mode != "shot":
            raise CombatError("only a shot at a target that cannot shoot back has a "
                              "difficulty (cover)")
        _whole(difficulty, "the difficulty", 1, 12)
    return {"fighters": [a, b], "mode": mode, "band": band, "distance_ft": feet,
            "difficulty": difficulty, "weather": clean_weather(setup.get("weather")),
            "stakes": clean_stakes(setup.get("stakes")),
            "settings": resolve(dict(setup.get("settings") or {}))}


def _attackers(setup: dict) -> list[Fighter]:
    fighters = setup["fighters"]
    if setup["mode"] == "coup_de_grace":
        return []
    return fighters if setup["mode"] in ("melee", "fire") else fighters[:1]


def weapon_options(f: Fighter, band: str) -> tuple[Option, ...]:
    """The weapons of ``f`` usable at ``band``, each labelled with its cards."""
    options = []
    for key in f["weapons"]:
        if usable(key, band):
            cards, _ = fighter_pool(f, key, band)
            options.append(Option(key, f"{WEAPONS[key].label} ({card_count(cards)})"))
    return tuple(options)


def best_weapon(f: Fighter, band: str) -> str:
    """The weapon of ``f`` with the most cards at ``band`` (the first of equals)."""
    return max((o for o in weapon_options(f, band)),
               key=lambda o: fighter_pool(f, o.key, band)[0]).key


class PersonalCombatEngine:
    """The ``btq_personal_combat`` engine (:class:`rules.engine.Engine`): one Combat
    Challenge between two fighters, a duel of honour or a fight in the street (module
    docstring)."""

    name = ENGINE_NAME
    title = "Beat to Quarters: personal combat"

    def upgrade(self, state: State) -> State:
        """:func:`rules.btq.settings.upgraded`: a stored state's settings completed."""
        return upgraded(state)

    def validate_setup(self, setup: dict) -> dict:
        """:func:`validate_setup`."""
        return validate_setup(setup)

    def start(self, setup: dict, source: RandomSource) -> tuple[State, list[Event]]:
        """The fight begins (``combat.begin``); a coup de grâce is over at once."""
        setup = validate_setup(setup)
        a, b = setup["fighters"]
        state = {"setup": setup, "fighters": {f["id"]: f for f in setup["fighters"]},
                 "weapons": {}, "result": None}
        where = "" if setup["band"] == MELEE else f" at {BAND_LABELS[setup['band']]} range"
        text = f"{a['name']} against {b['name']}: {MODES[setup['mode']]}{where}."
        mod = weather_modifier(setup["weather"])
        if mod:
            text += f" The weather ({weather_words(setup['weather'])}) costs every pool " \
                    f"{card_count(-mod)}."
        events = [Event("combat.begin", text, {"mode": setup["mode"], "band": setup["band"],
                                               "fighters": [a["id"], b["id"]]})]
        if setup["mode"] == "coup_de_grace":
            events += self._resolve(state, source)
        return state, events

    def participants(self, state: State) -> dict[str, str]:
        """The fighters a player controls (``pc:<pk>`` -> name)."""
        return {f["controller"]: f["name"] for f in state["setup"]["fighters"]
                if f["controller"] != GM}

    def pending(self, state: State) -> list[Decision]:
        """``combat.weapon`` for each attacker still to choose (by his controller)."""
        if state["result"] is not None:
            return []
        setup = state["setup"]
        out = []
        for f in _attackers(setup):
            if f["id"] in state["weapons"]:
                continue
            options = weapon_options(f, setup["band"])
            out.append(Decision(f["controller"], "combat.weapon",
                                f"Which weapon does {f['name']} fight with?", options,
                                best_weapon(f, setup["band"])))
        return out[:1]

    def apply(self, state: State, actor: str, choice: str, source: RandomSource
              ) -> tuple[State, list[Event]]:
        """Take a weapon; when every attacker has chosen, turn the cards. ``IllegalAction``
        for the wrong actor, a weapon not offered or a fight that is over."""
        decision = awaited(self.pending(state), actor)
        decision.option(choice)
        st = copy.deepcopy(state)
        fid = next(f["id"] for f in _attackers(st["setup"]) if f["id"] not in st["weapons"])
        st["weapons"][fid] = choice
        name = st["fighters"][fid]["name"]
        events = [Event("combat.weapon", f"{name} has chosen a weapon.", {"who": fid})]
        if not self.pending(st):
            events += self._resolve(st, source)
        return st, events

    def _resolve(self, st: State, source: RandomSource) -> list[Event]:
        setup = st["setup"]
        a, b = (st["fighters"][f["id"]] for f in setup["fighters"])
        mod = weather_modifier(setup["weather"])
        weather = (("weather", mod),) if mod else ()
        wa, wb = st["weapons"].get(a["id"]), st["weapons"].get(b["id"])
        if wa:
            used = f"{a['name']}: {WEAPONS[wa].label}"
            used += f"; {b['name']}: {WEAPONS[wb].label}" if wb else ""
            events = [Event("combat.weapons", f"Weapons drawn. {used}.",
                            {"weapons": dict(st["weapons"])})]
        else:
            events = []
        result, new = clash(a, wa, b, wb, source, band=setup["band"], mode=setup["mode"],
                            difficulty=setup["difficulty"], extra_a=weather, extra_b=weather,
                            settings=setup["settings"])
        events += new
        brawl = {a["id"]: bool(wa and WEAPONS[wa].brawl), b["id"]: bool(wb and WEAPONS[wb].brawl)}
        if setup["mode"] == "coup_de_grace":
            b = dict(b, health="dead")
            st["fighters"][b["id"]] = b
            events.append(Event("combat.wound", f"{b['name']} offers no defence: a coup de "
                                "grâce, and he dies.", {"who": b["id"], "to": "dead"}))
        else:
            hurt = {b["id"]: (result.levels[a["id"]], brawl[a["id"]]),
                    a["id"]: (result.levels[b["id"]], brawl[b["id"]])}
            for fid, (level, by_brawl) in hurt.items():
                if not level:
                    continue
                before = st["fighters"][fid]["health"]
                after, text = wound(st["fighters"][fid], level, brawl=by_brawl)
                st["fighters"][fid] = after
                events.append(Event("combat.wound", text, {
                    "who": fid, "level": SuccessLevel(level).name.lower(), "from": before,
                    "to": after["health"], "unconscious": after["unconscious"]}))
        st["result"] = {"winner": result.winner,
                        "record": result.record.as_dict() if result.record else None}
        events.append(Event("combat.result", _summary(st), {"winner": result.winner}))
        return events

    def default_choice(self, state: State, decision: Decision) -> str:
        """The weapon with the most cards."""
        return decision.default

    def outcome(self, state: State) -> Outcome | None:
        """``Outcome(winner=the victor's id or None, result="won" | "stalemate" | "missed",
        summary, data={"fighters": id -> {"health", "unconscious", "scratch", "cheat_death",
        "health_before"}})``: what the web layer writes back to the sheets."""
        if state["result"] is None:
            return None
        winner = state["result"]["winner"]
        mode = state["setup"]["mode"]
        result = "won" if winner else ("stalemate" if mode in ("melee", "fire") else "missed")
        before = {f["id"]: f["health"] for f in state["setup"]["fighters"]}
        return Outcome(winner, result, _summary(state), {"fighters": {
            fid: {"health": f["health"], "unconscious": f["unconscious"],
                  "scratch": f["scratch"], "cheat_death": f["cheat_death"],
                  "health_before": before[fid], "name": f["name"]}
            for fid, f in state["fighters"].items()}})

    def view(self, state: State, participant: str) -> dict:
        """What ``participant`` sees: the mode, band, weather and stakes, the fighters
        (:func:`public_fighter`: no secret fighter's traits) with the weapons each carries
        (two men face to face see each other's arms), the weapon each chose (before the
        cards are turned only one's own) and the result. The GM's view has the same keys,
        every fighter in full and every choice, and ``full``, the whole state."""
        gm = participant == GM
        done = state["result"] is not None
        out = {
            "mode": state["setup"]["mode"], "band": state["setup"]["band"],
            "weather": state["setup"]["weather"], "stakes": state["setup"]["stakes"],
            "fighters": [public_fighter(state["fighters"][f["id"]], gm=gm)
                         | {"weapons": list(state["fighters"][f["id"]]["weapons"])}
                         for f in state["setup"]["fighters"]],
            "weapons": {fid: w for fid, w in state["weapons"].items()
                        if gm or done or state["fighters"][fid]["controller"] == participant},
            "result": None if not done else {"winner": state["result"]["winner"]},
        }
        if gm:
            out["full"] = copy.deepcopy(state)
        return out

    def scenarios(self) -> dict[str, Scenario]:
        """The book's fights, ``rules/btq/scenarios/personal_combat/*.json`` (missions
        TV-17 to TV-20)."""
        return load_scenarios("rules.btq", "scenarios/personal_combat")


def public_fighter(f: Fighter, *, gm: bool = False) -> dict[str, Any]:
    """What every participant may know of fighter ``f``: name, health, unconscious; his
    weapons, traits and items too unless he is ``secret`` (an NPC's statistics are the GM's,
    who gets them with ``gm``)."""
    keep = ("id", "name", "health", "unconscious", "controller")
    out = {k: f[k] for k in keep}
    if gm or not f["secret"]:
        out.update(weapons=list(f["weapons"]), traits=dict(f["traits"]))
        if f.get("items"):
            out["items"] = copy.deepcopy(f["items"])
    return out


def awaited(decisions: list[Decision], actor: str) -> Decision:
    """The decision of ``decisions`` that ``actor`` is to take; ``IllegalAction`` if none."""
    if not decisions:
        raise IllegalAction("nothing is awaited: the fight is over")
    for decision in decisions:
        if decision.actor == actor:
            return decision
    raise IllegalAction(f"it is for {decisions[0].actor} to decide now, not {actor}")


def _summary(st: State) -> str:
    setup = st["setup"]
    a, b = (st["fighters"][f["id"]] for f in setup["fighters"])
    winner = st["result"]["winner"]
    states = f"{cap(a['name'])} {_health(a)}, {b['name']} {_health(b)}."
    if winner is None:
        verdict = ("Neither side prevails." if setup["mode"] in ("melee", "fire")
                   else f"{cap(a['name'])} misses.")
        stake = setup["stakes"]["stalemate"] if setup["mode"] in ("melee", "fire") else \
            setup["stakes"]["lose"]
    else:
        verdict = f"{cap(st['fighters'][winner]['name'])} wins the fight."
        stake = setup["stakes"]["win" if winner == a["id"] else "lose"]
    return f"{verdict} {states}" + (f" {cap(stake.rstrip('.'))}." if stake else "")


def cap(text: str) -> str:
    """``text`` with its first letter a capital (names keep their own: "the Lieutenant")."""
    return text[:1].upper() + text[1:]


def _health(f: Fighter) -> str:
    text = f["health"].capitalize()
    return text + (" and unconscious" if f["unconscious"] else "")


ENGINE = register(PersonalCombatEngine())
