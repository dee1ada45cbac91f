"""A card test at the table: the encounter engine ``"btq_test"`` (:mod:`rules.engine`), which
runs one test of :mod:`rules.btq.tests` (BtQ L1181-1286; ``rules/btq_characters.md`` §4,
``rules/DECISIONS.md`` D1-D5) step by step, so that a test is called, drawn, shown, replayed
and made fair by the same mechanism as a battle.

The GM's call, or a player's proposal and the GM's acceptance, happen before the engine
starts (the encounter's setup phase). Then:

1. ``awaiting_confirmation``: the acting character (``sides[0]``) turns the cards
   (decision ``test.confirm``, option ``"draw"``; the GM's when ``sides[0]`` is an NPC).
   The Card of Fate and the pools are drawn in the kernel's order (the CoF from the GM deck,
   then each side's pool in the order of the sides; in a static test the character, then
   the difficulty pool), so a :class:`rules.random.ScriptedSource` of the book's cards plays
   the book's test. A mutual failure or full tie is turned again (D3).
2. ``awaiting_joker``: a player who turned the Joker names the card it stands for (BtQ
   L1228; decision ``test.joker``, one of the 52 cards, default the Card of Fate, D5). Each
   name stays hidden (the GM and the declarer) until all are in; then the round is judged,
   and a retest may turn up another Joker.
3. ``done``: the :class:`rules.btq.tests.TestRecord` and its damage (:meth:`TestEngine.outcome`).

Setup (:func:`validate_setup` returns it normalised; ``ValueError`` with a reason)::

    {"kind": "contested" | "static" | "simple",
     "origin": "gm" | "player",                 # only the wording changes
     "intent": str,
     "stakes": {"win": str, "lose": str},       # for sides[0]; public
     "settings": {...},                         # rules.btq.settings (stored resolved)
     "sides": [Side JSON, ...],                 # rules.btq.tests.Side.as_dict(); contested
                                                #   two, static and simple one
     "difficulty": "challenging" | 4 | null,    # static only: a DIFFICULTIES key or cards
     "names": {who: display name}}              # one for every side

State (JSON)::

    {"setup": setup, "phase": "awaiting_confirmation" | "awaiting_joker" | "done",
     "pending": PendingTest JSON | null, "declared": {who: "9H"},
     "record": TestRecord JSON | null}

Participants: every side that turns a player deck (``{who: name}``); an NPC's side is the
GM's. Events (``kind``: what): ``test.called`` / ``test.accepted`` (the start, by
``origin``), ``test.round`` (a round drawn, and again once judged if a Joker held it up),
``test.joker_turned``, ``test.joker_named`` (for the declarer only), ``test.result``. Texts
name the sides by ``setup["names"]`` and write cards as ``4♠``, ``10♥``, ``Joker named 9♥``;
data keep the kernel's card texts (``"4S"``, ``"JK=9H"``).

Hidden stays hidden: a ``secret`` side's pool make-up (its skill, value, modifiers,
reputation, helpers) is in the state, the GM's view and events' ``gm_data`` only; players see
its size. So is the damage to a secret side's reputation (its name is part of the pool).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping

from rules.btq.characters import MEASURES, SKILLS
from rules.btq.settings import resolve, upgraded
from rules.btq.tests import (
    DIFFICULTIES,
    DIFFICULTY,
    DIFFICULTY_LABELS,
    KINDS,
    MAX_RETESTS,
    Damage,
    PendingTest,
    Side,
    TestError,
    TestRecord,
    check_sides,
    difficulty_side,
    resume,
    start_contested,
    start_simple,
    start_static,
    won_to_none,
)
from rules.cards import PLAYER_DECK, STANDARD_52, card_count, card_label
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

__all__ = ["TestEngine", "ENGINE", "PHASES", "ORIGINS", "validate_setup"]

ENGINE_NAME = "btq_test"
PHASES = ("awaiting_confirmation", "awaiting_joker", "done")
"""The values of ``state["phase"]``."""
ORIGINS = ("gm", "player")
"""Who started the test: the GM's call or a player's proposal the GM accepted."""

_SETUP_KEYS = {"kind", "origin", "intent", "stakes", "settings", "sides", "difficulty", "names"}
_SIDES = {"contested": 2, "static": 1, "simple": 1}
_KEY_OF_LABEL = {label: key for key, label in DIFFICULTY_LABELS.items()}
_PLURAL = {"perfect": "Perfects", "critical": "Criticals", "ordinary": "Ordinaries"}
_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
            "ten", "eleven", "twelve")



_JOKER_OPTIONS = tuple(Option(str(c), card_label(str(c))) for c in STANDARD_52)


# --- setup ------------------------------------------------------------------------------------


def _text(value, what: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ValueError(f"{what} must be text, not {value!r}")
    return value.strip()


def _side(data, i: int) -> Side:
    where = f"side {i + 1}"
    if not isinstance(data, Mapping):
        raise ValueError(f"{where} must be a mapping (Side JSON), not {type(data).__name__}")
    try:
        return Side.from_dict(data)
    except KeyError as exc:
        raise ValueError(f"{where}: missing {exc.args[0]!r}") from None
    except (TestError, TypeError, AttributeError) as exc:
        raise ValueError(f"{where}: {exc}") from None


def _difficulty(kind: str, value):
    if kind != "static":
        if value is not None:
            raise ValueError(f"only a static test has a difficulty, not a {kind} test")
        return None
    if value is None:
        raise ValueError(f"a static test needs a difficulty: one of {', '.join(DIFFICULTIES)}, "
                         "or a number of cards")
    if not isinstance(value, (str, int)) or isinstance(value, bool):
        raise ValueError(f"the difficulty must be a name or a number of cards, not {value!r}")
    pool = difficulty_side(value).pool  # TestError (a ValueError) for a bad one
    return value if isinstance(value, int) else _KEY_OF_LABEL[pool.skill]


def validate_setup(setup: dict) -> dict:
    """Check a ``btq_test`` setup (the shape is in the module's docstring) and return it
    normalised: defaults filled in (``origin`` ``"gm"``, empty ``intent`` and ``stakes``),
    settings resolved (:func:`rules.btq.settings.resolve`), each side as
    :meth:`rules.btq.tests.Side.as_dict`, the difficulty as its key. Raises ``ValueError``
    with the reason: an unknown key, kind or origin, the wrong number of sides (contested
    two, static and simple one, BtQ L1195-1264; D4), sides that cannot meet
    (:func:`rules.btq.tests.check_sides`), a missing or unknown difficulty, a side without a
    name or a name for no side."""
    if not isinstance(setup, Mapping):
        raise ValueError("the setup of a card test must be a mapping")
    unknown = sorted(set(setup) - _SETUP_KEYS)
    if unknown:
        raise ValueError(f"unknown setup key {unknown[0]!r}")
    kind = setup.get("kind")
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    origin = setup.get("origin", "gm")
    if origin not in ORIGINS:
        raise ValueError(f"origin must be 'gm' or 'player', not {origin!r}")
    stakes = {} if setup.get("stakes") is None else setup["stakes"]
    if not isinstance(stakes, Mapping) or set(stakes) - {"win", "lose"}:
        raise ValueError("stakes must be a mapping of 'win' and 'lose' to text")
    settings = {} if setup.get("settings") is None else setup["settings"]
    if not isinstance(settings, Mapping):
        raise ValueError("settings must be a mapping of campaign settings")
    sides = setup.get("sides")
    if not isinstance(sides, list) or len(sides) != _SIDES[kind]:
        count = "two sides" if _SIDES[kind] == 2 else "exactly one side"
        raise ValueError(f"a {kind} test has {count}")
    sides = [_side(s, i) for i, s in enumerate(sides)]
    difficulty = _difficulty(kind, setup.get("difficulty"))
    check_sides(kind, tuple(sides) + ((difficulty_side(difficulty),) if difficulty is not None
                                      else ()), settings)
    names = setup.get("names")
    if not isinstance(names, Mapping):
        raise ValueError("names must map every side's who to its display name")
    whos = [s.who for s in sides]
    for who in whos:
        if not isinstance(names.get(who), str) or not names[who].strip():
            raise ValueError(f"names: {who!r} needs a display name")
    extra = sorted(set(names) - set(whos))
    if extra:
        raise ValueError(f"names: {extra[0]!r} is no side of this test")
    return {
        "kind": kind,
        "origin": origin,
        "intent": _text(setup.get("intent", ""), "the intent"),
        "stakes": {k: _text(stakes.get(k, ""), f"the stakes' {k!r}") for k in ("win", "lose")},
        "settings": resolve(dict(settings)),
        "sides": [s.as_dict() for s in sides],
        "difficulty": difficulty,
        "names": {who: names[who].strip() for who in whos},
    }


# --- words ------------------------------------------------------------------------------------


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _count(n: int) -> str:
    return _NUMBERS[n] if n < len(_NUMBERS) else str(n)


def _skill(side: Side) -> str:
    skill = side.pool.skill
    label = SKILLS.get(skill) or MEASURES.get(skill) or skill
    return f"unskilled {label}" if side.pool.unskilled else label


def _floor(setup: dict) -> int:
    return setup["settings"]["personal_pool_floor"]


def _sides(setup: dict) -> tuple[Side, ...]:
    return tuple(Side.from_dict(s) for s in setup["sides"])


def _opposition(setup: dict) -> str:
    """The static test's difficulty pool in words: "the Challenging difficulty (5 cards)"."""
    difficulty = setup["difficulty"]
    if isinstance(difficulty, int):
        return f"an opposition of {card_count(difficulty)}"
    pool = card_count(DIFFICULTIES[difficulty])
    return f"the {DIFFICULTY_LABELS[difficulty]} difficulty ({pool})"


def _name(setup: dict, who: str) -> str:
    if who == DIFFICULTY:
        difficulty = setup["difficulty"]
        return ("the opposition" if isinstance(difficulty, int)
                else f"the {DIFFICULTY_LABELS[difficulty]} difficulty")
    return setup["names"].get(who, who)


def _level(name: str) -> str:
    return name.capitalize()


def _a(level: str) -> str:
    return f"an {_level(level)}" if level == "ordinary" else f"a {_level(level)}"


def _successes(hand: dict) -> str:
    """What a hand scored: "no success", "one Critical success", "two successes: one
    Critical, one Ordinary"."""
    parts = [(n, level) for n, level in zip(hand["summary"], ("Perfect", "Critical", "Ordinary"))
             if n]
    total = sum(n for n, _ in parts)
    if total == 0:
        return "no success"
    if len(parts) == 1:
        n, level = parts[0]
        return f"{_count(n)} {level} success" + ("" if n == 1 else "es")
    return f"{_count(total)} successes: " + ", ".join(f"{_count(n)} {lv}" for n, lv in parts)


def _hand_text(setup: dict, hand: dict) -> str:
    name = _cap(_name(setup, hand["who"]))
    if not hand["cards"]:
        return f"{name} turns no card: no success."
    cards = " ".join(card_label(c) for c in hand["cards"])
    joker = " and a Joker still to name" if "JK" in hand["cards"] else ""
    return f"{name} turns {cards}: {_successes(hand)}{joker}."


def _comparison_text(setup: dict, rnd: dict) -> str:
    c = rnd["comparison"]
    hands = rnd["hands"]
    if setup["kind"] == "simple":
        name = _cap(_name(setup, hands[0]["who"]))
        return f"{name} passes." if c["result"] == "pass" else f"{name} fails."
    if c["by"] == "no_success":
        return "Neither side succeeds."
    if c["by"] == "full_tie":
        return "The two sides tie all the way down."
    win = 0 if c["result"] == "a" else 1
    winner = _cap(_name(setup, hands[win]["who"]))
    ours, theirs = (c["a"], c["b"]) if win == 0 else (c["b"], c["a"])
    if c["by"] == "tie_break":
        return f"{winner} wins the tie-break, {card_label(ours)} over {card_label(theirs)}."
    total = won_to_none(rnd)
    if total is not None:
        return f"{winner} wins, {_count(total)} success{'' if total == 1 else 'es'} to none."
    return f"{winner} wins on {_PLURAL[c['by']]}, {ours} to {theirs}."


def _round_event(setup: dict, rnd: dict) -> Event:
    """``test.round``: the Card of Fate, every hand and, once judged, who took it. The cards
    on the table are public."""
    number = rnd["number"]
    head = "The Card of Fate is" if number == 1 else f"Retest {number - 1}: the Card of Fate is"
    parts = [f"{head} {card_label(rnd['fate'])}."] + [_hand_text(setup, h) for h in rnd["hands"]]
    if rnd["comparison"] is not None:
        parts.append(_comparison_text(setup, rnd))
    data = {**rnd, "hands": [{**h, "name": _name(setup, h["who"])} for h in rnd["hands"]]}
    return Event("test.round", " ".join(parts), data)


def _hidden_damage(setup: dict, damage: dict) -> bool:
    """Whether ``damage`` would show a secret pool's make-up: a secret side's reputation."""
    secret = {s["who"] for s in setup["sides"] if s["secret"]}
    return damage["cause"] == "reputation" and damage["who"] in secret


def _damage_text(setup: dict, damage: dict) -> str:
    area = (f"reputation “{damage['area']}”" if damage["cause"] == "reputation"
            else damage["area"])
    return (f"{_cap(_name(setup, damage['who']))}'s {area} goes from {_level(damage['from'])} "
            f"to {_level(damage['to'])}.")


def _summary(setup: dict, record: dict) -> str:
    """The outcome in public words: who won and how well, the stakes, the public damage."""
    me = setup["sides"][0]["who"]
    name = _cap(_name(setup, me))
    outcome, stakes = record["outcome"], setup["stakes"]
    retests = len(record["rounds"]) - 1
    after = "" if not retests else f" after {_count(retests)} retest" + ("s" if retests > 1
                                                                          else "")
    if outcome == "stalemate":
        return (f"After {_count(MAX_RETESTS)} retests nobody has won: a stalemate, and nothing "
                "changes.")
    if outcome in ("passed", "failed"):
        text = (f"{name} passes with {_a(record['result'])} success{after}." if outcome ==
                "passed" else f"{name} fails{after}.")
        stake = stakes["win" if outcome == "passed" else "lose"]
    elif record["winner"] == me:
        text = f"{name} wins with {_a(record['result'])} success{after}."
        stake = stakes["win"]
    else:
        text = (f"{name} loses: {_name(setup, record['winner'])} wins with "
                f"{_a(record['result'])} success{after}.")
        stake = stakes["lose"]
    if stake:
        text += f" {_cap(stake.rstrip('.'))}."
    for damage in record["damage"]:
        if not _hidden_damage(setup, damage):
            text += " " + _damage_text(setup, damage)
    return text


def _named_damage(setup: dict, damage: list[dict]) -> list[dict]:
    return [{**d, "name": _name(setup, d["who"])} for d in damage]


def _result_event(setup: dict, record: dict) -> Event:
    """``test.result``: the outcome sentence and the damage (who, area, from -> to); damage
    to a secret side's reputation in ``gm_data`` only."""
    public = [d for d in record["damage"] if not _hidden_damage(setup, d)]
    hidden = [d for d in record["damage"] if _hidden_damage(setup, d)]
    data = {"outcome": record["outcome"], "winner": record["winner"], "loser": record["loser"],
            "result": record["result"], "retests": len(record["rounds"]) - 1,
            "damage": _named_damage(setup, public)}
    gm_data = {"damage": _named_damage(setup, hidden)} if hidden else {}
    return Event("test.result", _summary(setup, record), data, gm_data)


def _public_sides(setup: dict) -> list[dict]:
    """The setup's sides as players see them before a card is turned: a secret side's pool
    is ``{"secret": true}``, without even its size (the skill plus the GM's modifiers); once
    its cards are on the table the record and the pending test show how many."""
    floor = _floor(setup)
    sides = []
    for side in _sides(setup):
        public = {**side.as_dict(floor, reveal=False), "name": _name(setup, side.who)}
        if side.secret:
            public["pool"] = {"secret": True}
        sides.append(public)
    return sides


def _start_event(setup: dict) -> Event:
    """``test.called`` (the GM's call) or ``test.accepted`` (a player's proposal): who tests
    what against what, the intent and the stakes, and the pools as far as they are public."""
    sides = _sides(setup)
    floor = _floor(setup)
    me = sides[0]
    name = _name(setup, me.who)
    kind = setup["kind"]
    test = f"a {kind} {_skill(me)} test"
    if kind == "contested":
        against = _name(setup, sides[1].who)
    elif kind == "static":
        against = _opposition(setup)
    else:
        against = "a lone Card of Fate"
    if setup["origin"] == "gm":
        text = f"The GM calls for {test}: {name} against {against}."
    else:
        text = f"The GM accepts {name}'s proposal: {test} against {against}."
    if setup["intent"]:
        text += f" Intent: {setup['intent'].rstrip('.')}."
    won, lost = ("passes", "fails") if kind == "simple" else ("wins", "loses")
    for verb, key in ((won, "win"), (lost, "lose")):
        if setup["stakes"][key]:
            text += f" If {name} {verb}: {setup['stakes'][key].rstrip('.')}."
    for side in sides:
        who = _cap(_name(setup, side.who))
        if side.secret:
            text += f" {who}'s pool is the GM's secret until the cards are turned."
        else:
            text += f" {who}'s pool: {side.pool.explain(floor)}."
    data = {"kind": kind, "origin": setup["origin"], "intent": setup["intent"],
            "stakes": dict(setup["stakes"]), "difficulty": setup["difficulty"],
            "sides": _public_sides(setup)}
    secret = [{**s.as_dict(floor), "name": _name(setup, s.who)} for s in sides if s.secret]
    gm_data = {"sides": secret} if secret else {}
    kind_of_event = "test.called" if setup["origin"] == "gm" else "test.accepted"
    return Event(kind_of_event, text, data, gm_data)


def _joker_turned_event(setup: dict, awaiting: list[str]) -> Event:
    names = [_name(setup, who) for who in awaiting]
    who = " and ".join(names)
    text = (f"{_cap(who)} turned the Joker and names the card it stands for." if len(names) == 1
            else f"{_cap(who)} turned their Jokers: each names the card it stands for.")
    return Event("test.joker_turned", text, {"awaiting": list(awaiting)})


# --- the engine -------------------------------------------------------------------------------


def _kernel_start(setup: dict, source: RandomSource) -> TestRecord | PendingTest:
    sides = _sides(setup)
    settings, intent = setup["settings"], setup["intent"]
    if setup["kind"] == "contested":
        return start_contested(sides[0], sides[1], source, settings, intent=intent)
    if setup["kind"] == "static":
        return start_static(sides[0], setup["difficulty"], source, settings, intent=intent)
    return start_simple(sides[0], source, settings, intent=intent)


def _settle(st: State, result: TestRecord | PendingTest, known: int) -> list[Event]:
    """Store ``result`` in ``st`` and tell its rounds after the first ``known`` (those
    already told as judged), the Joker that holds it up, or its result."""
    setup = st["setup"]
    data = result.as_dict()
    events = [_round_event(setup, rnd) for rnd in data["rounds"][known:]]
    st["declared"] = {}
    if isinstance(result, PendingTest):
        events.append(_round_event(setup, data["current"]))
        events.append(_joker_turned_event(setup, data["awaiting"]))
        st.update(phase="awaiting_joker", pending=data, record=None)
    else:
        events.append(_result_event(setup, data))
        st.update(phase="done", pending=None, record=data)
    return events


def _confirmer(setup: dict) -> str:
    first = setup["sides"][0]
    return first["who"] if first["deck"] == PLAYER_DECK else GM


def _public_record(setup: dict, record: dict) -> dict:
    public = TestRecord.from_dict(record).as_dict(reveal=False)
    public["damage"] = [d for d in public["damage"] if not _hidden_damage(setup, d)]
    return public


class TestEngine:
    """The ``btq_test`` encounter engine (:class:`rules.engine.Engine`): one card test of
    any kind (BtQ L1181-1286); shapes and flow in :mod:`rules.btq.table`."""

    __test__ = False

    name = ENGINE_NAME
    title = "Beat to Quarters: card test"

    def upgrade(self, state: State) -> State:
        """:func:`rules.btq.settings.upgraded`: a stored state's settings completed."""
        return upgraded(state)

    def validate_setup(self, setup: dict) -> dict:
        """:func:`validate_setup`."""
        return validate_setup(setup)

    def start(self, setup: dict, source: RandomSource) -> tuple[State, list[Event]]:
        """The test as called or accepted: nothing drawn yet (the state waits for
        ``test.confirm``); the event ``test.called`` or ``test.accepted``. ``source`` is not
        drawn from. Raises ``ValueError`` for a bad setup."""
        setup = validate_setup(setup)
        state = {"setup": setup, "phase": "awaiting_confirmation", "pending": None,
                 "declared": {}, "record": None}
        return state, [_start_event(setup)]

    def participants(self, state: State) -> dict[str, str]:
        """``{who: name}`` of every side that turns a player deck (the acting PC, and a
        second PC in a test between two players); NPCs are the GM's."""
        setup = state["setup"]
        return {s["who"]: _name(setup, s["who"]) for s in setup["sides"]
                if s["deck"] == PLAYER_DECK}

    def pending(self, state: State) -> list[Decision]:
        """``test.confirm`` for ``sides[0]`` (the GM for an NPC), or one ``test.joker`` per
        player still to name a turned Joker (options the 52 cards, default the Card of Fate,
        D5); none once done."""
        setup = state["setup"]
        if state["phase"] == "awaiting_confirmation":
            me = _name(setup, setup["sides"][0]["who"])
            return [Decision(_confirmer(setup), "test.confirm",
                             f"Turn the cards of {me}'s {setup['kind']} test?",
                             (Option("draw", "Turn the cards"),), "draw")]
        if state["phase"] == "awaiting_joker":
            fate = state["pending"]["current"]["fate"]
            return [Decision(who, "test.joker",
                             f"{_name(setup, who)} turned the Joker: which card does it stand "
                             f"for? (The Card of Fate is {card_label(fate)}.)",
                             _JOKER_OPTIONS, fate)
                    for who in state["pending"]["awaiting"] if who not in state["declared"]]
        return []

    def _decision(self, state: State, actor: str) -> Decision:
        decisions = self.pending(state)
        if not decisions:
            raise IllegalAction("the test is over: " + _summary(state["setup"],
                                                                state["record"]))
        for decision in decisions:
            if decision.actor == actor:
                return decision
        setup = state["setup"]
        waiting = " and ".join("the GM" if d.actor == GM else _name(setup, d.actor)
                               for d in decisions)
        someone = "the GM" if actor == GM else _name(setup, actor)
        raise IllegalAction(f"it is for {waiting} to decide now, not {someone}")

    def apply(self, state: State, actor: str, choice: str, source: RandomSource
              ) -> tuple[State, list[Event]]:
        """``test.confirm`` ``"draw"``: the cards are turned through ``source`` (retests
        included) until the test ends or waits for a Joker. ``test.joker`` ``"9H"``: the
        declaration is kept hidden; the last one resumes the test
        (:func:`rules.btq.tests.resume`; a Joker named as the Card of Fate is the default,
        D5, and its hand says ``"joker": "default"``). Raises :class:`IllegalAction` (state
        unchanged) for the wrong actor, a choice not offered, or a test that is over."""
        decision = self._decision(state, actor)
        if not isinstance(choice, str):
            raise IllegalAction(f"{choice!r} is not one of the choices for: {decision.prompt}")
        decision.option(choice)
        st = copy.deepcopy(state)
        setup = st["setup"]
        if decision.kind == "test.confirm":
            return st, _settle(st, _kernel_start(setup, source), 0)
        st["declared"][actor] = choice
        events = [Event("test.joker_named",
                        f"{_cap(_name(setup, actor))} names the Joker {card_label(choice)}.",
                        {"who": actor, "card": choice}, visible_to=frozenset({actor}))]
        if any(who not in st["declared"] for who in st["pending"]["awaiting"]):
            return st, events
        pending = st["pending"]
        fate = pending["current"]["fate"]
        # Named as the Card of Fate is the default (D5): the record says so ("default").
        declared = {who: None if card == fate else card for who, card in st["declared"].items()}
        result = resume(PendingTest.from_dict(pending), declared, source)
        return st, events + _settle(st, result, len(pending["rounds"]))

    def default_choice(self, state: State, decision: Decision) -> str:
        """The decision's default: turn the cards; a Joker named as the Card of Fate (D5).
        Raises :class:`IllegalAction` for a decision the test does not wait for."""
        if decision not in self.pending(state):
            raise IllegalAction(f"{decision.kind} is not a decision the test waits for")
        return decision.default

    def outcome(self, state: State) -> Outcome | None:
        """Once done: ``Outcome(winner=record winner (a who, "difficulty" when a static test
        is lost) or None, result="won" | "stalemate" | "passed" | "failed", summary=the
        public sentence, data={"record": TestRecord JSON (full, GM-level), "damage": [Damage
        JSON]})``; ``None`` before. The damage is for the web layer to write back."""
        record = state["record"]
        if state["phase"] != "done":
            return None
        damage = [Damage.from_dict(d).as_dict() for d in record["damage"]]
        return Outcome(record["winner"], record["outcome"], _summary(state["setup"], record),
                       {"record": copy.deepcopy(record), "damage": damage})

    def view(self, state: State, participant: str) -> dict:
        """The GM: the whole state. Anyone else: the same keys with every secret side's pool
        as ``{"secret": true}`` in the setup and ``{"secret": true, "size"}`` once its cards
        are turned (the pending test and the record), no
        damage to a secret side's reputation, and only their own Joker declaration."""
        if participant == GM:
            return copy.deepcopy(state)
        setup = state["setup"]
        pending = state["pending"]
        return {
            "setup": {**copy.deepcopy(setup), "sides": _public_sides(setup)},
            "phase": state["phase"],
            "pending": None if pending is None
            else PendingTest.from_dict(pending).as_dict(reveal=False),
            "declared": {who: card for who, card in state["declared"].items()
                         if who == participant},
            "record": None if state["record"] is None
            else _public_record(setup, state["record"]),
        }

    def scenarios(self) -> dict[str, Scenario]:
        """The book's card tests, from ``rules/btq/scenarios/test/*.json`` (TV-10 to TV-17
        of ``rules/btq_characters.md``, BtQ L1202-1426, L1745-1753), each with the book's
        cards where it prints them."""
        return load_scenarios("rules.btq", "scenarios/test")


ENGINE = register(TestEngine())
