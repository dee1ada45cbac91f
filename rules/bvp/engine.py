"""The ``bvp`` encounter engine: a British vs Pirates battle on sea tiles
(:mod:`rules.engine`; ``british_vs_pirates.md`` §1-§9, the errata BV-1 to BV-4).

**Opening** [L52, L186]: each side rolls a D6 (ties roll again, highest first, A15); the
highest chooses to go first or to set the wind vane (decision ``opening``), the other takes
what is left (decision ``wind`` for whoever sets it). A setup may fix both (``"opening":
{"first": side id, "wind": 0-5}``). The turn order never changes [L185].

**A side's turn** [L52-L62]: its captains' morale +1 up to the printed maximum, its hand
drawn back up to 3 (:mod:`rules.bvp.skills`), stealing wind checked for its ships (if the
setting ``bvp_stealing_wind`` is on); then one decision ``turn`` after another for its
commander, each one action of one ship, in any order, until ``end``:

* ``<ship>:move:<plan>``: the ship's one movement action (:mod:`rules.bvp.movement`);
* ``<ship>:fire:<target>:<side>`` or ``<ship>:fire:<t1>:<s1>+<t2>:<s2>`` (both broadsides,
  one attack action, A16): cannons at the declared side [L123-L127];
* ``<ship>:board:<target>``: boarding an enemy in the next hex [L156] (cannons *or*
  boarding, never both, [L62]);
* ``<ship>:card:<card>``: a Green card for a ship yet to move, a Blue card (rally);
  ``discard:<card>`` [L57]; ``end`` (refused under Minimum Movement while a ship that can
  move has not, [L203]).

**Cards in an attack** (decisions ``cards:attack`` and ``cards:defend``): before the dice,
the attacker may play a Red card and the defender a Yellow one [L38, L157] (BV-3: for cannon
fire the book only says the side is declared first; before the roll is the digest's
reading). Each writes the choice secretly; both are revealed together and the dice rolled.
A side with an empty hand is not asked.

**Victory** [L9, L195]: Annihilation: the last side with a ship afloat. Merchant Escort: the
first merchant (the side's ship with ``"merchant": true``) into a half-hex of an opposing
side's start tile wins; a side whose merchant sinks loses; every merchant sunk: nobody wins.
The book has no turn limit; the engine ends a game after ``turn_limit`` rounds (default 30)
with no winner, so that every game ends (a house rule, said so in the log).

Setup (:func:`validate_setup`)::

    {"title": str, "mode": "annihilation" | "escort", "turn_limit": 5-200,
     "tiles": [{"id", "q", "r", "wind": bool, "land": [[dq, dr], ...]}],
     "sides": [{"id", "name", "commander": "pc:<pk>" | "side:<id>", "faction", "tile"}],
     "ships": [{"id", "card", "captain": id | null, "side", "q", "r", "heading": 0-5,
                "merchant": bool}],
     "opening": {"first", "wind"} | null, "settings": {...},
     "card_data": {...} | null}      # rules.bvp.data; null: the provisional set

Participants: each side's commander. Everything on the table is public (the D6 counters,
morale, positions) but for the skill cards: a hand, and a card chosen in an attack until
the reveal, only its holder (and the GM) sees; the decks' order nobody sees.
"""

from __future__ import annotations

import copy

from rules.btq.settings import SettingError, resolve
from rules.bvp import ai, combat, hexes, movement, skills
from rules.bvp.data import DICE_KEYS, SIZE_NAMES, provisional, validate_card_data
from rules.bvp.movement import (
    afloat,
    captain_card,
    fleet,
    goal_cells,
    ship_card,
    ship_goal,
)
from rules.dice import order_by_dice, roll
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

ENGINE_NAME = "bvp"
MODES = {"annihilation": "Annihilation", "escort": "Merchant Escort"}
SIDE_WORDS = {"bow": "bow", "starboard": "starboard", "stern": "stern", "port": "port",
              "structure": "structure"}
_SETUP_KEYS = {"title", "mode", "turn_limit", "tiles", "sides", "ships", "opening",
               "settings", "card_data", "notes"}
SKILL_CARD = "a skill card"
"""What an order that plays or discards one of the side's skill cards spends
(:attr:`rules.engine.Option.spends`): gone until the side draws back up to 3 at the start of
its next turn [BvP L57]."""
MAX_SIDES = 4
MAX_SHIPS = 12


# --- setup -----------------------------------------------------------------------------------


def _ident(value, what: str) -> str:
    if not isinstance(value, str) or not value or len(value) > 30 or not all(
            c.isalnum() or c in "_-" for c in value):
        raise ValueError(f"{what} must be a short id of letters, digits, - or _, not {value!r}")
    return value


def _int(value, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{what} must be a whole number from {low} to {high}, not {value!r}")
    return value


def _settings(setup: dict) -> dict:
    try:
        full = resolve({k: v for k, v in dict(setup.get("settings") or {}).items()
                        if k.startswith("bvp_")})
    except SettingError as exc:
        raise ValueError(str(exc)) from None
    return {k: v for k, v in full.items() if k.startswith("bvp_")}


def validate_setup(setup: dict) -> dict:
    """``setup`` (module docstring) checked and normalised; ``ValueError`` with the reason:
    unknown keys, tiles that overlap or do not join into one sea or have no Wind tile (or
    two), sides without a commander or a faction of the card data, ships whose card or
    captain is unknown, of another faction or used twice, off their side's start tile (or
    its half-hexes in Merchant Escort), sharing a hex; a ship without a captain unless it is
    a merchant (errata BV-1, the setting ``bvp_merchant_captain``); in Merchant Escort a side
    without exactly one merchant Fluyt."""
    if not isinstance(setup, dict):
        raise ValueError("a setup is a JSON object")
    unknown = sorted(set(setup) - _SETUP_KEYS)
    if unknown:
        raise ValueError(f"unknown setup key {unknown[0]!r}")
    mode = setup.get("mode", "annihilation")
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}")
    cards = validate_card_data(setup["card_data"] if setup.get("card_data") else provisional())
    settings = _settings(setup)
    tiles_in = setup.get("tiles")
    if not isinstance(tiles_in, list) or not 2 <= len(tiles_in) <= 9:
        raise ValueError("tiles: a list of 2 to 9 sea tiles")
    tiles: list[dict] = []
    tile_ids: set[str] = set()
    for i, t in enumerate(tiles_in, 1):
        if not isinstance(t, dict):
            raise ValueError(f"tile {i} must be an object")
        tid = _ident(t.get("id"), f"tile {i}'s id")
        if tid in tile_ids:
            raise ValueError(f"two tiles are called {tid!r}")
        tile_ids.add(tid)
        land = t.get("land") or []
        if not isinstance(land, list) or not all(
                isinstance(h, list) and len(h) == 2 and hexes.distance((0, 0), (
                    _int(h[0], "a land hex", -2, 2), _int(h[1], "a land hex", -2, 2)))
                <= hexes.TILE_RADIUS for h in land):
            raise ValueError(f"tile {tid}: land is a list of [dq, dr] within the tile")
        tiles.append({"id": tid, "q": _int(t.get("q"), f"tile {tid}'s q", -40, 40),
                      "r": _int(t.get("r"), f"tile {tid}'s r", -40, 40),
                      "wind": bool(t.get("wind")), "land": [list(h) for h in land]})
    if sum(t["wind"] for t in tiles) != 1:
        raise ValueError("exactly one tile is the Wind Sea Tile")
    if hexes.tiles_overlap(tiles) or not hexes.tiles_connected(tiles):
        raise ValueError("the tiles must join edge to edge into one sea without overlapping")
    sides_in = setup.get("sides")
    if not isinstance(sides_in, list) or not 2 <= len(sides_in) <= MAX_SIDES:
        raise ValueError(f"sides: a list of 2 to {MAX_SIDES} sides")
    sides: list[dict] = []
    side_tiles: set[str] = set()
    for i, s in enumerate(sides_in, 1):
        if not isinstance(s, dict):
            raise ValueError(f"side {i} must be an object")
        sid = _ident(s.get("id"), f"side {i}'s id")
        if any(x["id"] == sid for x in sides):
            raise ValueError(f"two sides are called {sid!r}")
        name = s.get("name")
        commander = s.get("commander")
        if not isinstance(name, str) or not name.strip() or len(name) > 120:
            raise ValueError(f"side {sid} needs a name")
        if not isinstance(commander, str) or not commander or commander == GM:
            raise ValueError(f"side {sid} needs a commander")
        if s.get("faction") not in cards["factions"]:
            raise ValueError(f"side {sid}: faction must be one of "
                             f"{', '.join(cards['factions'])}")
        if s.get("tile") not in tile_ids or s["tile"] in side_tiles or any(
                t["id"] == s["tile"] and t["wind"] for t in tiles):
            raise ValueError(f"side {sid}: its start tile must be a tile of its own, not the "
                             "Wind tile")
        side_tiles.add(s["tile"])
        sides.append({"id": sid, "name": name.strip(),
                      "plural": plural_flag(s, f"side {sid}"), "commander": commander,
                      "faction": s["faction"], "tile": s["tile"]})
    by_side = {s["id"]: s for s in sides}
    ships_in = setup.get("ships")
    if not isinstance(ships_in, list) or not 2 <= len(ships_in) <= MAX_SHIPS:
        raise ValueError(f"ships: a list of 2 to {MAX_SHIPS} ships")
    ships: list[dict] = []
    used_cards, used_captains, cells = set(), set(), set()
    for i, sh in enumerate(ships_in, 1):
        if not isinstance(sh, dict):
            raise ValueError(f"ship {i} must be an object")
        shid = _ident(sh.get("id"), f"ship {i}'s id")
        if any(x["id"] == shid for x in ships):
            raise ValueError(f"two ships are called {shid!r}")
        side = by_side.get(sh.get("side"))
        if side is None:
            raise ValueError(f"ship {shid}: side must be one of the sides")
        card = cards["ships"].get(sh.get("card"))
        if card is None:
            raise ValueError(f"ship {shid}: card must be one of the ship cards")
        if card["faction"] != side["faction"]:
            raise ValueError(f"ship {shid}: the {card['name']} is not of {side['name']}'s "
                             "faction")
        if sh["card"] in used_cards:
            raise ValueError(f"ship {shid}: the {card['name']} card is already in play")
        used_cards.add(sh["card"])
        merchant = bool(sh.get("merchant"))
        if merchant and (mode != "escort" or card["class"] != "Fluyt"):
            raise ValueError(f"ship {shid}: only a Fluyt in Merchant Escort is a merchant")
        cap_id = sh.get("captain")
        if cap_id is None:
            if not merchant or settings["bvp_merchant_captain"] == "require_captain":
                raise ValueError(f"ship {shid} needs a captain")
        else:
            cap = cards["captains"].get(cap_id)
            if cap is None:
                raise ValueError(f"ship {shid}: captain must be one of the captain cards")
            if cap["faction"] != side["faction"] or cap_id in used_captains:
                raise ValueError(f"ship {shid}: {cap['name']} is of another faction or "
                                 "commands another ship")
            used_captains.add(cap_id)
        at = (_int(sh.get("q"), f"ship {shid}'s q", -60, 60),
              _int(sh.get("r"), f"ship {shid}'s r", -60, 60))
        tile_index = next(k for k, t in enumerate(tiles) if t["id"] == side["tile"])
        tile = tiles[tile_index]
        on_tile = hexes.distance(at, (tile["q"], tile["r"])) <= hexes.TILE_RADIUS
        on_edge = mode == "escort" and at in hexes.half_hexes(tiles, tile_index)
        if not (on_tile or on_edge) or at in hexes.land_cells(tiles):
            raise ValueError(f"ship {shid} must start at sea on {side['name']}'s start tile")
        if at in cells:
            raise ValueError(f"ship {shid} shares a hex with another ship")
        cells.add(at)
        ships.append({"id": shid, "card": sh["card"], "captain": cap_id, "side": side["id"],
                      "q": at[0], "r": at[1],
                      "heading": _int(sh.get("heading"), f"ship {shid}'s heading", 0, 5),
                      "merchant": merchant})
    for s in sides:
        mine = [x for x in ships if x["side"] == s["id"]]
        if not mine:
            raise ValueError(f"{s['name']} has no ship")
        if mode == "escort" and sum(x["merchant"] for x in mine) != 1:
            raise ValueError(f"{s['name']} sails exactly one merchant in Merchant Escort")
    opening = setup.get("opening")
    if opening is not None:
        if not isinstance(opening, dict) or opening.get("first") not in by_side:
            raise ValueError("opening: {\"first\": a side, \"wind\": 0-5}, or null")
        opening = {"first": opening["first"], "wind": _int(opening.get("wind"), "the wind", 0, 5)}
    title = setup.get("title") or ""
    if not isinstance(title, str) or len(title) > 200:
        raise ValueError("title: a text of at most 200 characters")
    return {"title": title, "mode": mode,
            "turn_limit": _int(setup.get("turn_limit", 30), "turn_limit", 5, 200),
            "tiles": tiles, "sides": sides, "ships": ships, "opening": opening,
            "settings": settings, "card_data": cards,
            "notes": str(setup.get("notes") or "")[:2000]}


# --- state helpers ---------------------------------------------------------------------------


def _commander(st: State, side_id: str) -> str:
    commander: str = st["sides"][side_id]["commander"]
    return commander


def _ships_of(st: State, side_id: str) -> list[dict]:
    return [st["ships"][s] for s in st["ship_ids"]
            if st["ships"][s]["side"] == side_id and afloat(st["ships"][s])]


def _skill(st: State, card: str) -> dict:
    skill: dict = st["cards"]["skills"][st["card_of"][card]]
    return skill


def _initial_state(setup: dict, source: RandomSource, log: EventLog) -> State:
    cards = setup["card_data"]
    sides = {s["id"]: {**s, "hand": [], "out": False, "lost": False} for s in setup["sides"]}
    factions = sorted({s["faction"] for s in setup["sides"]})
    decks, card_of = skills.build_decks(cards, factions)
    ships = {}
    for sh in setup["ships"]:
        card = cards["ships"][sh["card"]]
        cap = cards["captains"].get(sh["captain"]) if sh["captain"] else None
        ships[sh["id"]] = {
            **sh, "name": card["name"], "dice": {k: card["start"][k] for k in DICE_KEYS},
            "morale": cap["morale"] if cap else None, "sunk": False, "arrived": False,
            "moved": False, "attacked": False, "stolen": False,
            "bonus": {"speed": 0, "pivots": 0}}
    st: State = {
        "title": setup["title"], "mode": setup["mode"], "turn_limit": setup["turn_limit"],
        "tiles": copy.deepcopy(setup["tiles"]), "sides": sides,
        "side_ids": [s["id"] for s in setup["sides"]], "ships": ships,
        "ship_ids": [s["id"] for s in setup["ships"]], "cards": cards,
        "card_set": {"name": cards["name"], "provisional": cards["provisional"]},
        "decks": decks, "card_of": card_of, "settings": dict(setup["settings"]),
        "wind": None, "order": [], "active": None, "round": 0, "phase": "opening",
        "chooser": None, "attacks": [], "hidden": {}, "result": None}
    ships_text = "; ".join(
        f"{sides[s]['name']}: " + ", ".join(
            f"the {sh['name']}" + (f" ({cards['captains'][sh['captain']]['name']})"
                                   if sh["captain"] else " (merchant)")
            for sh in ships.values() if sh["side"] == s) for s in st["side_ids"])
    log("game.start", f"{st['title'] or 'A British vs Pirates battle'}: {MODES[st['mode']]}. "
        f"{ships_text}. Cards: {cards['name']}"
        + (" (provisional: not the printed cards)." if cards["provisional"] else "."),
        {"mode": st["mode"], "card_set": dict(st["card_set"])})
    for faction in factions:
        skills.shuffle(st["decks"][faction], source, faction)
    for sid in st["side_ids"]:
        drawn, _ = skills.draw_up(st, sid, source)
        _log_draw(st, sid, drawn, False, log)
    opening = setup["opening"]
    if opening is not None:
        first = opening["first"]
        st["order"] = [first] + [s for s in st["side_ids"] if s != first]
        st["wind"] = opening["wind"]
        log("opening.set", f"{sides[first]['name']} "
            f"{agree(sides[first], 'goes', 'go')} first; the wind blows toward the "
            f"{hexes.DIRECTION_NAMES[st['wind']]}.", {"order": list(st["order"]),
                                                      "wind": st["wind"]})
        _begin_turn(st, first, source, log)
    else:
        st["order"] = order_by_dice(source, st["side_ids"], "first player", ascending=False)
        st["chooser"] = st["order"][0]
        chooser = sides[st["chooser"]]
        log("opening.roll", f"The dice for the first player: {chooser['name']} "
            f"{agree(chooser, 'rolls', 'roll')} highest and "
            f"{agree(chooser, 'chooses', 'choose')} to go first or to set the wind.",
            {"order": list(st["order"])})
    return st


def _log_draw(st: State, sid: str, drawn: list[str], reshuffled: bool, log: EventLog) -> None:
    side = st["sides"][sid]
    if reshuffled:
        log("cards.reshuffle", f"The {st['cards']['factions'][side['faction']]} deck is empty: "
            "its discards are shuffled into a new deck.", {"faction": side["faction"]})
    if not drawn:
        return
    draws = agree(side, "draws", "draw")
    log("cards.draw", f"{side['name']} {draws} {len(drawn)} skill card"
        f"{'s' if len(drawn) != 1 else ''}.", {"side": sid, "count": len(drawn)})
    log("cards.drawn", f"{side['name']} {draws} " + ", ".join(
        _skill(st, c)["name"] for c in drawn) + ".",
        # not "cards": the log draws that key as playing cards, and these are skill cards
        {"side": sid, "drawn": list(drawn), "names": [_skill(st, c)["name"] for c in drawn]},
        visible={side["commander"]})


def _begin_turn(st: State, sid: str, source: RandomSource, log: EventLog) -> None:
    """The start of ``sid``'s turn [L56-L57, L207]."""
    st["active"], st["phase"] = sid, "turn"
    st["round"] = max(st["round"], 1)
    log("turn.start", f"Round {st['round']}: {st['sides'][sid]['name']} to play.",
        {"side": sid, "round": st["round"]})
    for ship in _ships_of(st, sid):
        cap = captain_card(st, ship)
        if cap is not None and ship["morale"] < cap["morale"]:
            ship["morale"] += 1
            log("morale.recover", f"{cap['name']}'s crew morale rises to {ship['morale']}.",
                {"ship": ship["id"], "morale": ship["morale"]})
        ship.update(moved=False, attacked=False, bonus={"speed": 0, "pivots": 0})
        ship["stolen"] = bool(st["settings"]["bvp_stealing_wind"]) and movement.stealing_wind(
            st, ship)
        if ship["stolen"]:
            log("wind.stolen", f"The {ship['name']} lies downwind of a ship her size or "
                "larger: her wind is stolen, Speed and Pivots 1 this turn.",
                {"ship": ship["id"]})
    drawn, reshuffled = skills.draw_up(st, sid, source)
    _log_draw(st, sid, drawn, reshuffled, log)


def _next_turn(st: State, source: RandomSource, log: EventLog) -> None:
    """Play passes to the next side in the fixed order that still has a ship afloat
    [L52, L185]; past the last, a new round (the house turn limit ends the game)."""
    at = st["order"].index(st["active"])
    alive = [s for s in st["order"] if _ships_of(st, s)]
    later = [s for s in alive if st["order"].index(s) > at]
    if not later:
        if st["round"] >= st["turn_limit"]:
            _finish(st, None, "turn_limit", f"After {st['round']} rounds the battle is broken "
                    "off with no winner (a turn limit of this table, not in the rulebook).",
                    log)
            return
        st["round"] += 1
    _begin_turn(st, later[0] if later else alive[0], source, log)


def _finish(st: State, winner: str | None, result: str, summary: str, log: EventLog) -> None:
    st["result"] = {"winner": winner, "result": result, "summary": summary,
                    "round": st["round"]}
    st["phase"] = "over"
    log("game.over", summary, {"winner": winner, "result": result})


def _check_end(st: State, log: EventLog) -> bool:
    """Victory [L9, L195]; ``True`` once the game is over."""
    if st["mode"] == "escort":
        for ship in fleet(st):
            if ship["merchant"] and ship["arrived"]:
                side = st["sides"][ship["side"]]
                _finish(st, side["name"], "escorted", f"The {ship['name']} reaches her "
                        f"destination: {side['name']} {agree(side, 'wins', 'win')}.",
                        log)
                return True
        for sid in st["side_ids"]:
            side = st["sides"][sid]
            merchant = next(s for s in fleet(st) if s["side"] == sid and s["merchant"])
            if merchant["sunk"] and not side["lost"]:
                side["lost"] = True
                log("escort.lost", f"The {merchant['name']} is sunk: "
                    f"{side['name']} {agree(side, 'loses', 'lose')}.",
                    {"side": sid})
        if all(st["sides"][s]["lost"] for s in st["side_ids"]):
            _finish(st, None, "merchants_sunk", "Every merchant is sunk: nobody wins.", log)
            return True
        return False
    alive = [s for s in st["side_ids"] if _ships_of(st, s)]
    if len(alive) <= 1:
        last = st["sides"][alive[0]] if alive else None
        _finish(st, last["name"] if last else None, "annihilation",
                f"{last['name']} {agree(last, 'has', 'have')} the last ship afloat and "
                f"{agree(last, 'wins', 'win')}." if last else "No ship is left afloat.",
                log)
        return True
    return False


# --- the turn's options ----------------------------------------------------------------------


def _morale_max(st: State, ship: dict) -> int:
    cap = captain_card(st, ship)
    return 0 if cap is None else int(cap["morale"])


def _may_play(st: State, ship: dict, card: str) -> bool:
    """A card's morale requirement [L98] (A11): the captain's morale at least the card's."""
    return combat.morale(ship) >= _skill(st, card)["morale"]


def _kinds(st: State, hand: list[str]) -> list[str]:
    """One card of each skill in ``hand`` (the first): two copies of a card do the same, so
    a choice offers the skill once, not one order per copy."""
    first: dict[str, str] = {}
    for card in hand:
        first.setdefault(st["card_of"][card], card)
    return list(first.values())


def turn_options(st: State) -> list[Option]:
    """Every legal action of the active side now (module docstring), with its words; a
    skill held twice is offered once (:func:`_kinds`)."""
    sid = st["active"]
    hand = _kinds(st, st["sides"][sid]["hand"])
    out: list[Option] = []
    for ship in _ships_of(st, sid):
        name = ship["name"]
        if not ship["moved"]:
            for plan in movement.plans(st, ship, ship_goal(st, ship)):
                out.append(Option(f"{ship['id']}:move:{plan}",
                                  f"{name}: {movement.describe(plan)}"))
        if not ship["attacked"]:
            arcs = combat.targets(st, ship)
            singles = [(a, t, s) for a in ("port", "starboard") for t, s in arcs[a]]
            for arc, t, s in singles:
                out.append(Option(f"{ship['id']}:fire:{t}:{s}", f"{name}: fire the {arc} "
                                  f"guns at the {st['ships'][t]['name']}'s {s}"))
            for t1, s1 in arcs["port"]:
                for t2, s2 in arcs["starboard"]:
                    out.append(Option(f"{ship['id']}:fire:{t1}:{s1}+{t2}:{s2}",
                                      f"{name}: fire both broadsides, port at the "
                                      f"{st['ships'][t1]['name']}'s {s1}, starboard at the "
                                      f"{st['ships'][t2]['name']}'s {s2}"))
            for other in fleet(st):
                if (other["side"] != sid and afloat(other) and hexes.distance(
                        (ship["q"], ship["r"]), (other["q"], other["r"])) == 1):
                    out.append(Option(f"{ship['id']}:board:{other['id']}",
                                      f"{name}: board the {other['name']}"))
        for card in hand:
            k = _skill(st, card)
            if not _may_play(st, ship, card):
                continue
            if (k["colour"] == "GREEN" and not ship["moved"]) or (
                    k["colour"] == "BLUE" and ship["captain"] is not None
                    and ship["morale"] < _morale_max(st, ship)):
                out.append(Option(f"{ship['id']}:card:{card}",
                                  f"{name}: play {k['name']} ({k['text'] or k['effect']})",
                                  spends=SKILL_CARD))
    for card in hand:
        out.append(Option(f"discard:{card}", f"Discard {_skill(st, card)['name']}",
                          spends=SKILL_CARD))
    if _may_end(st):
        out.append(Option("end", "End the turn"))
    return out


def _may_end(st: State) -> bool:
    """Minimum Movement [L203]: with the setting on, every ship that can move or pivot must
    have done so before the turn ends (a pivot counts)."""
    if not st["settings"]["bvp_minimum_movement"]:
        return True
    return all(ship["moved"] or not movement.plans(st, ship, ship_goal(st, ship))
               for ship in _ships_of(st, st["active"]))


def card_options(st: State, role: str) -> list[Option]:
    """The cards the attacker (``role="attack"``: Red) or defender (``"defend"``: Yellow)
    may play in the attack at the head of the queue, and ``none``; a skill held twice is
    offered once (:func:`_kinds`)."""
    atk = st["attacks"][0]
    ship = st["ships"][atk["ship"] if role == "attack" else atk["target"]]
    colour = "RED" if role == "attack" else "YELLOW"
    effect = {("cannon", "attack"): "accuracy", ("board", "attack"): "grapple",
              ("cannon", "defend"): "defence", ("board", "defend"): "repel"}[
        (atk["kind"], role)]
    out = [Option("none", "Play no card")]
    for card in _kinds(st, st["sides"][ship["side"]]["hand"]):
        k = _skill(st, card)
        if k["colour"] == colour and k["effect"] == effect and _may_play(st, ship, card):
            out.append(Option(card, f"Play {k['name']} ({k['text'] or k['effect']})"))
    return out


def _card_roles(st: State) -> list[str]:
    atk = st["attacks"][0]
    roles = []
    for role, key in (("attack", "ship"), ("defend", "target")):
        if st["sides"][st["ships"][atk[key]]["side"]]["hand"]:
            roles.append(role)
    return roles


def _role_actor(st: State, role: str) -> str:
    atk = st["attacks"][0]
    return _commander(st, st["ships"][atk["ship" if role == "attack" else "target"]]["side"])


# --- actions ---------------------------------------------------------------------------------


def _do_turn(st: State, choice: str, source: RandomSource, log: EventLog) -> None:
    sid = st["active"]
    side = st["sides"][sid]
    if choice == "end":
        log("turn.end", f"{side['name']} {agree(side, 'ends', 'end')} the turn.",
            {"side": sid})
        _next_turn(st, source, log)
        return
    if choice.startswith("discard:"):
        card = choice.split(":", 1)[1]
        name = _skill(st, card)["name"]
        skills.discard(st, sid, card)
        log("cards.discard", f"{side['name']} {agree(side, 'discards', 'discard')} a "
            "skill card.", {"side": sid})
        log("cards.discarded", f"You discard {name}.", {"side": sid, "card": card},
            visible={side["commander"]})
        return
    ship_id, verb, rest = choice.split(":", 2)
    ship = st["ships"][ship_id]
    if verb == "move":
        trail, heading = movement.path(st, ship, rest, ship_goal(st, ship))
        if trail:
            ship["q"], ship["r"] = trail[-1]
        ship["heading"], ship["moved"] = heading, True
        log("ship.move", f"The {ship['name']} {movement.describe(rest, done=True)}, and now heads "
            f"{hexes.DIRECTION_NAMES[heading]}.", {"ship": ship_id, "plan": rest,
                                                   "path": [list(h) for h in trail],
                                                   "heading": heading})
        if trail and trail[-1] in ship_goal(st, ship):
            ship["arrived"] = True
        _check_end(st, log)
    elif verb == "card":
        k = _skill(st, rest)
        skills.discard(st, sid, rest)
        _spend(st, ship, k)
        if k["effect"] == "rally":
            ship["morale"] = min(_morale_max(st, ship), ship["morale"] + k["value"])
        else:
            ship["bonus"][k["effect"]] += k["value"]
        log("cards.play", f"{side['name']} {agree(side, 'plays', 'play')} {k['name']} "
            f"for the {ship['name']}.",
            {"ship": ship_id, "card": rest, "skill": st["card_of"][rest]})
    elif verb == "fire":
        ship["attacked"] = True
        shots = [s.split(":") for s in rest.split("+")]
        here = (ship["q"], ship["r"])
        for n_shot, (target, tside) in enumerate(shots):
            there = (st["ships"][target]["q"], st["ships"][target]["r"])
            rng = hexes.distance(here, there)
            prof = combat.profile(st, ship, rng)
            assert prof is not None  # an offered shot is in range
            n = prof[0]
            if len(shots) == 2 and st["settings"]["bvp_two_broadsides"] == "split":
                n = (n + 1) // 2 if n_shot == 0 else n // 2
            if n:
                st["attacks"].append({"kind": "cannon", "ship": ship_id, "target": target,
                                      "side": tside, "range": rng, "dice": n,
                                      "accuracy": prof[1]})
        log("ship.fire", f"The {ship['name']} fires at " + " and ".join(
            f"the {st['ships'][t]['name']}'s {s}" for t, s in shots) + ".",
            {"ship": ship_id, "shots": [list(s) for s in shots]})
        _next_attack(st, source, log)
    elif verb == "board":
        ship["attacked"] = True
        st["attacks"].append({"kind": "board", "ship": ship_id, "target": rest})
        log("ship.board", f"The {ship['name']} tries to board the {st['ships'][rest]['name']}.",
            {"ship": ship_id, "target": rest})
        _next_attack(st, source, log)


def _spend(st: State, ship: dict, skill: dict) -> None:
    """Under ``bvp_card_morale = "spend"`` playing a card lowers the captain's morale by its
    requirement (not below 1); by default it only requires it (A11)."""
    if st["settings"]["bvp_card_morale"] == "spend" and ship["morale"] is not None:
        ship["morale"] = max(1, ship["morale"] - skill["morale"])


def _next_attack(st: State, source: RandomSource, log: EventLog) -> None:
    """Resolve queued attacks until one needs the cards of its two sides."""
    while st["attacks"] and st["result"] is None:
        atk = st["attacks"][0]
        if not afloat(st["ships"][atk["target"]]):
            st["attacks"].pop(0)
            continue
        if _card_roles(st) and st["phase"] != "cards":
            st["phase"], st["hidden"] = "cards", {}
            return
        _resolve(st, source, log)
        st["attacks"].pop(0)
        st["phase"], st["hidden"] = "turn", {}
        _check_end(st, log)
    if st["result"] is None:
        st["phase"] = "turn"


def _card_bonus(st: State, role: str, log: EventLog) -> int:
    card = st["hidden"].get(role, "none")
    if card == "none":
        return 0
    atk = st["attacks"][0]
    ship = st["ships"][atk["ship" if role == "attack" else "target"]]
    k = _skill(st, card)
    skills.discard(st, ship["side"], card)
    _spend(st, ship, k)
    side = st["sides"][ship["side"]]
    log("cards.play", f"{side['name']} {agree(side, 'plays', 'play')} {k['name']} for "
        f"the {ship['name']}.", {"ship": ship["id"], "card": card, "skill": st["card_of"][card]})
    value: int = k["value"]
    return value


def _resolve(st: State, source: RandomSource, log: EventLog) -> None:
    atk = st["attacks"][0]
    ship, target = st["ships"][atk["ship"]], st["ships"][atk["target"]]
    plus = _card_bonus(st, "attack", log)
    minus = _card_bonus(st, "defend", log)
    reading = st["settings"]["bvp_side_die_exhaustion"]
    if atk["kind"] == "cannon":
        side = atk["side"]
        defence = ship_card(st, target)["defence"]
        t = combat.target_number(target["dice"], defence, side, minus)
        dice = roll(source, atk["dice"], 12, f"{ship['name']} cannons")
        acc = atk["accuracy"] + plus
        hits = combat.cannon_hits(dice, acc, t)
        log("cannon.roll", f"The {ship['name']}'s cannons at {atk['range']} hex"
            f"{'es' if atk['range'] != 1 else ''}: {', '.join(map(str, dice))} "
            f"{'+' if acc >= 0 else '-'}{abs(acc)} against {t}: {hits} hit"
            f"{'s' if hits != 1 else ''} on the {target['name']}'s {side}.",
            {"ship": ship["id"], "target": target["id"], "side": side, "dice": dice,
             "accuracy": acc, "needed": t, "hits": hits})
        _damage(st, target, side, hits, reading, log)
        return
    a_die, d_die = roll(source, 1, 12, f"{ship['name']} boarding")[0], roll(
        source, 1, 12, f"{target['name']} repels boarders")[0]
    a_total = a_die + combat.morale(ship) + combat.boarding_bonus(st, ship, "attack") + plus
    d_total = d_die + combat.morale(target) + combat.boarding_bonus(st, target, "defend") + minus
    result = combat.boarding_result(a_die, a_total, d_die, d_total)
    words = {"attacker": f"the {ship['name']}'s boarders carry the day",
             "defender": f"the {target['name']} throws the boarders back",
             "both_fail": "both crews falter"}[result]
    log("boarding.roll", f"Boarding: the {ship['name']} {a_total} (a roll of {a_die}) "
        f"against the {target['name']} {d_total} (a roll of {d_die}): {words}.",
        {"ship": ship["id"], "target": target["id"], "dice": [a_die, d_die],
         "totals": [a_total, d_total], "result": result})
    losers = {"attacker": [target], "defender": [ship], "both_fail": [ship, target]}[result]
    winners = {"attacker": [ship], "defender": [target], "both_fail": []}[result]
    for loser in losers:
        if loser["morale"] is not None:
            loser["morale"] = 1
        _damage(st, loser, "structure", 1, reading, log)
    for winner in winners:
        cap = captain_card(st, winner)
        if cap is not None:
            winner["morale"] = cap["morale"]


def _damage(st: State, ship: dict, side: str, hits: int, reading: str, log: EventLog) -> None:
    if not hits:
        return
    ship["dice"], removed = combat.damage(ship["dice"], side, hits, reading)
    pens = ship_card(st, ship)["penalties"]
    for key in removed:
        if key == "structure":
            ship["sunk"] = True
            log("ship.sunk", f"The {ship['name']}'s structure is gone: she sinks.",
                {"ship": ship["id"]})
        else:
            log("ship.side_lost", f"The {ship['name']}'s {key} is shot away"
                + (f": {_penalty_words(pens[key])}." if pens.get(key) else "."),
                {"ship": ship["id"], "side": key, "penalty": dict(pens.get(key, {}))})
    log("ship.damage", f"The {ship['name']}: " + ", ".join(
        f"{k} {ship['dice'][k] if ship['dice'][k] is not None else 'gone'}"
        for k in DICE_KEYS) + ".", {"ship": ship["id"], "dice": dict(ship["dice"])})


def _penalty_words(pen: dict) -> str:
    words = []
    if "speed_cap" in pen:
        words.append(f"her speed is {pen['speed_cap']} at most")
    if "pivots_cap" in pen:
        words.append(f"she may pivot {pen['pivots_cap']} time(s) at most")
    if "guns_silent" in pen:
        words.append(f"her {pen['guns_silent']} guns are silent")
    return " and ".join(words)


def _decisions(st: State, defaults: bool) -> list[Decision]:
    """The pending decisions; ``defaults`` computes the default policy's choice for each
    (:mod:`rules.bvp.ai`), which :meth:`BvpEngine.apply` has no need of."""
    if st["result"] is not None:
        return []
    if st["phase"] == "opening":
        who = _commander(st, st["chooser"])
        return [Decision(who, "opening", "You rolled highest: go first, or set the wind?",
                         (Option("first", "Go first (the other side sets the wind)"),
                          Option("wind", "Set the wind (the other side goes first)")),
                         ai.opening(st) if defaults else "")]
    if st["phase"] == "wind":
        who = _commander(st, st["chooser"])
        options = tuple(Option(str(d), f"The wind blows toward the {n}")
                        for d, n in enumerate(hexes.DIRECTION_NAMES))
        return [Decision(who, "wind", "Set the wind vane: which way does the wind blow?",
                         options, ai.wind(st) if defaults else "")]
    if st["phase"] == "cards":
        out = []
        for role in _card_roles(st):
            if role in st["hidden"]:
                continue
            options = tuple(card_options(st, role))
            prompt = ("Play a Red card on this attack?" if role == "attack"
                      else "Play a Yellow card against this attack?")
            out.append(Decision(_role_actor(st, role), f"cards:{role}", prompt, options,
                                ai.card(st, role, options) if defaults else ""))
        return out
    options = tuple(turn_options(st))
    return [Decision(_commander(st, st["active"]), "turn",
                     "Your ships' actions (one at a time; end the turn when they are done)",
                     options, ai.turn(st, options) if defaults else "")]


# --- the engine ------------------------------------------------------------------------------


class BvpEngine:
    """The ``bvp`` encounter engine (:class:`rules.engine.Engine`); see the module
    docstring for the setup, the decisions and victory."""

    name = ENGINE_NAME
    title = "British vs Pirates: a battle on the sea tiles"
    wargame = True
    """Offered by the campaign's "New wargame" page (``combat.wargames``)."""
    hidden_hands = True
    """Each side's skill cards are hidden from its opponents all game long [L38; digest: set-up
    step 5, "Hands are hidden from opponents"]: a GM who commands a side against a player's
    sees the table as his side (``combat.selectors.seated``), as the player does."""

    def validate_setup(self, setup: dict) -> dict:
        return validate_setup(setup)

    def start(self, setup: dict, source: RandomSource) -> tuple[State, list[Event]]:
        events: list[Event] = []
        st = _initial_state(validate_setup(setup), source, EventLog(events))
        return st, events

    def participants(self, state: State) -> dict[str, str]:
        out: dict[str, str] = {}
        for sid in state["side_ids"]:
            out.setdefault(state["sides"][sid]["commander"], state["sides"][sid]["name"])
        return out

    def pending(self, state: State) -> list[Decision]:
        return _decisions(state, True)

    def apply(self, state: State, actor: str, choice: str, source: RandomSource
              ) -> tuple[State, list[Event]]:
        """Take ``actor``'s ``choice`` for the decision :meth:`pending` asks of him.
        ``IllegalAction`` (state unchanged): the game is over, nothing is asked of
        ``actor``, or the choice is not one of the options."""
        if state["result"] is not None:
            raise IllegalAction(f"the game is over: {state['result']['summary']}")
        mine = [d for d in _decisions(state, False) if d.actor == actor]
        if not mine:
            raise IllegalAction(f"{actor} has nothing to decide now")
        decision = mine[0]
        if not isinstance(choice, str):
            raise IllegalAction("a choice is text")
        decision.option(choice)
        st = _copy(state)
        events: list[Event] = []
        log = EventLog(events)
        if decision.kind == "opening":
            chooser = st["chooser"]
            if choice == "wind":
                st["order"] = [st["order"][1], st["order"][0], *st["order"][2:]]
            else:
                st["chooser"] = st["order"][1]
            st["phase"] = "wind"
            side = st["sides"][chooser]
            log("opening.choice", f"{side['name']} {agree(side, 'chooses', 'choose')} to "
                f"{'set the wind' if choice == 'wind' else 'go first'}.", {"choice": choice})
        elif decision.kind == "wind":
            st["wind"] = int(choice)
            side = st["sides"][st["chooser"]]
            log("opening.wind", f"{side['name']} {agree(side, 'sets', 'set')} the wind vane: "
                f"the wind blows toward the {hexes.DIRECTION_NAMES[st['wind']]}.",
                {"wind": st["wind"]})
            st["chooser"] = None
            _begin_turn(st, st["order"][0], source, log)
        elif decision.kind.startswith("cards:"):
            role = decision.kind.split(":")[1]
            st["hidden"][role] = choice
            words = "no card" if choice == "none" else _skill(st, choice)["name"]
            log("cards.chosen", f"You choose {words} for this attack.",
                {"role": role, "card": choice}, visible={actor})
            side = st["sides"][_side_of(st, actor)]
            log("cards.in", f"{side['name']} {agree(side, 'has', 'have')} chosen.",
                {"role": role})
            if all(r in st["hidden"] for r in _card_roles(st)):
                _next_attack(st, source, log)
        else:
            _do_turn(st, choice, source, log)
        return st, events

    def default_choice(self, state: State, decision: Decision) -> str:
        return decision.default

    def outcome(self, state: State) -> Outcome | None:
        r = state["result"]
        if r is None:
            return None
        return Outcome(r["winner"], r["result"], r["summary"],
                       {"rounds": r["round"], "mode": state["mode"],
                        "card_set": dict(state["card_set"])})

    def view(self, state: State, participant: str) -> dict:
        """The GM sees everything. A commander sees the table (tiles, wind, every ship's
        place, heading, D6 counters and morale, every side's number of cards), his own
        hand, and of the cards chosen in an attack only whether each is in."""
        return _view(state, [participant])

    def joint_view(self, state: State, participants: list[str]) -> dict:
        """What one person who commands several sides sees (the GM playing two sides
        against a player's, a player whose two PCs command two): every hand and chosen card
        of each of ``participants``' sides, as :meth:`view` shows one commander his own;
        ``you`` is the first of them."""
        return _view(state, participants)

    def scenarios(self) -> dict[str, Scenario]:
        """The book's two game modes on its tile layouts, from
        ``rules/bvp/scenarios/*.json``."""
        return load_scenarios("rules.bvp", "scenarios")


def _view(st: State, participants: list[str]) -> dict:
    """The view (:meth:`BvpEngine.view`) of someone who plays as every one of
    ``participants``."""
    mine = [s for s in st["side_ids"] if st["sides"][s]["commander"] in participants]
    gm = GM in participants
    sides = {}
    for sid in st["side_ids"]:
        sd = st["sides"][sid]
        entry = {k: sd[k] for k in ("id", "name", "commander", "faction", "tile", "lost")}
        entry["hand_count"] = len(sd["hand"])
        if gm or sid in mine:
            entry["hand"] = [{"id": c, **_skill(st, c)} for c in sd["hand"]]
        sides[sid] = entry
    ships = {}
    for shid in st["ship_ids"]:
        sh = st["ships"][shid]
        # before the opening sets the wind, no speed is known yet
        sailing = afloat(sh) and st["wind"] is not None
        card = ship_card(st, sh)
        cap = captain_card(st, sh)
        ships[shid] = {**copy.deepcopy(sh), "class": card["class"],
                       "size": SIZE_NAMES[card["size"]],
                       "captain_name": cap["name"] if cap else None,
                       "morale_max": cap["morale"] if cap else None,
                       "start": dict(card["start"]), "defence": dict(card["defence"]),
                       "speed_now": movement.speed(st, sh) if sailing else None,
                       "pivots_now": movement.max_pivots(st, sh) if sailing else None}
    hidden = {r: ("given" if not gm and _role_actor(st, r) not in participants
                  else c) for r, c in st["hidden"].items()} if st["attacks"] else {}
    wind_tile = next(t for t in st["tiles"] if t["wind"])
    out = {"engine": ENGINE_NAME, "title": st["title"], "mode": st["mode"],
           "mode_name": MODES[st["mode"]], "round": st["round"],
           "turn_limit": st["turn_limit"], "tiles": copy.deepcopy(st["tiles"]),
           "vane": [wind_tile["q"], wind_tile["r"]], "wind": st["wind"],
           "side_ids": list(st["side_ids"]), "sides": sides,
           "ship_ids": list(st["ship_ids"]), "ships": ships, "order": list(st["order"]),
           "active": st["active"], "phase": st["phase"], "card_set": dict(st["card_set"]),
           "attack": copy.deepcopy(st["attacks"][0]) if st["phase"] == "cards" else None,
           "hidden": hidden, "result": copy.deepcopy(st["result"]), "you": participants[0],
           "my_sides": list(st["side_ids"]) if gm else mine,
           "goals": {sid: sorted(list(h) for h in goal_cells(st, sid))
                     for sid in st["side_ids"]}}
    if gm:
        out["decks"] = copy.deepcopy(st["decks"])
    return out


def _copy(state: State) -> State:
    """A copy of ``state`` to change: the card data is reference data, never changed in
    play, and is shared."""
    return {k: v if k == "cards" else _clone(v) for k, v in state.items()}


def _clone(value):
    """A deep copy of JSON data (dicts, lists and scalars), faster than ``copy.deepcopy``."""
    if isinstance(value, dict):
        return {k: _clone(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clone(v) for v in value]
    return value


def _side_of(st: State, actor: str) -> str:
    return next(s for s in st["side_ids"] if st["sides"][s]["commander"] == actor)


ENGINE = register(BvpEngine())
