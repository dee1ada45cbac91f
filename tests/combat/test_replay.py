"""Replay checks the record (DESIGN.md, "Roles and trust"): a finished battle replayed from
its revealed seed must give every recorded event (kind, text, data with its cards, GM-only
data, who sees it, round) and then the final state and outcome; the first that differs is
named, and ``manage.py combat_replay`` reports it and fails."""

import pytest
from django.core.management import CommandError, call_command

from combat.models import EncounterEvent
from combat.services import encounter_replay, encounter_resolve_rest, job_run

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(book_battle, gm):
    job_run(job_id=encounter_resolve_rest(encounter=book_battle, user=gm).pk)
    book_battle.refresh_from_db()
    assert encounter_replay(encounter=book_battle)["matches"]
    return book_battle


def replay_fails(encounter) -> str:
    """What ``combat_replay`` says when it fails (it must)."""
    with pytest.raises(CommandError) as caught:
        call_command("combat_replay", str(encounter.pk))
    assert caught.value.returncode == 1  # the exit status from the command line
    return str(caught.value)


def test_an_untouched_battle_replays_event_by_event(finished, capsys):
    call_command("combat_replay", str(finished.pk))
    out = capsys.readouterr().out
    assert f"{finished.events.count()} events compared" in out
    assert "matches the recorded battle, event by event" in out


def test_a_changed_card_of_fate_is_named(finished):
    event = finished.events.filter(data__has_key="card_of_fate").order_by("seq")[3]
    recorded = event.data["card_of_fate"]
    forged = "AS" if recorded != "AS" else "2C"
    event.data = {**event.data, "card_of_fate": forged}
    event.save()
    mismatch = encounter_replay(encounter=finished)["mismatch"]
    assert mismatch == {"seq": event.seq, "kind": event.kind, "field": "data.card_of_fate",
                        "recorded": forged, "replayed": recorded}
    said = replay_fails(finished)
    assert f"event #{event.seq} ({event.kind}) differs in data.card_of_fate" in said
    assert f"recorded '{forged}', replayed '{recorded}'" in said


def test_a_changed_card_in_a_pool_is_named(finished):
    event = finished.events.filter(data__has_key="pools").order_by("seq").first()
    side = next(iter(event.data["pools"]))
    card, quality = event.data["pools"][side]["cards"][0]
    event.data["pools"][side]["cards"][0] = ["KH" if card != "KH" else "2D", quality]
    event.save()
    mismatch = encounter_replay(encounter=finished)["mismatch"]
    assert (mismatch["seq"], mismatch["field"]) == (event.seq,
                                                    f"data.pools.{side}.cards[0][0]")
    assert mismatch["replayed"] == card


@pytest.mark.parametrize("field, forge", [
    ("text", lambda e: setattr(e, "text", e.text + " (and the Corsair struck at once)")),
    ("kind", lambda e: setattr(e, "kind", "broadside.fire")),
    ("gm_data", lambda e: setattr(e, "gm_data", {"note": "forged"})),
    ("visible_to", lambda e: setattr(e, "visible_to", ["gm"])),
    ("round", lambda e: setattr(e, "round", 7)),
])
def test_any_changed_field_of_an_event_is_named(finished, field, forge):
    event = finished.events.get(seq=6)
    forge(event)
    event.save()
    mismatch = encounter_replay(encounter=finished)["mismatch"]
    assert mismatch["seq"] == 6
    assert mismatch["field"].split(".")[0] == field
    assert "event #6" in replay_fails(finished)


def test_a_deleted_or_added_event_is_named(finished):
    last = finished.events.order_by("-seq").first()
    EncounterEvent.objects.create(encounter=finished, seq=last.seq + 1, kind="note",
                                  text="An extra broadside nobody drew.")
    mismatch = encounter_replay(encounter=finished)["mismatch"]
    assert (mismatch["seq"], mismatch["field"], mismatch["replayed"]) == (
        last.seq + 1, "event", None)
    finished.events.filter(seq__gte=last.seq).delete()
    mismatch = encounter_replay(encounter=finished)["mismatch"]
    assert (mismatch["seq"], mismatch["field"], mismatch["recorded"]) == (
        last.seq, "event", None)
    assert f"event #{last.seq}" in replay_fails(finished)


def test_a_changed_final_state_or_choice_is_named(finished):
    finished.state = {**finished.state, "round": finished.state["round"] + 1}
    finished.save()
    mismatch = encounter_replay(encounter=finished)["mismatch"]
    assert (mismatch["seq"], mismatch["field"]) == (None, "state.round")
    assert "the final result differs in state.round" in replay_fails(finished)
    finished.refresh_from_db()
    finished.choices = [{**finished.choices[0], "choice": "5"}, *finished.choices[1:]]
    finished.save()
    mismatch = encounter_replay(encounter=finished)["mismatch"]
    assert mismatch["seq"] is not None and mismatch["recorded"] != mismatch["replayed"]


def test_a_battle_called_off_reveals_its_seed_and_replays_to_the_cancel(book_battle, gm,
                                                                         player_a_client):
    """The draws made before the GM called a battle off can be checked too: the seed is
    revealed in the last event, and the replay must give every event up to it."""
    from django.core.exceptions import ValidationError

    from combat.services import encounter_act, encounter_cancel
    from rules.engine import get_engine

    for _ in range(3):
        decision = get_engine(book_battle.engine).pending(book_battle.state)[0]
        encounter_act(encounter=book_battle, user=gm, actor=decision.actor,
                      decision_kind=decision.kind, choice=decision.default,
                      expected_version=book_battle.version)
        book_battle.refresh_from_db()
    with pytest.raises(ValidationError, match="once it has ended"):
        encounter_replay(encounter=book_battle)
    encounter_cancel(encounter=book_battle, user=gm, expected_version=book_battle.version)
    book_battle.refresh_from_db()
    last = book_battle.events.order_by("-seq").first()
    assert last.kind == "encounter.cancelled" and book_battle.seed in last.text
    api = player_a_client.get(f"/api/encounters/{book_battle.pk}/").json()
    assert api["seed"] == book_battle.seed
    assert encounter_replay(encounter=book_battle)["matches"]
    EncounterEvent.objects.filter(pk=book_battle.events.order_by("seq")[4].pk).update(
        text="forged")
    assert "event #5" in replay_fails(book_battle)
