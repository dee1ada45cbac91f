"""The ``brethren`` encounter engine: a fleet action of Brethren of the Coast on a drawn sea
(:mod:`rules.engine`; ``rules/brethren.md`` §4-§9).

A turn (§5, L49-L54): upkeep (scuttled ships sink, Rum wears off), initiative (a d6 for
every ship, lowest first, ties rolled again, A17), the weather (the wind dice rolled for the
last ship in the order, fog drifts 1 S, a Storm drives every ship downwind, §7), then
**orders**: every ship's commander writes her orders for the turn, kept hidden from the
other sides until all are in (the turn is "taken as if simultaneous", L3); then they are
revealed and each ship carries hers out in initiative order.

Orders (decision kind ``orders:<ship id>``, asked of the side's commander). An order is
one action, or two joined by ``+`` in the order they are taken, at most one move and one
attack (L50-L54; one action for a single crew counter or a merchantman, L80, L95):

* ``move:<point>``: sail the whole allowance on a compass heading (``move:NE``);
  ``move:<point>:<n>``: only the first ``n`` legs;
* ``move:to:<id>``: steer for an island (docking when the bow touches it, B5) or a ship
  (ramming her when the bow touches her, L58-L59), re-aiming between legs (A5), tacking
  when the mark is dead to windward; ``move:to:goal`` for the mission's goal (an exit, the
  coast);
* ``about`` (come about, L56), ``free`` (the freeing roll in the Sargasso, L32-L34),
  ``fire`` (fire as they bear, L70-L71), ``broadside`` (L67-L70), ``repair`` (L82-L85),
  ``explore`` (L85-L89), ``scuttle`` (a derelict, L60-L62), ``hold``.

Standing choices (the rules give the player a choice the orders do not ask for; the
engine takes the one named here and says so in the log): a ram and a boarding whenever the
bow touches an enemy (free actions, L59, L77), the side that fires and each battery's
target (the side where most batteries bear; the nearest enemy, the weakest first), the
mast a hit takes (:func:`rules.brethren.damage.weakest_mast`), the crew counter lost (the
cheapest), a boarding's prize (the last crew counter, taking the ship; else a coin if
there is one and room; else a crew counter),
a hold filled with blind draws, and return fire by a ship whose orders include an attack
it has not made yet (A33: it uses that attack); under Advanced Damage each battery's shot
(:func:`rules.brethren.gunfire.choose_ammo`); a tow taken up when a ship that steered for
an enemy derelict touches her bow (L62-L64); an order to move then fire fires during the
move with ``brethren_fire_during_move`` (errata BR-5, on by default) at the first point of
her course where her guns bear best, else after it (:func:`_move`); one
new hand for a ship the Kraken attacked, back home (L110-L112); and in Beware the Kraken a
fleet that lost a ship is asked, before its orders, whether to buy one in her place from
its treasure at home (``buy:<side>``, L112-L113; the default buys none).

Setup (:func:`validate_setup`)::

    {"mission": one of rules.brethren.missions.MISSIONS, "title": str,
     "board": {"w": inches, "h": inches}, "turn_limit": 4-40,
     "wind": {"dir": "N".."NW", "strength": 0-5}, "settings": {...},
     "sides": [{"id", "name", "commander": "pc:<pk>" | "side:<id>", "flag": "EN"|"ES"|"FR"|"PI",
                "role": str, "npc": bool}, ...],
     "islands": [{"id", "x", "y", "r", "kind": "wild"|"home"|"town", "home_of": side id,
                  "coins": [{"value", "special"}]}],
     "terrain": [{"id", "kind": "reef"|"sargasso"|"fog"|"wreck", "x", "y", "r"}],
     "ships": [{"id", "class", "side", "name", "x", "y", "heading", "crew": [...],
                "coins": [...], "merchant": bool, "convoy": bool, "contraband": n}],
     "treasure": {"points": 30, "specials": ["ghost", "map", "rum"]} | null,
     "goal": {"exit": {"x", "y", "r"}} | {"coast": "N"} | {"town": id, "troops": n}
             | {"kraken": island id} | {},
     "procedure": bool}

With ``"procedure": true`` the set-up procedure (:mod:`rules.brethren.procedure`, §4)
places the islands (unless given) and, at the start, rolls the player order, chooses the
homes and berths the ships there: their ``x``, ``y`` and ``heading`` are not needed.

Participants: each side's ``commander`` (a GM-run side ``"side:<id>"``, a player's
``"pc:<pk>"``), named by the side's ``name``; an ``npc`` side has none (its ships follow the
merchantmen's scripted policy, A38). Events are public but for the orders given, which only
their commander (and the GM) sees until the reveal.
"""

from __future__ import annotations

from math import hypot
from typing import Any

from rules.brethren import (
    ai,
    boarding,
    crews,
    damage,
    gunfire,
    missions,
    movement,
    procedure,
    terrain,
)
from rules.brethren import treasure as treasures
from rules.brethren import wind as winds
from rules.brethren.data import cannon, crew_type, is_personality, ship_class
from rules.brethren.geometry import (
    COMPASS,
    L,
    Point,
    S,
    footprint,
    gap_capsule_circle,
    heading_to,
    hull,
    nearest_point_on_ship,
    ship_gap,
    side_of,
    unit,
)
from rules.btq.settings import SettingError, resolve
from rules.dice import d6, order_by_dice, pick
from rules.engine import (
    GM,
    Decision,
    Event,
    EventLog,
    IllegalAction,
    Option,
    Outcome,
    Scenario,
    State,
    load_scenarios,
    register,
)
from rules.random import RandomSource
from rules.words import agree, plural_flag

ENGINE_NAME = "brethren"
FLAGS = ("EN", "ES", "FR", "PI")
FLAG_NAMES = {"EN": "England", "ES": "Spain", "FR": "France", "PI": "the Brethren of the Coast"}
ISLAND_KINDS = ("wild", "home", "town")
_SETUP_KEYS = {"mission", "title", "board", "turn_limit", "wind", "settings", "sides",
               "islands", "terrain", "ships", "treasure", "goal", "notes", "procedure"}
MAX_SHIPS = 16
MAX_ITEMS = 40
ISLAND_R = 1.25
"""A default island: a circle of 1.25 in (A1)."""


# --- setup -----------------------------------------------------------------------------------


def _num(value: object, what: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{what} must be a number, not {value!r}")
    if not low <= value <= high:
        raise ValueError(f"{what} must be between {low} and {high}, not {value}")
    return round(float(value), 3)


def _ident(value: object, what: str) -> str:
    if not isinstance(value, str) or not value or len(value) > 30 or not all(
            c.isalnum() or c in "_-" for c in value):
        raise ValueError(f"{what} must be a short id of letters, digits, - or _, not {value!r}")
    return value


def _coins(items: object, what: str) -> list[dict]:
    if items is None:
        return []
    if not isinstance(items, list) or len(items) > MAX_ITEMS:
        raise ValueError(f"{what} must be a list of at most {MAX_ITEMS} coins")
    out = []
    for c in items:
        if not isinstance(c, dict) or set(c) - {"value", "special", "contraband"}:
            raise ValueError(f"{what}: a coin is {{'value', 'special'}}, not {c!r}")
        special = c.get("special")
        if special not in (None, "ghost", "map", "rum"):
            raise ValueError(f"{what}: unknown special treasure {special!r}")
        value = int(_num(c.get("value", 0), f"{what}: a coin's value", 0, 20))
        coin = {"value": value, "special": special}
        if c.get("contraband"):
            coin["contraband"] = True
        out.append(coin)
    return out


def validate_setup(setup: dict) -> dict:
    """Check a ``brethren`` setup (shape in the module docstring) and return it normalised.
    ``ValueError`` with the reason: an unknown key, mission, ship class, crew, side or island;
    a side without a commander; ships overlapping each other or an island (A1); a ship off
    the table; a ship with no crew."""
    if not isinstance(setup, dict):
        raise ValueError("the setup of a Brethren game must be a mapping")
    unknown = sorted(set(setup) - _SETUP_KEYS)
    if unknown:
        raise ValueError(f"unknown setup key {unknown[0]!r}")
    mission = setup.get("mission", "treasure_hunt")
    if mission not in missions.MISSIONS:
        raise ValueError(f"unknown mission {mission!r}; known: {', '.join(missions.MISSIONS)}")
    board = setup.get("board") or {}
    if not isinstance(board, dict):
        raise ValueError("board must be {'w': inches, 'h': inches}")
    w = _num(board.get("w", 36), "the board's width", 10, 120)
    h = _num(board.get("h", 30), "the board's height", 10, 120)
    limit = int(_num(setup.get("turn_limit", 12), "the turn limit", 4, 40))
    wind = setup.get("wind") or {}
    if not isinstance(wind, dict):
        raise ValueError("wind must be {'dir': 'N'..'NW', 'strength': 0-5}")
    wdir = wind.get("dir", "N")
    if isinstance(wdir, int) and not isinstance(wdir, bool) and 0 <= wdir < 8:
        wdir = COMPASS[wdir]  # a normalised setup again
    if wdir not in COMPASS:
        raise ValueError(f"the wind's direction must be one of {', '.join(COMPASS)}, "
                         f"not {wdir!r}")
    wstr = int(_num(wind.get("strength", 2), "the wind's strength", 0, 5))
    try:
        settings = {k: v for k, v in resolve(dict(setup.get("settings") or {})).items()
                    if k.startswith("brethren_")}
    except SettingError as exc:
        raise ValueError(str(exc)) from None
    sides_in = setup.get("sides")
    if not isinstance(sides_in, list) or not 2 <= len(sides_in) <= 6:
        raise ValueError("a Brethren game has 2 to 6 sides")
    sides: list[dict] = []
    for i, sd in enumerate(sides_in, 1):
        if not isinstance(sd, dict):
            raise ValueError(f"side {i} must be a mapping")
        sid = _ident(sd.get("id"), f"side {i}'s id")
        name = sd.get("name")
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"side {sid!r} needs a display name")
        npc = bool(sd.get("npc", False))
        commander = sd.get("commander", f"side:{sid}")
        if not isinstance(commander, str) or not (
                commander.startswith("pc:") and commander[3:].isalnum()
                or commander.startswith("side:") and commander[5:]):
            raise ValueError(f"side {sid!r}: its commander must be 'pc:<id>' or "
                             f"'side:<id>', not {commander!r}")
        flag = sd.get("flag", "PI")
        if flag not in FLAGS:
            raise ValueError(f"side {sid!r}: the flag must be one of {', '.join(FLAGS)}")
        sides.append({"id": sid, "name": name.strip()[:80],
                      "plural": plural_flag(sd, f"side {sid!r}"), "commander": commander,
                      "flag": flag, "role": str(sd.get("role", ""))[:30], "npc": npc})
    side_ids = [s["id"] for s in sides]
    if len(set(side_ids)) != len(side_ids):
        raise ValueError("two sides have the same id")
    by_procedure = setup.get("procedure", False)
    if not isinstance(by_procedure, bool):
        raise ValueError("procedure is true (the set-up procedure places islands and ships) "
                         "or false")
    islands: list[dict] = []
    for i, isl in enumerate(setup.get("islands") or [], 1):
        if not isinstance(isl, dict):
            raise ValueError(f"island {i} must be a mapping")
        iid = _ident(isl.get("id"), f"island {i}'s id")
        kind = isl.get("kind", "wild")
        if kind not in ISLAND_KINDS:
            raise ValueError(f"island {iid!r}: kind must be one of {', '.join(ISLAND_KINDS)}")
        home_of = isl.get("home_of")
        if home_of is not None and home_of not in side_ids:
            raise ValueError(f"island {iid!r} is the home of no side: {home_of!r}")
        if by_procedure and home_of is not None:
            raise ValueError(f"island {iid!r}: with the set-up procedure the players choose "
                             "the home islands")
        islands.append({"id": iid, "x": _num(isl.get("x"), f"island {iid}'s x", 0, w),
                        "y": _num(isl.get("y"), f"island {iid}'s y", 0, h),
                        "r": _num(isl.get("r", ISLAND_R), f"island {iid}'s radius", 0.3, 6),
                        "kind": "home" if home_of else kind, "home_of": home_of,
                        "name": str(isl.get("name") or iid)[:40],
                        "coins": _coins(isl.get("coins"), f"island {iid}")})
    pieces: list[dict] = []
    for i, t in enumerate(setup.get("terrain") or [], 1):
        if not isinstance(t, dict) or t.get("kind") not in terrain.KINDS:
            raise ValueError(f"terrain {i} must have a kind: {', '.join(terrain.KINDS)}")
        tid = _ident(t.get("id", f"t{i}"), f"terrain {i}'s id")
        pieces.append({"id": tid, "kind": t["kind"],
                       "x": _num(t.get("x"), f"terrain {tid}'s x", 0, w),
                       "y": _num(t.get("y"), f"terrain {tid}'s y", 0, h),
                       "r": _num(t.get("r", 1.25), f"terrain {tid}'s radius", 0.3, 6),
                       "rating": None})
    if by_procedure:
        islands = _procedure_islands(islands, pieces, sides, settings, w, h)
    ships_in = setup.get("ships")
    if not isinstance(ships_in, list) or not ships_in or len(ships_in) > MAX_SHIPS:
        raise ValueError(f"a Brethren game has 1 to {MAX_SHIPS} ships")
    ships: list[dict] = []
    for i, sh in enumerate(ships_in, 1):
        if not isinstance(sh, dict):
            raise ValueError(f"ship {i} must be a mapping")
        shid = _ident(sh.get("id"), f"ship {i}'s id")
        card = ship_class(sh.get("class"))  # ValueError: unknown ship
        if sh.get("side") not in side_ids:
            raise ValueError(f"ship {shid!r} sails for no side: {sh.get('side')!r}")
        crew = sh.get("crew")
        if not isinstance(crew, list) or not crew or len(crew) > 12:
            raise ValueError(f"ship {shid!r} needs a crew: a list of 1 to 12 crew counters")
        for c in crew:
            crew_type(c)  # ValueError: unknown crew
        ships.append({
            "id": shid, "class": sh["class"], "side": sh["side"],
            "name": str(sh.get("name") or card["name"])[:60],
            "x": _num(sh.get("x", w / 2) if by_procedure else sh.get("x"), f"ship {shid}'s x",
                      0, w),
            "y": _num(sh.get("y", h / 2) if by_procedure else sh.get("y"), f"ship {shid}'s y",
                      0, h),
            "heading": _num(sh.get("heading", 0), f"ship {shid}'s heading", 0, 360) % 360,
            "crew": list(crew), "coins": _coins(sh.get("coins"), f"ship {shid}"),
            "merchant": bool(sh.get("merchant", False)), "convoy": bool(sh.get("convoy")),
        })
    ids = [s["id"] for s in ships] + [i["id"] for i in islands] + [t["id"] for t in pieces]
    if len(set(ids)) != len(ids):
        raise ValueError("two ships, islands or terrain pieces have the same id")
    probe = [] if by_procedure else [_new_ship(s) for s in ships]  # placed at the start
    for k, s in enumerate(probe):
        other = movement.overlapping(s, probe[:k])
        if other is not None:
            raise ValueError(f"ships {other!r} and {s['id']!r} overlap: place them apart")
        for isl in islands:
            if gap_capsule_circle(hull(s), isl["x"], isl["y"], isl["r"]) < -0.01:
                raise ValueError(f"ship {s['id']!r} lies on island {isl['id']!r}")
    tre = setup.get("treasure")
    if tre is not None:
        if not isinstance(tre, dict) or set(tre) - {"points", "specials"}:
            raise ValueError("treasure must be {'points': n, 'specials': [...]}")
        specials = tre.get("specials", [])
        if not isinstance(specials, list) or any(x not in ("ghost", "map", "rum")
                                                 for x in specials):
            raise ValueError("treasure specials are 'ghost', 'map' and 'rum'")
        tre = {"points": int(_num(tre.get("points", 30), "the points of the game", 5, 200)),
               "specials": list(specials)}
        if not any(i["kind"] == "wild" for i in islands):
            raise ValueError("treasure needs a wild island to lie on")
    goal = setup.get("goal") or {}
    if not isinstance(goal, dict):
        raise ValueError("goal must be a mapping")
    return {"mission": mission, "title": str(setup.get("title") or "")[:120],
            "board": {"w": w, "h": h}, "turn_limit": limit,
            "wind": {"dir": COMPASS.index(wdir), "strength": wstr}, "settings": settings,
            "sides": sides, "islands": islands, "terrain": pieces, "ships": ships,
            "treasure": tre, "goal": _goal(goal, islands, w, h),
            "notes": str(setup.get("notes") or "")[:500], "procedure": by_procedure}


def _procedure_islands(islands: list[dict], pieces: list[dict], sides: list[dict], settings: dict,
                       w: float, h: float) -> list[dict]:
    """The islands of a set-up by the procedure (:mod:`rules.brethren.procedure`): those
    given, or as many as the players' number asks (A29, BR-6) placed by the standing
    choice, all wild until the players choose their homes at the start."""
    if islands:
        return islands
    players = sum(1 for s in sides if not s["npc"])
    n = procedure.island_count(players, settings.get("brethren_island_count",
                                                     "players_plus_2"))
    places = procedure.island_places(w, h, n, ISLAND_R, pieces)
    return [{"id": f"isle{k}", "x": x, "y": y, "r": ISLAND_R, "kind": "wild",
             "home_of": None, "name": ISLAND_NAMES[(k - 1) % len(ISLAND_NAMES)], "coins": []}
            for k, (x, y) in enumerate(places, 1)]


ISLAND_NAMES = ("Tortuga", "Skull Island", "Isla Verde", "Dead Man's Chest", "Port Royal",
                "Gallows Cay", "Cayo Largo", "Black Rock")
"""The names the set-up procedure gives its islands, in the order they are placed."""


def _procedure_start(st: State, source: RandomSource, log: EventLog) -> None:
    """The set-up procedure's rolls and choices at the start (:mod:`rules.brethren.procedure`,
    L23, L34-L36, A29): the player order, each player's home island, his ships' places
    with their bows touching it."""
    players = [s for s in st["side_ids"] if not st["sides"][s]["npc"]]
    order = procedure.player_order(source, players)
    log("setup.order", "Player order: " + ", ".join(st["sides"][s]["name"] for s in order)
        + ".", {"order": order})
    places = [(st["islands"][i]["x"], st["islands"][i]["y"]) for i in st["island_ids"]]
    homes = procedure.choose_homes(order, places)
    centre = (st["board"]["w"] / 2, st["board"]["h"] / 2)
    for side in order:
        isl = st["islands"][st["island_ids"][homes[side]]]
        isl["kind"], isl["home_of"] = "home", side
        st["sides"][side]["home"] = isl["id"]
        mine = [sh for sh in _ships(st) if sh["side"] == side]
        for sh, (x, y, heading) in zip(mine, procedure.berths(
                isl, [sh["masts_original"] for sh in mine], centre)):
            sh["x"], sh["y"], sh["heading"] = x, y, heading
        log("setup.home", f"{isl['name']} is the home of {st['sides'][side]['name']}.",
            {"side": side, "island": isl["id"]})
    ships = _ships(st)
    for k, sh in enumerate(ships):
        other = movement.overlapping(sh, ships[:k])
        if other is not None:
            raise ValueError(f"the set-up procedure cannot berth the {sh['name']} at her home "
                             "island beside the others: fewer ships, or larger islands")


def _goal(goal: dict, islands: list[dict], w: float, h: float) -> dict:
    out: dict[str, Any] = {}
    ids = {i["id"] for i in islands}
    if "exit" in goal:
        e = goal["exit"]
        out["exit"] = {"x": _num(e.get("x"), "the exit's x", 0, w),
                       "y": _num(e.get("y"), "the exit's y", 0, h),
                       "r": _num(e.get("r", 3), "the exit's radius", 0.5, 20)}
    if "coast" in goal:
        if goal["coast"] not in ("N", "E", "S", "W"):
            raise ValueError("the coast is the N, E, S or W edge")
        out["coast"] = goal["coast"]
    for key in ("town", "kraken"):
        if key in goal:
            if goal[key] not in ids:
                raise ValueError(f"the {key} must be one of the islands")
            out[key] = goal[key]
    if "troops" in goal:
        out["troops"] = int(_num(goal["troops"], "the troops to land", 1, 40))
    return out


def _new_ship(s: dict) -> dict:
    card = ship_class(s["class"])
    n = card["masts"]
    length, beam = footprint(n)
    return {
        **s, "points": card["points"], "rig": card["rig"], "cargo": card["cargo"],
        "hull": card["cargo"], "base_move": list(card["base_move"]),
        "cannons": [cannon(c) for c in card["cannons"]], "masts_original": n,
        "masts": ["UP"] * n, "fixed": bool(card.get("fixed")), "length": length,
        "beam": beam, "start_side": s["side"], "derelict": False, "sunk": False,
        "gone": False, "lost": False, "tangled": False, "freed_round": None,
        "rudder_out": False, "docked_at": None, "fouled": None, "scuttle_pending": False,
        "fired_round": None, "fired_side": None, "fired_ever": False, "broadside_round": None,
        "drunk_round": None, "map_active": False, "barred": [], "under_fire_round": None,
        "saves_round": None, "saves": 0, "kraken_attacks": 0, "kraken_voyages": 0,
        "towing": None, "towed_by": None,
        "contraband": sum(1 for c in s["coins"] if c.get("contraband")),
    }


# --- state -----------------------------------------------------------------------------------


def _copy(value: Any) -> Any:
    if type(value) is dict:
        return {k: _copy(v) for k, v in value.items()}
    if type(value) is list:
        return [_copy(v) for v in value]
    return value


def _initial_state(setup: dict, source: RandomSource, events: list) -> State:
    st: State = {
        "engine": ENGINE_NAME, "mission": setup["mission"], "round": 0,
        "turn_limit": setup["turn_limit"], "board": dict(setup["board"]),
        "wind": dict(setup["wind"]), "settings": dict(setup["settings"]),
        "goal": dict(setup["goal"]), "title": setup["title"],
        "side_ids": [s["id"] for s in setup["sides"]],
        "sides": {s["id"]: {**s, "home": None, "home_coins": [], "prisoners": [],
                            "points": 0} for s in setup["sides"]},
        "island_ids": [i["id"] for i in setup["islands"]],
        "islands": {i["id"]: {**_copy(i), "streamers": [], "castaways": []}
                    for i in setup["islands"]},
        "terrain": _copy(setup["terrain"]),
        "ship_ids": [s["id"] for s in setup["ships"]],
        "ships": {s["id"]: _new_ship(_copy(s)) for s in setup["ships"]},
        "order": [], "orders": {}, "awaiting": [], "kraken": None, "result": None,
        "navy": None,
        "coin_seq": 0,
    }
    if setup.get("procedure"):
        _procedure_start(st, source, EventLog(events))
    for isl in st["islands"].values():
        if isl["home_of"]:
            st["sides"][isl["home_of"]]["home"] = isl["id"]
        for c in isl["coins"]:
            _coin_id(st, c)
    for sh in st["ships"].values():
        for c in sh["coins"]:
            _coin_id(st, c)
        _dock_check(st, sh, None, source)
    tre = setup["treasure"]
    if tre:
        pool = []
        for sid in st["side_ids"]:
            if st["sides"][sid]["npc"]:
                continue
            n, gold = treasures.coins_per_player(tre["points"])
            pool += [{"value": v, "special": None} for v in treasures.spread_values(n, gold)]
        pool += [{"value": 0, "special": sp} for sp in tre["specials"]]
        for c in pool:
            _coin_id(st, c)
        wild = [i for i in st["island_ids"] if st["islands"][i]["kind"] == "wild"]
        for iid, coins in treasures.deal(source, pool, wild).items():
            st["islands"][iid]["coins"] += coins
    if "kraken" in st["goal"]:
        st["kraken"] = {"island": st["goal"]["kraken"], "on": None}
    return st


def _coin_id(st: State, coin: dict) -> None:
    st["coin_seq"] += 1
    coin["id"] = f"c{st['coin_seq']}"


def _ships(st: State) -> list[dict]:
    return [st["ships"][i] for i in st["ship_ids"]]


def _afloat(sh: dict) -> bool:
    return not sh["sunk"] and not sh["gone"]


def _up(sh: dict) -> int:
    return damage.masts_remaining(sh["masts"])


def _enemies(st: State, sh: dict) -> list[dict]:
    return [o for o in _ships(st) if o["side"] != sh["side"] and _afloat(o)]


def _commander(st: State, side: str) -> str:
    return st["sides"][side]["commander"]


def _orderer(st: State, sh: dict) -> str:
    """Who gives the ship her orders: her side's commander; a ship of the Royal Navy
    squadron of Movin' On Up, the commander of the lowest-ranked pirate (L96)."""
    if sh.get("navy") and st.get("navy"):
        return st["navy"]["commander"]
    return _commander(st, sh["side"])


# --- events ----------------------------------------------------------------------------------


# --- turns -----------------------------------------------------------------------------------


def _begin_turn(st: State, source: RandomSource, log: EventLog) -> None:
    st["round"] += 1
    rnd = st["round"]
    for sh in _ships(st):
        if sh["scuttle_pending"] and _afloat(sh):
            _sink(st, sh, log, "scuttled", castaway=False)
        sh["saves"] = crews.doctors(sh["crew"])
    st["terrain"] = terrain.clear_ratings(st["terrain"])
    if st["mission"] == "movin_on_up" and st.get("navy") is None:
        _navy_check(st, log)
    active = [sh["id"] for sh in _ships(st) if _afloat(sh)]
    st["order"] = order_by_dice(source, active, "initiative")
    names = ", ".join(st["ships"][i]["name"] for i in st["order"])
    log("turn.begin", f"Turn {rnd} of {st['turn_limit']}. Initiative, first to last: {names}.",
        {"round": rnd, "order": list(st["order"])})
    if st["settings"].get("brethren_wind_change", True) and rnd > 1 and st["order"]:
        old = dict(st["wind"])
        st["wind"], dice = winds.change(st["wind"], source)
        if st["wind"] != old:
            log("wind.change", f"The wind changes (dice {dice[0]}, {dice[1]}): "
                f"{winds.describe(st['wind'])}.", {"wind": dict(st["wind"]), "dice": list(dice)})
        else:
            log("wind.same", f"The wind holds (dice {dice[0]}, {dice[1]}): "
                f"{winds.describe(st['wind'])}.", {"wind": dict(st["wind"]), "dice": list(dice)})
    if any(t["kind"] == "fog" for t in st["terrain"]) and rnd > 1:
        st["terrain"] = [terrain.fog_drift(t, st["wind"]["dir"]) if t["kind"] == "fog" else t
                         for t in st["terrain"]]
    if st["wind"]["strength"] == winds.STORM:
        _storm(st, source, log)
    st["orders"], st["awaiting"] = {}, []
    for sh in _ships(st):
        if not _afloat(sh) or sh["id"] not in st["order"]:
            continue
        if _drunk(st, sh):
            continue
        options = plan_options(st, sh)
        if [o for o in options if o != "hold"] == []:
            st["orders"][sh["id"]] = "hold"
        elif st["sides"][sh["side"]]["npc"] and not sh.get("navy"):
            st["orders"][sh["id"]] = ai.choose(st, sh["id"], options)
        else:
            st["awaiting"].append(sh["id"])
    if st["mission"] == "beware_the_kraken":
        buying = [s for s in st["side_ids"] if missions.replacement_options(st, s)]
        if buying or st.get("buying"):
            st["buying"] = buying


NAVY_SQUADRON = (("frigate", "HMS Swiftsure"), ("frigate", "HMS Dauntless"),
                 ("brigantine", "HMS Sparrow"))
"""The Royal Navy squadron of Movin' On Up (L96): three ships, the class and name of each."""


def _navy_check(st: State, log: EventLog) -> None:
    """Movin' On Up (L96-L97): the turn after a player first holds a ship of four masts or
    more, a Royal Navy squadron of three ships appears, on the side of the merchantmen,
    at the edge of the sea farthest from every ship, and it is commanded by the
    lowest-ranked pirate (the least treasure, the other players than the hunted one; the
    last of equals). It hunts the biggest pirate: taking or sinking her ends the game and
    puts her fleet out of the running (:func:`rules.brethren.missions.over`)."""
    players = [s for s in st["side_ids"] if not st["sides"][s]["npc"]]
    big = [sh for sh in _ships(st) if _afloat(sh) and sh["side"] in players
           and sh["masts_original"] >= 4]
    npc = [s for s in st["side_ids"] if st["sides"][s]["npc"]]
    if not big or not npc:
        return
    quarry = max(big, key=lambda sh: (sh["masts_original"], sh["points"]))
    others = [s for s in players if s != quarry["side"]] or players
    low = min(reversed(others), key=lambda s: missions.treasure(st, s))
    w, h = st["board"]["w"], st["board"]["h"]
    edges = {"west": (2.0, h / 2, 90.0, (0, 1)), "east": (w - 2.0, h / 2, 270.0, (0, 1)),
             "south": (w / 2, 2.0, 0.0, (1, 0)), "north": (w / 2, h - 2.0, 180.0, (1, 0))}
    name, (x, y, heading, (dx, dy)) = max(edges.items(), key=lambda e: min(
        hypot(o["x"] - e[1][0], o["y"] - e[1][1]) for o in _ships(st) if _afloat(o)))
    st["navy"] = {"commander": _commander(st, low), "quarry": quarry["id"],
                  "hunted": quarry["side"], "by": low}
    for k, (cls, ship_name) in enumerate(NAVY_SQUADRON):
        sid = f"rn{k + 1}"
        card = ship_class(cls)
        ship = _new_ship({"id": sid, "class": cls, "side": npc[0], "name": ship_name,
                          "x": x + dx * (k - 1) * 4.0, "y": y + dy * (k - 1) * 4.0,
                          "heading": heading, "crew": ["seaman"] * crews.min_crew(
                              card["points"]), "coins": [], "merchant": False,
                          "convoy": False})
        ship["navy"] = True
        st["ships"][sid] = ship
        st["ship_ids"].append(sid)
    log("mission.navy", f"The {quarry['name']} has {quarry['masts_original']} masts: a Royal "
        f"Navy squadron of three ships appears at the {name} edge to hunt her, commanded "
        f"by {st['sides'][low]['name']}.", {"quarry": quarry["id"], "commander": low,
                                             "ships": [f"rn{k + 1}" for k in range(3)]})


def _drunk(st: State, sh: dict) -> bool:
    return sh["drunk_round"] == st["round"]


def _storm(st: State, source: RandomSource, log: EventLog) -> None:
    """Every ship drifts downwind S (cargo 3 or more) or L, until land or reef (§7, A32)."""
    heading = winds.blows_toward(st["wind"])
    for sh in _ships(st):
        if not _afloat(sh) or sh["fixed"]:
            continue
        legs = ["S"] if sh["cargo"] >= 3 else ["L"]
        keep = sh["heading"]
        res = movement.sail(st, sh, legs, lambda s: heading, source, log)
        sh["heading"] = keep
        log("storm.drift", f"{sh['name']} drifts {res['moved']:.1f} in before the storm.",
            {"ship": sh["id"], "moved": res["moved"]})
        _after_terrain(st, sh, log, source)


def _run(st: State, source: RandomSource, log: EventLog) -> None:
    """Carry out turns until orders are awaited or the game ends."""
    while st["result"] is None and not st["awaiting"] and not st.get("buying"):
        _resolve_turn(st, source, log)
        if st["result"] is None:
            _begin_turn(st, source, log)


def _resolve_turn(st: State, source: RandomSource, log: EventLog) -> None:
    if st["orders"]:
        words = "; ".join(f"{st['ships'][s]['name']}: {describe_plan(st, st['orders'][s])}"
                          for s in st["order"] if s in st["orders"])
        log("orders.revealed", f"The orders are revealed. {words}.",
            {"orders": dict(st["orders"])})
        for key in [k for k in st["orders"] if k.startswith("buy:")]:
            choice = st["orders"][key]
            if choice != "none":
                _buy_replacement(st, key[4:], choice, log)
    for sid in list(st["order"]):
        sh = st["ships"][sid]
        if not _afloat(sh):
            continue
        _activate(st, sh, st["orders"].get(sid, "hold"), source, log)
        if _end_check(st, log):
            return
    st["orders"] = {}
    if st["round"] >= st["turn_limit"]:
        _finish(st, log, "turn_limit", f"the turn limit ({st['turn_limit']}) is reached")


def _end_check(st: State, log: EventLog) -> bool:
    found = missions.over(st)
    if found is None:
        return False
    _finish(st, log, *found)
    return True


def _finish(st: State, log: EventLog, result: str, why: str) -> None:
    sc = missions.scores(st)
    win = missions.winner(st, sc, result)
    side = st["sides"][win] if win else None
    scores = ", ".join(f"{st['sides'][s]['name']} {sc[s]}" for s in st["side_ids"]
                       if not st["sides"][s]["npc"])
    verdict = f"{side['name']} {agree(side, 'wins', 'win')}" if side else "Nobody wins outright"
    summary = f"The game ends: {why}. {verdict} (scores: {scores})."
    st["result"] = {"result": result, "winner": win, "summary": summary, "scores": sc,
                    "round": st["round"]}
    st["awaiting"] = []
    log("game.over", summary, {"winner": win, "result": result, "scores": sc})


# --- orders ----------------------------------------------------------------------------------


def _can_move(st: State, sh: dict) -> bool:
    if sh["fixed"] or sh["fouled"] or sh["tangled"] or sh["freed_round"] == st["round"] \
            or sh["towed_by"]:
        return False
    if st["wind"]["strength"] == winds.STORM:
        return False
    if sh["derelict"] and "oarsman" not in sh["crew"]:
        return False
    return True


def _marks(st: State, sh: dict) -> list[str]:
    out = [i for i in st["island_ids"] if i not in sh["barred"]]
    out += [o["id"] for o in _enemies(st, sh) if not o["lost"]]
    if "exit" in st["goal"] or "coast" in st["goal"]:
        out.append("goal")
    return out


def _attack_kinds(st: State, sh: dict) -> list[str]:
    if st["wind"]["strength"] == winds.STORM or not any(m == "UP" for m in sh["masts"]):
        if "marines" not in sh["crew"]:
            return []
    if st["wind"]["strength"] == winds.STORM:
        return []
    out = ["fire"]
    every = st["settings"].get("brethren_broadside_every") == "every_other_turn"
    if sum(1 for m in sh["masts"] if m == "UP") >= 1 and (
            not sh["fired_ever"] if not every else
            sh["broadside_round"] is None or sh["broadside_round"] <= st["round"] - 2):
        out.append("broadside")
    return out


def _needs_repair(st: State, sh: dict) -> bool:
    at_home = sh["docked_at"] is not None and sh["docked_at"] == st["sides"][sh["side"]]["home"]
    lost = any(m == "LOST" for m in sh["masts"])
    return bool(sh["fouled"] or sh["rudder_out"] or any(m in ("HP", "HS") for m in sh["masts"])
                or sh["hull"] < sh["cargo"] or (lost and damage.masts_repaired(at_home=at_home,
                                                   shipwright="shipwright" in sh["crew"])))


def plan_options(st: State, sh: dict) -> list[str]:
    """Every legal order for ship ``sh`` this turn, as keys (module docstring), ``"hold"``
    first. A derelict may only Explore, Attack or Repair (L57); a tangled ship may only try
    to free herself (L32-L34); one action for a single crew counter or a merchantman (L80,
    L95), who never repairs (L95, L101)."""
    n = crews.actions_per_turn(sh["crew"], merchant=sh["merchant"])
    if n == 0 or not _afloat(sh):
        return ["hold"]
    moves = []
    if sh["tangled"]:
        moves = ["free"]
    elif _can_move(st, sh):
        moves = [f"move:{p}" for p in COMPASS]
        legs = len(sh["base_move"])
        if legs > 1:
            moves += [f"move:{p}:1" for p in COMPASS]
        moves += [f"move:to:{m}" for m in _marks(st, sh)]
        if not sh["rudder_out"] and not any(m in ("HP", "HS") for m in sh["masts"]):
            moves.append("about")
    attacks = _attack_kinds(st, sh)
    if sh["merchant"]:
        return ["hold", *moves, *attacks]
    others = []
    if _needs_repair(st, sh):
        others.append("repair")
    explore_now = _may_explore(st, sh)
    singles = ["hold", *moves, *attacks, *others]
    if explore_now:
        singles.append("explore")
    if sh["derelict"]:
        singles += ["scuttle"] if not sh["scuttle_pending"] else []
    if n == 1:
        return singles
    pairs = []
    for m in moves:
        for a in attacks:
            pairs += [f"{m}+{a}", f"{a}+{m}"]
        if "repair" in others and m != "free":
            pairs.append(f"repair+{m}")
        if m.startswith("move:to:") and m[8:] in st["islands"]:
            pairs.append(f"{m}+explore")
        if explore_now:
            pairs.append(f"explore+{m}")
    for a in attacks:
        if "repair" in others:
            pairs += [f"{a}+repair", f"repair+{a}"]
        if explore_now:
            pairs += [f"explore+{a}", f"{a}+explore"]
    return singles + pairs


def _may_explore(st: State, sh: dict) -> bool:
    isl = st["islands"].get(sh["docked_at"] or "")
    if isl is None:
        return False
    if isl["id"] == st["goal"].get("town"):
        return any(c == "troops" for c in sh["crew"])
    return isl["home_of"] != sh["side"] and bool(isl["coins"] or isl["castaways"])


def describe_plan(st: State, key: str) -> str:
    """An order in words: "steer for Skull Island, then explore"."""
    return ", then ".join(_action_words(st, a) for a in key.split("+"))


def _action_words(st: State, a: str) -> str:
    if a.startswith("move:to:"):
        mark = a[8:]
        if mark == "goal":
            return "steer for the goal"
        if mark in st["islands"]:
            return f"steer for {st['islands'][mark]['name']}"
        return f"steer for the {st['ships'][mark]['name']}" if mark in st["ships"] else a
    if a.startswith("move:"):
        parts = a.split(":")
        return f"sail {parts[1]}" + (" one leg" if len(parts) > 2 else "")
    return {"hold": "hold", "about": "come about", "free": "try to break free",
            "fire": "fire as they bear", "broadside": "fire a broadside",
            "repair": "repair", "explore": "explore", "scuttle": "scuttle her"}.get(a, a)


def _decision(st: State, sid: str) -> Decision:
    sh = st["ships"][sid]
    keys = plan_options(st, sh)
    words: dict[str, str] = {}

    def said(a: str) -> str:
        if a not in words:
            words[a] = _action_words(st, a)
        return words[a]

    options = tuple(Option(k, _cap(", then ".join(map(said, k.split("+")))), order_group(k))
                    for k in keys)
    default = ai.choose(st, sid, keys)
    return Decision(_orderer(st, sh), f"orders:{sid}",
                    f"Orders for the {sh['name']} this turn", options, default)


def _buy_decision(st: State, side_id: str) -> Decision:
    side = st["sides"][side_id]
    lost = missions.lost_ships(st, side_id)[0]
    options = tuple(Option(k, text) for k, text in missions.replacement_options(st, side_id))
    return Decision(side["commander"], f"buy:{side_id}",
                    f"Buy a ship in place of the {lost['name']}?", options, "none")


def _action_kind(a: str) -> str:
    if a.startswith("move:to:"):
        return "steer for a mark"
    if a.startswith("move:"):
        return "sail a heading"
    if a in ("fire", "broadside"):
        return "fire"
    return "come about" if a == "about" else a


def order_group(key: str) -> str:
    """The heading an order is listed under among a ship's ~100 (a phone's picker shows
    them): its actions' kinds in order, "Sail a heading, then fire"; the single orders that
    neither move nor fire under "Hold, turn, repair or explore"."""
    kinds = [_action_kind(a) for a in key.split("+")]
    if len(kinds) == 1 and kinds[0] not in ("steer for a mark", "sail a heading", "fire"):
        return "Hold, turn, repair or explore"
    return _cap(", then ".join(kinds))


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def check_order(st: State, sid: str, key: str) -> None:
    """Refuse an order the rules do not allow now, with the reason (``IllegalAction``): a
    move longer than the ship may sail, a move for a ship that cannot move, two moves or two
    attacks, an unknown mark."""
    sh = st["ships"][sid]
    if key in plan_options(st, sh):
        return
    actions = key.split("+") if isinstance(key, str) else []
    n = crews.actions_per_turn(sh["crew"], merchant=sh["merchant"])
    if len(actions) > n:
        raise IllegalAction(f"the {sh['name']} has {n} action(s) this turn, not {len(actions)}")
    kinds = [a.split(":")[0] for a in actions]
    if kinds.count("move") > 1 or sum(k in ("fire", "broadside") for k in kinds) > 1:
        raise IllegalAction("at most one move and one attack a turn")
    for a in actions:
        parts = a.split(":")
        if parts[0] == "move":
            if not _can_move(st, sh):
                raise IllegalAction(f"the {sh['name']} cannot move this turn")
            if len(parts) == 3 and parts[1] in COMPASS:
                if not parts[2].isdigit() or int(parts[2]) > len(sh["base_move"]):
                    # the length in words only: Light Air's d6 (BR-2) is a move's to roll
                    plain = {k: v for k, v in st["settings"].items() if k != "brethren_light_air"}
                    legs = movement.allowance(sh, COMPASS.index(parts[1]) * 45.0, st["wind"],
                                              settings=plain)
                    raise IllegalAction(
                        f"the {sh['name']} may sail at most {len(sh['base_move'])} leg(s) "
                        f"({movement.length_of(legs):.1f} in on that heading), not {parts[2]}")
    raise IllegalAction(f"{key!r} is not an order the {sh['name']} may give this turn")


# --- activation ------------------------------------------------------------------------------


def _activate(st: State, sh: dict, plan: str, source: RandomSource, log: EventLog) -> None:
    if _drunk(st, sh):
        log("ship.drunk", f"The crew of the {sh['name']} are drunk on the Rum: she does "
            "nothing this turn.", {"ship": sh["id"]})
        return
    if sh["fouled"] and st["settings"].get("brethren_board_when_fouled"):
        other = st["ships"].get(sh["fouled"])
        if other and _afloat(other) and other["side"] != sh["side"]:
            _board(st, sh, other, source, log)
    actions = [] if plan == "hold" else plan.split("+")
    if actions and not sh["merchant"]:
        lucky = crews.extra_action_roll(sh["crew"], source) if any(
            c in sh["crew"] for c in ("morgan", *crews.DOUBLERS)) else None
        if lucky:
            who = crew_type(lucky)["name"]
            log("crew.extra_action", f"{who} aboard the {sh['name']} rolls 5 or 6: her first "
                f"action ({_action_words(st, actions[0])}) is taken twice.",
                {"ship": sh["id"], "by": lucky})
            actions.insert(1, actions[0])
    every = st["settings"].get("brethren_st_croix") == "every_action" and "st_croix" in sh["crew"]
    midway = st["settings"].get("brethren_fire_during_move", True)
    fired_midway = False
    for k, a in enumerate(actions):
        if not _afloat(sh) or st["result"] is not None:
            break
        if fired_midway and a in ("fire", "broadside"):
            fired_midway = False  # taken during the move
            continue
        after = actions[k + 1] if k + 1 < len(actions) else None
        if midway and a.startswith("move:") and after in ("fire", "broadside"):
            fired_midway = _move(st, sh, a, source, log, fire=after)
        else:
            _do(st, sh, a, source, log)
        if every and k > 0 and d6(source, "st_croix extra action") >= 5:
            log("crew.extra_action", f"St. Croix aboard the {sh['name']} rolls 5 or 6: this "
                "action is taken twice.", {"ship": sh["id"], "by": "st_croix"})
            _do(st, sh, a, source, log)
    _kraken(st, sh, source, log)


def _do(st: State, sh: dict, a: str, source: RandomSource, log: EventLog) -> None:
    if a == "hold":
        return
    if a == "about":
        sh["heading"] = movement.come_about(sh)
        log("move.about", f"The {sh['name']} comes about.", {"ship": sh["id"],
                                                               "heading": sh["heading"]})
    elif a == "free":
        if terrain.free_from_sargasso(_up(sh), source):
            sh["tangled"] = False
            sh["freed_round"] = st["round"]
            log("move.freed", f"The {sh['name']} breaks free of the Sargasso: she may move "
                "from next turn.", {"ship": sh["id"]})
        else:
            log("move.still_tangled", f"The {sh['name']} stays tangled in the Sargasso.",
                {"ship": sh["id"]})
    elif a.startswith("move:"):
        _move(st, sh, a, source, log)
    elif a in ("fire", "broadside"):
        _fire(st, sh, a, source, log)
    elif a == "repair":
        _repair(st, sh, log, source)
    elif a == "explore":
        _explore(st, sh, source, log)
    elif a == "scuttle":
        if damage.scuttle(source):
            sh["scuttle_pending"] = True
            log("ship.scuttle", f"The {sh['name']} is scuttled: she goes down at the start of "
                "next turn.", {"ship": sh["id"]})
        else:
            log("ship.scuttle_failed", f"The attempt to scuttle the {sh['name']} fails.",
                {"ship": sh["id"]})


def _mark_point(st: State, mark: str) -> Point | None:
    if mark == "goal":
        g = st["goal"]
        if "exit" in g:
            return g["exit"]["x"], g["exit"]["y"]
        return None
    if mark in st["islands"]:
        i = st["islands"][mark]
        return i["x"], i["y"]
    if mark in st["ships"]:
        o = st["ships"][mark]
        return o["x"], o["y"]
    return None


class _Dice(Exception):
    """A die the dry run of a move (:func:`_best_fire_on_course`) would need."""


class _NoDice(RandomSource):
    """The dry run's source: the first die or card it needs ends the dry run there."""

    def __init__(self) -> None:
        super().__init__(record=False)

    def _pick(self, deck: Any, count: int) -> Any:
        raise _Dice

    def _roll(self, sides: int, count: int) -> Any:
        raise _Dice


def _midway_shots(st: State, s: dict, fire: str) -> int:
    """How many batteries of ``s`` would fire ``fire`` (``"fire"`` or ``"broadside"``)
    from where she is now."""
    foes = [o for o in _targets(st, s) if _afloat(o)
            and hypot(o["x"] - s["x"], o["y"] - s["y"]) <= L + 4.0]
    return len(gunfire.choose_fire(st, s, foes, mode="broadside" if fire == "broadside"
                                   else "bear", side=None)) if foes else 0


def _best_fire_on_course(st: State, sh: dict, legs: Any, heading_for: Any, fire: str) -> int:
    """The most batteries ``sh`` could bring to bear with ``fire`` on the course of her move
    (``legs`` steered by ``heading_for``), sailed on a copy of the table without dice (a
    reef or the Sargasso that asks for one ends the dry run there); 0 when none bear before
    its end, or no more than at its end (then she fires where her orders put it)."""
    dry = _copy(st)
    ghost = dry["ships"][sh["id"]]
    counts: list[int] = []

    def probe(s: dict) -> None:
        counts.append(_midway_shots(dry, s, fire))

    try:
        movement.sail(dry, ghost, legs, heading_for, _NoDice(), lambda *a, **k: None,
                      during=probe)
    except _Dice:
        pass
    probe(ghost)
    best = max(counts)
    return best if counts.index(best) < len(counts) - 2 else 0


def _move(st: State, sh: dict, a: str, source: RandomSource, log: EventLog,
          fire: str | None = None) -> bool:
    """The move ``a`` (module docstring). With ``fire`` (the attack her orders take after
    it, ``"fire"`` or ``"broadside"``) she may fire it during the move when an enemy bears,
    then sail on (errata BR-5, ``brethren_fire_during_move``; L51: "the active ship decides
    whether to fire"). The standing choice: she fires at the first point of her course
    where as many of her batteries bear as will anywhere on it (its end included, dry-run
    by :func:`_best_fire_on_course`), so a ship passing an enemy fires as she passes, and
    one closing on him holds her fire until her guns bear best. Returns whether she fired
    during the move (else her orders' attack follows it)."""
    fired = False
    want = 0

    def during(s: dict) -> None:
        nonlocal fired
        if fired or fire is None or not _afloat(s) or s["lost"]:
            return
        if want and _midway_shots(st, s, fire) >= want:
            fired = True
            log("move.fires", f"The {s['name']} comes into range during her move and fires "
                "there, then sails on.", {"ship": s["id"], "x": round(s["x"], 2),
                                          "y": round(s["y"], 2)})
            _fire(st, s, fire, source, log)

    if not _can_move(st, sh):
        log("move.cannot", f"The {sh['name']} cannot move this turn.", {"ship": sh["id"]})
        return False
    parts = a.split(":")
    coast = st["goal"].get("coast")
    if parts[1] == "to":
        mark = parts[2]
        if mark == "goal" and coast:
            target = {"N": 0.0, "E": 90.0, "S": 180.0, "W": 270.0}[coast]

            def heading_for(s: dict) -> float:
                return movement.steer(s, target, st["wind"])
        else:
            def heading_for(s: dict) -> float:
                p = _mark_point(st, mark)
                if p is None:
                    return s["heading"]
                want = heading_to(s["x"], s["y"], *p)
                course = movement.clear_course(st, s, want, min(L, hypot(s["x"] - p[0],
                                                                         s["y"] - p[1])),
                                               goal=mark)
                return movement.steer(s, course, st["wind"])
        nlegs = None
    else:
        fixed = COMPASS.index(parts[1]) * 45.0

        def heading_for(s: dict) -> float:
            return fixed
        nlegs = int(parts[2]) if len(parts) > 2 else None
    if sh["lost"]:
        if "covas" not in sh["crew"]:
            way = pick(source, range(8), f"fog exit {sh['id']}") * 45.0

            def heading_for(s: dict) -> float:
                return way
    first = sh["heading"] if sh["rudder_out"] or any(m in ("HP", "HS") for m in sh["masts"]) \
        else heading_for(sh)
    lee = movement.in_lee(sh, [st["islands"][i] for i in st["island_ids"]], st["wind"])
    legs = movement.allowance(sh, first, st["wind"], lee=lee, settings=st["settings"],
                              source=source)
    if nlegs is not None:
        legs = legs[:nlegs]
    if not legs:
        log("move.becalmed", f"The {sh['name']} cannot make way on that heading "
            f"({winds.point_of_sailing(first, st['wind']).replace('_', ' ')}, "
            f"{winds.strength(st['wind']['strength'])['name']}).", {"ship": sh["id"]})
        return fired
    was_docked = sh["docked_at"]
    sector = winds.point_of_sailing(first, st["wind"])
    if fire:
        want = _best_fire_on_course(st, sh, legs, heading_for, fire)
    res = movement.sail(st, sh, legs, heading_for, source, log,
                        during=during if fire else None)
    if res["moved"] > 0:
        sh["docked_at"] = None
        if was_docked and st["islands"][was_docked]["kind"] == "wild":
            isl = st["islands"][was_docked]
            if sh["side"] not in isl["streamers"]:
                isl["streamers"].append(sh["side"])
        for o in _ships(st):  # a ship fouled with her is free once she moves away
            if o["fouled"] == sh["id"]:
                o["fouled"] = None
        if sh["lost"] and not _in_fog(st, sh):
            sh["lost"] = False
    if sh["towing"]:
        _trail(st, sh)
    stop = res["stopped"]
    log("move", f"The {sh['name']} sails {res['moved']:.1f} in "
        f"({'+'.join(legs)}, {sector.replace('_', ' ')})"
        + (f" and stops against {_stop_words(st, stop)}" if stop else "") + ".",
        {"ship": sh["id"], "x": sh["x"], "y": sh["y"], "heading": sh["heading"],
         "moved": res["moved"], "legs": legs, "stopped": list(stop) if stop else None})
    _after_terrain(st, sh, log, source)
    if not _afloat(sh):
        return fired
    _dock_check(st, sh, log, source)
    _goal_check(st, sh, log)
    if parts[1] == "to" and parts[2] in st["ships"]:
        _take_tow(st, sh, st["ships"][parts[2]], log)
    if not _afloat(sh) or sh["lost"] or res["moved"] <= 0.01:
        return fired
    for o in _ships(st):
        if (o["side"] != sh["side"] and _afloat(o) and not o["crew"] and not o["lost"]
                and ship_gap(sh, o) <= 0.05 and sh["crew"]):
            log("boarding.unmanned", f"The {sh['name']} comes alongside the {o['name']}, who "
                "has no crew to resist: a free action takes her.", {"ship": sh["id"],
                                                                  "target": o["id"]})
            _capture(st, o, sh, log)
    _, rammed = movement.bow_contacts(st, sh)
    for oid in rammed:
        o = st["ships"][oid]
        if o["side"] != sh["side"] and not o["lost"] and _afloat(o):
            _ram(st, sh, o, source, log)
            break
    return fired


def _take_tow(st: State, sh: dict, o: dict, log: EventLog) -> None:
    """Taking up a tow (L62-L64), a free action after a move: when the ship steered for an
    enemy derelict (the player's intent; the standing choice takes her then) and touches
    her bow, the derelict and all aboard join her fleet, a scuttling begun on her fails
    (L61-L62), and she is placed bow to the tower's stern."""
    if (not o["derelict"] or not _afloat(o) or o["side"] == sh["side"] or o["towed_by"]
            or sh["towing"] or sh["towed_by"] or sh["derelict"] or o["lost"]):
        return
    if sh["id"] not in movement.bow_contacts(st, o)[1]:
        return
    o["scuttle_pending"] = False
    _capture(st, o, sh, log)
    sh["towing"], o["towed_by"] = o["id"], sh["id"]
    sh["fouled"] = o["fouled"] = None
    _trail(st, sh)
    log("move.tow", f"The {sh['name']} takes the {o['name']} in tow: her own move is S "
        "while she tows.", {"ship": sh["id"], "towing": o["id"]})


def _trail(st: State, sh: dict) -> None:
    """The towed ship follows her tower, a free action (L63-L64): her bow at the tower's
    stern, on the tower's heading."""
    o = st["ships"][sh["towing"]]
    ux, uy = unit(sh["heading"])
    back = sh["length"] / 2 + o["length"] / 2 + 0.02
    o["x"], o["y"] = round(sh["x"] - ux * back, 3), round(sh["y"] - uy * back, 3)
    o["heading"] = sh["heading"]
    o["docked_at"] = None


def _release_tow(st: State, sh: dict) -> None:
    for key, other in (("towing", "towed_by"), ("towed_by", "towing")):
        if sh[key]:
            st["ships"][sh[key]][other] = None
            sh[key] = None


def _stop_words(st: State, stop: tuple[str, str]) -> str:
    what, oid = stop
    if what == "island":
        return st["islands"][oid]["name"]
    if what == "ship":
        return f"the {st['ships'][oid]['name']}"
    return {"edge": "the edge of the sea", "wreck": "a wreck", "reef": "a reef",
            "sargasso": "the Sargasso"}.get(what, what)


def _in_fog(st: State, sh: dict) -> bool:
    h = hull(sh)
    return any(t["kind"] == "fog" and gap_capsule_circle(h, t["x"], t["y"], t["r"]) < 0
               for t in st["terrain"])


def _after_terrain(st: State, sh: dict, log: EventLog, source: RandomSource) -> None:
    if sh.pop("reef_sunk", False):
        st["terrain"].append({"id": f"wreck-{sh['id']}", "kind": "wreck", "x": sh["x"],
                              "y": sh["y"], "r": 0.8, "rating": None})
        _sink(st, sh, log, "wrecked on a reef")
        return
    loss = sh.pop("reef_loss", 0)
    if loss:
        _lose_masts(st, sh, loss, log, source)


def _dock_check(st: State, sh: dict, log: EventLog | None, source: RandomSource) -> None:
    isl_ids, _ = movement.bow_contacts(st, sh)
    if not isl_ids:
        return
    isl = st["islands"][isl_ids[0]]
    sh["docked_at"] = isl["id"]
    if log is None:
        return
    log("move.dock", f"The {sh['name']} docks at {isl['name']}.",
        {"ship": sh["id"], "island": isl["id"]})
    if sh["towing"]:  # her tow docks with her, a free action (L64)
        tow = st["ships"][sh["towing"]]
        tow["docked_at"] = isl["id"]
        log("move.dock", f"The {tow['name']}, in tow, docks at {isl['name']} with her.",
            {"ship": tow["id"], "island": isl["id"]})
    side = st["sides"][sh["side"]]
    if isl["home_of"] == sh["side"]:
        if sh["coins"]:
            n = len(sh["coins"])
            for c in sh["coins"]:
                if c["special"] == "rum":
                    c["worth"] = treasures.rum_value(sh["masts_original"])
            side["home_coins"] += sh["coins"]
            sh["coins"] = []
            log("treasure.home", f"The {sh['name']} lands {n} treasure at home.",
                {"ship": sh["id"], "coins": n})
        if st["mission"] == "beware_the_kraken" and sh["kraken_attacks"]:
            _kraken_home(st, sh, log)  # her crew bought, at the Kraken's price
            hires = 0
        else:
            hires = crews.rehire(sh["points"], len(sh["crew"]),
                                 st["settings"].get("brethren_rehire_mode", "top_up_to_min"))
        if hires:
            sh["crew"] += ["seaman"] * hires
            log("crew.hired", f"The {sh['name']} hires {hires} crew at home.",
                {"ship": sh["id"], "hired": hires})
    elif sh["side"] in isl["streamers"] and _may_explore(st, sh):
        log("treasure.streamer", f"The {sh['name']} knows this island (her streamer flies "
            "there): she explores at once, a free action.", {"ship": sh["id"]})
        _explore(st, sh, source, log)
    elif "explorer" in sh["crew"] and _may_explore(st, sh) and isl["coins"]:
        log("treasure.explorer", f"The {sh['name']}'s Explorer searches {isl['name']} the "
            "moment she lands, a free action.", {"ship": sh["id"]})
        _explore(st, sh, source, log)


def _kraken_home(st: State, sh: dict, log: EventLog) -> None:
    """Beware the Kraken (L110-L112): a ship the Kraken attacked loses her remaining crew
    when she reaches home, and new hands cost 1 gold a crew point (A26) times 2**k, k the
    voyages on which she was attacked, paid with the treasure landed at home, the smallest
    coins first (no change is given). The standing choice for how many: one counter, the
    fewest that keep her a working ship (A27, L93) without spending the fleet's score on
    a full crew."""
    sh["kraken_voyages"] += 1
    sh["kraken_attacks"] = 0
    gone = len(sh["crew"])
    sh["crew"] = []
    price = crews.kraken_crew_price(crew_type("seaman")["cost"], sh["kraken_voyages"])
    paid = _pay(st["sides"][sh["side"]], price)
    hired = 1 if paid else 0
    sh["crew"] = ["seaman"] * hired
    change = " (no change is given)" if paid > price else ""
    log("crew.kraken", f"The crew of the {sh['name']} will not sail with the Kraken again: "
        f"{gone} counters leave her. New hands cost {price} gold each: {hired} hired for "
        f"{paid} gold{change}.", {"ship": sh["id"], "left": gone, "hired": hired, "paid": paid,
                          "price": price})


def _pay(side: dict, price: int) -> int:
    """Pay ``price`` gold from ``side``'s treasure at home, the smallest coins first (no
    change is given, A26): the gold paid, or 0 (and nothing spent) when it is not enough."""
    purse = sorted(side["home_coins"], key=lambda c: (treasures.coin_value(c), c["id"]))
    spent, paid = [], 0
    while paid < price and purse:
        coin = purse.pop(0)
        spent.append(coin)
        paid += treasures.coin_value(coin)
    if paid < price:
        return 0
    side["home_coins"] = [c for c in side["home_coins"] if c not in spent]
    return paid


def _buy_replacement(st: State, side_id: str, choice: str, log: EventLog) -> None:
    """Beware the Kraken (L112-L113): ``side_id`` buys the ship ``choice`` names
    (``"buy:<class>"``, :func:`rules.brethren.missions.replacement_options`) in place of her
    first ship lost, paid from the treasure at home, and she is berthed there with the
    fewest crew she must carry (L12). She takes her first orders next turn."""
    side = st["sides"][side_id]
    lost = missions.lost_ships(st, side_id)[0]
    cls = choice.split(":", 1)[1]
    card = ship_class(cls)
    paid = _pay(side, missions.replacement_price(cls))
    n = sum(1 for sh in _ships(st) if sh.get("replaces")) + 1
    home = st["islands"][side["home"]]
    sh = _new_ship({"id": f"{side_id}_r{n}", "class": cls, "side": side_id,
                    "name": f"{lost['name']} II", "x": home["x"], "y": home["y"] + 1.0,
                    "heading": 0.0, "crew": ["seaman"] * crews.min_crew(card["points"]),
                    "coins": [], "merchant": False, "convoy": False})
    sh["replaces"], lost["replaced"] = lost["id"], sh["id"]
    st["ships"][sh["id"]] = sh
    st["ship_ids"].append(sh["id"])
    _berth(st, sh, home["id"])
    log("ship.bought", f"{side['name']} {agree(side, 'buys', 'buy')} a {card['name']}, the "
        f"{sh['name']}, in place of "
        f"the {lost['name']}, for {paid} gold: she lies at {home['name']} and sails next "
        "turn.", {"ship": sh["id"], "replaces": lost["id"], "class": cls, "paid": paid,
                  "x": sh["x"], "y": sh["y"], "heading": sh["heading"]})


def _goal_check(st: State, sh: dict, log: EventLog) -> None:
    g = st["goal"]
    if "exit" in g and sh["convoy"] and sh["side"] == sh["start_side"]:
        e = g["exit"]
        if hypot(sh["x"] - e["x"], sh["y"] - e["y"]) <= e["r"]:
            sh["gone"] = True
            log("mission.escaped", f"The {sh['name']} reaches safety.", {"ship": sh["id"]})
    if "coast" in g and sh["contraband"] and sh["side"] == sh["start_side"]:
        w, h = st["board"]["w"], st["board"]["h"]
        a, b, r = hull(sh)
        edge = {"N": max(a[1], b[1]) + r >= h - 0.1, "S": min(a[1], b[1]) - r <= 0.1,
                "E": max(a[0], b[0]) + r >= w - 0.1, "W": min(a[0], b[0]) - r <= 0.1}
        if edge[g["coast"]]:
            n = sum(1 for c in sh["coins"] if c.get("contraband"))
            st["sides"][sh["side"]]["points"] += n
            sh["gone"] = True
            log("mission.delivered", f"The {sh['name']} runs her contraband ashore: {n} "
                "delivered.", {"ship": sh["id"], "delivered": n})


def _ram(st: State, sh: dict, target: dict, source: RandomSource, log: EventLog) -> None:
    lost, die = boarding.ram(_up(target), source, f"ram {sh['id']}")
    log("ram", f"The {sh['name']} rams the {target['name']} (die {die} against "
        f"{_up(target)} masts): " + ("she loses a mast." if lost else "no mast lost."),
        {"ship": sh["id"], "target": target["id"], "die": die, "mast_lost": lost})
    if st["wind"]["strength"] == winds.NEAR_GALE:
        back = d6(source, f"ram {target['id']} back")
        if back > _up(sh):
            log("ram.back", f"In the near gale the {sh['name']} suffers too (die {back}): "
                "she loses a mast.", {"ship": sh["id"], "die": back})
            _lose_masts(st, sh, 1, log, source, target)
    if lost:
        _lose_masts(st, target, 1, log, source, sh)
    if not _afloat(target):
        return
    if boarding.rammer_fouled(target["derelict"]):
        sh["fouled"] = target["id"]
    _board(st, sh, target, source, log)


def _board(st: State, sh: dict, target: dict, source: RandomSource, log: EventLog) -> None:
    if not winds.strength(st["wind"]["strength"])["boarding"] or sh["lost"] or target["lost"]:
        return
    if not target["crew"]:
        _capture(st, target, sh, log)
        return
    if not sh["crew"]:
        return
    res = boarding.board(source, _up(sh), _up(target),
                         attacker_bonus=boarding.boarding_bonus(sh["crew"]),
                         defender_bonus=boarding.boarding_bonus(target["crew"]),
                         attacker_rampage="red_rampage" in sh["crew"],
                         defender_rampage="red_rampage" in target["crew"])
    win, lose = (sh, target) if res["winner"] == "attacker" else (target, sh)
    dice = "; ".join(f"{a} against {d}" for a, d in res["rolls"])
    log("boarding", f"The {sh['name']} boards the {target['name']} (dice {dice}; totals "
        f"{res['totals'][0]} to {res['totals'][1]}): the {win['name']} wins"
        + (" and her enemy surrenders." if res["surrender"] else "."),
        {"ship": sh["id"], "target": target["id"], "rolls": [list(r) for r in res["rolls"]],
         "winner": win["id"], "surrender": res["surrender"]})
    lose["under_fire_round"] = st["round"]
    if res["surrender"]:
        _capture(st, lose, win, log)
        return
    _seize_contraband(st, win, lose, log)
    room = crews.capacity(win["cargo"], win["crew"]) - len(win["coins"])
    if lose["coins"] and room > 0 and len(lose["crew"]) > 1:
        coin = max(lose["coins"], key=lambda c: treasures.coin_value(c))
        lose["coins"].remove(coin)
        win["coins"].append(coin)
        log("boarding.plunder", f"The {win['name']} takes a treasure from the "
            f"{lose['name']}.", {"ship": win["id"], "from": lose["id"]})
    else:
        _crew_loss(st, lose, 1, log)
        if not lose["crew"]:
            _capture(st, lose, win, log)


def _seize_contraband(st: State, win: dict, lose: dict, log: EventLog) -> None:
    """Smugglers' Blues: a Revenue ship that wins a boarding searches the hold and seizes the
    contraband it finds (L97-L100)."""
    if st["mission"] != "smugglers_blues" or st["sides"][win["side"]].get("role") != "revenue":
        return
    found = [c for c in lose["coins"] if c.get("contraband")]
    if found:
        lose["coins"] = [c for c in lose["coins"] if not c.get("contraband")]
        lose["contraband"] = 0
        st["sides"][win["side"]]["points"] += len(found)
        log("mission.seized", f"The Revenue finds {len(found)} contraband aboard the "
            f"{lose['name']} and seizes it.", {"ship": lose["id"], "seized": len(found)})


def _capture(st: State, prize: dict, by: dict, log: EventLog) -> None:
    old = prize["side"]
    prize["side"] = by["side"]
    prize["fouled"] = None
    by["fouled"] = None
    if len(by["crew"]) > 1:  # a prize crew, so she can sail
        i = max(range(len(by["crew"])), key=lambda k: (by["crew"][k] == "seaman", k))
        prize["crew"].append(by["crew"].pop(i))
    for c in list(prize["crew"]):
        if is_personality(c) and not crews.may_serve(c, st["sides"][by["side"]]["flag"]):
            prize["crew"].remove(c)
            st["sides"][by["side"]]["prisoners"].append(c)
    log("ship.captured", f"The {prize['name']} is captured: she joins the fleet of "
        f"{st['sides'][by['side']]['name']}.",
        {"ship": prize["id"], "by": by["side"], "from": old})


def _crew_loss(st: State, sh: dict, n: int, log: EventLog) -> None:
    for _ in range(n):
        saved = sh["saves"] if sh["crew"] else 0
        sh["crew"], lost = crews.lose_crew(sh["crew"], saved=saved)
        if not lost and saved:
            sh["saves"] -= 1
            log("crew.saved", f"The doctor aboard the {sh['name']} saves a crew counter.",
                {"ship": sh["id"]})
        elif lost:
            log("crew.lost", f"The {sh['name']} loses a crew counter ({len(sh['crew'])} "
                "left).", {"ship": sh["id"], "crew_left": len(sh["crew"])})


def _lose_masts(st: State, sh: dict, n: int, log: EventLog, source: RandomSource | None = None,
                by: dict | None = None) -> None:
    """``n`` masts lost (a hit under the basic damage rules, B4; a chainshot hit; a ram, a
    reef, the Kraken), each by the owner's standing choice; a hit on a derelict sinks her
    (L57). With Loss of Rigging (``brethren_loss_of_rigging``, L71-L73) a d6 for each: 1-4
    its wreckage hangs over the side (port on an odd roll), and if ``by``, the enemy who
    shot it away, lies on that side within S (A24; touching her with
    ``brethren_hanging_fouls`` = ``contact``) the two ships are fouled."""
    rigging = source if st["settings"].get("brethren_loss_of_rigging") else None
    for _ in range(n):
        if not _afloat(sh):
            return
        if sh["derelict"]:
            _sink(st, sh, log, "sunk")
            return
        sh["masts"], lost = damage.remove_masts(sh["masts"], sh["cannons"], 1)
        if rigging is not None and lost:
            fall = damage.rigging_falls(d6(rigging, f"loss of rigging {sh['id']}"))
            sh["masts"][lost[0]] = fall
            if fall != "LOST":
                _hanging(st, sh, fall, by, log)
        if _up(sh) == 0:
            sh["derelict"] = True
            for o in _ships(st):
                if o["fouled"] == sh["id"]:
                    o["fouled"] = None
            log("ship.derelict", f"The {sh['name']} has lost her last mast: she is a derelict.",
                {"ship": sh["id"]})
        else:
            log("ship.mast_lost", f"The {sh['name']} loses a mast ({_up(sh)} left).",
                {"ship": sh["id"], "mast": lost[0] if lost else None, "left": _up(sh)})


def _hanging(st: State, sh: dict, fall: str, by: dict | None, log: EventLog) -> None:
    """A mast's wreckage hangs over a side (Loss of Rigging, L72-L73) and, by A24, fouls the
    enemy who shot it away if he lies on that side close enough."""
    side = "port" if fall == "HP" else "starboard"
    log("ship.mast_hanging", f"A mast of the {sh['name']} goes over the {side} side and hangs "
        "there: she cannot fire to that side or turn until it is cut away.",
        {"ship": sh["id"], "side": side})
    if by is None or not _afloat(by) or by["side"] == sh["side"] or sh["fouled"]:
        return
    reach = 0.05 if st["settings"].get("brethren_hanging_fouls") == "contact" else S
    if ship_gap(sh, by) > reach:
        return
    if side_of(sh, *nearest_point_on_ship((sh["x"], sh["y"]), by)) != side:
        return
    sh["fouled"] = by["id"]
    log("ship.fouled", f"The wreckage fouls the {sh['name']} with the {by['name']}.",
        {"ship": sh["id"], "with": by["id"]})


def _hits(st: State, t: dict, hits: dict[str, int], log: EventLog, source: RandomSource,
          by: dict | None) -> int:
    """A target's hits of one exchange, ``{ammo: n}`` (``"chain"`` for every hit under the
    basic rules, B4). With Advanced Damage (L73-L75): chainshot takes masts, roundshot hull
    points (0: she sinks), grapeshot crew counters (a Doctor may save one; 0: she
    surrenders, and the first enemy to touch her takes her, A23); a derelict sinks under any
    hit, or only roundshot with ``brethren_derelict_hit`` = ``roundshot`` (A22). Returns the
    hull points taken (for a critical hit)."""
    if not st["settings"].get("brethren_advanced_damage"):
        _lose_masts(st, t, sum(hits.values()), log, source, by)
        return 0
    mode = st["settings"].get("brethren_derelict_hit", "any")
    if t["derelict"] and any(n and damage.hit_sinks_derelict(a, mode) for a, n in hits.items()):
        _sink(st, t, log, "sunk")
        return 0
    if hits.get("chain") and not t["derelict"]:
        _lose_masts(st, t, hits["chain"], log, source, by)
    holes = min(hits.get("round", 0), t["hull"]) if _afloat(t) else 0
    if holes:
        t["hull"] -= holes
        log("ship.hull", f"The {t['name']} is holed ({t['hull']} hull left).",
            {"ship": t["id"], "hull_left": t["hull"]})
        if t["hull"] == 0:
            _sink(st, t, log, "holed below the waterline")
            return holes
    if hits.get("grape") and _afloat(t):
        _crew_loss(st, t, hits["grape"], log)
        if not t["crew"]:
            log("ship.surrenders", f"The {t['name']} has no crew left: she surrenders, to be "
                "taken by the first enemy who comes alongside.", {"ship": t["id"]})
    return holes


def _critical(st: State, t: dict, holes: int, source: RandomSource, log: EventLog) -> None:
    """Two or more hull points in one exchange (critical hits, L75-L77): 1 her rudder is
    destroyed, 6 her magazine blows up, with every ship fouled with her."""
    if not st["settings"].get("brethren_critical_hits") or not _afloat(t):
        return
    what = damage.critical(source, holes)
    if what == "rudder":
        t["rudder_out"] = True
        log("ship.rudder", f"A critical hit destroys the {t['name']}'s rudder: she cannot "
            "turn until it is repaired.", {"ship": t["id"]})
    elif what == "magazine":
        log("ship.magazine", f"A critical hit reaches the {t['name']}'s magazine: she blows "
            "up.", {"ship": t["id"]})
        for sid in damage.blown_up(t["id"], _ships(st)):
            if _afloat(st["ships"][sid]):
                _sink(st, st["ships"][sid], log, "blown up")


def _by_ammo(rolls: list[dict], target: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for r in rolls:
        if r["target"] == target and r["hit"]:
            ammo = r.get("ammo") or "chain"
            out[ammo] = out.get(ammo, 0) + r["hit"]
    return out


def _sink(st: State, sh: dict, log: EventLog | None, why: str, castaway: bool = True) -> None:
    """A ship goes down (L79-L80): her treasure and ordinary crew leave the game; her most
    valuable special crew is cast away on the nearest island (not when scuttled, BR-9)."""
    sh["sunk"] = True
    special = [c for c in sh["crew"] if c != "seaman"]
    if castaway and special and st["island_ids"]:
        best = max(special, key=lambda c: crew_type(c)["cost"])
        near = min(st["island_ids"], key=lambda i: hypot(st["islands"][i]["x"] - sh["x"],
                                                         st["islands"][i]["y"] - sh["y"]))
        st["islands"][near]["castaways"].append({"crew": best, "from": sh["side"]})
    sh["crew"], sh["coins"] = [], []
    sh["fouled"] = None
    _release_tow(st, sh)
    for o in _ships(st):
        if o["fouled"] == sh["id"]:
            o["fouled"] = None
    if st["kraken"] and st["kraken"]["on"] == sh["id"]:
        st["kraken"]["on"] = None
    if log:
        log("ship.sunk", f"The {sh['name']} goes down ({why}).", {"ship": sh["id"],
                                                                  "why": why})


def _fire(st: State, sh: dict, a: str, source: RandomSource, log: EventLog) -> None:
    if sh["lost"]:
        log("fire.lost", f"The {sh['name']} is lost in the fog and cannot fire.",
            {"ship": sh["id"]})
        return
    if sh["fired_round"] == st["round"] and sh.get("returned_round") == st["round"]:
        log("fire.spent", f"The {sh['name']} has already fired back this turn.",
            {"ship": sh["id"]})
        return
    if st["kraken"] and st["kraken"]["on"] == sh["id"]:
        _fire_at_kraken(st, sh, source, log)
        return
    mode = "broadside" if a == "broadside" else "bear"
    side = sh["fired_side"] if sh["fired_round"] == st["round"] else None
    advanced = bool(st["settings"].get("brethren_advanced_damage"))
    shots = gunfire.choose_fire(st, sh, _targets(st, sh), mode=mode, side=side,
                                per_battery_sides=st["settings"].get(
                                    "brethren_fire_sides") == "battery", advanced=advanced)
    if not shots:
        log("fire.none", f"The {sh['name']} finds nothing her guns bear on.",
            {"ship": sh["id"]})
        return
    # return fire (L51-L52, A33): each target whose orders hold an attack not yet made
    returns = []
    for tid in dict.fromkeys(s["target"] for s in shots):
        t = st["ships"][tid]
        order = st["orders"].get(tid, "")
        if (t["fired_round"] != st["round"] and not t["lost"] and _afloat(t)
                and any(x in ("fire", "broadside") for x in order.split("+"))
                and st["order"].index(tid) > st["order"].index(sh["id"])):
            back = gunfire.choose_fire(st, t, [sh] if _targets(st, t, [sh]) else [],
                                       advanced=advanced)
            if back:
                returns.append((t, back))
    volley = [(sh, shots, mode)] + [(t, back, "bear") for t, back in returns]
    applied = []
    for ship, ss, md in volley:
        if st["mission"] == "smugglers_blues" and st["sides"][ship["side"]].get(
                "role") != "revenue":
            ship["refused"] = True  # she fired on the Revenue: she will not heave to
        bonus = 1 if "st_croix" in ship["crew"] else 0
        hits_on, rolls = gunfire.resolve_fire(
            source, ss, mode=md, bonus=bonus, reroll="cannoneer" in ship["crew"],
            limit=crews.batteries_allowed(ship["crew"]),
            reading=st["settings"].get("brethren_broadside_rank", "highest_number"))
        ship["fired_round"] = st["round"]
        ship["fired_ever"] = True
        ship["fired_side"] = ss[0]["side"] if ss else None
        if md == "broadside":
            ship["broadside_round"] = st["round"]
        if ship is not sh:
            ship["returned_round"] = st["round"]
        total = sum(hits_on.values())
        targets = ", ".join(st["ships"][t]["name"] for t in dict.fromkeys(s["target"]
                                                                           for s in ss))
        dice = " ".join(str(d) for r in rolls for d in r["dice"])
        verb = ("fires a broadside at" if md == "broadside" else
                "fires back at" if ship is not sh else "fires at")
        log("fire", f"The {ship['name']} {verb} {targets} (dice {dice}): "
            f"{total} hit{'s' if total != 1 else ''}.",
            {"ship": ship["id"], "mode": md, "rolls": rolls, "hits": hits_on,
             "return": ship is not sh})
        applied.append((ship, hits_on, rolls))
    # the exchange is simultaneous: damage after all have rolled (L52)
    holed: dict[str, int] = {}
    for ship, hits_on, rolls in applied:
        for tid, n in hits_on.items():
            t = st["ships"][tid]
            t["under_fire_round"] = st["round"]
            if st["mission"] == "smugglers_blues" and st["sides"][ship["side"]].get(
                    "role") == "revenue" and not t["contraband"]:
                st["sides"][ship["side"]]["points"] -= n
            holed[tid] = holed.get(tid, 0) + _hits(st, t, _by_ammo(rolls, tid), log, source,
                                                   ship)
    for tid, holes in holed.items():
        _critical(st, st["ships"][tid], holes, source, log)
    if crews.powder_pete(sh["crew"], source) and _afloat(sh):
        log("crew.powder_pete", f"Powder Pete aboard the {sh['name']}: she shoots again.",
            {"ship": sh["id"]})
        again = gunfire.choose_fire(st, sh, _targets(st, sh), side=sh["fired_side"],
                                    advanced=advanced)
        hits_on, rolls = gunfire.resolve_fire(source, again,
                                              limit=crews.batteries_allowed(sh["crew"]))
        for tid in hits_on:
            hull = _hits(st, st["ships"][tid], _by_ammo(rolls, tid), log, source, sh)
            _critical(st, st["ships"][tid], hull, source, log)


def _targets(st: State, sh: dict, among: list[dict] | None = None) -> list[dict]:
    """The enemies ``sh`` may fire at: all of them, but in Smugglers' Blues a Revenue ship
    fires only at a ship that will not heave to (L98-L99), read as one that has fired on
    the Revenue."""
    foes = _enemies(st, sh) if among is None else among
    if st["mission"] == "smugglers_blues" and st["sides"][sh["side"]].get("role") == "revenue":
        return [o for o in foes if o.get("refused")]
    return foes


def _repair_roll(st: State, sh: dict, source: RandomSource, log: EventLog, what: str) -> bool:
    """Whether an unfouling, a cutting away or a hull repair succeeds: always under the
    basic rules; with Advanced Damage a d6, +1 with a Shipwright, -1 if she was under fire or
    boarded this turn, 4 or more (L83-L85)."""
    if not st["settings"].get("brethren_advanced_damage"):
        return True
    ok, die = damage.repair_roll(source, shipwright="shipwright" in sh["crew"],
                                 under_fire=sh["under_fire_round"] == st["round"],
                                 purpose=f"{what} {sh['id']}")
    if not ok:
        log("repair.failed", f"The {sh['name']}'s attempt to {what} fails (die {die}).",
            {"ship": sh["id"], "die": die, "what": what})
    return ok


def _repair(st: State, sh: dict, log: EventLog, source: RandomSource) -> None:
    """One Repair action (L82-L85), on the first of: the fouling, the rudder (A25), hanging
    wreckage, the hull (Advanced Damage: one point, up to her cargo rating), the masts."""
    at_home = sh["docked_at"] is not None and sh["docked_at"] == st["sides"][sh["side"]]["home"]
    if sh["fouled"]:
        if _repair_roll(st, sh, source, log, "cut herself free"):
            other = st["ships"].get(sh["fouled"])
            sh["fouled"] = None
            log("repair.unfoul", f"The {sh['name']} cuts herself free"
                + (f" of the {other['name']}." if other else "."), {"ship": sh["id"]})
        return
    if sh["rudder_out"]:
        sh["rudder_out"] = False
        log("repair.rudder", f"The {sh['name']} repairs her rudder.", {"ship": sh["id"]})
        return
    hanging = [i for i, m in enumerate(sh["masts"]) if m in ("HP", "HS")]
    if hanging:
        if _repair_roll(st, sh, source, log, "cut away the wreckage"):
            sh["masts"][hanging[0]] = "LOST"
            log("repair.cut_away", f"The {sh['name']} cuts away a hanging mast.",
                {"ship": sh["id"]})
        return
    if sh["hull"] < sh["cargo"]:
        if _repair_roll(st, sh, source, log, "repair her hull"):
            sh["hull"] += 1
            log("repair.hull", f"The {sh['name']} patches her hull ({sh['hull']} now).",
                {"ship": sh["id"], "hull": sh["hull"]})
        return
    n = damage.masts_repaired(at_home=at_home, shipwright="shipwright" in sh["crew"])
    fixed = 0
    for i, m in enumerate(sh["masts"]):
        if m == "LOST" and fixed < n:
            sh["masts"][i] = "UP"
            fixed += 1
    if fixed:
        sh["derelict"] = False
        _release_tow(st, sh)  # she sails on her own again
        log("repair.mast", f"The {sh['name']} steps {fixed} new mast(s) ({_up(sh)} now).",
            {"ship": sh["id"], "masts": fixed})
    else:
        log("repair.nothing", f"The {sh['name']} has nothing she can repair here.",
            {"ship": sh["id"]})


def _explore(st: State, sh: dict, source: RandomSource, log: EventLog) -> None:
    isl = st["islands"].get(sh["docked_at"] or "")
    if isl is None:
        log("explore.none", f"The {sh['name']} is not at an island: nothing to explore.",
            {"ship": sh["id"]})
        return
    if isl["id"] == st["goal"].get("town"):
        troops = sum(1 for c in sh["crew"] if c == "troops")
        keep = 1 if len(sh["crew"]) == troops else 0
        landed = troops - keep
        if landed:
            for _ in range(landed):
                sh["crew"].remove("troops")
            st["sides"][sh["side"]]["points"] += landed
            log("mission.landed", f"The {sh['name']} lands {landed} troops in the town.",
                {"ship": sh["id"], "landed": landed})
        return
    for cast in list(isl["castaways"]):
        isl["castaways"].remove(cast)
        flag = st["sides"][sh["side"]]["flag"]
        if cast["crew"] == "red_rampage" and flag != "PI":
            _crew_loss(st, sh, 1, log)
        if crews.may_serve(cast["crew"], flag):
            sh["crew"].append(cast["crew"])
            how = "joins the crew"
        else:
            st["sides"][sh["side"]]["prisoners"].append(cast["crew"])
            how = "is held for ransom"
        log("explore.castaway", f"The {sh['name']} finds a castaway, "
            f"{crew_type(cast['crew'])['name']}, who {how}.", {"ship": sh["id"]})
    room = crews.capacity(sh["cargo"], sh["crew"]) - len(sh["coins"])
    if room <= 0 or not isl["coins"]:
        if not isl["castaways"]:
            log("explore.nothing", f"The {sh['name']} searches {isl['name']}"
                + (": her hold is full." if room <= 0 else ", and finds nothing."),
                {"ship": sh["id"], "island": isl["id"]})
        return
    if sh["map_active"] or "explorer" in sh["crew"]:
        shown = (list(range(len(isl["coins"]))) if sh["map_active"]
                 else treasures.explorer_look(source, isl["coins"]))
        picks = treasures.choose_from(isl["coins"], room, shown)
        taken = [isl["coins"][i] for i in picks]
        isl["coins"] = [c for i, c in enumerate(isl["coins"]) if i not in picks]
        how = "the Treasure Map shows her every coin" if sh["map_active"] else \
            "her Explorer turns over three coins"
        sh["map_active"] = False
        if len(taken) < room and not shown == list(range(len(isl["coins"]) + len(taken))):
            more, isl["coins"] = treasures.blind_draws(source, isl["coins"], room - len(taken))
            taken += more
    else:
        how = "blind draws"
        taken, isl["coins"] = treasures.blind_draws(source, isl["coins"], room)
    ordinary = [c for c in taken if c["special"] is None]
    sh["coins"] += ordinary
    gold = sum(c["value"] for c in ordinary)
    log("explore", f"The {sh['name']} explores {isl['name']} ({how}) and takes "
        f"{len(ordinary)} treasure.", {"ship": sh["id"], "island": isl["id"],
                                       "coins": len(ordinary)})
    log("explore.values", f"The treasure the {sh['name']} took is worth {gold} gold.",
        {"ship": sh["id"], "values": [c["value"] for c in ordinary]},
        visible={_orderer(st, sh)})
    for c in taken:
        if c["special"] is not None:
            _special(st, sh, isl, c, source, log)



def _special(st: State, sh: dict, isl: dict, coin: dict, source: RandomSource,
             log: EventLog) -> None:
    kind = coin["special"]
    if kind == "map":
        sh["map_active"] = True
        sh["coins"].append(coin)
        log("treasure.map", f"The {sh['name']} finds a Treasure Map: at the next island she "
            "visits she sees every coin.", {"ship": sh["id"]})
    elif kind == "rum":
        coin["worth"] = treasures.rum_value(sh["masts_original"])
        sh["coins"].append(coin)
        sh["drunk_round"] = st["round"] + 1
        log("treasure.rum", f"The {sh['name']} finds Rum: her crew will be drunk next turn; "
            f"it is worth {coin['worth']} gold.", {"ship": sh["id"], "worth": coin["worth"]})
    elif kind == "ghost":
        result = treasures.ghost(source)
        home = st["sides"][sh["side"]]["home"]
        if result == "odd":
            sh["coins"] = []
            sh["barred"].append(isl["id"])
            text = "the ghost takes all her treasure and she may never return here"
        else:
            best = treasures.best_coin(isl["coins"])
            room = crews.capacity(sh["cargo"], sh["crew"]) - len(sh["coins"])
            if best is not None and room > 0:
                sh["coins"].append(isl["coins"].pop(best))
            text = "the ghost leads her crew to the best treasure"
        isl["coins"].append(coin)  # the ghost goes back into the island's treasure
        log("treasure.ghost", f"A Ghostly Encounter on {isl['name']}: {text}.",
            {"ship": sh["id"], "result": result})
        if home is not None:
            _place_home(st, sh, home, log)


def _berth(st: State, sh: dict, home: str) -> None:
    """Put ``sh``'s bow against her home island ``home``, on the side facing where she was
    (turning round it until she overlaps no ship), docked there."""

    isl = st["islands"][home]
    bearing = heading_to(isl["x"], isl["y"], sh["x"], sh["y"])
    for extra in range(0, 360, 30):
        b = (bearing + extra) % 360
        ux, uy = unit(b)
        d = isl["r"] + sh["length"] / 2 + 0.02
        sh["x"], sh["y"] = round(isl["x"] + ux * d, 3), round(isl["y"] + uy * d, 3)
        sh["heading"] = round((b + 180) % 360, 1)
        others = [o for o in _ships(st) if o["id"] != sh["id"] and _afloat(o)]
        if movement.overlapping(sh, others) is None:
            break
    sh["docked_at"] = home


def _place_home(st: State, sh: dict, home: str, log: EventLog) -> None:
    side = st["sides"][sh["side"]]
    _berth(st, sh, home)
    log("move.home", f"The {sh['name']} is placed back at her home island.",
        {"ship": sh["id"], "x": sh["x"], "y": sh["y"]})
    if sh["coins"]:
        for c in sh["coins"]:
            if c["special"] == "rum":
                c["worth"] = treasures.rum_value(sh["masts_original"])
        side["home_coins"] += sh["coins"]
        sh["coins"] = []


def _fire_at_kraken(st: State, sh: dict, source: RandomSource, log: EventLog) -> None:
    hit = False
    dice = []
    for b in gunfire.batteries(sh)[:crews.batteries_allowed(sh["crew"]) or 99]:
        h, ds = gunfire.fire_battery(source, b["rank"], purpose=f"gunfire {sh['id']} kraken")
        dice += ds
        hit = hit or h
    if hit:
        st["kraken"]["on"] = None
    log("kraken.fire", f"The {sh['name']} fires at the Kraken (dice "
        f"{' '.join(map(str, dice))}): " + ("it is driven off." if hit else "it holds on."),
        {"ship": sh["id"], "driven_off": hit})
    sh["fired_round"] = st["round"]


KRAKEN_RESULTS = {1: "miss", 2: "mast", 3: "mast", 4: "hull", 5: "crew", 6: "crew"}
"""The Kraken's attack die, a rank-2 battery (L109): 1 misses, 2-3 strip a mast, 4 one hull
damage (a mast under the basic damage rules, A37), 5-6 a crew counter."""


def _kraken(st: State, sh: dict, source: RandomSource, log: EventLog) -> None:
    """Beware the Kraken (L107-L110): once a ship has acted, the Kraken surfaces beside her
    on 5-6 if she is within 2 L of the central island and not docked, and it is not already
    attacking; it attacks every turn until driven off by a hit, the crew are eaten, she
    sinks, or she is more than 2 L from the island."""
    k = st["kraken"]
    if not k or not _afloat(sh):
        return
    isl = st["islands"][k["island"]]
    dist = gap_capsule_circle(hull(sh), isl["x"], isl["y"], isl["r"])
    if k["on"] == sh["id"]:
        if dist > 2 * L or not sh["crew"]:
            k["on"] = None
            log("kraken.leaves", f"The Kraken lets the {sh['name']} go.", {"ship": sh["id"]})
            return
    elif k["on"] is None and dist <= 2 * L and sh["docked_at"] is None:
        if d6(source, f"kraken {sh['id']}") >= 5:
            k["on"] = sh["id"]
            sh["kraken_attacks"] += 1
            log("kraken.surfaces", f"The Kraken surfaces beside the {sh['name']}!",
                {"ship": sh["id"]})
        else:
            return
    else:
        return
    die = d6(source, f"kraken attack {sh['id']}")
    what = KRAKEN_RESULTS[die]
    log("kraken.attack", f"The Kraken attacks the {sh['name']} (die {die}): "
        + {"miss": "it misses.", "mast": "it strips a mast.", "hull": "it smashes her hull.",
           "crew": "it takes a crew counter."}[what], {"ship": sh["id"], "die": die})
    if what == "hull" and st["settings"].get("brethren_advanced_damage"):
        _hits(st, sh, {"round": 1}, log, source, None)
    elif what in ("mast", "hull"):
        _lose_masts(st, sh, 1, log, source)
    elif what == "crew":
        _crew_loss(st, sh, 1, log)
        if not sh["crew"]:
            k["on"] = None


# --- the engine ------------------------------------------------------------------------------


class BrethrenEngine:
    """The ``brethren`` encounter engine (:class:`rules.engine.Engine`); see the module
    docstring for the setup, the orders and the standing choices."""

    name = ENGINE_NAME
    title = "Brethren of the Coast: a fleet action"
    wargame = True
    """Offered by the campaign's "New wargame" page (``combat.wargames``)."""
    round_word = "Turn"
    """What the log calls a round: the game's turn (§5)."""

    def validate_setup(self, setup: dict) -> dict:
        return validate_setup(setup)

    def start(self, setup: dict, source: RandomSource) -> tuple[State, list[Event]]:
        setup = validate_setup(setup)
        events: list[Event] = []
        log = EventLog(events)
        st = _initial_state(setup, source, events)
        sides = "; ".join(f"{s['name']} ({FLAG_NAMES[s['flag']]}): "
                          + ", ".join(sh["name"] for sh in _ships(st) if sh["side"] == s["id"])
                          for s in map(st["sides"].get, st["side_ids"]))
        log("game.start", f"{st['title'] or 'A fleet action'}. {sides}. The wind: "
            f"{winds.describe(st['wind'])}.", {"mission": st["mission"],
                                               "wind": dict(st["wind"])})
        _begin_turn(st, source, log)
        _run(st, source, log)
        return st, events

    def auto_start(self, setup: dict, source: RandomSource) -> State:
        """The state :meth:`start` returns, drawn the same, without building its events (the
        Monte Carlo's start, ``rules.montecarlo``)."""
        st = _initial_state(validate_setup(setup), source, [])
        log = EventLog(None)
        _begin_turn(st, source, log)
        _run(st, source, log)
        return st

    def auto_play(self, state: State, source: RandomSource) -> State:
        """The final state of ``state`` played to its end with the default policy: where
        :func:`rules.engine.play_out` ends, drawn the same, without decisions or events (the
        orders of a turn do not depend on each other, so their order does not matter)."""
        st = _copy(state)
        log = EventLog(None)
        while st["result"] is None:
            if st.get("buying"):  # the default: no ship bought (default_choice)
                st["orders"].update({f"buy:{s}": "none" for s in st["buying"]})
                st["buying"] = []
            for sid in st["awaiting"]:
                if sid not in st["orders"]:
                    st["orders"][sid] = ai.choose(st, sid, plan_options(st, st["ships"][sid]))
            st["awaiting"] = []
            _run(st, source, log)
        return st

    def participants(self, state: State) -> dict[str, str]:
        out: dict[str, str] = {}
        for sid in state["side_ids"]:
            sd = state["sides"][sid]
            if not sd["npc"]:
                out.setdefault(sd["commander"], sd["name"])
        return out

    def pending(self, state: State) -> list[Decision]:
        """One decision per commander: the orders of his first ship still without them
        (a commander orders his ships one after another; the commanders of the other sides
        at the same time)."""
        if state["result"] is not None:
            return []
        out, seen = [], set()
        for side_id in state.get("buying", ()):
            seen.add(state["sides"][side_id]["commander"])
            out.append(_buy_decision(state, side_id))
        for sid in state["awaiting"]:
            who = _orderer(state, state["ships"][sid])
            if sid in state["orders"] or who in seen:
                continue
            seen.add(who)
            out.append(_decision(state, sid))
        return out

    def apply(self, state: State, actor: str, choice: str, source: RandomSource
              ) -> tuple[State, list[Event]]:
        """``actor`` gives the orders ``choice`` of his ship that :meth:`pending` asks for;
        the turn is played out once every ship's orders are in. ``IllegalAction`` with the
        reason (:func:`check_order`), state unchanged."""
        if state["result"] is not None:
            raise IllegalAction(f"the game is over: {state['result']['summary']}")
        buying = [s for s in state.get("buying", ()) if state["sides"][s]["commander"] == actor]
        if buying:
            return self._apply_buy(state, buying[0], choice, source)
        mine = [s for s in state["awaiting"] if s not in state["orders"]
                and _orderer(state, state["ships"][s]) == actor]
        if not mine:
            raise IllegalAction(f"{actor} has no orders to give now")
        ship_id = mine[0]
        sh = state["ships"][ship_id]
        if not isinstance(choice, str):
            raise IllegalAction("an order is text")
        check_order(state, ship_id, choice)
        st = _copy(state)
        events: list[Event] = []
        log = EventLog(events)
        st["orders"][ship_id] = choice
        log("orders.given", f"Orders for the {sh['name']}: {describe_plan(st, choice)}.",
            {"ship": ship_id, "order": choice}, visible={actor})
        side = st["sides"][sh["side"]]
        log("orders.in", f"{side['name']} {agree(side, 'has', 'have')} given the "
            f"{sh['name']}'s orders.", {"ship": ship_id})
        if all(s in st["orders"] for s in st["awaiting"]) and not st.get("buying"):
            st["awaiting"] = []
            _run(st, source, log)
        return st, events

    def _apply_buy(self, state: State, side_id: str, choice: str, source: RandomSource
                   ) -> tuple[State, list[Event]]:
        offered = dict(missions.replacement_options(state, side_id))
        keys = list(offered)
        if choice not in offered:
            raise IllegalAction(f"{choice!r} is not a ship the treasure at home can buy now; "
                                f"choose one of {', '.join(keys)}")
        st = _copy(state)
        events: list[Event] = []
        log = EventLog(events)
        side = st["sides"][side_id]
        st["orders"][f"buy:{side_id}"] = choice
        st["buying"] = [s for s in st["buying"] if s != side_id]
        log("orders.given", f"{side['name']}: {offered[choice]}.",
            {"side": side_id, "order": choice}, visible={side["commander"]})
        log("orders.in", f"{side['name']} {agree(side, 'has', 'have')} chosen whether to buy "
            "a ship.", {"side": side_id})
        if not st["buying"] and all(s in st["orders"] for s in st["awaiting"]):
            st["awaiting"] = []
            _run(st, source, log)
        return st, events

    def default_choice(self, state: State, decision: Decision) -> str:
        if decision.kind.startswith("buy:"):
            return "none"  # the treasure at home is the score: the AI keeps it
        sid = decision.kind.split(":", 1)[1]
        return ai.choose(state, sid, plan_options(state, state["ships"][sid]))

    def outcome(self, state: State) -> Outcome | None:
        r = state["result"]
        if r is None:
            return None
        return Outcome(r["winner"], r["result"], r["summary"],
                       {"scores": dict(r["scores"]), "rounds": r["round"],
                        "mission": state["mission"]})

    def view(self, state: State, participant: str) -> dict:
        """The GM sees everything. A commander sees the table (islands, terrain, wind, every
        ship's place, heading, masts and state), his own ships in full (crew, treasure, their
        orders), the others' crew and treasure as counts only (coins lie face down, L37,
        L86; a convoy's cargo is hidden until boarded, L101), the number of coins on each
        island, and of the orders of this turn only whether each is in."""
        return self.joint_view(state, [participant])

    def joint_view(self, state: State, participants: list[str]) -> dict:
        """:meth:`view` for one person who plays every one of ``participants`` (a player
        whose two characters command two fleets): each of their sides' and ships' crews,
        treasure and orders; ``you`` is the first of them."""
        if GM in participants:
            v = _copy(state)
            v["you"] = GM
            v["my_sides"] = list(state["side_ids"])
            v["ranges"] = _ranges(state, None)
            return v
        mine = [s for s in state["side_ids"]
                if state["sides"][s]["commander"] in participants]
        ships = []
        for sid in state["ship_ids"]:
            sh = state["ships"][sid]
            public = {k: _copy(sh[k]) for k in (
                "id", "name", "class", "side", "x", "y", "heading", "masts", "masts_original",
                "cannons", "derelict", "sunk", "gone", "lost", "tangled", "docked_at",
                "fouled", "length", "beam", "rudder_out", "merchant", "convoy", "hull",
                "cargo", "towing", "towed_by")}
            if sh["side"] in mine or _orderer(state, sh) in participants:
                public.update(crew=list(sh["crew"]), coins=_copy(sh["coins"]),
                              contraband=sh["contraband"])
            else:
                public.update(crew=len(sh["crew"]), coins=len(sh["coins"]))
            ships.append(public)
        sides = {}
        for s in state["side_ids"]:
            sd = state["sides"][s]
            entry = {k: sd[k] for k in ("id", "name", "commander", "flag", "role", "npc",
                                        "home")}
            entry["home_coins"] = (_copy(sd["home_coins"]) if s in mine
                                   else len(sd["home_coins"]))
            entry["points"] = sd["points"]
            sides[s] = entry
        islands = {i: {**{k: state["islands"][i][k] for k in (
            "id", "name", "x", "y", "r", "kind", "home_of", "streamers")},
            "coins": len(state["islands"][i]["coins"]),
            "castaways": len(state["islands"][i]["castaways"])} for i in state["island_ids"]}
        orders = {s: (k if state["ships"][s]["side"] in mine
                      or _orderer(state, state["ships"][s]) in participants else "given")
                  for s, k in state["orders"].items() if s in state["awaiting"]}
        return {
            "engine": ENGINE_NAME, "mission": state["mission"], "title": state["title"],
            "round": state["round"], "turn_limit": state["turn_limit"],
            "board": dict(state["board"]), "wind": dict(state["wind"]),
            "goal": _copy(state["goal"]), "side_ids": list(state["side_ids"]),
            "sides": sides, "island_ids": list(state["island_ids"]), "islands": islands,
            "terrain": [{k: t[k] for k in ("id", "kind", "x", "y", "r")}
                        for t in state["terrain"]],
            "ship_ids": list(state["ship_ids"]), "ships": {s["id"]: s for s in ships},
            "order": list(state["order"]), "orders": orders,
            "awaiting": list(state["awaiting"]), "kraken": _copy(state["kraken"]),
            "result": _copy(state["result"]), "you": participants[0], "my_sides": mine,
            "ranges": _ranges(state, mine),
        }

    def scenarios(self) -> dict[str, Scenario]:
        """The base treasure game and the six mission variants (L94-L113), from
        ``rules/brethren/scenarios/*.json``."""
        return load_scenarios("rules.brethren", "scenarios")


def _ranges(st: State, mine: list[str] | None) -> list[dict]:
    """Measured ranges from the viewer's ships (every ship for the GM) to each enemy within
    2 L: inches, and whether that is within S, within L, or beyond."""
    out = []
    ships = [s for s in _ships(st) if _afloat(s)]
    for a in ships:
        if mine is not None and a["side"] not in mine:
            continue
        for b in ships:
            if b["side"] == a["side"] or (mine is None and a["id"] > b["id"]):
                continue
            d = max(0.0, ship_gap(a, b))
            if d <= 2 * L:
                out.append({"from": a["id"], "to": b["id"], "inches": round(d, 1),
                            "band": "S" if d <= S else "L" if d <= L else "2L"})
    return out


ENGINE = register(BrethrenEngine())
