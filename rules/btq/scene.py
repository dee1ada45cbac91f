"""The Captain's table and the Ear of the Gun Deck as the book plays them: one contested test
of everyone who takes part, with one winner (BtQ L1872-1910; ``rules/btq_missions.md`` §9).

The sponsor picks the skill that everyone tests; only the Captain may test another
(BtQ L1876-1878). One Card of Fate is turned from the GM's deck; the GM's pools (the
Captain, the NPC guests) are turned from that deck one after another, each player's from his
own (``rules/btq_missions.md`` §15.2). The most Perfect, then Critical, then Ordinary
successes win, then the ranks of the successes (BtQ L1238-1239); when nobody succeeds, or
the best two tie all the way down, everyone turns again (D3) until there is one winner
(BtQ L1880: "there can only be one winner"). A PC winner holds the Captain's Favour (the Ear
of the Gun Deck); a win by the Captain or any NPC earns the PCs the Captain's Ire (the Shame
of the Gun Deck) (L1881-1882, A11). Everyone who put a reputation in his pool and lost has it
damaged, one level by default (L1880-1881, DECISIONS D1, setting
``reputation_loss_mode``).

The engine ``btq_scene`` draws everything when it starts: there is no decision to wait for.

Setup (:func:`validate_setup`)::

    {"scene": "captains_table" | "gun_deck", "skill": the sponsored skill's key,
     "topic": str, "settings": {...},
     "participants": [{"who": "pc:12" | "npc:4" | ..., "name": str,
                       "deck": "player" | "gm", "cards": 0-30 (the pool),
                       "breakdown": {term: cards}, "unskilled": bool,
                       "skill": the skill he tests (the Captain's own choice),
                       "reputation": None | {"id": str, "name": str, "state": 0-3}}, ...]}
"""

from __future__ import annotations

import copy

from rules.btq.characters import SKILLS, DamageState
from rules.btq.settings import resolve, upgraded
from rules.btq.shipboard import SCENES, TOKENS, scene_token
from rules.btq.tests import SuccessLevel, compare_successes, damage_after, successes
from rules.cards import GM_DECK, PLAYER_DECK, Deck, card_count
from rules.engine import (
    Decision,
    Event,
    IllegalAction,
    Outcome,
    Scenario,
    State,
    load_scenarios,
    register,
)
from rules.random import RandomSource

ENGINE_NAME = "btq_scene"

MAX_ROUNDS = 20
"""Turns of the cards before the scene ends without a winner (only a run of ties gets
there)."""

_KEYS = {"scene", "skill", "topic", "settings", "participants"}
_PARTICIPANT_KEYS = {"who", "name", "deck", "cards", "breakdown", "unskilled", "skill",
                     "reputation"}


def _text(value: object, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{what} must be a non-empty text")
    return value.strip()


def _int(value: object, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{what} must be a whole number from {low} to {high}")
    return value


def _participant(data: object, i: int, skill: str) -> dict:
    if not isinstance(data, dict):
        raise ValueError(f"participant {i + 1} must be a mapping")
    unknown = sorted(set(data) - _PARTICIPANT_KEYS)
    if unknown:
        raise ValueError(f"participant {i + 1}: unknown key {unknown[0]!r}")
    who = _text(data.get("who"), f"participant {i + 1}: who")
    where = f"participant {who}"
    deck = data.get("deck", GM_DECK)
    if deck not in (GM_DECK, PLAYER_DECK):
        raise ValueError(f"{where}: deck must be 'player' or 'gm'")
    own = data.get("skill", skill)
    if own not in SKILLS:
        raise ValueError(f"{where}: unknown skill {own!r}")
    breakdown = data.get("breakdown") or {}
    if not isinstance(breakdown, dict) or not all(
            isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
            for k, v in breakdown.items()):
        raise ValueError(f"{where}: breakdown must map terms to whole numbers of cards")
    rep = data.get("reputation")
    if rep is not None:
        if not isinstance(rep, dict) or set(rep) != {"id", "name", "state"}:
            raise ValueError(f"{where}: reputation must be a mapping of id, name and state")
        rep = {"id": _text(rep["id"], f"{where}: reputation id"),
               "name": _text(rep["name"], f"{where}: reputation name"),
               "state": _int(rep["state"], f"{where}: reputation state", 0, 2)}
    return {"who": who, "name": _text(data.get("name", who), f"{where}: name"), "deck": deck,
            "cards": _int(data.get("cards"), f"{where}: cards", 0, 30),
            "breakdown": dict(breakdown), "unskilled": bool(data.get("unskilled", False)),
            "skill": own, "reputation": rep}


def validate_setup(setup: dict) -> dict:
    """Check a ``btq_scene`` setup (the module's docstring) and return it normalised.
    ``ValueError`` with the reason: an unknown key or scene, a skill that is not one, fewer
    than two participants, one named twice, no PC among them, a bad pool or reputation."""
    if not isinstance(setup, dict):
        raise ValueError("a scene's setup is a mapping")
    unknown = sorted(set(setup) - _KEYS)
    if unknown:
        raise ValueError(f"unknown setup key {unknown[0]!r}")
    scene = setup.get("scene")
    if scene not in SCENES:
        raise ValueError(f"scene must be one of {', '.join(SCENES)}")
    skill = setup.get("skill")
    if skill not in SKILLS:
        raise ValueError(f"unknown skill {skill!r}")
    given = setup.get("participants")
    if not isinstance(given, list) or len(given) < 2:
        raise ValueError("a scene's test needs at least two participants")
    participants = [_participant(p, i, skill) for i, p in enumerate(given)]
    whos = [p["who"] for p in participants]
    if len(set(whos)) != len(whos):
        raise ValueError("a participant takes part once")
    if not any(p["deck"] == PLAYER_DECK for p in participants):
        raise ValueError("a PC must take part")
    if scene == "gun_deck" and any(p["skill"] != skill for p in participants):
        raise ValueError("at the gun deck everyone tests the sponsored skill")
    settings = setup.get("settings") or {}
    if not isinstance(settings, dict):
        raise ValueError("settings must be a mapping")
    return {"scene": scene, "skill": skill, "topic": _text(setup.get("topic"), "topic"),
            "settings": dict(settings), "participants": participants}


def _winner(hands: list[list[tuple[SuccessLevel, int]]]) -> int | None:
    """The index of the one hand that beats every other, or ``None`` when nobody succeeds
    or the best hands tie all the way down (BtQ L1238-1239)."""
    best = 0
    for i in range(1, len(hands)):
        if compare_successes(hands[i], hands[best]) == "a":
            best = i
    if not hands[best]:
        return None
    if any(i != best and compare_successes(hands[best], h) != "a"
           for i, h in enumerate(hands)):
        return None
    return best


def _play(setup: dict, source: RandomSource) -> tuple[dict, list[Event]]:
    parts = setup["participants"]
    events: list[Event] = []
    rounds: list[dict] = []
    winner: int | None = None
    # Everyone turns again against a new Card of Fate (D3), or against the first under the
    # setting retest_fate = "same" (btq_characters A6; BtQ L1276).
    same = resolve(setup["settings"])["retest_fate"] == "same"
    fate = None
    for number in range(1, MAX_ROUNDS + 1):
        decks = {GM_DECK: Deck(GM_DECK)}
        for p in parts:
            if p["deck"] == PLAYER_DECK:
                decks[p["who"]] = Deck(PLAYER_DECK, p["who"])
        again = "" if number == 1 else f", retest {number - 1}"
        if same and fate is not None:
            decks[GM_DECK].take(fate)
        else:
            fate = source.draw(decks[GM_DECK], 1, purpose=f"card of fate{again}")[0]
        hands, drawn = [], {}
        for p in parts:
            deck = decks[p["who"] if p["deck"] == PLAYER_DECK else GM_DECK]
            cards = source.draw(deck, p["cards"], purpose=f"{p['who']} pool{again}")
            hands.append(successes(cards, fate, unskilled=p["unskilled"]))
            drawn[p["who"]] = [str(c) for c in cards]
        winner = _winner(hands)
        counts = {p["who"]: [sum(1 for s in h if s[0] == lv) for lv in
                             (SuccessLevel.PERFECT, SuccessLevel.CRITICAL,
                              SuccessLevel.ORDINARY)] for p, h in zip(parts, hands)}
        rounds.append({"number": number, "fate": str(fate), "cards": drawn,
                       "successes": counts, "best": [h[0][0] if h else 0 for h in hands],
                       "winner": None if winner is None else parts[winner]["who"]})
        lines = "; ".join(f"{p['name']}: {' '.join(drawn[p['who']]) or 'no card'}"
                          for p in parts)
        verdict = ("nobody wins outright: everyone turns again" if winner is None
                   else f"{parts[winner]['name']} wins")
        events.append(Event("scene.round", f"Card of Fate {fate}{again}. {lines}. {verdict}.",
                            {"round": rounds[-1]}))
        if winner is not None:
            break
    return {"rounds": rounds, "winner": None if winner is None else parts[winner]["who"]}, events


def _damage(setup: dict, record: dict) -> list[dict]:
    """The reputations of the losers who used one, one level worse (or as the winner's best
    success in the ``severity`` reading) (BtQ L1241-1242, L1880-1881; D1)."""
    if record["winner"] is None:
        return []
    settings = resolve(setup["settings"])
    last = record["rounds"][-1]
    parts = setup["participants"]
    index = [p["who"] for p in parts].index(record["winner"])
    hit = (SuccessLevel.ORDINARY if settings["reputation_loss_mode"] == "one_step"
           else SuccessLevel(last["best"][index]))
    out = []
    for p in parts:
        rep = p["reputation"]
        if p["who"] == record["winner"] or rep is None:
            continue
        after = damage_after(DamageState(rep["state"]), hit)
        out.append({"who": p["who"], "id": rep["id"], "name": rep["name"],
                    "before": rep["state"], "after": int(after)})
    return out


def _shown(participant: dict, gm: bool) -> dict:
    """A participant as a viewer sees him: the GM all; the players a PC's pool, an NPC's
    name and deck only (his skill and its value are the GM's, as in a card test)."""
    if gm or participant["deck"] == PLAYER_DECK:
        return {k: participant[k] for k in ("who", "name", "deck", "cards", "breakdown",
                                            "skill", "reputation")}
    return {k: participant[k] for k in ("who", "name", "deck")}


def _lower(label: str) -> str:
    return label[0].lower() + label[1:]


class SceneEngine:
    """The ``btq_scene`` engine (:class:`rules.engine.Engine`): the Captain's table or the
    gun deck, played out at once when it starts (the module's docstring)."""

    name = ENGINE_NAME
    title = "Beat to Quarters: the Captain's table"

    def upgrade(self, state: State) -> State:
        """:func:`rules.btq.settings.upgraded`: a stored state's settings completed."""
        return upgraded(state)

    def validate_setup(self, setup: dict) -> dict:
        return validate_setup(setup)

    def start(self, setup: dict, source: RandomSource) -> tuple[State, list[Event]]:
        setup = validate_setup(setup)
        label = SCENES[setup["scene"]]["label"]
        names = ", ".join(f"{p['name']} ({card_count(p['cards'])})" if p["deck"] == PLAYER_DECK
                          else p["name"] for p in setup["participants"])
        events = [Event("scene.start", f"{label}: “{setup['topic']}”, tested with "
                        f"{SKILLS[setup['skill']]}. Taking part: {names}.",
                        {"participants": [_shown(p, False) for p in setup["participants"]]},
                        {"participants": [_shown(p, True) for p in setup["participants"]]})]
        record, played = _play(setup, source)
        events += played
        record["damage"] = _damage(setup, record)
        state = {"setup": setup, **record}
        outcome = self.outcome(state)
        if outcome is not None:
            events.append(Event("scene.result", outcome.summary, outcome.data))
        return state, events

    def participants(self, state: State) -> dict[str, str]:
        return {p["who"]: p["name"] for p in state["setup"]["participants"]
                if p["deck"] == PLAYER_DECK}

    def pending(self, state: State) -> list[Decision]:
        return []

    def apply(self, state: State, actor: str, choice: str, source: RandomSource
              ) -> tuple[State, list[Event]]:
        raise IllegalAction("The scene's test is over: there is nothing to decide.")

    def default_choice(self, state: State, decision: Decision) -> str:
        raise IllegalAction("The scene's test waits for no decision.")

    def outcome(self, state: State) -> Outcome | None:
        setup = state["setup"]
        by_who = {p["who"]: p for p in setup["participants"]}
        winner = state.get("winner")
        if winner is None:
            return Outcome(None, "no_winner", "Nobody won the table outright.",
                           {"winner": None, "token": None, "damage": state["damage"]})
        pc_won = by_who[winner]["deck"] == PLAYER_DECK
        token = scene_token(setup["scene"], pc_won)
        hurt = "".join(f" {d['name']} ({by_who[d['who']]['name']}) is "
                       f"{DamageState(d['after']).label}." for d in state["damage"])
        summary = (f"{by_who[winner]['name']} wins: "
                   + (f"he holds {_lower(TOKENS[token]['label'])}." if pc_won
                      else f"the PCs have earned {_lower(TOKENS[token]['label'])}.") + hurt)
        return Outcome("pc" if pc_won else "gm", token, summary,
                       {"winner": winner, "token": token, "damage": state["damage"]})

    def view(self, state: State, participant: str) -> dict:
        """Everything for the GM (``"gm"``); a player sees the NPCs' names and the cards
        they turned, not their skills or pools (:func:`_shown`)."""
        seen = copy.deepcopy({k: state[k] for k in ("setup", "rounds", "winner", "damage")})
        gm = participant == "gm"
        seen["setup"]["participants"] = [_shown(p, gm) for p in seen["setup"]["participants"]]
        return seen

    def scenarios(self) -> dict[str, Scenario]:
        return load_scenarios("rules.btq", "scenarios/scene")


register(SceneEngine())
