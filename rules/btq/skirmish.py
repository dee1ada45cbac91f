"""The skirmish of *Beat to Quarters* (BtQ L1627-1690; ``rules/btq_missions.md`` §5, A1,
A7, A8, A15; ``rules/DECISIONS.md`` D2-D4), as the encounter engine ``"btq_skirmish"``.

The PCs act as a group towards one goal; only their actions count (BtQ L1629-1641):

1. Tactics (BtQ L1654-1657): the commanding officer (``commander``; default the PC of
   highest ``seniority``, A15) gives every PC one action (decision ``tactics.action``): a
   combat challenge against one of the ``opposition`` (``fight:<id>``), a skill test
   (``skill:<key>``), or help with a skill test already ordered (``assist:<pc>``: his
   skill joins that pool, at most 3 cards from all helpers, an unskilled helper -1; he makes
   no test of his own and is no entry of the final test, BtQ L1280-1286, A7; none can help an
   unskilled test, BtQ L1266-1270), whose opposition the GM sets (``tactics.opposition``: a
   difficulty ``static:<cards>``, an NPC's same skill ``contested:<id>``, or the weather itself,
   ``weather``, BtQ L1711-1716).
2. Discipline (BtQ L1669-1672): the commander hands out at most his Discipline in cards to
   the others (``discipline.cards``, one decision per PC), each at most the recipient's own
   Discipline, 2 more with Born for Battle (BtQ L1069-1071); none to an unskilled test (BtQ
   L1266-1270).
3. Actions (BtQ L1674-1677): each PC in turn, by his own player (``action.perform``: the
   weapon for a fight, ``"go"`` for a test), fights (:func:`rules.btq.personal_combat.clash`;
   an NPC uses his best weapon at his range, and shoots back if it reaches) or tests (the
   card engine of :mod:`rules.btq.tests`). Wounds are dealt at once. A PC wins his action
   as A7 says: the D2 victor, or a shot or test passed.
4. The final test (BtQ L1679-1686): the commander's Command, +1 per PC who won and -1 per PC
   who lost, against the opposing commander's Command (the GM's, from the GM deck). Both
   pools 0, or a test still undecided after the D3 retests, is a stalemate (A8); under the
   setting ``mutual_fail_final = "stalemate"`` its first mutual failure or full tie is.
5. A lost skirmish costs the Ship Morale one level (BtQ L1688-1690; under the setting
   ``skirmish_morale_loss = "with_crew"`` only one fought with the crew, A8).

Ship Morale, in a skirmish fought ``with_crew`` (BtQ L1643-1647; A1): Injured -1 on the
final test; Maimed: the commander must first pass a Discipline simple test (D4) for the crew
to act (failed: they do not, and the skirmish is lost: a reading, the book says only "to
act"), then -3 on the final test; Dead: the crew will not fight, and the PCs skirmish alone
(A1). The weather's static modifier (§6.1, A6; :func:`rules.btq.personal_combat.weather_modifier`)
is on every pool of both sides, but a test against the weather itself (A6/§6.3).

Setup (``validate_setup``; ``ValueError`` with a reason)::

    {"pcs": [Fighter + {"seniority", "discipline", "command", "skills": {key: value},
             "born_for_battle": bool}],
     "commander": "pc:<pk>" | null,
     "opposition": [Fighter + {"band": "melee" | range band, "skills": {key: value}}],
     "opposing_commander": {"name": str, "command": int,
                            "id": a foe's id, when he is one of them (optional),
                            "second": int, his second's Command, should he fall},
     "with_crew": bool, "ship_morale": "healthy".."dead",
     "weather": {"wind", "precipitation"}, "stakes": {"win", "lose", "stalemate"},
     "settings": {...}}

(Fighter: :mod:`rules.btq.personal_combat`.) Draw order: the Maimed-morale gate; each
action in the commander's order (its gates, Card of Fate, the PC's pool, the opposition's);
the final test's Card of Fate, the commander's pool, the opposing commander's.
Events: ``skirmish.begin``, ``tactics.action``, ``tactics.opposition``, ``discipline.cards``,
``morale.gate``, ``action.draw``, ``action.result``, ``combat.wound``, ``final.draw``,
``skirmish.result``.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any, Literal

from rules.btq.characters import SKILLS, DamageState
from rules.btq.personal_combat import (
    BAND_LABELS,
    BANDS,
    MELEE,
    WEAPONS,
    CombatError,
    Fighter,
    Mode,
    awaited,
    best_weapon,
    cap,
    clash,
    clean_stakes,
    clean_weather,
    draw_events,
    fighter,
    fighter_pool,
    public_fighter,
    usable,
    weapon_options,
    weather_modifier,
    weather_pool,
    weather_words,
    wound,
)
from rules.btq.settings import resolve, upgraded
from rules.btq.tests import (
    DIFFICULTIES,
    DIFFICULTY,
    MAX_RETESTS,
    Helper,
    Modifier,
    Pool,
    Side,
    SuccessLevel,
    contested_test,
    damage_after,
    simple_test,
    static_test,
)
from rules.cards import GM_DECK, card_count, card_label
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

__all__ = ["SkirmishEngine", "ENGINE", "validate_setup", "discipline_cap", "BORN_FOR_BATTLE"]

ENGINE_NAME = "btq_skirmish"
BORN_FOR_BATTLE = 2
"""How much greater Born for Battle counts a recipient's Discipline (BtQ L1069-1071)."""

_SETUP_KEYS = {"pcs", "commander", "opposition", "opposing_commander", "with_crew",
               "ship_morale", "weather", "stakes", "settings"}
_PC_KEYS = frozenset({"seniority", "discipline", "command", "skills", "born_for_battle"})
_FOE_KEYS = frozenset({"band", "skills"})
_DIFFICULTY_NAMES = {v: k.replace("_", " ").title() for k, v in DIFFICULTIES.items()}


def _whole(value: object, what: str, low: int = 0, high: int = 20) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise CombatError(f"{what} must be a whole number from {low} to {high}, not {value!r}")
    return value


def _skills(value: object, where: str) -> dict[str, int]:
    value = value or {}
    if not isinstance(value, Mapping):
        raise CombatError(f"{where}: skills map a skill to its value")
    for key, v in value.items():
        if key not in SKILLS:
            raise CombatError(f"{where}: unknown skill {key!r}")
        _whole(v, f"{where}'s {SKILLS[key]}")
    return {k: value[k] for k in sorted(value) if value[k]}


def discipline_cap(pc: Fighter) -> int:
    """The most Discipline cards ``pc`` may receive: his own Discipline, 2 more with Born for
    Battle (BtQ L1669-1672, L1069-1071; TV-22)."""
    return pc["discipline"] + (BORN_FOR_BATTLE if pc["born_for_battle"] else 0)


def _state_name(value: object, what: str) -> str:
    if isinstance(value, str) and value.upper() in DamageState.__members__:
        return value.lower()
    raise CombatError(f"{what} must be healthy, injured, maimed or dead, not {value!r}")


def validate_setup(setup: dict) -> dict[str, Any]:
    """Check a ``btq_skirmish`` setup (module docstring) and return it normalised. Raises
    ``ValueError``: no PC, two fighters with one id, a commander who is not one of the PCs,
    a foe's band that is no range band, an opposing commander of another shape. (A foe whose
    weapon does not reach his range is a target who cannot shoot back.)"""
    if not isinstance(setup, Mapping):
        raise CombatError("the setup of a skirmish must be a mapping")
    unknown = sorted(set(setup) - _SETUP_KEYS)
    if unknown:
        raise CombatError(f"unknown setup key {unknown[0]!r}")
    raw = setup.get("pcs")
    if not isinstance(raw, list) or not raw:
        raise CombatError("a skirmish needs at least one PC")
    pcs = []
    for i, data in enumerate(raw):
        where = f"PC {i + 1}"
        pc = fighter(data, where, extra=_PC_KEYS)
        skills = _skills(data.get("skills"), where)
        command = _whole(data.get("command", skills.get("command", 0)), f"{where}'s Command")
        if command:  # one value for his Command, in the final test and in a Command test
            skills["command"] = command
        pc.update(seniority=_whole(data.get("seniority", 0), f"{where}'s seniority", 0, 99),
                  discipline=_whole(data.get("discipline", 1), f"{where}'s Discipline", 1),
                  command=command, skills=skills,
                  born_for_battle=bool(data.get("born_for_battle", False)))
        pcs.append(pc)
    foes = []
    for i, data in enumerate(setup.get("opposition") or []):
        where = f"foe {i + 1}"
        foe = fighter(data, where, extra=_FOE_KEYS)
        band = data.get("band", MELEE)
        if band not in (MELEE, *BANDS):
            raise CombatError(f"{where}: band must be melee or one of {', '.join(BANDS)}")
        foe.update(band=band, skills=_skills(data.get("skills"), where))
        foes.append(foe)
    ids = [f["id"] for f in pcs + foes]
    if len(set(ids)) != len(ids):
        raise CombatError("every fighter of a skirmish needs an id of his own")
    commander = setup.get("commander") or max(pcs, key=lambda p: p["seniority"])["id"]
    if commander not in {p["id"] for p in pcs}:
        raise CombatError("the commanding officer must be one of the PCs (BtQ L1654)")
    raw_opp = setup.get("opposing_commander") or {}
    if not isinstance(raw_opp, Mapping) or set(raw_opp) - {"name", "command", "id", "second"}:
        raise CombatError("the opposing commander is {'name', 'command'} and, for one of "
                          "the foes, his 'id' and his second's Command, 'second'")
    opp = {"name": str(raw_opp.get("name") or "the enemy commander").strip(),
           "command": _whole(raw_opp.get("command", 3), "the opposing commander's Command")}
    if raw_opp.get("id") is not None:
        if raw_opp["id"] not in {f["id"] for f in foes}:
            raise CombatError("the opposing commander's id must be one of the foes")
        opp.update(id=raw_opp["id"], second=_whole(raw_opp.get("second", 0),
                                                   "his second's Command"))
    return {"pcs": pcs, "commander": commander, "opposition": foes,
            "opposing_commander": opp, "with_crew": bool(setup.get("with_crew", False)),
            "ship_morale": _state_name(setup.get("ship_morale", "healthy"), "Ship Morale"),
            "weather": clean_weather(setup.get("weather")),
            "stakes": clean_stakes(setup.get("stakes")),
            "settings": resolve(dict(setup.get("settings") or {}))}


# --- helpers ---------------------------------------------------------------------------------


def _pcs(st: State) -> list[Fighter]:
    return [st["fighters"][p["id"]] for p in st["setup"]["pcs"]]


def _order(st: State) -> list[str]:
    """The PCs in the order they act: the commander first, then by seniority (the order of
    the book's example, BtQ L1662-1665)."""
    setup = st["setup"]
    pcs = sorted(setup["pcs"], key=lambda p: (p["id"] != setup["commander"], -p["seniority"]))
    return [p["id"] for p in pcs]


def _performers(st: State) -> list[str]:
    """The PCs who make their own test, in order: all but those who assist (BtQ L1280-1286:
    a helper takes no test of his own)."""
    return [pid for pid in _order(st) if st["actions"].get(pid, {}).get("kind") != "assist"]


def _helpers(st: State, pid: str) -> list[Fighter]:
    return [st["fighters"][h] for h in _order(st)
            if st["actions"].get(h, {}).get("kind") == "assist"
            and st["actions"][h]["target"] == pid]


def opposing_commander(st: State) -> dict[str, Any]:
    """Who leads the foes in the final test: ``{"name", "command", "fallen"}``. The
    opposing commander of the setup (BtQ L1679-1686: his Command, a pool the GM sets); one
    who is among the foes (``id``) and is Maimed, Dead or unconscious commands no more, and
    his second takes over with the GM's figure for him (``second``; a reading of BtQ
    L2526-2528, where command passes down from a fallen captain); ``fallen`` says so in
    words ("Captain Jones is Dead"), else ``None``."""
    opp = st["setup"]["opposing_commander"]
    him = st["fighters"].get(opp.get("id", ""))
    if him is not None and (him["health"] in ("maimed", "dead") or him["unconscious"]):
        state = "unconscious" if him["unconscious"] and him["health"] != "dead" else \
            him["health"].capitalize()
        return {"name": f"{opp['name']}'s second", "command": opp["second"],
                "fallen": f"{opp['name']} is {state}"}
    return {"name": opp["name"], "command": opp["command"], "fallen": None}


def _co(st: State) -> Fighter:
    return st["fighters"][st["setup"]["commander"]]


def _name(st: State, fid: str) -> str:
    return st["fighters"][fid]["name"]


def _down(f: Fighter) -> bool:
    return f["health"] == "dead" or f["unconscious"]


def _reach(pc: Fighter, foe: Fighter) -> bool:
    return any(usable(w, foe["band"]) for w in pc["weapons"])


def _action_options(st: State, pid: str) -> tuple[Option, ...]:
    pc = st["fighters"][pid]
    options = [Option(f"fight:{foe['id']}", f"Fight {foe['name']}")
               for foe in st["setup"]["opposition"] if _reach(pc, foe)]
    for key, label in SKILLS.items():
        value = pc["skills"].get(key, 0)
        options.append(Option(f"skill:{key}", f"{label} test ({value})" if value
                              else f"{label} test (unskilled)"))
    for other, action in st["actions"].items():
        if action["kind"] == "skill" and other != pid:
            skill = action["target"]
            value = pc["skills"].get(skill, 0)
            options.append(Option(f"assist:{other}", f"Help {_name(st, other)}'s "
                                  f"{SKILLS[skill]} test ({value or 'unskilled: -1'})"))
    return tuple(options)


def _default_action(st: State, pid: str) -> str:
    options = _action_options(st, pid)
    fights = [o.key for o in options if o.key.startswith("fight:")]
    if fights:
        return fights[_order(st).index(pid) % len(fights)]
    pc = st["fighters"][pid]
    best = max(SKILLS, key=lambda k: pc["skills"].get(k, 0))
    return f"skill:{best}"


def _opposition_options(st: State, pid: str) -> tuple[Option, ...]:
    key = st["actions"][pid]["target"]
    options = [Option(f"static:{n}", f"{_DIFFICULTY_NAMES[n]} ({card_count(n)})")
               for n in sorted(_DIFFICULTY_NAMES)]
    for foe in st["setup"]["opposition"]:
        options.append(Option(f"contested:{foe['id']}", f"{foe['name']}'s {SKILLS[key]}"))
    if weather_pool(st["setup"]["weather"]):
        options.append(Option("weather", f"The weather itself "
                              f"({card_count(weather_pool(st['setup']['weather']))})"))
    return tuple(options)


def _unskilled(st: State, pid: str) -> bool:
    action = st["actions"][pid]
    return action["kind"] == "skill" and not st["fighters"][pid]["skills"].get(action["target"])


def _recipients(st: State) -> list[str]:
    co = st["setup"]["commander"]
    return [pid for pid in _performers(st) if pid != co and not _unskilled(st, pid)
            and pid not in st["cards"]]


def _given(st: State) -> int:
    return sum(st["cards"].values())


def _card_options(st: State, pid: str) -> tuple[Option, ...]:
    most = min(_co(st)["discipline"] - _given(st), discipline_cap(st["fighters"][pid]))
    return tuple(Option(str(n), card_count(n)) for n in range(most + 1))


def _fair_share(st: State, pid: str) -> str:
    left = _co(st)["discipline"] - _given(st)
    others = len(_recipients(st))
    share = -(-left // others) if others else 0
    return str(min(share, discipline_cap(st["fighters"][pid]), left))


def _perform_options(st: State, pid: str) -> tuple[Option, ...]:
    action = st["actions"][pid]
    if action["kind"] == "skill":
        return (Option("go", "Turn the cards"),)
    foe = st["fighters"][action["target"]]
    if _down(foe):
        return (Option("go", "Go on"),)
    return weapon_options(st["fighters"][pid], foe["band"])


# --- the engine ------------------------------------------------------------------------------


class SkirmishEngine:
    """The ``btq_skirmish`` engine (:class:`rules.engine.Engine`; module docstring)."""

    name = ENGINE_NAME
    title = "Beat to Quarters: skirmish"

    def upgrade(self, state: State) -> State:
        """:func:`rules.btq.settings.upgraded`: a stored state's settings completed."""
        return upgraded(state)

    def validate_setup(self, setup: dict) -> dict:
        """:func:`validate_setup`."""
        return validate_setup(setup)

    def start(self, setup: dict, source: RandomSource) -> tuple[State, list[Event]]:
        """The skirmish begins: the commander's tactics are awaited."""
        setup = validate_setup(setup)
        fighters = {f["id"]: f for f in setup["pcs"] + setup["opposition"]}
        st = {"setup": setup, "fighters": fighters, "phase": "tactics", "actions": {},
              "cards": {}, "results": {}, "final": None, "result": None,
              "morale": setup["ship_morale"]}
        co = fighters[setup["commander"]]
        text = (f"A skirmish: {', '.join(p['name'] for p in setup['pcs'])} against "
                f"{', '.join(f['name'] for f in setup['opposition']) or 'the opposition'}. "
                f"{co['name']} is in command.")
        mod = weather_modifier(setup["weather"])
        if mod:
            text += f" The weather ({weather_words(setup['weather'])}) is {mod} to every test."
        if setup["with_crew"]:
            text += f" The crew fight with them; Ship Morale is {setup['ship_morale']}."
        for key in ("win", "lose", "stalemate"):
            if setup["stakes"][key]:
                text += f" If they {key if key != 'stalemate' else 'reach a stalemate'}: " \
                        f"{setup['stakes'][key].rstrip('.')}."  # mid-sentence
        return st, [Event("skirmish.begin", text, {"commander": co["id"]})]

    def participants(self, state: State) -> dict[str, str]:
        """Every PC's controller -> the PC's name (the GM runs the opposition)."""
        return {p["controller"]: p["name"] for p in state["setup"]["pcs"]
                if p["controller"] != GM}

    def pending(self, state: State) -> list[Decision]:
        """The one decision the skirmish waits for (module docstring), none once over."""
        st = state
        phase = st["phase"]
        co = _co(st)
        if phase == "tactics":
            pid = next(p for p in _order(st) if p not in st["actions"])
            whom = "he himself" if pid == co["id"] else _name(st, pid)
            return [Decision(co["controller"], "tactics.action",
                             f"Orders: what does {whom} do?",
                             _action_options(st, pid), _default_action(st, pid))]
        if phase == "opposition":
            pid = next(p for p in _order(st) if st["actions"][p]["kind"] == "skill"
                       and st["actions"][p]["opposition"] is None)
            skill = SKILLS[st["actions"][pid]["target"]]
            return [Decision(GM, "tactics.opposition",
                             f"What opposes {_name(st, pid)}'s {skill} test?",
                             _opposition_options(st, pid), "static:3")]
        if phase == "discipline":
            pid = _recipients(st)[0]
            return [Decision(co["controller"], "discipline.cards",
                             f"How many of his Discipline cards "
                             f"({co['discipline'] - _given(st)} left) go to {_name(st, pid)}?",
                             _card_options(st, pid), _fair_share(st, pid))]
        if phase == "perform":
            pid = next(p for p in _performers(st) if p not in st["results"])
            pc = st["fighters"][pid]
            action = st["actions"][pid]
            if action["kind"] == "fight":
                prompt = f"Against {_name(st, action['target'])}: with which weapon?"
                options = _perform_options(st, pid)
                default = options[0].key if options[0].key == "go" else \
                    best_weapon(pc, st["fighters"][action["target"]]["band"])
            else:
                prompt = f"The {SKILLS[action['target']]} test: turn the cards?"
                options, default = _perform_options(st, pid), "go"
            return [Decision(pc["controller"], "action.perform", prompt, options, default)]
        return []

    def apply(self, state: State, actor: str, choice: str, source: RandomSource
              ) -> tuple[State, list[Event]]:
        """Take the awaited decision and play on to the next (the draws included).
        ``IllegalAction`` (nothing changed) for the wrong actor or a choice not offered."""
        decision = awaited(self.pending(state), actor)
        decision.option(choice)
        st = copy.deepcopy(state)
        events: list[Event] = []
        if decision.kind == "tactics.action":
            pid = next(p for p in _order(st) if p not in st["actions"])
            kind, _, target = choice.partition(":")
            st["actions"][pid] = {"kind": kind, "target": target,
                                  "opposition": None if kind == "skill" else "combat"}
            what = (f"to fight {_name(st, target)}" if kind == "fight"
                    else f"to help {_name(st, target)}" if kind == "assist"
                    else f"a {SKILLS[target]} test")
            whom = "himself" if pid == st["setup"]["commander"] else _name(st, pid)
            events.append(Event("tactics.action", f"{_co(st)['name']} orders {whom}: {what}.",
                                {"who": pid, "action": choice}))
            if len(st["actions"]) == len(st["setup"]["pcs"]):
                st["phase"] = "opposition"
        elif decision.kind == "tactics.opposition":
            pid = next(p for p in _order(st) if st["actions"][p]["kind"] == "skill"
                       and st["actions"][p]["opposition"] is None)
            st["actions"][pid]["opposition"] = choice
            label = decision.option(choice).label
            secret = choice.startswith("contested:")
            events.append(Event("tactics.opposition", f"The GM sets what opposes "
                                f"{_name(st, pid)}: "
                                f"{'an opponent' if secret else label}.",
                                {"who": pid}, {"opposition": label} if secret else {}))
        elif decision.kind == "discipline.cards":
            pid = _recipients(st)[0]
            st["cards"][pid] = int(choice)
            events.append(Event("discipline.cards", f"{_co(st)['name']} gives {_name(st, pid)} "
                                f"{card_count(int(choice), 'Discipline')}.",
                                {"who": pid, "cards": int(choice)}))
        else:
            pid = next(p for p in _performers(st) if p not in st["results"])
            events += self._perform(st, pid, choice, source)
        events += self._advance(st, source)
        return st, events

    def _advance(self, st: State, source: RandomSource) -> list[Event]:
        events: list[Event] = []
        if st["phase"] == "opposition" and all(a["opposition"] for a in st["actions"].values()):
            st["phase"] = "discipline"
        if st["phase"] == "discipline" and (not _recipients(st) or
                                            _co(st)["discipline"] - _given(st) <= 0):
            st["phase"] = "perform"
            events += self._morale_gate(st, source)
        if st["phase"] == "perform" and len(st["results"]) == len(_performers(st)):
            events += self._final(st, source)
        return events

    def _with_crew(self, st: State) -> bool:
        return st["setup"]["with_crew"] and st["morale"] != "dead"

    def _morale_gate(self, st: State, source: RandomSource) -> list[Event]:
        setup = st["setup"]
        if setup["with_crew"] and st["morale"] == "dead":
            return [Event("morale.gate", "Ship Morale is Dead: the crew will not fight, and "
                          "the PCs skirmish alone.", {"passed": None})]
        if not (setup["with_crew"] and st["morale"] == "maimed"):
            return []
        co = _co(st)
        side = Side(co["id"], Pool("discipline", co["discipline"]), co["deck"])
        record = simple_test(side, source, setup["settings"],
                             intent="the crew to act with Ship Morale Maimed")
        rnd = record.rounds[-1]
        passed = record.outcome == "passed"
        text = (f"Ship Morale is Maimed: {co['name']} tests his Discipline for the crew to act."
                f" Card of Fate {card_label(rnd.fate)}; he turns "
                f"{' '.join(card_label(c) for c in rnd.hands[0].cards) or 'no card'}: "
                + ("the crew act." if passed else "the crew will not act, and the skirmish "
                   "is lost."))
        events = [Event("morale.gate", text, {
            "passed": passed, "card_of_fate": str(rnd.fate),
            "pools": {"a": {"who": co["name"], "cards": [str(c) for c in rnd.hands[0].cards]}}})]
        if not passed:
            for pid in _performers(st):
                st["results"].setdefault(pid, "lost")
            events += self._end(st, "defeat", None)
        return events

    def _mods(self, st: State, pid: str, *, against_weather: bool = False
              ) -> list[tuple[str, int]]:
        mods = []
        cards = st["cards"].get(pid, 0)
        if cards:
            mods.append(("Discipline cards", cards))
        mod = weather_modifier(st["setup"]["weather"])
        if mod and not against_weather:
            mods.append(("weather", mod))
        return mods

    def _perform(self, st: State, pid: str, choice: str, source: RandomSource
                 ) -> list[Event]:
        setup = st["setup"]
        pc = st["fighters"][pid]
        action = st["actions"][pid]
        if action["kind"] == "fight":
            foe = st["fighters"][action["target"]]
            if _down(foe):
                st["results"][pid] = "won"
                return [Event("action.result", f"{cap(foe['name'])} has already fallen: "
                              f"{pc['name']}'s action is won.", {"who": pid, "result": "won"})]
            band = foe["band"]
            foe_weapon = next((w for w in sorted(foe["weapons"], key=lambda w: -_pool_at(
                foe, w, band)) if usable(w, band)), None)
            mode: Mode = "melee" if band == MELEE else ("fire" if foe_weapon else "shot")
            weather = [m for m in self._mods(st, pid) if m[0] == "weather"]
            where = "hand to hand" if band == MELEE else f"at {BAND_LABELS[band]} range"
            result, events = clash(pc, choice, foe, foe_weapon, source, band=band, mode=mode,
                                   extra_a=self._mods(st, pid), extra_b=weather,
                                   settings=setup["settings"], kind="action.draw",
                                   what=f"{pc['name']} ({WEAPONS[choice].label}) against "
                                        f"{foe['name']} {where}")
            brawl = {pid: WEAPONS[choice].brawl,
                     foe["id"]: bool(foe_weapon and WEAPONS[foe_weapon].brawl)}
            for victim, attacker in ((foe["id"], pid), (pid, foe["id"])):
                level = result.levels[attacker]
                if level:
                    before = st["fighters"][victim]["health"]
                    st["fighters"][victim], text = wound(st["fighters"][victim], level,
                                                         brawl=brawl[attacker])
                    events.append(Event("combat.wound", text, {
                        "who": victim, "level": SuccessLevel(level).name.lower(),
                        "from": before, "to": st["fighters"][victim]["health"]}))
            won = result.winner == pid
        else:
            events, won = self._test(st, pid, action, source)
        st["results"][pid] = "won" if won else "lost"
        events.append(Event("action.result", f"{cap(pc['name'])}'s action: "
                            f"{'won' if won else 'lost'}.", {"who": pid,
                                                             "result": st["results"][pid]}))
        return events

    def _test(self, st: State, pid: str, action: dict[str, Any], source: RandomSource
              ) -> tuple[list[Event], bool]:
        setup = st["setup"]
        pc = st["fighters"][pid]
        key = action["target"]
        opposition = action["opposition"]
        value = pc["skills"].get(key, 0)
        against_weather = opposition == "weather"
        mods = tuple(Modifier(s, c) for s, c in self._mods(st, pid,
                                                          against_weather=against_weather)
                     if value or c < 0)
        helpers = () if not value else tuple(
            Helper(h["name"], h["skills"].get(key, 0)) for h in _helpers(st, pid))
        pool = Pool(key, value, mods, helpers=helpers, unskilled=not value)
        side = Side(pid, pool, pc["deck"])
        names = {pid: pc["name"], DIFFICULTY: "the opposition"}
        secret: set[str] = set()
        if opposition.startswith("contested:"):
            foe = st["fighters"][opposition.partition(":")[2]]
            foe_value = foe["skills"].get(key, 0)
            weather = tuple(Modifier(s, c) for s, c in self._mods(st, foe["id"])
                            if s == "weather")
            foe_side = Side(foe["id"], Pool(key, foe_value, weather if foe_value else
                                            tuple(m for m in weather if m.cards < 0),
                                            unskilled=not foe_value), GM_DECK, secret=True)
            names[foe["id"]] = foe["name"]
            secret.add(foe["id"])
            record = contested_test(side, foe_side, source, setup["settings"])
        else:
            cards = weather_pool(setup["weather"]) if against_weather else \
                int(opposition.partition(":")[2])
            if against_weather:
                names[DIFFICULTY] = "the weather"
            record = static_test(side, cards, source, setup["settings"])
        events = draw_events("action.draw", record, names, secret,
                             what=f"{pc['name']}'s {SKILLS[key]} test")
        return events, record.winner == pid

    def _final(self, st: State, source: RandomSource) -> list[Event]:
        setup = st["setup"]
        co = _co(st)
        won = sum(1 for r in st["results"].values() if r == "won")
        lost = len(st["results"]) - won
        mods = [Modifier("PCs who won", won)] if won else []
        if lost:
            mods.append(Modifier("PCs who lost", -lost))
        if self._with_crew(st) and st["morale"] in ("injured", "maimed"):
            penalty = DamageState[st["morale"].upper()].penalty
            mods.append(Modifier(f"Ship Morale {st['morale'].capitalize()}", -penalty))
        mod = weather_modifier(setup["weather"])
        if mod:
            mods.append(Modifier("weather", mod))
        ours = Side(co["id"], Pool("command", co["command"], tuple(mods)), co["deck"])
        opp = opposing_commander(st)
        said = []
        if opp["fallen"]:
            said = [Event("final.commander", f"{opp['fallen']} and commands no more: his "
                          "second leads the foes in the final test.", {},
                          gm_data={"command": opp["command"]})]
        theirs = Side("opposing_commander", Pool("command", opp["command"],
                                                 (Modifier("weather", mod),) if mod else ()),
                      GM_DECK, secret=True)
        floor = setup["settings"]["personal_pool_floor"]
        if ours.pool.size(floor) == 0 and theirs.pool.size() == 0:
            events = [*said, Event("final.draw", "Neither commander has a card to turn: a "
                                   "stalemate.", {})]
            return events + self._end(st, "stalemate", None)
        retests = MAX_RETESTS if setup["settings"]["mutual_fail_final"] == "retest" else 0
        record = contested_test(ours, theirs, source, setup["settings"],
                                intent="the final test of the skirmish", retests=retests)
        names = {co["id"]: co["name"], "opposing_commander": opp["name"]}
        events = said + draw_events("final.draw", record, names, {"opposing_commander"},
                                    what=f"The final Command test, {co['name']} against "
                                         f"{opp['name']}")
        st["final"] = {"winner": record.winner, "outcome": record.outcome}
        if record.outcome == "stalemate":
            return events + self._end(st, "stalemate", None)
        return events + self._end(st, "victory" if record.winner == co["id"] else "defeat",
                                  record.winner)

    def _end(self, st: State, result: Literal["victory", "defeat", "stalemate"],
             winner: str | None) -> list[Event]:
        setup = st["setup"]
        st["phase"] = "done"
        st["result"] = result
        before = st["morale"]
        # BtQ L1688-1690 as written, or only with the crew (setting, A8)
        if result == "defeat" and (setup["with_crew"] or
                                   setup["settings"]["skirmish_morale_loss"] == "always"):
            st["morale"] = damage_after(DamageState[before.upper()],
                                        SuccessLevel.ORDINARY).name.lower()
        text = {"victory": f"{cap(_co(st)['name'])} wins the final test: victory.",
                "defeat": "The skirmish is lost.",
                "stalemate": "A stalemate: neither side carries the day."}[result]
        stake = setup["stakes"]["win" if result == "victory" else
                                "lose" if result == "defeat" else "stalemate"]
        if stake:
            text += f" {cap(stake.rstrip('.'))}."
        if st["morale"] != before:
            text += f" Ship Morale goes from {before.capitalize()} to " \
                    f"{st['morale'].capitalize()}."
        return [Event("skirmish.result", text, {"result": result,
                                                "morale": {"from": before, "to": st["morale"]}})]

    def default_choice(self, state: State, decision: Decision) -> str:
        """The decision's default: each PC to a foe he can reach (else his best skill), a
        Routine difficulty, the Discipline cards shared out evenly, the best weapon."""
        return decision.default

    def outcome(self, state: State) -> Outcome | None:
        """``Outcome(winner=the commander's id on a victory, "gm" on a defeat, None on a
        stalemate, result="victory" | "defeat" | "stalemate", summary, data={"fighters": id
        -> {"name", "health_before", "health", "unconscious", "scratch", "cheat_death"},
        "results": pc id -> "won" | "lost", "ship_morale": {"from", "to"}})``."""
        if state["result"] is None:
            return None
        result = state["result"]
        winner = state["setup"]["commander"] if result == "victory" else \
            GM if result == "defeat" else None
        before = {f["id"]: f["health"] for f in state["setup"]["pcs"] +
                  state["setup"]["opposition"]}
        return Outcome(winner, result, self._summary(state), {
            "fighters": {fid: {"name": f["name"], "health_before": before[fid],
                               "health": f["health"], "unconscious": f["unconscious"],
                               "scratch": f["scratch"], "cheat_death": f["cheat_death"]}
                         for fid, f in state["fighters"].items()},
            "results": dict(state["results"]),
            "ship_morale": {"from": state["setup"]["ship_morale"], "to": state["morale"]}})

    def _summary(self, st: State) -> str:
        words = {"victory": "Victory", "defeat": "Defeat", "stalemate": "A stalemate"}
        parts = [f"{words[st['result']]}."]
        hurt = [f"{f['name']} {f['health'].capitalize()}" for f in _pcs(st)
                if f["health"] != "healthy"]
        if hurt:
            parts.append("Wounded: " + ", ".join(hurt) + ".")
        if st["morale"] != st["setup"]["ship_morale"]:
            parts.append(f"Ship Morale {st['morale'].capitalize()}.")
        return " ".join(parts)

    def view(self, state: State, participant: str) -> dict[str, Any]:
        """What ``participant`` sees: the PCs, the foes as :func:`public_fighter` (no
        statistics), the orders, Discipline cards and results, the name of who leads the
        foes (:func:`opposing_commander`) only. The GM's view has the same keys with the foes
        in full, his Command and whether the commander has fallen (``fallen``), the
        oppositions set, and ``full``, the whole state."""
        st = state
        gm = participant == GM
        setup = st["setup"]
        leader = opposing_commander(st)
        out = {
            "phase": st["phase"], "commander": setup["commander"],
            "pcs": [public_fighter(f) | {"discipline": f["discipline"]} for f in _pcs(st)],
            "opposition": [public_fighter(st["fighters"][f["id"]], gm=gm)
                           for f in setup["opposition"]],
            "opposing_commander": leader if gm else {"name": leader["name"]},
            "actions": {pid: {"kind": a["kind"], "target": a["target"]}
                        | ({"opposition": a["opposition"]} if gm else {})
                        for pid, a in st["actions"].items()},
            "cards": dict(st["cards"]), "results": dict(st["results"]),
            "with_crew": setup["with_crew"], "morale": st["morale"],
            "weather": setup["weather"], "stakes": setup["stakes"], "result": st["result"],
        }
        if gm:
            out["full"] = copy.deepcopy(state)
        return out

    def scenarios(self) -> dict[str, Scenario]:
        """The book's skirmish (missions TV-06, BtQ L1651-1686) and the Discipline caps of
        TV-22, ``rules/btq/scenarios/skirmish/*.json``."""
        return load_scenarios("rules.btq", "scenarios/skirmish")


def _pool_at(f: Fighter, weapon: str, band: str) -> int:
    return fighter_pool(f, weapon, band)[0] if usable(weapon, band) else -1


ENGINE = register(SkirmishEngine())
