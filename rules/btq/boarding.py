"""Boarding: two ships at Distance 0 fight it out as a skirmish (BtQ L2512-2533;
``rules/btq_naval.md`` §4.14-4.16, N18-N21), as pure functions over a sub-state that the
naval engine can embed, and the standalone encounter engine ``"btq_boarding"`` over them.

Each round of the boarding (BtQ L2517-2531):

1. Turning the Tide (BtQ L2531-2533): if PCs defend the boarded ship, their commanding
   officer may declare at the start of the round that the crew drive for the enemy ship
   (decision ``boarding.tide``: ``"drive"`` or ``"hold"``).
2. Each PC chooses his action (``boarding.action``, by his own player):
   ``"melee"``, the Grand Melee: a combat test (hand to hand, with his weapon)
   against the enemy's crew, a GM pool of the ship's ``crew_pool`` cards; the PC's best
   success is a hit on the enemy ship's Crew track, the crew's best a hit on his own
   ship's Crew track, not on him (BtQ L2517-2519; N21). ``"officers:<id>"``, Attack the
   Officers, for the attackers only: this round he fights through to the officer, as the
   Grand Melee but his hits do no harm to the enemy's Crew (BtQ L2519-2522); next round
   (``"duel:<id>"``) the two fight one on one and the wounds fall on them (BtQ
   L2522-2524; :func:`rules.btq.personal_combat.clash`). ``"firebrand"``: firebrands,
   grenades, burning torches (BtQ L2663-2664; N16): his best of Engineering, Gunnery or
   Soldiering against a Routine pool; a won test whose best success is a Critical or a
   Perfect of Clubs (Rigging) or Spades (Hull) sets the enemy ship on fire (``fire`` in the
   report, for the naval engine's fire rule, BtQ L2666-2674). A PC wins his action as the
   D2 victor of his test (N18). A PC who fights (any action but firebrands) with more than
   one hand-to-hand weapon is then asked which he fights with (``boarding.weapon``, by his
   own player; his best by default, BtQ L1572); with one, he fights with it.
3. Command casualties (BtQ L2526-2528): an officer Maimed or killed hands his post down:
   the Captain's ship then makes its Command tests at -2, the Gunner's its Broadside! and
   gun repair tests at -2, the Master's its Positioning tests at -2 (``penalties``).
4. The end-of-round Command test (BtQ L2528-2531): the highest-ranking officer still
   standing on the boarded ship against the commander of the boarding party (a PC, by
   seniority, where there are any, else the ship's officers in the order of :data:`POSTS`),
   each +1 per PC of his side who won his action and -1 per PC who lost, Ship Morale -1/-3,
   the Captain's loss -2 (N18, D20). The loser may surrender (``boarding.surrender``:
   ``"surrender"`` or ``"fight_on"``); if he fights on he crosses off one box of his Crew (an
   Injured-level hit with overflow, N19; under the setting ``boarding_crew_loss =
   "severity"`` a hit of the winner's best success). A boarded ship whose Crew is Dead is taken; a
   boarding party whose Crew is Dead is repelled (N20). That holds whenever a Crew dies: at
   the start (a ship boarded with her Crew Dead is taken at once; a ship whose Crew is Dead
   cannot board) and in the Grand Melee (the boarding ends with that fight: the PCs still
   to fight that round do not, and no Command test follows). Turning the Tide succeeds when every
   defending PC won his action and the defenders won the Command test: the boarders are
   boarded in turn, in addition to the round's damage.

The ship that loses the boarding takes one level of Ship Morale (N18, N22).

The sub-state API, for ``rules/btq/naval.py`` to embed (no other module is needed)::

    sub = validate(boarding)        # ValueError with a reason
    state, events = begin(sub)      # no card drawn yet
    pending(state) -> [Decision]    # the same Decision objects as rules.engine
    state, events = apply(state, actor, choice, source)
    report(state) -> {"result": "continuing" | "taken" | "repelled" | "surrendered"
                                | "broken_off",
                      "attacker": key (who boards now; Turning the Tide swaps it),
                      "winner": key | None, "loser": key | None,
                      "crew": {key: track text}, "morale": {key: "healthy".."dead"},
                      "penalties": {key: {"command": -2, "broadside": -2, "gun_repair": -2,
                                          "positioning": -2}},
                      "casualties": [{"id", "name", "ship", "post", "health"}],
                      "fire": {key: fires set aboard her by firebrands},
                      "fighters": {id: {"name", "health_before", "health", "unconscious",
                                        "scratch", "cheat_death"}}}

What it takes from a naval state (``boarding``)::

    {"attacker": key,                      # who won the Positioning to Distance 0
     "ships": {key: {"name", "crew": "..|..|..", "morale": "healthy".."dead",
                     "side": "pc" | "enemy" (default "pc" for a ship with a PC aboard,
                             else "enemy"; an enemy's Ship Morale is the GM's),
                     "crew_pool": cards of its crew in the Grand Melee (default 4),
                     "command": the crew's Command, for her Command test when no officer
                                of hers stands (N23; default 0),
                     "officers": [Fighter + {"post": one of POSTS, "command": int}]}},
                                           # exactly two ships, keyed as the naval state
     "pcs": [Fighter + {"ship": key, "seniority": int, "command": int, "cards": int,
                        "skills": {"engineering"|"gunnery"|"soldiering": int}}],
     "settings": {...}}

(Fighter: :mod:`rules.btq.personal_combat`; a PC's ``cards`` are his Discipline cards of the
battle, which join his tests, N6, N18.) :func:`from_naval` builds it from a ``btq_naval``
state as that engine has it today. Draw order per round: each PC's action in the order
of ``pcs`` (its gates, Card of Fate, the PC's pool, then the crew's or the officer's), then
the Command test (Card of Fate, the boarded ship's commander, the boarders').
Events: ``boarding.begin``, ``boarding.round``, ``boarding.tide``, ``boarding.action``,
``boarding.draw``, ``boarding.crew``, ``boarding.fire``, ``combat.wound``, ``boarding.casualty``,
``boarding.command``, ``boarding.surrender``, ``boarding.end``, ``boarding.morale`` (the
loser's Ship Morale falls; the GM's alone when she is an enemy).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any, Literal, TypedDict

from rules.btq.characters import SKILLS, DamageState
from rules.btq.personal_combat import (
    MELEE,
    WEAPONS,
    CombatError,
    Fighter,
    awaited,
    best_weapon,
    clash,
    draw_events,
    fighter,
    public_fighter,
    usable,
    weapon_options,
    wound,
)
from rules.btq.settings import resolve, upgraded
from rules.btq.ships import DamageTrack
from rules.btq.tests import (
    Modifier,
    Pool,
    Side,
    SuccessLevel,
    contested_test,
    damage_after,
    static_test,
)
from rules.cards import GM_DECK
from rules.engine import (
    GM,
    Decision,
    Event,
    Option,
    Outcome,
    Scenario,
    State,
    load_scenarios,
    register,
)
from rules.random import RandomSource

__all__ = ["validate", "begin", "pending", "apply", "report", "view", "from_naval", "side_of",
           "BoardingEngine",
           "ENGINE", "POSTS", "SIDES", "CASUALTY_PENALTIES", "MAX_ROUNDS"]

POSTS = ("captain", "lieutenant", "master", "gunner", "boatswain", "surgeon", "purser",
         "carpenter", "marine", "midshipman", "mate")
"""The officers' posts in the order command passes down (BtQ L2526-2528; A15)."""
SIDES = ("pc", "enemy")
"""A boarding ship's side: the players' or an enemy (``rules.btq.naval``'s sides)."""
CASUALTY_PENALTIES = {"captain": {"command": -2}, "gunner": {"broadside": -2, "gun_repair": -2},
                      "master": {"positioning": -2}}
"""Command casualties (BtQ L2526-2528): the post -> the ship's tests that lose two cards."""
WEAPON_MARK = "|"
"""Between a PC's action and the weapon he chose for it in ``actions`` ("melee|sword")."""


DEFAULT_CREW_POOL = 4
"""The crew's cards in the Grand Melee when the naval state gives none: the cutlass, the
sailor's weapon (BtQ L1611); the book sets no number (a reading)."""
MAX_ROUNDS = 40
"""Safeguard, not a rule: every decided round crosses a box off a Crew, so a boarding ends
long before; only a run of stalemated Command tests could reach it."""

FIREBRAND_SKILLS = ("engineering", "gunnery", "soldiering")
"""The skills of a firebrand or a grenade thrown at Distance 0 (BtQ L2663-2664, L2447
"create ad hoc grenades from powder charges"; N16): the PC tests his best of them."""
FIREBRAND_DIFFICULTY = 3
"""The static pool a firebrand is tested against: Routine (N16; the book names no test)."""
FIRE_SUITS = frozenset({"C", "S"})
"""The suits of the Rigging and the Hull (BtQ L2457-2458): a Critical or Perfect success
on either sets a ship on fire (BtQ L2663-2664)."""

Result = Literal["taken", "repelled", "surrendered", "broken_off"]
"""How a boarding ends (module docstring)."""


class Report(TypedDict):
    """What a boarding did so far (:func:`report`; the shape is in the module docstring)."""

    result: Result | Literal["continuing"]
    attacker: str
    winner: str | None
    loser: str | None
    crew: dict[str, str]
    morale: dict[str, str]
    penalties: dict[str, dict[str, int]]
    casualties: list[dict[str, str]]
    fire: dict[str, int]
    fighters: dict[str, dict[str, Any]]

_PC_KEYS = frozenset({"ship", "seniority", "command", "cards", "skills"})
_OFFICER_KEYS = frozenset({"post", "command"})


_NO_ARTICLE = frozenset({"HMS", "HM", "USS", "The", "La", "Le", "Les", "El", "Il"})


def _the(name: str) -> str:
    """A ship's name in a sentence: "the Condor", but "HMS London"."""
    return name if name.split()[0] in _NO_ARTICLE else f"the {name}"


def _The(name: str) -> str:  # noqa: N802 (the capital is the point)
    """:func:`_the` at the start of a sentence."""
    text = _the(name)
    return text[:1].upper() + text[1:]


def _whole(value: object, what: str, low: int = 0, high: int = 30) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise CombatError(f"{what} must be a whole number from {low} to {high}, not {value!r}")
    return value


def _state_name(value: object, what: str) -> str:
    if isinstance(value, str) and value.upper() in DamageState.__members__:
        return value.lower()
    raise CombatError(f"{what} must be healthy, injured, maimed or dead, not {value!r}")


def validate(boarding: Mapping) -> dict[str, Any]:
    """The boarding sub-state normalised (module docstring); ``ValueError`` with the reason:
    not two ships, an attacker that is neither, a Crew track that is not one, a PC on no
    ship or without a hand-to-hand weapon, an officer of an unknown post, one id twice."""
    if not isinstance(boarding, Mapping):
        raise CombatError("a boarding is a mapping")
    unknown = sorted(set(boarding) - {"attacker", "ships", "pcs", "settings"})
    if unknown:
        raise CombatError(f"unknown boarding key {unknown[0]!r}")
    ships = boarding.get("ships")
    if not isinstance(ships, Mapping) or len(ships) != 2:
        raise CombatError("a boarding is fought between two ships")
    out_ships: dict[str, dict[str, Any]] = {}
    ids: list[str] = []
    for key, ship in ships.items():
        where = f"ship {key!r}"
        if not isinstance(ship, Mapping) or set(ship) - {"name", "crew", "morale", "side",
                                                         "crew_pool", "command", "officers"}:
            raise CombatError(f"{where}: name, crew, morale, side, crew_pool, command and "
                              "officers")
        if ship.get("side", "pc") not in SIDES:
            raise CombatError(f"{where}'s side must be {' or '.join(SIDES)}, not "
                              f"{ship['side']!r}")
        try:
            crew = str(DamageTrack.parse(ship.get("crew", "..|..|..")))
        except ValueError as exc:
            raise CombatError(f"{where}: {exc}") from None
        officers = [officer(data, f"{where}'s officer {i + 1}")
                    for i, data in enumerate(ship.get("officers") or [])]
        ids += [o["id"] for o in officers]
        name = ship.get("name")
        if not isinstance(name, str) or not name.strip():
            raise CombatError(f"{where} needs a name")
        out_ships[str(key)] = {
            "name": name.strip(), "crew": crew,
            "morale": _state_name(ship.get("morale", "healthy"), f"{where}'s Ship Morale"),
            "side": ship.get("side"),
            "crew_pool": _whole(ship.get("crew_pool", DEFAULT_CREW_POOL),
                                f"{where}'s crew pool"),
            "command": _whole(ship.get("command", 0), f"{where}'s crew's Command"),
            "officers": sorted(officers, key=lambda o: POSTS.index(o["post"]))}
    attacker = boarding.get("attacker")
    if attacker not in out_ships:
        raise CombatError("the attacker must be one of the two ships")
    if DamageTrack.parse(out_ships[attacker]["crew"]).state == DamageState.DEAD:
        raise CombatError(f"{_The(out_ships[attacker]['name'])} cannot board: her Crew is "
                          "Dead, and a boarding is her men swinging over")
    pcs = []
    for i, data in enumerate(boarding.get("pcs") or []):
        where = f"PC {i + 1}"
        pc = fighter(data, where, extra=_PC_KEYS)
        if data.get("ship") not in out_ships:
            raise CombatError(f"{where} ({pc['name']}) must be aboard one of the two ships")
        if not [w for w in pc["weapons"] if usable(w, MELEE)]:
            raise CombatError(f"{pc['name']} needs a hand-to-hand weapon to board "
                              "(A5: only melee at Distance 0)")
        skills = data.get("skills") or {}
        if not isinstance(skills, Mapping) or set(skills) - set(FIREBRAND_SKILLS):
            raise CombatError(f"{where} ({pc['name']}): skills are the firebrand's "
                              f"({', '.join(FIREBRAND_SKILLS)})")
        pc.update(ship=data["ship"], seniority=_whole(data.get("seniority", 0),
                                                      f"{where}'s seniority", 0, 99),
                  command=_whole(data.get("command", 0), f"{where}'s Command"),
                  cards=_whole(data.get("cards", 0), f"{where}'s Discipline cards"),
                  skills={k: _whole(skills[k], f"{pc['name']}'s {k}")
                          for k in FIREBRAND_SKILLS if k in skills})
        pcs.append(pc)
        ids.append(pc["id"])
    for key, ship in out_ships.items():
        ship["side"] = side_of(ship, key, pcs)
    if len(set(ids)) != len(ids):
        raise CombatError("every PC and officer needs an id of his own")
    if any(WEAPON_MARK in i for i in ids):
        raise CombatError(f"no PC's or officer's id may hold {WEAPON_MARK!r}")
    return {"attacker": attacker, "ships": out_ships, "pcs": pcs,
            "settings": resolve(dict(boarding.get("settings") or {}))}


def side_of(ship: Mapping, key: str, pcs: Sequence[Mapping]) -> str:
    """Ship ``key``'s side in a boarding: her ``side`` (one of :data:`SIDES`), else
    ``"pc"`` if one of ``pcs`` is aboard her and ``"enemy"`` if none is (a setup, or a state
    stored before the side was kept, that gives none). A player never learns an enemy's Ship
    Morale (as in the ship battle, ``rules.btq.naval``)."""
    return ship.get("side") or ("pc" if any(p["ship"] == key for p in pcs) else "enemy")


def _enemy(st: State, key: str) -> bool:
    return side_of(st["setup"]["ships"][key], key, st["setup"]["pcs"]) == "enemy"


def officer(data: Mapping, where: str = "an officer") -> Fighter:
    """One officer of a ship in a boarding, normalised: a Fighter
    (:func:`rules.btq.personal_combat.fighter`) with his ``post`` (one of :data:`POSTS`)
    and his ``command`` (0-30, default 2). ``CombatError`` naming ``where``."""
    o = fighter(data, where, extra=_OFFICER_KEYS)
    if data.get("post") not in POSTS:
        raise CombatError(f"{where} ({o['name']}): post must be one of {', '.join(POSTS)}")
    o.update(post=data["post"], command=_whole(data.get("command", 2),
                                               f"{o['name']}'s Command"))
    return o


# --- the state -----------------------------------------------------------------------------------


def from_naval(naval: Mapping, *, attacker: str, defender: str | None = None,
               weapons: Sequence[str] = ("cutlass",), crew_pool: int = DEFAULT_CREW_POOL
               ) -> dict[str, Any]:
    """The boarding sub-state of a ``btq_naval`` state whose ships ``attacker`` (who won the
    Positioning to Distance 0) and ``defender`` have reached Distance 0 (``defender`` may be
    left out when the battle has only two ships): both ships' names, sides, Crew tracks and
    Ship Morale, each crew's Command (N23) and Grand Melee pool, their ``officers`` as the
    battle's setup gives them, the PCs aboard either (``pc:<id>``, their seniority, Command,
    Discipline cards, the skills of a firebrand, their Health, Guts, combat traits (Is
    But A Scratch, Sir! spent already for a PC ``scratched`` on his sheet) and combat items
    (special weapons), with their own ``weapons`` if the setup gives them, else
    ``weapons``). Give the result to
    :func:`validate`/:func:`begin`; ``KeyError`` or ``ValueError`` for a state of another
    shape."""
    morale = ("healthy", "injured", "maimed", "dead")
    keys = list(naval["ships"]) if defender is None else [attacker, defender]
    ships = {sid: {"name": ship["name"], "crew": ship["tracks"]["crew"],
                   "morale": morale[int(ship["morale"])], "side": ship["side"],
                   "crew_pool": crew_pool,
                   "command": int(ship.get("crew", {}).get("command", 0)),
                   "officers": list(ship.get("officers") or [])}
             for sid, ship in ((k, naval["ships"][k]) for k in keys)}
    cards = naval.get("discipline_cards", {})
    order = naval.get("pc_order") or list(naval.get("pcs", {}))
    pcs = []
    for pid in order:
        pc = naval["pcs"][pid]
        if pc["ship"] not in ships:
            continue
        skills = pc.get("skills", {})
        pcs.append({"id": f"pc:{pid}", "name": pc["name"], "ship": pc["ship"],
                    "seniority": pc.get("seniority", 0), "command": skills.get("command", 0),
                    "cards": int(cards.get(pid, 0)),
                    "weapons": list(pc.get("weapons") or weapons),
                    "health": pc.get("health", "healthy"), "guts": pc.get("guts", 1),
                    "traits": dict(pc.get("combat_traits") or {}),
                    **({"items": list(pc["combat_items"])} if pc.get("combat_items") else {}),
                    **({"scratch": False} if pc.get("scratched") else {}),
                    "skills": {k: skills[k] for k in FIREBRAND_SKILLS if skills.get(k)}})
    return {"attacker": attacker, "ships": ships, "pcs": pcs,
            "settings": dict(naval.get("settings", {}))}


def _other(st: State, key: str) -> str:
    return next(k for k in st["ships"] if k != key)


def _standing(f: Fighter) -> bool:
    return f["health"] not in ("maimed", "dead") and not f["unconscious"]


def _pcs_of(st: State, key: str) -> list[Fighter]:
    return [st["fighters"][p["id"]] for p in st["setup"]["pcs"] if p["ship"] == key]


def _officers_of(st: State, key: str) -> list[Fighter]:
    return [st["fighters"][o["id"]] for o in st["setup"]["ships"][key]["officers"]]


def commander(st: State, key: str) -> Fighter | None:
    """Who commands ship ``key`` now: its PC of highest seniority still standing, else its
    officer first in :data:`POSTS` still standing (BtQ L2526-2529), else ``None``."""
    pcs = sorted((p for p in _pcs_of(st, key) if _standing(p)), key=lambda p: -p["seniority"])
    if pcs:
        return pcs[0]
    return next((o for o in _officers_of(st, key) if _standing(o)), None)


def _controller(st: State, key: str) -> str:
    co = commander(st, key)
    return co["controller"] if co is not None else GM


def begin(sub: Mapping) -> tuple[State, list[Event]]:
    """The boarding begins from a :func:`validate` d sub-state: round 1 awaits its first
    decision. No card is drawn. A boarded ship whose Crew is Dead already is taken there
    and then, without a round (BtQ L2530-2531)."""
    sub = validate(sub)
    fighters = {p["id"]: p for p in sub["pcs"]}
    for ship in sub["ships"].values():
        fighters.update({o["id"]: o for o in ship["officers"]})
    st = {"setup": sub, "ships": copy.deepcopy(sub["ships"]), "attacker": sub["attacker"],
          "fighters": fighters, "round": 0, "phase": "tide", "drive": False, "actions": {},
          "results": {}, "through": {}, "penalties": {k: {} for k in sub["ships"]},
          "casualties": [], "fire": {}, "loser": None, "result": None, "winner": None}
    a, b = sub["attacker"], _other(st, sub["attacker"])
    boarded = _the(st["ships"][b]["name"])
    if DamageTrack.parse(st["ships"][b]["crew"]).state == DamageState.DEAD:
        return st, [Event("boarding.begin", f"{_The(st['ships'][a]['name'])} boards "
                          f"{boarded}: her men swing over, and {boarded}'s Crew is Dead: "
                          "nobody is left to fight them.", {"attacker": a}), *_crew_dead(st)]
    events = [Event("boarding.begin", f"{_The(st['ships'][a]['name'])} boards {boarded}: "
                    f"her men swing over, and {boarded} repels boarders.", {"attacker": a})]
    events += _new_round(st)
    return st, events


def _new_round(st: State) -> list[Event]:
    st["round"] += 1
    st["actions"], st["results"], st["drive"] = {}, {}, False
    st["phase"] = "tide" if any(_standing(p) for p in _pcs_of(st, _other(st, st["attacker"]))) \
        else "actions"
    return [Event("boarding.round", f"Boarding, round {st['round']}.", {"round": st["round"]})]


def _acting(st: State) -> list[str]:
    return [p["id"] for p in st["setup"]["pcs"] if _standing(st["fighters"][p["id"]])
            or st["fighters"][p["id"]]["health"] == "maimed"
            and not st["fighters"][p["id"]]["unconscious"]]


def _action_options(st: State, pid: str) -> tuple[Option, ...]:
    pc = st["fighters"][pid]
    options = [Option("melee", "The Grand Melee")]
    target = st["through"].get(pid)
    if target and _standing(st["fighters"][target]):
        options.insert(0, Option(f"duel:{target}",
                                 f"Fight {st['fighters'][target]['name']} one on one"))
    if pc["ship"] == st["attacker"]:
        for o in _officers_of(st, _other(st, pc["ship"])):
            if _standing(o) and o["id"] != target:
                options.append(Option(f"officers:{o['id']}",
                                      f"Fight through to {o['name']} ({o['post']})"))
    skill, value = _firebrand_skill(pc)
    options.append(Option("firebrand", f"Firebrands and grenades ({SKILLS[skill]}"
                          f"{'' if value else ', unskilled'})"))
    return tuple(options)


def pending(state: State) -> list[Decision]:
    """The one decision the boarding waits for (module docstring); none once it is over."""
    st = state
    if st["result"] is not None:
        return []
    if st["phase"] == "tide":
        key = _other(st, st["attacker"])
        return [Decision(_controller(st, key), "boarding.tide",
                         f"Do {_the(st['ships'][key]['name'])}'s men drive for the enemy "
                         "ship this round?",
                         (Option("hold", "Repel the boarders"),
                          Option("drive", "Drive for the enemy ship (Turning the Tide)")),
                         "hold")]
    if st["phase"] == "actions" and not _acting(st):
        return [Decision(GM, "boarding.round", "No PC fights this round: turn the cards of "
                         "the Command test?", (Option("go", "Turn the cards"),), "go")]
    if st["phase"] == "actions":
        armed = _weapon_due(st)
        if armed is not None:
            pc = st["fighters"][armed]
            return [Decision(pc["controller"], "boarding.weapon",
                             f"Which weapon does {pc['name']} fight with?",
                             weapon_options(pc, MELEE), best_weapon(pc, MELEE))]
        pid = next(p for p in _acting(st) if p not in st["actions"])
        options = _action_options(st, pid)
        return [Decision(st["fighters"][pid]["controller"], "boarding.action",
                         "Which action this round?", options,
                         options[0].key)]
    if st["phase"] == "surrender":
        key = st["loser"]
        return [Decision(_controller(st, key), "boarding.surrender",
                         f"{_The(st['ships'][key]['name'])} lost the Command test: "
                         "surrender her, or fight on and lose a box of her Crew?",
                         (Option("fight_on", "Fight on"), Option("surrender", "Surrender")),
                         "fight_on")]
    return []


def apply(state: State, actor: str, choice: str, source: RandomSource
          ) -> tuple[State, list[Event]]:
    """Take the awaited decision and play on to the next. ``IllegalAction`` (nothing
    changed) for the wrong actor or a choice not offered."""
    decision = awaited(pending(state), actor)
    decision.option(choice)
    st = copy.deepcopy(state)
    events: list[Event] = []
    if decision.kind == "boarding.tide":
        st["drive"] = choice == "drive"
        if st["drive"]:
            co = commander(st, _other(st, st["attacker"]))
            assert co is not None  # the tide is asked only of a standing PC's ship
            events.append(Event("boarding.tide", f"{co['name']} declares that the crew will "
                                "drive for the enemy ship.", {"drive": True}))
        st["phase"] = "actions"
    elif decision.kind == "boarding.round":
        events += _command_test(st, source)
    elif decision.kind == "boarding.action":
        pid = next(p for p in _acting(st) if p not in st["actions"])
        st["actions"][pid] = choice
        events.append(Event("boarding.action", f"{st['fighters'][pid]['name']}: "
                            f"{decision.option(choice).label}.", {"who": pid, "action": choice}))
    elif decision.kind == "boarding.weapon":
        armed = _weapon_due(st)
        assert armed is not None  # the decision is asked only then
        st["actions"][armed] += f"{WEAPON_MARK}{choice}"
        events.append(Event("boarding.weapon", f"{st['fighters'][armed]['name']} fights with "
                            f"{decision.option(choice).label}.",
                            {"who": armed, "weapon": choice}))
    else:
        events += _answer_surrender(st, choice)
    if decision.kind in ("boarding.action", "boarding.weapon"):
        if len(st["actions"]) == len(_acting(st)) and _weapon_due(st) is None:
            # in the order of the PCs, not of the mapping (a stored state's keys may come
            # back sorted)
            for p in [p["id"] for p in st["setup"]["pcs"] if p["id"] in st["actions"]]:
                events += _fight(st, p, source)
                over = _crew_dead(st)
                if over:  # a dead crew fights no more: the round ends there
                    events += over
                    break
            else:
                events += _command_test(st, source)
    return st, events


def _weapon_due(st: State) -> str | None:
    """The PC (in the PCs' order) who chose to fight this round (the Grand Melee, fighting
    through to an officer or one on one) and has more than one hand-to-hand weapon, whose
    player is still to say which one he fights with (BtQ L1572: the fighter tests his
    weapon's pool; the default is his best), else ``None``. A PC with one weapon fights with
    it, unasked."""
    for pid in _acting(st):
        action = st["actions"].get(pid)
        if action is None or action == "firebrand" or WEAPON_MARK in action:
            continue
        if len([w for w in st["fighters"][pid]["weapons"] if usable(w, MELEE)]) > 1:
            return pid
    return None


def _crew_foe(st: State, key: str) -> Fighter:
    ship = st["ships"][key]
    return {"id": f"crew:{key}", "name": f"{_the(ship['name'])}'s crew", "deck": GM_DECK,
            "secret": True, "health": "healthy", "unconscious": False, "traits": {},
            "weapons": ["cutlass"], "scratch": False, "cheat_death": 0, "guts": 1}


def _hit_crew(st: State, key: str, level: int, why: str) -> Event:
    ship = st["ships"][key]
    before = DamageTrack.parse(ship["crew"])
    after = before.hit(level)
    ship["crew"] = str(after)
    return Event("boarding.crew", f"{why}: {_the(ship['name'])}'s Crew takes "
                 f"{'an' if level == 1 else 'a'} {SuccessLevel(level).name.capitalize()} hit"
                 f"{' and is Dead' if after.state == DamageState.DEAD else ''}.",
                 {"ship": key, "track": str(after), "level": level})


def _fight(st: State, pid: str, source: RandomSource) -> list[Event]:
    pc = st["fighters"][pid]
    choice, _, chosen = st["actions"][pid].partition(WEAPON_MARK)
    own, enemy = pc["ship"], _other(st, pc["ship"])
    weapon = chosen or best_weapon(pc, MELEE)
    extra = (("Discipline cards", pc["cards"]),) if pc["cards"] else ()
    kind, _, target = choice.partition(":")
    if kind == "firebrand":
        return _firebrand(st, pid, source)
    if kind == "duel":
        foe = st["fighters"][target]
        foe_weapon = best_weapon(foe, MELEE) if any(usable(w, MELEE) for w in foe["weapons"]) \
            else "brawl"
        result, events = clash(pc, weapon, foe, foe_weapon, source, extra_a=extra,
                               settings=st["setup"]["settings"], kind="boarding.draw",
                               what=f"{pc['name']} fights {foe['name']} one on one")
        for victim, attacker, w in ((target, pid, weapon), (pid, target, foe_weapon)):
            level = result.levels[attacker]
            if level:
                before = st["fighters"][victim]["health"]
                st["fighters"][victim], text = wound(st["fighters"][victim], level,
                                                     brawl=WEAPONS[w].brawl)
                events.append(Event("combat.wound", text, {
                    "who": victim, "level": SuccessLevel(level).name.lower(), "from": before,
                    "to": st["fighters"][victim]["health"]}))
        st["through"].pop(pid, None)
        events += _casualty(st, target)
    else:
        foe = _crew_foe(st, enemy)
        pool = st["ships"][enemy]["crew_pool"]
        crew_extra = (("the crew", pool - 4),) if pool != 4 else ()
        what = (f"{pc['name']} fights through to {st['fighters'][target]['name']}"
                if kind == "officers" else f"{pc['name']} in the Grand Melee")
        result, events = clash(pc, weapon, foe, "cutlass", source, extra_a=extra,
                               extra_b=crew_extra, settings=st["setup"]["settings"],
                               kind="boarding.draw", what=what)
        dealt, taken = result.levels[pid], result.levels[foe["id"]]
        if dealt and kind == "melee":
            events.append(_hit_crew(st, enemy, dealt, f"{pc['name']} cuts into the enemy"))
        if taken:
            events.append(_hit_crew(st, own, taken, f"{pc['name']}'s foes strike back"))
        if kind == "officers":
            st["through"][pid] = target
    won = result.winner == pid
    st["results"][pid] = "won" if won else "lost"
    return events


def _firebrand_skill(pc: Fighter) -> tuple[str, int]:
    """The PC's best skill of :data:`FIREBRAND_SKILLS` and its value (the first, 0, if he
    has none of them)."""
    return max(((k, pc["skills"].get(k, 0)) for k in FIREBRAND_SKILLS), key=lambda kv: kv[1])


def _firebrand(st: State, pid: str, source: RandomSource) -> list[Event]:
    """Firebrands, grenades, burning torches (BtQ L2663-2664; N16): instead of his action
    this round the PC tests his best of :data:`FIREBRAND_SKILLS` (with his Discipline cards)
    against a Card of Fate and a Routine pool; if he wins and his best success is a Critical
    or a Perfect of Clubs (Rigging) or Spades (Hull) (under the setting ``firebrand_fire =
    "any"``: any such success among his cards), the enemy ship is on fire (one card more if
    she burns already, N17). He wins or loses his action as the D2 victor."""
    pc = st["fighters"][pid]
    enemy = _other(st, pc["ship"])
    skill, value = _firebrand_skill(pc)
    mods = (Modifier("Discipline cards", pc["cards"]),) if pc["cards"] and value else ()
    side = Side(pid, Pool(skill, value, mods, unskilled=not value), pc["deck"],
                secret=pc["secret"])
    what = f"{pc['name']} hurls firebrands at {_the(st['ships'][enemy]['name'])}"
    record = static_test(side, FIREBRAND_DIFFICULTY, source, st["setup"]["settings"],
                         intent=what)
    events = draw_events("boarding.draw", record, {pid: pc["name"]},
                         {pid} if pc["secret"] else set(), what=what)
    won = record.winner == pid
    st["results"][pid] = "won" if won else "lost"
    hand = record.rounds[-1].hand(pid)
    played = sorted(((lv or 0, c.played_as or record.rounds[-1].fate if c.is_joker else c)
                     for c, lv in zip(hand.cards, hand.levels)),
                    key=lambda lc: (lc[0], lc[1].rank), reverse=True)
    if st["setup"]["settings"]["firebrand_fire"] == "best":
        played = played[:1]
    # the setting "any": his best such card among them
    level, card = next(((lv, c) for lv, c in played if lv >= SuccessLevel.CRITICAL
                        and c.suit in FIRE_SUITS), (0, None))
    if won and card is not None:
        st["fire"][enemy] = st["fire"].get(enemy, 0) + 1
        area = "Rigging" if card.suit == "C" else "Hull"
        events.append(Event("boarding.fire", f"{SuccessLevel(level).name.capitalize()} on "
                            f"the {area}: {_the(st['ships'][enemy]['name'])} is on fire.",
                            {"ship": enemy, "by": pid, "card": str(card), "level": level}))
    else:
        events.append(Event("boarding.fire", f"{pc['name']}'s firebrands set nothing alight.",
                            {"ship": None, "by": pid}))
    return events


def _casualty(st: State, oid: str) -> list[Event]:
    o = st["fighters"][oid]
    if o["health"] not in ("maimed", "dead") or any(c["id"] == oid for c in st["casualties"]):
        return []
    key = next(k for k, s in st["setup"]["ships"].items()
               if any(x["id"] == oid for x in s["officers"]))
    st["casualties"].append({"id": oid, "name": o["name"], "ship": key, "post": o["post"],
                             "health": o["health"]})
    penalty = CASUALTY_PENALTIES.get(o["post"], {})
    st["penalties"][key].update(penalty)
    text = f"{o['name']}, {_the(st['ships'][key]['name'])}'s {o['post']}, is down."
    if penalty:
        tests = {"command": "Command", "broadside": "Broadside!", "gun_repair": "gun repair",
                 "positioning": "Positioning"}
        text += " His mate takes over: " + ", ".join(tests[t] for t in penalty) + \
            " tests at -2."
    return [Event("boarding.casualty", text, {"who": oid, "ship": key, "post": o["post"],
                                              "penalties": penalty})]


def _command_side(st: State, key: str, who: str) -> Side:
    co = commander(st, key)
    won = sum(1 for p in _pcs_of(st, key) if st["results"].get(p["id"]) == "won")
    lost = sum(1 for p in _pcs_of(st, key) if st["results"].get(p["id"]) == "lost")
    mods = []
    if won:
        mods.append(Modifier("PCs who won", won))
    if lost:
        mods.append(Modifier("PCs who lost", -lost))
    morale = DamageState[st["ships"][key]["morale"].upper()]
    if morale in (DamageState.INJURED, DamageState.MAIMED):
        mods.append(Modifier(f"Ship Morale {morale.label}", -morale.penalty))
    if st["penalties"][key].get("command"):
        mods.append(Modifier("the Captain lost", st["penalties"][key]["command"]))
    crew = st["ships"][key]["command"]
    if co is not None and co["command"] <= 0 < crew and co["id"].startswith("pc:"):
        # a commanding PC with no Command leaves the test to his crew (BtQ L2360-2362)
        return Side(who, Pool("command", crew, tuple(mods)), GM_DECK, secret=False)
    value = co["command"] if co else crew
    deck = co["deck"] if co else GM_DECK
    # a commander with no Command at all (nor a crew's to leave it to) "can overturn a single
    # card", to which nothing is added; penalties still apply (BtQ L1266-1272, A9). A crew
    # (no officer standing) of Command 0 turns none: the rule is a character's.
    pool = Pool("command", value, tuple(mods)) if value > 0 or co is None else \
        Pool("command", 0, tuple(m for m in mods if m.cards < 0), unskilled=True)
    return Side(who, pool, deck,
                deck_name=None if co is None or deck == GM_DECK else co["id"],
                secret=co is None or co["secret"])


def _command_test(st: State, source: RandomSource) -> list[Event]:
    att = st["attacker"]
    boarded = _other(st, att)
    sides = {boarded: _command_side(st, boarded, f"ship:{boarded}"),
             att: _command_side(st, att, f"ship:{att}")}
    names = {}
    secret = set()
    for key, side in sides.items():
        co = commander(st, key)
        names[side.who] = co["name"] if co else f"{_the(st['ships'][key]['name'])}'s crew"
        if side.secret:
            secret.add(side.who)
    # The boarded ship defends: under full_tie = "defender" she holds a full tie (A5).
    record = contested_test(sides[boarded], sides[att], source, st["setup"]["settings"],
                            intent="the end-of-round Command test", defender=0)
    events = draw_events("boarding.command", record, names, secret,
                         what=f"The Command test, {names[sides[boarded].who]} against "
                              f"{names[sides[att].who]}")
    if record.outcome == "stalemate":
        events.append(Event("boarding.command", "Neither commander gains the upper hand: "
                            "nobody loses a box this round.", {"loser": None}))
        return events + _next(st)
    winner = boarded if record.winner == sides[boarded].who else att
    loser = _other(st, winner)
    st["loser"] = loser
    assert record.result is not None  # a won test has the winner's best success
    st["command_level"] = int(record.result)
    if st["drive"] and winner == boarded and all(
            st["results"].get(p["id"]) == "won" for p in _pcs_of(st, boarded)):
        st["attacker"] = boarded
        events.append(Event("boarding.tide", f"The tide has turned: "
                            f"{_the(st['ships'][boarded]['name'])}'s men carry the fight aboard "
                            f"{_the(st['ships'][att]['name'])}, who are boarded in turn.",
                            {"attacker": boarded}))
    events.append(Event("boarding.command", f"{_The(st['ships'][loser]['name'])}"
                        " loses the Command test.", {"loser": loser}))
    st["phase"] = "surrender"
    return events


def _answer_surrender(st: State, choice: str) -> list[Event]:
    loser = st["loser"]
    name = _The(st["ships"][loser]["name"])
    if choice == "surrender":
        events = [Event("boarding.surrender", f"{name} surrenders.", {"ship": loser})]
        return events + _end(st, "surrendered", _other(st, loser), loser)
    # N19: one box (an Injured-level hit), or the winner's best success (setting)
    level = st.get("command_level", 1) if st["setup"]["settings"][
        "boarding_crew_loss"] == "severity" else 1
    events = [_hit_crew(st, loser, level, f"{name} fights on")]
    return events + (_crew_dead(st) or _next(st))


def _crew_dead(st: State) -> list[Event]:
    """If a Crew is Dead, the boarding ends here (BtQ L2530-2531, "If the Crew is Dead, the
    ship is taken"; N20): the boarded ship is taken, or, the boarders' Crew Dead, they are
    repelled; the boarded ship first if both are. No events while both crews stand."""
    ends: tuple[tuple[str, Result], ...] = ((_other(st, st["attacker"]), "taken"),
                                            (st["attacker"], "repelled"))
    for key, result in ends:
        if DamageTrack.parse(st["ships"][key]["crew"]).state == DamageState.DEAD:
            return _end(st, result, _other(st, key), key)
    return []


def _next(st: State) -> list[Event]:
    if st["round"] >= MAX_ROUNDS:
        return _end(st, "broken_off", None, None)
    return _new_round(st)


def _end(st: State, result: Result, winner: str | None, loser: str | None) -> list[Event]:
    st["result"], st["winner"], st["loser"], st["phase"] = result, winner, loser, "done"
    text = {"taken": "{l} is taken.", "repelled": "The boarders are repelled: {l}'s crew is "
            "spent.", "surrendered": "{l} has surrendered.",
            "broken_off": "The ships break apart: the boarding is over."}[result]
    ship_name = _the(st["ships"][loser]["name"]) if loser else ""
    text = text.format(l=ship_name)
    text = text[:1].upper() + text[1:]
    events = [Event("boarding.end", text, {"result": result, "winner": winner, "loser": loser})]
    if loser:
        ship = st["ships"][loser]
        before = DamageState[ship["morale"].upper()]
        ship["morale"] = damage_after(before, SuccessLevel.ORDINARY).name.lower()
        if ship["morale"] != before.name.lower():
            # an enemy's Ship Morale is the GM's (rules.btq.naval keeps it so too)
            events.append(Event(
                "boarding.morale", f"{_The(ship['name'])}'s Ship Morale goes from {before.label} "
                f"to {ship['morale'].capitalize()}.", {"ship": loser},
                visible_to=frozenset({GM}) if _enemy(st, loser) else None))
    return events


def default_choice(state: State, decision: Decision) -> str:
    """Hold the ship, the first action offered (the duel a PC fought through to, else the
    Grand Melee), fight on."""
    return decision.default


def report(state: State) -> Report:
    """What the boarding did so far, for the naval engine or the web layer (the shape is in
    the module's docstring); ``result`` is ``"continuing"`` until it is over."""
    st = state
    before = {f["id"]: f["health"] for f in st["setup"]["pcs"]}
    for ship in st["setup"]["ships"].values():
        before.update({o["id"]: o["health"] for o in ship["officers"]})
    return {
        "result": st["result"] or "continuing", "attacker": st["attacker"],
        "winner": st["winner"], "loser": st["loser"] if st["result"] else None,
        "crew": {k: s["crew"] for k, s in st["ships"].items()},
        "morale": {k: s["morale"] for k, s in st["ships"].items()},
        "penalties": copy.deepcopy(st["penalties"]), "casualties": copy.deepcopy(st["casualties"]),
        "fire": dict(st.get("fire", {})),
        "fighters": {fid: {"name": f["name"], "health_before": before[fid],
                           "health": f["health"], "unconscious": f["unconscious"],
                           "scratch": f["scratch"], "cheat_death": f["cheat_death"]}
                     for fid, f in st["fighters"].items()},
    }


def view(state: State, participant: str) -> dict[str, Any]:
    """What ``participant`` sees: the ships' names and Crew tracks, the Ship Morale of the
    players' ships (an enemy's is the GM's: :func:`side_of`), the PCs,
    the officers as :func:`rules.btq.personal_combat.public_fighter` (no statistics), the
    round's actions and results, casualties, penalties and the result; not the crews' pools.
    The GM's view has the same keys with the officers in full and the crews' pools, and
    ``full``, the whole state."""
    st = state
    gm = participant == GM
    out = {
        "round": st["round"], "phase": st["phase"], "attacker": st["attacker"],
        "ships": {k: {"name": s["name"], "crew": s["crew"],
                      "officers": [public_fighter(st["fighters"][o["id"]], gm=gm)
                                   | {"post": o["post"]}
                                   for o in st["setup"]["ships"][k]["officers"]]}
                  | ({"morale": s["morale"]} if gm or not _enemy(st, k) else {})
                  | ({"crew_pool": s["crew_pool"]} if gm else {})
                  for k, s in st["ships"].items()},
        "pcs": [public_fighter(st["fighters"][p["id"]]) | {"ship": p["ship"]}
                for p in st["setup"]["pcs"]],
        "actions": dict(st["actions"]), "results": dict(st["results"]),
        "casualties": copy.deepcopy(st["casualties"]),
        "penalties": copy.deepcopy(st["penalties"]), "fire": dict(st.get("fire", {})),
        "result": st["result"],
    }
    if gm:
        out["full"] = copy.deepcopy(state)
    return out


class BoardingEngine:
    """The ``btq_boarding`` engine (:class:`rules.engine.Engine`): a boarding action fought
    alone, over the sub-state functions of this module; its setup is the sub-state."""

    name = "btq_boarding"
    title = "Beat to Quarters: boarding"

    def upgrade(self, state: State) -> State:
        """:func:`rules.btq.settings.upgraded`: a stored state's settings completed."""
        return upgraded(state)

    def validate_setup(self, setup: dict) -> dict:
        """:func:`validate`."""
        return validate(setup)

    def start(self, setup: dict, source: RandomSource) -> tuple[State, list[Event]]:
        """:func:`begin`."""
        return begin(setup)

    def participants(self, state: State) -> dict[str, str]:
        """The PCs' controllers -> their names."""
        return {p["controller"]: p["name"] for p in state["setup"]["pcs"]
                if p["controller"] != GM}

    def pending(self, state: State) -> list[Decision]:
        """:func:`pending`."""
        return pending(state)

    def apply(self, state: State, actor: str, choice: str, source: RandomSource
              ) -> tuple[State, list[Event]]:
        """:func:`apply`."""
        return apply(state, actor, choice, source)

    def default_choice(self, state: State, decision: Decision) -> str:
        """:func:`default_choice`."""
        return default_choice(state, decision)

    def outcome(self, state: State) -> Outcome | None:
        """``Outcome(winner=the winning ship's key, result=report's result, summary,
        data=report(state))`` once over."""
        if state["result"] is None:
            return None
        data = dict(report(state))
        last = {"taken": "taken", "repelled": "repelled", "surrendered": "surrendered",
                "broken_off": "broken off"}[state["result"]]
        loser = _the(state["ships"][state["loser"]]["name"]) if state["loser"] else ""
        summary = (f"The boarding is over: {loser} {last}." if state["loser"] else
                   "The boarding is broken off.")
        return Outcome(state["winner"], state["result"], summary, data)

    def view(self, state: State, participant: str) -> dict:
        """:func:`view`."""
        return view(state, participant)

    def scenarios(self) -> dict[str, Scenario]:
        """The Condor boarding the London (naval TV-N11's boarding, BtQ L2512-2533),
        ``rules/btq/scenarios/boarding/*.json``."""
        return load_scenarios("rules.btq", "scenarios/boarding")


ENGINE = register(BoardingEngine())
