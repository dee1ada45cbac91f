"""The step-through replay of a finished encounter (any engine): every event in order, each
with the state after it, rebuilt through the kernel from the revealed seed, the stacked
cards and the recorded choices (``combat.services.encounter_replay_steps``). What a viewer
sees of it is decided as for the live encounter: the events ``combat.selectors`` lets his
participants see (the GM's ``gm_data`` to the GM alone) and the engine's view of each state
for his participants (``combat.selectors.view_as``)."""

from __future__ import annotations

from django.http import Http404

from combat import selectors, services
from combat.card_tests.selectors import card_test_for_user
from combat.creation.selectors import draft_for_user
from combat.creation.services import ENGINES as DRAFT_ENGINES
from combat.forms import MAX_ID
from combat.models import Encounter
from rules.engine import GM, get_engine


def replay_encounter_for_user(user, pk) -> Encounter:
    """The encounter ``pk`` if ``user`` may see it, a card test or a draft as its own pages
    decide (``combat.card_tests.selectors.card_test_for_user``,
    ``combat.creation.selectors.draft_for_user``), any other as a battle
    (:func:`combat.selectors.encounter_for_user`); ``Http404`` otherwise."""
    engine = Encounter.objects.filter(pk=pk).values_list("engine", flat=True).first() \
        if str(pk).isdigit() and int(pk) <= MAX_ID else None
    if engine in DRAFT_ENGINES:
        return draft_for_user(user, pk)
    if engine in selectors.OWN_PAGES:
        return card_test_for_user(user, pk)
    if engine is None:
        raise Http404("No such battle.")
    return selectors.encounter_for_user(user, pk)


def _visible(row: dict, participants: list[str]) -> bool:
    return GM in participants or row.get("visible_to") is None or any(
        p in row["visible_to"] for p in participants)


def replay_for(encounter: Encounter, participants: list[str]) -> dict:
    """The replay as ``participants`` may see it: ``{"steps": [{"number", "event": {"seq",
    "kind", "text", "data", "round"} (+ "gm_data" for the GM), "view": the engine's view of
    the state after it}], "matches": whether the replay gives the recorded events again}``.
    Only events the participants may see are steps; each carries the view of the state the
    kernel had after the choice that produced it. ``ValidationError`` while the seed is
    secret (``combat.services.encounter_replay_steps``)."""
    engine = get_engine(encounter.engine)
    gm = GM in participants
    recorded = list(encounter.events.order_by("seq").values_list("kind", "text"))
    steps, replayed, seq = [], [], 0
    for rows, state in services.encounter_replay_steps(encounter=encounter):
        view = None
        for row in rows:
            seq += 1
            replayed.append((row["kind"], row["text"]))
            if not _visible(row, participants):
                continue
            if view is None:
                view = selectors.view_as(engine, state, participants)
            event = {"seq": seq, "kind": row["kind"], "text": row["text"],
                     "data": row.get("data", {}), "round": row.get("round")}
            if gm:
                event["gm_data"] = row.get("gm_data", {})
            steps.append({"number": len(steps) + 1, "event": event, "view": view})
    return {"steps": steps, "matches": replayed == recorded}


def replay_export(encounter: Encounter, participants: list[str]) -> dict:
    """The replay as JSON for download: the encounter's public facts (engine, title, status,
    seed hash and the revealed seed), the outcome as ``combat.selectors.outcome_for`` shows
    it, and the :func:`replay_for` steps; for the GM also the setup, the stacked cards and
    the recorded choices, with which anyone holding the kernel replays it."""
    replay = replay_for(encounter, participants)
    out = {"encounter": encounter.pk, "engine": encounter.engine, "title": encounter.title,
           "status": encounter.status, "seed_hash": encounter.seed_hash,
           "seed": encounter.seed, "outcome": selectors.outcome_for(encounter, participants),
           "matches": replay["matches"], "steps": replay["steps"]}
    if GM in participants:
        out.update(setup=encounter.setup, stacked_cards=encounter.stacked_cards,
                   choices=encounter.choices)
    return out
