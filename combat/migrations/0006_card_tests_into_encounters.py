"""Every card test the campaigns recorded (``campaigns.CardTest`` and its ``DeckDraw`` rows)
becomes an encounter of the engine ``btq_test`` with its events, so that nothing a campaign
has recorded is lost when the old card table goes (``campaigns`` 0003):

* the setup in the campaign's ids becomes the encounter's ``terms`` (with its origin and a
  declined proposal's reason); the status maps as ``proposed`` and ``awaiting_confirmation``
  -> ``setup`` (nothing drawn yet: a fresh seed, the GM starts it by accepting it),
  ``awaiting_joker`` -> ``active``, ``done`` -> ``finished``, ``declined`` and
  ``cancelled`` -> ``cancelled``;
* a test whose cards were turned keeps its record (or pending test) in the engine's state
  and its outcome; its draws become ``test.round`` events, one per round, in order;
* its cards came from the campaign's shared source, not from a seed of its own: a finished
  one gets the seed ``""`` and a waiting one ``terms["migrated"]``, and replay says it
  cannot be replayed;
* the campaign log's entries about it point at the encounter (``data["card_test"]`` and
  ``data["encounter"]``; the old id in ``data["card_test_was"]``), their kinds renamed
  ``card_test.*`` -> ``test.*`` (``card_test.done`` -> ``test.finished``).
"""

import hashlib
import secrets

from django.db import migrations

STATUSES = {"proposed": "setup", "awaiting_confirmation": "setup", "awaiting_joker": "active",
            "done": "finished", "declined": "cancelled", "cancelled": "cancelled"}
KINDS = {"card_test.done": "test.finished"}
SKILL_LABELS = {"wealth": "Wealth"}


def _title(character) -> str:
    return f"{character.rank} {character.name}".strip()


def _label(skill: str) -> str:
    from rules.btq.characters import MEASURES, SKILLS

    return {**SKILLS, **MEASURES, **SKILL_LABELS}.get(skill, skill)


def _terms(test) -> dict:
    at_risk = test.at_risk
    if at_risk == "reputation":
        at_risk = f"reputation:{test.at_risk_reputation_id}" if test.at_risk_reputation_id \
            else ""
    terms = {
        "character": test.character_id, "skill": test.skill,
        "reputations": [test.reputation_id] if test.reputation_id else [],
        "helpers": sorted(test.helpers.values_list("pk", flat=True)),
        "modifiers": test.modifiers, "opposition": test.opposition,
        "opponent": test.opponent_id, "opponent_skill": test.opponent_skill,
        "opponent_modifiers": test.opponent_modifiers, "difficulty": test.difficulty,
        "intent": test.intent, "stakes_win": test.stakes_win, "stakes_lose": test.stakes_lose,
        "at_risk": at_risk, "opponent_at_risk": test.opponent_at_risk, "origin": test.origin,
    }
    if test.status == "declined":
        terms["declined"] = test.decline_reason
    return terms


def _names(test) -> dict:
    names = {f"{test.character.kind}:{test.character_id}": _title(test.character)}
    if test.opponent is not None:
        names[f"{test.opponent.kind}:{test.opponent_id}"] = _title(test.opponent)
    return names


def _engine_setup(test, drawn: dict, names: dict) -> dict:
    difficulty = test.difficulty or None
    if difficulty is not None and difficulty.isdigit():
        difficulty = int(difficulty)
    return {
        "kind": drawn["kind"], "origin": test.origin, "intent": test.intent,
        "stakes": {"win": test.stakes_win, "lose": test.stakes_lose},
        "settings": drawn["settings"],
        "sides": [s for s in drawn["sides"] if s["who"] != "difficulty"],
        "difficulty": difficulty, "names": names,
    }


def _outcome(record: dict, names: dict) -> str:
    best = (record.get("result") or "").capitalize()
    article = "an" if best == "Ordinary" else "a"
    if record["outcome"] == "won":
        return f"{names.get(record['winner'], record['winner'])} won with {article} {best} success."
    if record["outcome"] == "passed":
        return f"{names.get(record['winner'], record['winner'])} passed with {article} {best} " \
               "success."
    if record["outcome"] == "failed":
        return "The test failed: no success."
    return "A stalemate: nobody wins, nothing changes (D3)."


def _events(test, draws, names: dict) -> list[dict]:
    events = [{"kind": "encounter.migrated", "text": (
        "This test was recorded before each test had a seed of its own: its cards came from "
        "the campaign's shared source, so it cannot be replayed."), "data": {}}]
    rounds: dict[int, list] = {}
    for draw in draws:
        rounds.setdefault(draw.round, []).append(draw)
    for number, drawn in sorted(rounds.items()):
        parts = []
        for draw in drawn:
            if draw.purpose == "card of fate":
                parts.append(f"the Card of Fate {' '.join(draw.cards)}")
            else:
                who = draw.purpose.removesuffix(" pool")
                parts.append(f"{names.get(who, who)}: {' '.join(draw.cards) or 'no card'}")
        events.append({"kind": "test.round", "text": f"Round {number}: " + "; ".join(parts) + ".",
                       "data": {"round": number, "draws": [
                           {"purpose": d.purpose, "cards": d.cards} for d in drawn]},
                       "round": number})
    if test.status == "done" and test.record:
        events.append({"kind": "test.result", "text": _outcome(test.record, names),
                       "data": {"damage": test.record.get("damage", [])}})
    if test.status == "declined":
        why = f": {test.decline_reason}" if test.decline_reason else "."
        events.append({"kind": "test.declined", "text": f"The GM declined the proposal{why}",
                       "data": {}})
    return events


def forward(apps, schema_editor):
    CardTest = apps.get_model("campaigns", "CardTest")
    DeckDraw = apps.get_model("campaigns", "DeckDraw")
    LogEntry = apps.get_model("campaigns", "CampaignLogEntry")
    Encounter = apps.get_model("combat", "Encounter")
    EncounterEvent = apps.get_model("combat", "EncounterEvent")
    for test in CardTest.objects.select_related("character", "opponent").order_by("pk"):
        names = _names(test)
        terms = _terms(test)
        status = STATUSES[test.status]
        drawn = test.record if test.status == "done" else test.pending \
            if test.status == "awaiting_joker" else None
        seed = ""
        if drawn is None or test.status == "awaiting_joker":
            seed = str(secrets.randbits(63))  # nothing drawn yet, or the rest to draw
        if test.status == "awaiting_joker":
            terms["migrated"] = True
        state = setup = outcome = None
        if drawn is not None:
            setup = _engine_setup(test, drawn, names)
            state = {"setup": setup, "phase": "done" if test.status == "done" else
                     "awaiting_joker", "pending": test.pending if drawn is test.pending else None,
                     "declared": {}, "record": test.record if test.status == "done" else None}
        if test.status == "done" and test.record:
            outcome = {"winner": test.record.get("winner"), "result": test.record["outcome"],
                       "summary": _outcome(test.record, names),
                       "data": {"record": test.record,
                                "damage": test.record.get("damage", [])}}
        skill = _label(test.skill)
        encounter = Encounter.objects.create(
            campaign_id=test.campaign_id, engine="btq_test",
            title=f"{names[f'{test.character.kind}:{test.character_id}']}'s {skill}: "
                  f"“{test.intent}”"[:200],
            setup=setup or {}, terms=terms, seed=seed,
            seed_hash=hashlib.sha256(seed.encode("ascii")).hexdigest() if seed else "",
            state=state, status=status, version=test.version, outcome=outcome,
            created_by_id=test.created_by_id,
        )
        Encounter.objects.filter(pk=encounter.pk).update(
            created_at=test.created_at,
            started_at=test.created_at if status in ("active", "finished") else None,
            finished_at=test.decided_at if status == "finished" else None)
        draws = list(DeckDraw.objects.filter(card_test=test).order_by("id"))
        EncounterEvent.objects.bulk_create([
            EncounterEvent(encounter=encounter, seq=seq, kind=e["kind"], text=e["text"],
                           data=e["data"], round=e.get("round"))
            for seq, e in enumerate(_events(test, draws, names), start=1)])
        for entry in LogEntry.objects.filter(campaign_id=test.campaign_id,
                                             kind__startswith="card_test.",
                                             data__card_test=test.pk).exclude(
                                                 data__has_key="card_test_was"):
            entry.data = {**entry.data, "card_test": encounter.pk, "encounter": encounter.pk,
                          "card_test_was": test.pk}
            entry.kind = KINDS.get(entry.kind, "test." + entry.kind.partition(".")[2])
            entry.save(update_fields=["data", "kind"])


class Migration(migrations.Migration):

    dependencies = [
        ("combat", "0005_encounter_terms"),
        ("campaigns", "0002_card_tests_and_decks"),
        ("characters", "0005_player_notes"),
    ]

    operations = [migrations.RunPython(forward, migrations.RunPython.noop)]
