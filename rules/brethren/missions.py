"""End of game, scoring and the six mission variants (Brethren L89-L113; ``rules/brethren.md``
§8, §9, A27, A30, BR-1, BR-8).

Each mission is a scenario (``scenarios/*.json``) whose ``mission`` names its victory
predicate here (A30). Every game also ends at its turn limit (``turn_limit``, a rule of this
engine: the book's games end when the players agree, §8 trigger 1), and then the mission's
score decides.

Winner convention (for the campaign and the "missions" helper): ``Outcome.winner`` is the
id of the winning side (``setup["sides"][i]["id"]``), ``None`` for a shared victory or a
draw; ``Outcome.data["scores"]`` maps every side to its score.
"""

from __future__ import annotations

from rules.brethren import crews
from rules.brethren.data import crew_type, ship_class
from rules.brethren.treasure import coin_value
from rules.words import agree

MISSIONS = ("treasure_hunt", "movin_on_up", "smugglers_blues", "sea_wolves", "fleet_action",
            "damn_the_torpedoes", "beware_the_kraken")
"""The base treasure game and the six mission variants (L94-L113)."""


def working(ship: dict) -> bool:
    """A working ship: afloat, not derelict, not captured (A27), still in play."""
    return (not ship.get("sunk") and not ship.get("gone") and not ship.get("derelict")
            and bool(ship["crew"]))


def side_ships(st: dict, side: str) -> list[dict]:
    return [s for s in st["ships"].values() if s["side"] == side]


def has_working_fleet(st: dict, side: str) -> bool:
    """At least one working ship and one crew counter in the fleet (§8 trigger 2, A27)."""
    ships = side_ships(st, side)
    return any(working(s) for s in ships) and any(s["crew"] for s in ships
                                                  if not s.get("sunk"))


def treasure(st: dict, side: str) -> int:
    """Gold at home, aboard the fleet's ships afloat (they sail home at the end, §8 item 1),
    and the ransom of the personalities it holds and who do not serve it (L90-L92)."""
    sd = st["sides"][side]
    gold = sum(coin_value(c) for c in sd["home_coins"])
    serving = []
    for s in side_ships(st, side):
        if s.get("sunk"):
            continue
        gold += sum(coin_value(c) for c in s["coins"])
        serving += s["crew"]
    return gold + crews.ransom(sd["prisoners"], serving, sd["flag"])


BUYABLE = ("sloop", "schooner", "brigantine", "frigate", "galleon", "man_o_war")
"""The ship cards a fleet may buy (``data/ships.json``; not a merchantman nor a battery)."""


def replacement_price(cls: str) -> int:
    """The gold a replacement ship of class ``cls`` costs in Beware the Kraken (L112-L113):
    her points and the fewest crew she must carry (L12) at their price, 1 gold a point
    (A26). ``replacement_price("sloop") == 6`` (4 points and 2 seamen)."""
    points = ship_class(cls)["points"]
    return points + crews.min_crew(points) * crew_type("seaman")["cost"]


def lost_ships(st: dict, side: str) -> list[dict]:
    """``side``'s ships sunk or taken (a prize now another's), not yet replaced, in the
    order they set out."""
    return [st["ships"][i] for i in st["ship_ids"]
            if st["ships"][i]["start_side"] == side and not st["ships"][i].get("replaced")
            and (st["ships"][i]["sunk"] or st["ships"][i]["side"] != side)]


def replacement_options(st: dict, side: str) -> list[tuple[str, str]]:
    """What ``side`` may buy now, ``[(key, words)]``: in Beware the Kraken only (L112-L113:
    "the only game where we allow players to buy replacement ships and crew"), a player's
    fleet with a ship lost and a home, one ship in place of it for each class the treasure
    at home pays for (:func:`replacement_price`), after ``("none", ...)``; ``[]`` when it
    may buy none."""
    sd = st["sides"][side]
    if st["mission"] != "beware_the_kraken" or sd.get("npc") or not sd.get("home"):
        return []
    lost = lost_ships(st, side)
    if not lost:
        return []
    gold = sum(coin_value(c) for c in sd["home_coins"])
    can = [c for c in BUYABLE if replacement_price(c) <= gold]
    if not can:
        return []
    out = [("none", "Buy no ship this turn")]
    for c in can:
        card = ship_class(c)
        out.append((f"buy:{c}", f"Buy a {card['name']} for {replacement_price(c)} gold "
                                f"({card['points']} points and "
                                f"{crews.min_crew(card['points'])} seamen)"))
    return out


def _strength(st: dict, side: str) -> int:
    return sum(sum(1 for m in s["masts"] if m == "UP") for s in side_ships(st, side)
               if working(s))


def scores(st: dict) -> dict[str, int | float]:
    """Every side's score under its mission: treasure (§8), or the mission's count."""
    m = st["mission"]
    out: dict[str, int | float] = {}
    for side, sd in st["sides"].items():
        role = sd.get("role", "")
        if m == "fleet_action":
            out[side] = _strength(st, side)
        elif m == "smugglers_blues":
            out[side] = sd["points"]
        elif m == "sea_wolves":
            out[side] = (convoy_kept(st) if role == "navy" else
                         sum(c["value"] for s in side_ships(st, side) for c in s["coins"]
                             if not s.get("sunk")) + sd["points"])
        elif m == "damn_the_torpedoes":
            out[side] = sd["points"]
        else:
            out[side] = treasure(st, side)
    return out


def convoy_kept(st: dict) -> float:
    """The share of the convoy's merchantmen neither captured nor sunk (BR-1)."""
    merchants = [s for s in st["ships"].values() if s.get("convoy")]
    if not merchants:
        return 1.0
    kept = [s for s in merchants if not s.get("sunk") and s["side"] == s["start_side"]]
    return round(len(kept) / len(merchants), 3)


def over(st: dict) -> tuple[str, str] | None:
    """Whether the game has ended before its turn limit: ``(result, why)`` or ``None``
    (§8 triggers 2 and 3, and each mission's own end)."""
    m = st["mission"]
    players = [s for s, sd in st["sides"].items() if not sd.get("npc")]
    beaten = [s for s in players if not has_working_fleet(st, s)
              and not replacement_options(st, s)]
    navy = st.get("navy")
    if m == "movin_on_up" and navy:
        quarry = st["ships"][navy["quarry"]]
        if quarry.get("sunk") or quarry["side"] != navy["hunted"]:
            return "navy_success", f"the Royal Navy has taken or sunk the {quarry['name']}"
    if m == "sea_wolves":
        convoy = [s for s in st["ships"].values() if s.get("convoy")]
        if all(s.get("sunk") or s.get("gone") or s["side"] != s["start_side"] for s in convoy):
            return "convoy_done", "no merchantman of the convoy is left at sea"
    if m == "damn_the_torpedoes":
        for sd in st["sides"].values():
            if sd.get("role") == "attacker" and sd["points"] >= st["goal"]["troops"]:
                return "landed", (f"{sd['name']} {agree(sd, 'has', 'have')} landed "
                                  f"{sd['points']} troops in the town")
    if m == "smugglers_blues":
        if not any(s.get("contraband") and not s.get("sunk") and not s.get("gone")
                   and s["side"] == s["start_side"] for s in st["ships"].values()):
            return "contraband_done", "no contraband is left at sea"
    if beaten and len(beaten) >= len(players) - 1:
        return "fleet_lost", "a fleet has no working ship with crew left"
    if m in ("treasure_hunt", "beware_the_kraken") and not any(
            c["special"] != "ghost" for i in st["islands"].values() for c in i["coins"]):
        return "treasure_taken", "all the treasure has been taken off the islands"
    return None


def winner(st: dict, sc: dict, result: str | None = None) -> str | None:
    """The winning side by the mission's predicate (A30), ``None`` for a shared victory;
    ``result`` is how the game ended (:func:`over`).

    Treasure games: the most treasure among those with a working fleet, else the most
    treasure (L93). Sea Wolves: the Navy if it kept at least ``brethren_sea_wolves_share``
    of the convoy (BR-1), else the raider with the most plunder. Damn the Torpedoes: the
    attacker if he landed his troops, else the defender. Smugglers' Blues: the smugglers if
    they landed more contraband than the Revenue scored, else the Revenue (the contraband
    did not come ashore). Movin' On Up: when the Royal Navy has taken or sunk the biggest
    pirate, her fleet is out of the running (L96-L97). The others: the highest score."""
    m = st["mission"]
    sides = {s: sd for s, sd in st["sides"].items() if not sd.get("npc")}
    if m == "sea_wolves":
        navy = next(s for s, sd in sides.items() if sd.get("role") == "navy")
        if convoy_kept(st) >= float(st["settings"]["brethren_sea_wolves_share"]):
            return navy
        raiders = {s: sc[s] for s in sides if s != navy}
        return _top(raiders)
    if m == "damn_the_torpedoes":
        att = next(s for s, sd in sides.items() if sd.get("role") == "attacker")
        dfd = next(s for s, sd in sides.items() if sd.get("role") == "defender")
        return att if sides[att]["points"] >= st["goal"]["troops"] else dfd
    if m == "smugglers_blues":
        smug = next(s for s, sd in sides.items() if sd.get("role") == "smugglers")
        rev = next(s for s, sd in sides.items() if sd.get("role") == "revenue")
        return smug if sc[smug] > sc[rev] else rev
    if m == "movin_on_up" and result == "navy_success":
        sides = {s: sd for s, sd in sides.items() if s != st["navy"]["hunted"]}
    if m in ("treasure_hunt", "beware_the_kraken", "movin_on_up"):
        alive = {s: sc[s] for s in sides if has_working_fleet(st, s)}
        return _top(alive or {s: sc[s] for s in sides})
    return _top({s: sc[s] for s in sides})


def _top(sc: dict) -> str | None:
    if not sc:
        return None
    best = max(sc.values())
    top = [s for s, v in sc.items() if v == best]
    return top[0] if len(top) == 1 else None
