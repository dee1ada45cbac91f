"""Step 4 of character creation, the ship, done as a group: the encounter engine
``"btq_ship_creation"`` (BtQ L538-806; ``rules/btq_characters.md`` §2 Step 4, TV-03, TV-04;
``rules/DECISIONS.md`` D5).

The GM names the ship type in the setup (L543-602). Then the lead player's PC decides for
the group:

1. ``ship.origin``: choose the origin, or turn a card and take its suit (L606-620; the
   table has no Joker row, so a Joker is turned again, ``rules/btq_characters.md`` §10.5).
2. ``ship.details``: name, former name (a captured prize, L622), guns, and the four
   flavour strings (L624-638).
3. ``ship.crew``: one card per essential position no PC fills (L640-752): the rank class
   sets the NPC's key skills (Number 4, Face 2, Ace 6; other skills key-2, at least 1), the
   suit the disposition (D favourable, H exceptional feature, C disinclined, S detrimental
   feature); a Joker is "any" (D5): ``ship.crew_joker`` chooses. ``ship.crew_features``
   names the features of the Hearts and Spades.
4. ``ship.reputations``: 5 points of ship reputations (L770-772).
5. ``ship.traits``: 1, 2 or 3 ship traits by rating, each once (L776-777, L2338-2339);
   with Wily Sea Dogs, ``wily_skill`` names the crew's skill it raises by 1 (L2345-2346),
   recorded as "Wily Sea Dogs (<Skill>)" and added to the crew's skills for battle.

The GM approves (``ship.review``), or sends it back to a step that draws nothing.

Setup (:func:`validate_setup`)::

    {"ship_type": a rules.btq.ships.SHIP_TYPES name, "players": {participant: name},
     "lead": participant (default the first), "positions": [position, ...] (default
     ESSENTIAL_CREW), "settings": {}}
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from importlib import resources
from typing import Any, TypedDict

from rules.btq.characters import NPC_CREW_SKILLS, SKILLS
from rules.btq.settings import resolve, upgraded
from rules.btq.ships import SHIP_TRAITS, SHIP_TYPES, trait_limit
from rules.cards import PLAYER_DECK, SUIT_NAMES, Card, Deck, card_label, parse_card
from rules.engine import (
    GM,
    Decision,
    Event,
    Field,
    FieldErrors,
    IllegalAction,
    Option,
    Outcome,
    Scenario,
    State,
    load_scenarios,
    register,
)
from rules.random import RandomSource

ENGINE_NAME = "btq_ship_creation"

KEY_SKILLS: dict[str, tuple[str, ...]] = {
    "Lieutenant": ("command", "seamanship", "gunnery"),
    "Midshipman": ("command", "seamanship", "courtesy"),
    "Sailing Master": ("maritime", "seamanship", "scavenge"),
    "Purser": ("purser", "haggle", "intrigue"),
    "Surgeon": ("first_aid", "the_arts", "courtesy"),
    "Marine": ("command", "intimidate", "scavenge"),
    "Boatswain": ("profession", "seamanship", "maritime"),
    "Gunner": ("awareness", "gunnery", "engineering"),
    "Rating": ("skullduggery", "scavenge", "maritime"),
}
"""The essential positions and their key skills (BtQ L640-675); the Boatswain's
Profession is Sailmaker."""

ESSENTIAL_CREW = ("Lieutenant", "Lieutenant", "Midshipman", "Midshipman", "Sailing Master",
                  "Purser", "Surgeon", "Marine", "Boatswain", "Gunner", "Rating", "Rating")
"""Every essential position, with its "at least two" (BtQ L640-675). The GM leaves out
those the PCs fill and may waive some on a small ship (the Hermes has no more Lieutenants
or Midshipmen, L760)."""

ORIGINS = {"D": "A modern ship, built in the last few years",
           "H": "An old ship, long in service, with strong traditions",
           "C": "A captured French or Spanish prize, refitted",
           "S": "Brand new: her maiden voyage, a new crew and a new Captain"}
"""Origin by suit (BtQ L606-620)."""

COMPETENCE = {"face": ("incompetent", 2), "number": ("moderate", 4), "ace": ("exceptional", 6)}
"""An NPC's competence and key-skill value by the card's rank class (BtQ L679-752)."""

DISPOSITIONS = {"D": "favourably inclined towards the PCs",
                "H": "an exceptional feature",
                "C": "disinclined towards the PCs",
                "S": "a detrimental feature"}
"""An NPC's disposition by suit; Clubs is Disinclined for every rank (the book's table is
displaced, its example 3C confirms it: ``rules/btq_characters.md`` §2 Step 4.6)."""

SHIP_REPUTATION_POINTS = 5
"""A new ship's reputations total 5 points (BtQ L770-772)."""

WILY_SEA_DOGS = "Wily Sea Dogs"
"""The trait whose +1 goes to a skill of the crew's, named in the traits step (BtQ
L2345-2346)."""
_WILY_SKILL = {f"{WILY_SEA_DOGS} ({SKILLS[k]})": k for k in NPC_CREW_SKILLS}

_STEPS = ("origin", "details", "crew", "features", "reputations", "traits")
_RETURNABLE = ("details", "features", "reputations", "traits")


def ship_names(type_name: str) -> tuple[str, ...]:
    """British ship names of Appendix III for a type (BtQ L3570-3589): those of its rate;
    for an un-rated type the sloops' and cutters' (a Cutter's own first)."""
    root = resources.files("rules.btq").joinpath("data")
    rows = json.loads(root.joinpath("ship_names.json").read_text(encoding="utf-8"))["ships"]
    rating = SHIP_TYPES[type_name].rating
    if rating is not None:
        wanted = [r for r in rows if r["rate"] == rating]
    else:
        wanted = sorted((r for r in rows if r["rate"] in (None, "cutter")),
                        key=lambda r: (r["rate"] != "cutter") == (type_name == "Cutter"))
    return tuple(dict.fromkeys(n for r in wanted for n in r["names"]))


def validate_setup(setup: dict) -> dict[str, Any]:
    """Check a setup (module docstring) and return it normalised; ``ValueError`` with the
    reason."""
    if not isinstance(setup, dict):
        raise ValueError("the setup of a ship creation must be a mapping")
    unknown = sorted(set(setup) - {"ship_type", "players", "lead", "positions", "settings"})
    if unknown:
        raise ValueError(f"unknown setup key {unknown[0]!r}")
    if setup.get("ship_type") not in SHIP_TYPES:
        raise ValueError(f"ship_type must be one of {', '.join(SHIP_TYPES)}")
    players = setup.get("players")
    if not isinstance(players, dict) or not players or GM in players or not all(
            isinstance(k, str) and isinstance(v, str) and v.strip() for k, v in players.items()):
        raise ValueError("players maps each player's participant id to a name (one at least)")
    lead = setup.get("lead") or next(iter(players))
    if lead not in players:
        raise ValueError("lead must be one of the players")
    positions = setup.get("positions")
    positions = list(ESSENTIAL_CREW) if positions is None else positions
    if not isinstance(positions, list) or any(p not in KEY_SKILLS for p in positions):
        raise ValueError(f"positions are essential positions: {', '.join(KEY_SKILLS)}")
    settings = setup.get("settings") or {}
    if not isinstance(settings, dict):
        raise ValueError("settings must be a mapping of campaign settings")
    return {"ship_type": setup["ship_type"], "players": dict(players), "lead": lead,
            "positions": positions, "settings": resolve(settings)}


def _class(card: Card) -> str:
    if card.is_joker:
        return "joker"
    return "ace" if card.rank == 14 else ("face" if card.rank >= 11 else "number")


class CrewMember(TypedDict):
    """An NPC of the ship's crew (BtQ L679-752), as :func:`crew_member` makes him."""

    position: str
    card: str
    competence: str
    key: int
    other: int
    disposition: str
    suit: str
    feature: str


def crew_member(position: str, card: Card, joker: Mapping[str, str] | None = None
                ) -> CrewMember:
    """The NPC a crew card makes (BtQ L679-752): ``{"position", "card", "competence",
    "key", "other", "disposition", "suit", "feature"}``; key skills at ``key``, any other
    skill at ``max(1, key - 2)`` (L679-680). A Joker takes ``joker`` ``{"competence",
    "suit"}`` (``ValueError`` without it)."""
    if card.is_joker:
        if joker is None:
            raise ValueError("the Joker's crew member is the group's choice: give its "
                             "competence and suit")
        competence = joker["competence"]
        key = dict(COMPETENCE.values())[competence]
        suit = joker["suit"]
    else:
        competence, key = COMPETENCE[_class(card)]
        suit = card.suit
    return {"position": position, "card": str(card), "competence": competence, "key": key,
            "other": max(1, key - 2), "disposition": DISPOSITIONS[suit], "suit": suit,
            "feature": ""}


def crew_skills(crew: list[CrewMember]) -> dict[str, int]:
    """The ship's NPC officers' skills for battle (``NPC_CREW_SKILLS``, BtQ L2360-2361):
    for each, the best of the crew, a key skill counting at its value and any other at the
    lower one."""
    return {skill: max([m["key"] if skill in KEY_SKILLS[m["position"]] else m["other"]
                        for m in crew] or [0])
            for skill in NPC_CREW_SKILLS}


def _names(setup: dict) -> str:
    """The lead player's name."""
    return setup["players"][setup["lead"]]


def _current(state: State) -> str | None:
    if state["status"] != "drafting":
        return None
    r = state["record"]
    if r["origin"] is None:
        return "origin"
    if r["details"] is None:
        return "details"
    if r["crew"] is None or any(m is None for m in r["crew"]):
        return "crew"
    if r["features"] is None:
        return "features"
    if r["reputations"] is None:
        return "reputations"
    if r["traits"] is None:
        return "traits"
    return None


def _typed(actor: str, kind: str, prompt: str, fields: tuple[Field, ...]) -> Decision:
    defaults = {f.name: f.default for f in fields if f.default is not None}
    return Decision(actor, kind, prompt, (), json.dumps(defaults), fields)


def _player_decision(state: State) -> Decision | None:
    setup, r = state["setup"], state["record"]
    lead = setup["lead"]
    step = _current(state)
    ship_type = SHIP_TYPES[setup["ship_type"]]
    if step == "origin":
        return Decision(lead, "ship.origin", "Where does the ship come from? Choose, or "
                        "turn a card", (Option("draw", "Turn a card"),
                                        *(Option(s, t) for s, t in ORIGINS.items())), "draw")
    if step == "details":
        return _typed(lead, "ship.details", f"The {ship_type.name}: name and character", (
            Field("name", "Name", required=True, suggestions=ship_names(ship_type.name),
                  help="The suggestions are British ships of her rate (the book's list)."),
            Field("former_name", "Former name", help="A captured prize: record the name "
                  "she had."),
            Field("guns", "Guns", "int", minimum=ship_type.guns_min,
                  maximum=ship_type.guns_max or 200, required=True),
            Field("tradition", "Tradition"), Field("superstition", "Superstition"),
            Field("appearance", "Appearance"), Field("celebration", "Celebration"),
        ))
    if step == "crew":
        if r["crew"] is None:
            return Decision(lead, "ship.crew", f"Turn a card for each of the "
                            f"{len(setup['positions'])} crew positions no PC fills",
                            (Option("draw", "Turn the cards"),), "draw")
        i = next(i for i, m in enumerate(r["crew"]) if m is None)
        return _typed(lead, "ship.crew_joker", f"The {setup['positions'][i]}'s card is the "
                      "Joker: choose what it is", (
                          Field("competence", "Competence", "choice",
                                tuple(Option(c, f"{c.capitalize()} ({k})")
                                      for c, k in COMPETENCE.values()), required=True),
                          Field("suit", "Disposition", "choice",
                                tuple(Option(s, d.capitalize())
                                      for s, d in DISPOSITIONS.items()), required=True)))
    if step == "features":
        fields = tuple(Field(f"feature_{i}", f"{m['position']} ({card_label(m['card'])}): "
                             f"{m['disposition']}", required=True)
                       for i, m in enumerate(r["crew"]) if m["suit"] in "HS")
        return _typed(lead, "ship.crew_features", "Name the crew's features (heroic, well "
                      "connected, a drunk, a bully)", fields)
    if step == "reputations":
        rows: list[Field] = []
        for i in range(1, SHIP_REPUTATION_POINTS + 1):
            rows += [Field(f"rep{i}_kind", f"Reputation {i}: kind", "choice",
                             (Option("institution", "Institution"),
                              Option("personal", "Personal"))),
                       Field(f"rep{i}_descriptor", "…how"), Field(f"rep{i}_subject", "…by whom"),
                       Field(f"rep{i}_value", "…value", "int", minimum=1,
                             maximum=SHIP_REPUTATION_POINTS)]
        return _typed(lead, "ship.reputations", f"The ship's reputations: "
                      f"{SHIP_REPUTATION_POINTS} points in all", tuple(rows))
    if step == "traits":
        options = tuple(Option(n, f"{n}: {t.description}") for n, t in SHIP_TRAITS.items())
        count = trait_limit(ship_type.rating)
        return _typed(lead, "ship.traits", f"The ship's trait{'s' if count > 1 else ''}: "
                      f"{count} for a {ship_type.name}", (*(
                          Field(f"trait_{i}", f"Trait {i}", "choice", options, required=True)
                          for i in range(1, count + 1)),
                          Field("wily_skill", f"{WILY_SEA_DOGS}: the crew's skill it raises by "
                                "1", "choice", tuple(Option(k, SKILLS[k])
                                                     for k in NPC_CREW_SKILLS))))
    return None


def _review_decision() -> Decision:
    return Decision(GM, "ship.review", "Approve the ship, or send it back", (),
                    json.dumps({"verdict": "approve"}), (
        Field("verdict", "Verdict", "choice", (Option("approve", "Approve"),
                                               Option("return", "Send back")),
              required=True, default="approve"),
        Field("step", "Send back to", "choice",
              tuple(Option(s, s.capitalize()) for s in _RETURNABLE)),
        Field("reason", "Why", "textarea", max_length=2000),
    ))


def _turn(source: RandomSource, purpose: str) -> Card:
    """A card from the lead player's own deck, whole and shuffled (BtQ L606, L679)."""
    return source.draw(Deck(PLAYER_DECK, "player"), 1, purpose=purpose)[0]


def _crew_text(m: CrewMember) -> str:
    return (f"{m['position']}: {card_label(m['card'])}, {m['competence']} (key skills "
            f"{m['key']}, others {m['other']}), {m['disposition']}.")


class ShipCreationEngine:
    """The ``btq_ship_creation`` engine (:class:`rules.engine.Engine`): the group's ship,
    Step 4 of creation (BtQ L538-806); flow in :mod:`rules.btq.ship_creation`."""

    name = ENGINE_NAME
    title = "Beat to Quarters: the group's ship"

    def upgrade(self, state: State) -> State:
        """:func:`rules.btq.settings.upgraded`: a stored state's settings completed."""
        return upgraded(state)

    def validate_setup(self, setup: dict) -> dict:
        """:func:`validate_setup`."""
        return validate_setup(setup)

    def start(self, setup: dict, source: RandomSource) -> tuple[State, list[Event]]:
        """The group's ship at its origin step; nothing drawn."""
        setup = validate_setup(setup)
        state = {"setup": setup, "status": "drafting", "returned": None,
                 "record": {s: None for s in _STEPS}}
        return state, [Event("ship_creation.begun",
                             f"The group makes its ship, a {setup['ship_type']}.",
                             {"ship_type": setup["ship_type"]})]

    def participants(self, state: State) -> dict[str, str]:
        """Every player of the group (the lead decides, the others follow it)."""
        return dict(state["setup"]["players"])

    def pending(self, state: State) -> list[Decision]:
        """The lead's decision of the current step, or the GM's review once it is done."""
        if state["status"] == "approved":
            return []
        if state["status"] == "submitted":
            return [_review_decision()]
        decision = _player_decision(state)
        return [] if decision is None else [decision]

    def default_choice(self, state: State, decision: Decision) -> str:
        """A choice the rules accept, for :func:`rules.engine.play_out`: a card turned for
        the origin, the type's fewest guns, a moderate favourable NPC for a Joker, one
        reputation of 5, the first traits."""
        names = [f.name for f in decision.fields]
        ship_type = SHIP_TYPES[state["setup"]["ship_type"]]
        values = {
            "ship.details": {"name": "Ship", "former_name": "Prize",
                             "guns": ship_type.guns_min},
            "ship.crew_joker": {"competence": "moderate", "suit": "D"},
            "ship.crew_features": {n: "A character" for n in names},
            "ship.reputations": {"rep1_kind": "institution", "rep1_descriptor": "Known to",
                                 "rep1_subject": "the Fleet",
                                 "rep1_value": SHIP_REPUTATION_POINTS},
            "ship.traits": dict(zip([n for n in names if n.startswith("trait_")],
                                    SHIP_TRAITS)),
        }.get(decision.kind)
        return decision.default if values is None else json.dumps(values)

    def outcome(self, state: State) -> Outcome | None:
        """Once approved: ``data["ship"]`` (``ship_type``, ``name``, ``guns``, ``origin``,
        flavour, ``crew``, ``crew_skills``, ``reputations``, ``traits``)."""
        if state["status"] != "approved":
            return None
        return Outcome(None, "approved", f"The {ship_data(state)['name']} is approved.",
                       {"ship": ship_data(state)})

    def view(self, state: State, participant: str) -> dict[str, Any]:
        """All of it, for everyone (the group's ship has no secret), and the ``step``."""
        return {**copy.deepcopy(state), "step": _current(state)}

    def scenarios(self) -> dict[str, Scenario]:
        """The Hermes of the book's example (TV-03, TV-04; BtQ L756-779)."""
        return load_scenarios("rules.btq", "scenarios/ship_creation")

    def apply(self, state: State, actor: str, choice: str, source: RandomSource
              ) -> tuple[State, list[Event]]:
        """Take ``actor``'s decision; :class:`IllegalAction` (per field:
        :class:`FieldErrors`) with the state unchanged if not allowed."""
        decision = next((d for d in self.pending(state) if d.actor == actor), None)
        if decision is None:
            raise IllegalAction("It is not for you to decide now." if state["status"] !=
                                "approved" else "The ship is approved: nothing to decide.")
        decision.check(choice)
        values = decision.parse(choice) if decision.fields else {}
        st = copy.deepcopy(state)
        events = getattr(self, "_on_" + decision.kind.split(".", 1)[1])(st, values, choice,
                                                                       source)
        if st["status"] == "drafting" and _current(st) is None:
            st["status"] = "submitted"
            events.append(Event("ship_creation.submitted",
                                f"The {st['record']['details']['name']} waits for the GM's "
                                "approval."))
        return st, events

    def _on_origin(self, st: State, values: dict[str, Any], choice: str,
                   source: RandomSource) -> list[Event]:
        r = st["record"]
        if choice != "draw":
            r["origin"] = {"suit": choice, "card": None}
            return [Event("ship_creation.origin", f"Origin chosen: {ORIGINS[choice]}.",
                          {"suit": choice})]
        events = []
        while True:
            card = _turn(source, "ship origin")
            if not card.is_joker:
                break
            events.append(Event("ship_creation.draw", "The origin card is the Joker, which "
                                "the table lacks: it is turned again.", {"card": str(card)}))
        r["origin"] = {"suit": card.suit, "card": str(card)}
        events.append(Event("ship_creation.draw", f"{_names(st['setup'])} turns "
                            f"{card_label(card)} for the origin: {SUIT_NAMES[card.suit]}, "
                            f"{ORIGINS[card.suit]}.", {"card": str(card), "suit": card.suit}))
        return events

    def _on_details(self, st: State, values: dict[str, Any], choice: str,
                    source: RandomSource) -> list[Event]:
        st["record"]["details"] = {k: v for k, v in values.items() if v not in (None, "")}
        return [Event("ship_creation.step", f"The ship is the {values['name']}, "
                      f"{values['guns']} guns.", {"step": "details",
                                                  "values": st["record"]["details"]})]

    def _on_crew(self, st: State, values: dict[str, Any], choice: str,
                 source: RandomSource) -> list[Event]:
        crew: list[CrewMember | None] = []
        events = []
        for position in st["setup"]["positions"]:
            card = _turn(source, f"crew: {position}")
            member = None if card.is_joker else crew_member(position, card)
            crew.append(member)
            text = (_crew_text(member) if member else
                    f"{position}: the Joker, any result: the group chooses.")
            events.append(Event("ship_creation.draw", text,
                                {"position": position, "card": str(card)}))
        st["record"]["crew"] = crew
        st["record"]["jokers"] = [str(i) for i, m in enumerate(crew) if m is None]
        return events

    def _on_crew_joker(self, st: State, values: dict[str, Any], choice: str,
                       source: RandomSource) -> list[Event]:
        crew = st["record"]["crew"]
        i = next(i for i, m in enumerate(crew) if m is None)
        member = crew_member(st["setup"]["positions"][i], parse_card("JK"), values)
        crew[i] = member
        return [Event("ship_creation.step", "Joker chosen: " + _crew_text(member),
                      {"step": "crew_joker", "member": member})]

    def _on_crew_features(self, st: State, values: dict[str, Any], choice: str,
                          source: RandomSource) -> list[Event]:
        crew = st["record"]["crew"]
        for i, m in enumerate(crew):
            m["feature"] = values.get(f"feature_{i}") or ""
        st["record"]["features"] = True
        named = [f"{m['position']}: {m['feature']}" for m in crew if m["feature"]]
        return [Event("ship_creation.step", "Crew features: " + ("; ".join(named) or "none")
                      + ".", {"step": "features"})]

    def _on_reputations(self, st: State, values: dict[str, Any], choice: str,
                        source: RandomSource) -> list[Event]:
        reps: list[dict[str, Any]] = []
        errors: dict[str, str] = {}
        for i in range(1, SHIP_REPUTATION_POINTS + 1):
            row = {k: values.get(f"rep{i}_{k}") for k in ("kind", "descriptor", "subject",
                                                           "value")}
            if not any(row.values()):
                continue
            for k in ("kind", "descriptor", "subject", "value"):
                if not row[k]:
                    errors[f"rep{i}_{k}"] = f"Reputation {i}: fill in its {k}."
            reps.append(row)
        total = sum(r["value"] or 0 for r in reps)
        if total != SHIP_REPUTATION_POINTS and not errors:
            errors["rep1_value"] = (f"The ship's reputations come to "
                                    f"{SHIP_REPUTATION_POINTS} points; these make {total}.")
        if errors:
            raise FieldErrors(errors)
        st["record"]["reputations"] = reps
        return [Event("ship_creation.step", "Ship reputations: " + "; ".join(
            f"{r['descriptor']} {r['subject']} +{r['value']}" for r in reps) + ".",
            {"step": "reputations", "reputations": reps})]

    def _on_traits(self, st: State, values: dict[str, Any], choice: str,
                   source: RandomSource) -> list[Event]:
        chosen = [v for k, v in sorted(values.items()) if k.startswith("trait_")]
        if len(set(chosen)) != len(chosen):
            raise FieldErrors({"trait_2": "Each ship trait can be taken only once."})
        wily = values.get("wily_skill")
        if (WILY_SEA_DOGS in chosen) != bool(wily):
            raise FieldErrors({"wily_skill": "Name the crew's skill Wily Sea Dogs raises."
                               if wily is None else
                               "Only a ship with Wily Sea Dogs raises a crew's skill."})
        if wily:
            chosen[chosen.index(WILY_SEA_DOGS)] = f"{WILY_SEA_DOGS} ({SKILLS[wily]})"
        st["record"]["traits"] = chosen
        return [Event("ship_creation.step", "Ship trait" + ("s" if len(chosen) > 1 else "")
                      + ": " + ", ".join(chosen) + ".", {"step": "traits", "traits": chosen})]

    def _on_review(self, st: State, values: dict[str, Any], choice: str,
                   source: RandomSource) -> list[Event]:
        if values["verdict"] == "approve":
            st["status"] = "approved"
            return [Event("ship_creation.approved", f"The GM approves the "
                          f"{st['record']['details']['name']}.")]
        errors: dict[str, str] = {}
        if not values.get("step"):
            errors["step"] = "Choose the step to send it back to."
        if not values.get("reason"):
            errors["reason"] = "Say why."
        if errors:
            raise FieldErrors(errors)
        for step in _RETURNABLE[_RETURNABLE.index(values["step"]):]:
            st["record"][step] = None
        st["status"] = "drafting"
        st["returned"] = {"step": values["step"], "reason": values["reason"]}
        return [Event("ship_creation.returned", f"The GM sends the ship back to "
                      f"{values['step']}: {values['reason']}", dict(st["returned"]))]


def ship_data(state: State) -> dict[str, Any]:
    """The finished ship as JSON (see :meth:`ShipCreationEngine.outcome`): Wily Sea Dogs
    ("Wily Sea Dogs (<Skill>)") adds its 1 to that skill of the crew's (BtQ L2345-2346), as
    the book's samples print it in (the Intrepid's Gunnery 6, BtQ L2831-2857)."""
    r = state["record"]
    crew = r["crew"] or []
    skills = crew_skills([m for m in crew if m])
    for trait in r["traits"] or []:
        if trait in _WILY_SKILL:
            skills[_WILY_SKILL[trait]] += 1
    return {"ship_type": state["setup"]["ship_type"], **(r["details"] or {}),
            "origin": ORIGINS[r["origin"]["suit"]] if r["origin"] else "",
            "crew": copy.deepcopy(crew), "crew_skills": skills,
            "reputations": copy.deepcopy(r["reputations"] or []),
            "traits": list(r["traits"] or [])}


ENGINE = register(ShipCreationEngine())
