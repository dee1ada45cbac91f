"""The cards of British vs Pirates as reference data (``british_vs_pirates.md`` §2, §12).

The rulebook prints none of the 19 ship, 10 captain and 58 skill cards (§0), so the card data
is a JSON document a table can replace: :func:`provisional` is the set shipped with the engine
(``rules/bvp/data/provisional.json``, marked ``"provisional": true``: the one cannon profile
the book prints, the values its examples show, values derived for play elsewhere); a GM with
the physical cards enters theirs (the ``combat`` app keeps one per campaign) and it is checked
here by :func:`validate_card_data`. The shape::

    {"name": str, "provisional": bool, "note": str,
     "factions": {id: name},
     "cannons": {id: {"name", "dice": [n1, n2, n3, n4], "accuracy": [a1, a2, a3, a4]}},
         # per range 1-4 hexes; null for X (cannot fire) [L138-L146]
     "ships": {id: {"name", "class": one of SHIP_CLASSES, "faction", "cannon",
                    "speed": 6 ints by relative wind (index k, A9: 0 = wind from dead astern,
                             1/5 the quarters, 2/4 the bows, 3 dead ahead),
                    "pivots": int, "start": {bow, starboard, stern, port, structure: 1-6},
                    "defence": {bow, starboard, stern, port: int},
                    "penalties": {side: {"speed_cap": n} | {"pivots_cap": n}
                                        | {"guns_silent": "port"|"starboard"} | {}},
                    "size": "S"|"M"|"L"}},                      # [L64-L78, L209]
     "captains": {id: {"name", "faction", "morale": 1-6, "grapple": int, "repel": int,
                       "size_bonus": {"size", "effect": one of SIZE_BONUS_EFFECTS,
                                      "value": int} | null}},   # [L80-L87]
     "skills": {id: {"name", "colour": one of COLOURS, "morale": 0-6, "effect", "value",
                     "text"}},                                   # [L89-L99]
     "decks": {faction: {skill id: copies}}}

A skill card's ``effect`` is the engine's reading of its printed text: ``speed`` and
``pivots`` (Green), ``accuracy`` and ``grapple`` (Red), ``defence`` and ``repel`` (Yellow),
``rally`` (Blue).
"""

from __future__ import annotations

import json
from importlib import resources

SHIP_CLASSES = {"Sloop": "S", "Zebec": "S", "Frigate": "M", "Fluyt": "M", "Galleon": "M",
                "Line Ship": "L"}
"""Each class and its size [L209]."""
SIZES = {"S": 0, "M": 1, "L": 2}
"""Small < Medium < Large (stealing wind compares them, [L207])."""
SIZE_NAMES = {"S": "Small", "M": "Medium", "L": "Large"}
COLOURS = {"GREEN": ("speed", "pivots"), "RED": ("accuracy", "grapple"),
           "YELLOW": ("defence", "repel"), "BLUE": ("rally",)}
"""Each skill colour and the effects a card of that colour may have [L91-L95]."""
SIZE_BONUS_EFFECTS = ("speed", "pivots", "accuracy", "grapple", "repel")
PENALTIES = ("speed_cap", "pivots_cap", "guns_silent")
SIDE_KEYS = ("bow", "starboard", "stern", "port")
DICE_KEYS = (*SIDE_KEYS, "structure")
MAX_ITEMS = 80


def provisional() -> dict:
    """The provisional card data shipped with the engine (a fresh copy)."""
    text = resources.files("rules.bvp").joinpath("data", "provisional.json").read_text("utf-8")
    data: dict = json.loads(text)
    return data


def _int(value, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{where}: a whole number from {low} to {high}, not {value!r}")
    return value


def _text(value, where: str, max_length: int = 200) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > max_length:
        raise ValueError(f"{where}: a text of 1 to {max_length} characters")
    return value.strip()


def _table(data: dict, key: str) -> dict:
    table = data.get(key)
    if not isinstance(table, dict) or not table:
        raise ValueError(f"{key}: an object with at least one entry")
    if len(table) > MAX_ITEMS:
        raise ValueError(f"{key}: at most {MAX_ITEMS} entries")
    for ident in table:
        if not ident or len(ident) > 40 or not all(c.isalnum() or c in "_-" for c in ident):
            raise ValueError(f"{key}: {ident!r} is not a short id of letters, digits, - or _")
    return table


def _keys(obj, where: str, required: set[str], optional: frozenset[str] = frozenset()) -> dict:
    if not isinstance(obj, dict):
        raise ValueError(f"{where}: an object")
    missing = sorted(required - set(obj))
    if missing:
        raise ValueError(f"{where}: {missing[0]!r} is missing")
    unknown = sorted(set(obj) - required - optional)
    if unknown:
        raise ValueError(f"{where}: {unknown[0]!r} is not a field")
    return obj


def _ship(s, where: str, factions: dict, cannons: dict) -> dict:
    _keys(s, where, {"name", "class", "faction", "cannon", "speed", "pivots", "start",
                     "defence", "penalties"}, frozenset({"size"}))
    if s["class"] not in SHIP_CLASSES:
        raise ValueError(f"{where}.class: one of {', '.join(SHIP_CLASSES)}")
    if s["faction"] not in factions:
        raise ValueError(f"{where}.faction: one of {', '.join(factions)}")
    if s["cannon"] not in cannons:
        raise ValueError(f"{where}.cannon: one of {', '.join(cannons)}")
    speed = s["speed"]
    if not isinstance(speed, list) or len(speed) != 6:
        raise ValueError(f"{where}.speed: six speeds, one for each wind direction")
    start = _keys(s["start"], f"{where}.start", set(DICE_KEYS))
    defence = _keys(s["defence"], f"{where}.defence", set(SIDE_KEYS))
    penalties = _keys(s["penalties"], f"{where}.penalties", set(),
                      frozenset(SIDE_KEYS))
    out_pen = {}
    for side, pen in penalties.items():
        _keys(pen, f"{where}.penalties.{side}", set(), frozenset(PENALTIES))
        clean: dict = {}
        for k, v in pen.items():
            if k == "guns_silent":
                if v not in ("port", "starboard"):
                    raise ValueError(f"{where}.penalties.{side}.guns_silent: port or starboard")
                clean[k] = v
            else:
                clean[k] = _int(v, f"{where}.penalties.{side}.{k}", 0, 9)
        out_pen[side] = clean
    return {"name": _text(s["name"], f"{where}.name", 60), "class": s["class"],
            "faction": s["faction"], "cannon": s["cannon"],
            "speed": [_int(v, f"{where}.speed[{i}]", 0, 9) for i, v in enumerate(speed)],
            "pivots": _int(s["pivots"], f"{where}.pivots", 0, 6),
            "start": {k: _int(start[k], f"{where}.start.{k}", 1, 6) for k in DICE_KEYS},
            "defence": {k: _int(defence[k], f"{where}.defence.{k}", 0, 12) for k in SIDE_KEYS},
            "penalties": out_pen, "size": SHIP_CLASSES[s["class"]]}


def _captain(c, where: str, factions: dict) -> dict:
    _keys(c, where, {"name", "faction", "morale", "grapple", "repel"},
          frozenset({"size_bonus"}))
    if c["faction"] not in factions:
        raise ValueError(f"{where}.faction: one of {', '.join(factions)}")
    bonus = c.get("size_bonus")
    if bonus is not None:
        _keys(bonus, f"{where}.size_bonus", {"size", "effect", "value"})
        if bonus["size"] not in SIZES:
            raise ValueError(f"{where}.size_bonus.size: S, M or L")
        if bonus["effect"] not in SIZE_BONUS_EFFECTS:
            raise ValueError(f"{where}.size_bonus.effect: one of "
                             f"{', '.join(SIZE_BONUS_EFFECTS)}")
        bonus = {"size": bonus["size"], "effect": bonus["effect"],
                 "value": _int(bonus["value"], f"{where}.size_bonus.value", -3, 6)}
    return {"name": _text(c["name"], f"{where}.name", 60), "faction": c["faction"],
            "morale": _int(c["morale"], f"{where}.morale", 1, 6),
            "grapple": _int(c["grapple"], f"{where}.grapple", -6, 12),
            "repel": _int(c["repel"], f"{where}.repel", -6, 12), "size_bonus": bonus}


def _skill(k, where: str) -> dict:
    _keys(k, where, {"name", "colour", "morale", "effect", "value"}, frozenset({"text"}))
    if k["colour"] not in COLOURS:
        raise ValueError(f"{where}.colour: one of {', '.join(COLOURS)}")
    if k["effect"] not in COLOURS[k["colour"]]:
        raise ValueError(f"{where}.effect: a {k['colour'].lower()} card's effect is one of "
                         f"{', '.join(COLOURS[k['colour']])}")
    return {"name": _text(k["name"], f"{where}.name", 60), "colour": k["colour"],
            "morale": _int(k["morale"], f"{where}.morale", 0, 6), "effect": k["effect"],
            "value": _int(k["value"], f"{where}.value", 1, 6),
            "text": str(k.get("text") or "")[:300]}


def validate_card_data(data) -> dict:
    """``data`` checked against the shape in the module docstring and returned normalised
    (sizes from the classes, texts stripped). ``ValueError`` naming the first bad field
    (``"ships.british_frigate.speed[2]: a whole number from 0 to 9, not 'x'"``)."""
    _keys(data, "card data", {"name", "factions", "cannons", "ships", "captains", "skills",
                              "decks"}, frozenset({"provisional", "note"}))
    factions = _table(data, "factions")
    for fid, name in factions.items():
        _text(name, f"factions.{fid}", 40)
    cannons = {}
    for cid, c in _table(data, "cannons").items():
        where = f"cannons.{cid}"
        _keys(c, where, {"name", "dice", "accuracy"})
        if not isinstance(c["dice"], list) or not isinstance(c["accuracy"], list) or len(
                c["dice"]) != 4 or len(c["accuracy"]) != 4:
            raise ValueError(f"{where}: dice and accuracy for each range 1 to 4")
        dice, acc = [], []
        for i in range(4):
            if (c["dice"][i] is None) != (c["accuracy"][i] is None):
                raise ValueError(f"{where}: range {i + 1} is X for both dice and accuracy, "
                                 "or for neither")
            dice.append(None if c["dice"][i] is None else _int(c["dice"][i],
                                                               f"{where}.dice[{i}]", 1, 6))
            acc.append(None if c["accuracy"][i] is None else _int(
                c["accuracy"][i], f"{where}.accuracy[{i}]", -6, 12))
        cannons[cid] = {"name": _text(c["name"], f"{where}.name", 60), "dice": dice,
                        "accuracy": acc}
    ships = {sid: _ship(s, f"ships.{sid}", factions, cannons)
             for sid, s in _table(data, "ships").items()}
    captains = {cid: _captain(c, f"captains.{cid}", factions)
                for cid, c in _table(data, "captains").items()}
    skills = {kid: _skill(k, f"skills.{kid}") for kid, k in _table(data, "skills").items()}
    decks = _keys(data["decks"], "decks", set(), frozenset(factions))
    clean_decks = {}
    for fid, deck in decks.items():
        _keys(deck, f"decks.{fid}", set(), frozenset(skills))
        clean_decks[fid] = {kid: _int(n, f"decks.{fid}.{kid}", 0, 20) for kid, n in deck.items()}
        if sum(clean_decks[fid].values()) > 60:
            raise ValueError(f"decks.{fid}: at most 60 cards")
    return {"name": _text(data["name"], "name", 100),
            "provisional": bool(data.get("provisional", False)),
            "note": str(data.get("note") or "")[:2000], "factions": dict(factions),
            "cannons": cannons, "ships": ships, "captains": captains, "skills": skills,
            "decks": clean_decks}
