"""The optional Scar rule's card: the encounter engine ``"btq_scar"`` (:mod:`rules.engine`).
When a character's Health returns to Healthy after having been Maimed, the player turns one
card from his own whole, shuffled deck and the table of :func:`rules.btq.damage.scar` says
what the wound left (BtQ L1318-1320; ``rules/btq_characters.md`` §5.5). A draw like every
other: the seed's hash published before the card is turned, the card an event, replayable.

Decisions, in order:

1. ``scar.draw`` (the player): turn the card.
2. ``scar.joker`` (the player), on the Joker: which result of the table (the book does not
   cover it; §5.5 recommends the player's choice).
3. ``scar.measure`` (the player), on a face card: which of the two Measures loses 1.
4. ``scar.mission`` (the GM), on a black number: which Mission the character is on has its
   Deadline reduced by 1 (the player chooses it; the GM records it, as a Mission is the
   GM's). Skipped when he is on none.

Setup (:func:`ScarEngine.validate_setup`)::

    {"player": "pc:<id>", "name": str, "missions": [{"key": str, "name": str}],
     "settings": {}}

State: ``{"setup", "phase": "draw" | "joker" | "measure" | "mission" | "done", "card",
"result": {"kind", "text", "lose"} | null, "measure", "mission"}``. Nothing in it is
hidden: the card and its meaning are the table's.
"""

from __future__ import annotations

from rules.btq.characters import MEASURES
from rules.btq.damage import Scar, scar
from rules.btq.settings import resolve, upgraded
from rules.cards import PLAYER_DECK, Deck, card_label
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

ENGINE_NAME = "btq_scar"

CHOICES: dict[str, Scar] = {
    "scar": Scar("scar", "A notable, ugly scar."),
    "infection": Scar("infection", "A life-threatening infection, bed-ridden for some time: "
                                   "one Mission you are on has its Deadline reduced by 1."),
    "delirium": Scar("delirium", "Heavily scarred and deliriously sick: lose 1 Charm or 1 "
                                 "Influence.", ("charm", "influence")),
    "illness": Scar("illness", "Wracked by illness: lose 1 Guts or 1 Discipline.",
                    ("guts", "discipline")),
    "crippled": Scar("crippled", "Crippled: an eye, a limb or some such is lost."),
}
"""The rows of the table a Joker may stand for (BtQ L1318-1320), by kind."""


def _result(found: Scar) -> dict:
    return {"kind": found.kind, "text": found.text, "lose": list(found.lose)}


class ScarEngine:
    """The Scar card (module docstring)."""

    name = ENGINE_NAME
    title = "Beat to Quarters: the Scar card"

    def upgrade(self, state: State) -> State:
        """:func:`rules.btq.settings.upgraded`: a stored state's settings completed."""
        return upgraded(state)

    def validate_setup(self, setup: dict) -> dict:
        """The setup checked and normalised; ``ValueError`` with the reason (an unknown key,
        a player that is not a PC's participant, missions not ``{key, name}``)."""
        if not isinstance(setup, dict):
            raise ValueError("the setup of a Scar card must be a mapping")
        unknown = sorted(set(setup) - {"player", "name", "missions", "settings"})
        if unknown:
            raise ValueError(f"unknown setup key {unknown[0]!r}")
        player = setup.get("player")
        if not isinstance(player, str) or not player.startswith("pc:"):
            raise ValueError("player must be the participant of a PC (\"pc:<id>\")")
        name = setup.get("name") or player
        missions = setup.get("missions") or []
        if not isinstance(name, str) or not isinstance(missions, list) or not all(
                isinstance(m, dict) and set(m) == {"key", "name"} and isinstance(m["key"], str)
                and isinstance(m["name"], str) for m in missions):
            raise ValueError("name is text and missions a list of {key, name}")
        settings = setup.get("settings") or {}
        if not isinstance(settings, dict):
            raise ValueError("settings must be a mapping of campaign settings")
        return {"player": player, "name": name.strip(), "missions": missions,
                "settings": resolve(settings)}

    def start(self, setup: dict, source: RandomSource) -> tuple[State, list[Event]]:
        setup = self.validate_setup(setup)
        state: State = {"setup": setup, "phase": "draw", "card": None, "result": None,
                        "measure": None, "mission": None}
        return state, [Event("scar.begun", f"{setup['name']}'s Health is Healthy again after "
                                           "being Maimed: the Scar card is turned.")]

    def participants(self, state: State) -> dict[str, str]:
        return {state["setup"]["player"]: state["setup"]["name"]}

    def pending(self, state: State) -> list[Decision]:
        setup, phase = state["setup"], state["phase"]
        player = setup["player"]
        if phase == "draw":
            return [Decision(player, "scar.draw", "Turn the Scar card", (
                Option("draw", "Turn the card"),), "draw")]
        if phase == "joker":
            options = tuple(Option(k, s.text) for k, s in CHOICES.items())
            return [Decision(player, "scar.joker", "The Joker: choose the result", options,
                             "scar")]
        if phase == "measure":
            options = tuple(Option(k, f"Lose 1 {MEASURES[k]}") for k in
                            state["result"]["lose"])
            return [Decision(player, "scar.measure", "Which Measure loses 1?", options,
                             options[0].key)]
        if phase == "mission":
            options = tuple(Option(m["key"], m["name"]) for m in setup["missions"])
            return [Decision(GM, "scar.mission", f"Which Mission {setup['name']} is on has "
                             "its Deadline reduced by 1 (the player chooses)", options,
                             options[0].key)]
        return []

    def apply(self, state: State, actor: str, choice: str, source: RandomSource
              ) -> tuple[State, list[Event]]:
        decision = next((d for d in self.pending(state) if d.actor == actor), None)
        if decision is None:
            raise IllegalAction("no decision of yours is awaited")
        decision.check(choice)
        state = {**state, "setup": state["setup"]}
        name = state["setup"]["name"]
        if decision.kind == "scar.draw":
            card = source.draw(Deck(PLAYER_DECK, "player"), 1, purpose="scar")[0]
            found = scar(card)
            state["card"] = str(card)
            events = [Event("scar.card", f"{name} turns {card_label(card)}: {found.text}",
                            {"card": str(card), "kind": found.kind})]
            return self._resolved(state, found, events)
        if decision.kind == "scar.joker":
            found = CHOICES[choice]
            return self._resolved(state, found, [Event(
                "scar.chosen", f"{name} takes the Joker as: {found.text}", {"kind": choice})])
        if decision.kind == "scar.measure":
            state["measure"] = choice
            return self._after_measure(state, [Event(
                "scar.measure", f"{name} loses 1 {MEASURES[choice]}.", {"measure": choice})])
        mission = next(m for m in state["setup"]["missions"] if m["key"] == choice)
        state["mission"] = choice
        state["phase"] = "done"
        return state, [Event("scar.mission", f"The Mission “{mission['name']}” has its "
                                             "Deadline reduced by 1.", {"mission": choice})]

    def _resolved(self, state: State, found: Scar, events: list[Event]
                  ) -> tuple[State, list[Event]]:
        state["result"] = _result(found)
        if found.kind == "any":
            state["phase"] = "joker"
        elif found.lose:
            state["phase"] = "measure"
        else:
            return self._after_measure(state, events)
        return state, events

    def _after_measure(self, state: State, events: list[Event]
                       ) -> tuple[State, list[Event]]:
        infected = state["result"]["kind"] == "infection"
        state["phase"] = "mission" if infected and state["setup"]["missions"] else "done"
        if infected and not state["setup"]["missions"]:
            events.append(Event("scar.mission", f"{state['setup']['name']} is on no Mission: "
                                                "no Deadline to reduce.", {"mission": None}))
        return state, events

    def default_choice(self, state: State, decision: Decision) -> str:
        return decision.default

    def outcome(self, state: State) -> Outcome | None:
        if state["phase"] != "done":
            return None
        result = state["result"]
        return Outcome(None, result["kind"], f"The Scar card: {result['text']}", {
            "card": state["card"], "kind": result["kind"], "text": result["text"],
            "measure": state["measure"], "mission": state["mission"]})

    def view(self, state: State, participant: str) -> dict:
        card = state["card"]
        return {"cards": [card] if card else [], "result": (state["result"] or {}).get("text"),
                "phase": state["phase"], "name": state["setup"]["name"]}

    def scenarios(self) -> dict[str, Scenario]:
        """A card of each kind that leaves a choice (BtQ L1318-1320):
        ``rules/btq/scenarios/scar/*.json``."""
        return load_scenarios("rules.btq", "scenarios/scar")


ENGINE = register(ScarEngine())
