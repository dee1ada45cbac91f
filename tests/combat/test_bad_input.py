"""Refused steps change nothing and say why (house rules, "Bad input"): a stale version, an
illegal choice, a decision that is not awaited, a battle that is over, bad setups and
stacked cards."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaigns.services import StaleVersion
from combat.forms import book_cards
from combat.models import Encounter
from combat.services import (
    encounter_act,
    encounter_create,
    encounter_replay,
    encounter_resolve_rest,
    encounter_start,
    job_run,
)
from rules.engine import get_engine
from ships.services import naval_setup

pytestmark = pytest.mark.django_db


def snapshot(encounter):
    encounter.refresh_from_db()
    return (encounter.version, encounter.state, encounter.rng_state, encounter.stacked_position,
            encounter.choices, encounter.events.count())


def pending(encounter):
    encounter.refresh_from_db()
    return get_engine(encounter.engine).pending(encounter.state)[0]


def test_a_stale_version_is_refused_and_changes_nothing(book_battle, gm, gm_client):
    decision = pending(book_battle)
    before = snapshot(book_battle)
    with pytest.raises(StaleVersion, match="reload"):
        encounter_act(encounter=book_battle, user=gm, actor=decision.actor,
                      decision_kind=decision.kind, choice="3",
                      expected_version=book_battle.version - 1)
    assert snapshot(book_battle) == before
    form = {"actor": decision.actor, "kind": decision.kind, "choice": "3",
            "version": book_battle.version - 1}
    response = gm_client.post(reverse("api-encounter-act", args=[book_battle.pk]), form,
                              content_type="application/json")
    assert response.status_code == 409
    assert "version" in response.json()["detail"]
    assert response.json()["version"] == book_battle.version  # as every app's 409
    page = gm_client.post(reverse("combat:act", args=[book_battle.pk]), form, follow=True)
    assert "moved on while you were deciding" in page.content.decode()
    assert snapshot(book_battle) == before


def test_an_illegal_choice_is_refused_with_the_rules_reason(book_battle, gm, gm_client):
    decision = pending(book_battle)  # start distance: 3, 4 or 5
    before = snapshot(book_battle)
    with pytest.raises(ValidationError, match="not one of the choices"):
        encounter_act(encounter=book_battle, user=gm, actor=decision.actor,
                      decision_kind=decision.kind, choice="1",
                      expected_version=book_battle.version)
    form = {"actor": decision.actor, "kind": decision.kind, "choice": "9",
            "version": book_battle.version}
    response = gm_client.post(reverse("api-encounter-act", args=[book_battle.pk]), form,
                              content_type="application/json")
    assert response.status_code == 400
    assert "not one of the choices" in str(response.json())
    page = gm_client.post(reverse("combat:act", args=[book_battle.pk]), form, follow=True)
    assert "not one of the choices" in page.content.decode()
    wrong_kind = {**form, "kind": "broadside.ammo", "choice": "roundshot"}
    response = gm_client.post(reverse("api-encounter-act", args=[book_battle.pk]), wrong_kind,
                              content_type="application/json")
    assert response.status_code == 400
    assert "not awaited" in response.json()["detail"]
    response = gm_client.post(reverse("api-encounter-act", args=[book_battle.pk]),
                              {"actor": decision.actor}, content_type="application/json")
    assert response.status_code == 400
    assert snapshot(book_battle) == before


def test_nothing_can_be_done_in_a_finished_battle(book_battle, gm, gm_client):
    job = encounter_resolve_rest(encounter=book_battle, user=gm)
    job_run(job_id=job.pk)
    book_battle.refresh_from_db()
    assert book_battle.status == Encounter.Status.FINISHED
    before = snapshot(book_battle)
    with pytest.raises(ValidationError, match="over"):
        encounter_act(encounter=book_battle, user=gm, actor="gm", decision_kind="continue.orders",
                      choice="continue", expected_version=book_battle.version)
    response = gm_client.post(reverse("api-encounter-act", args=[book_battle.pk]), {
        "actor": "gm", "kind": "continue.orders", "choice": "continue",
        "version": book_battle.version}, content_type="application/json")
    assert response.status_code == 400 and "over" in response.json()["detail"]
    response = gm_client.post(reverse("api-encounter-resolve", args=[book_battle.pk]))
    assert response.status_code == 400
    with pytest.raises(ValidationError, match="already begun"):
        encounter_start(encounter=book_battle, user=gm, expected_version=book_battle.version)
    assert snapshot(book_battle) == before


def test_a_stack_that_no_longer_fits_is_set_aside_not_a_dead_end(book_battle, gm, play):
    # The book's Hermes closes to Distance 1; holding at 3 takes the battle off the book's
    # course: no Broadside!, and round 2's Positioning would turn the Card of Fate 5H from
    # the GM deck and then 5H again for the Corsair.
    encounter = play(book_battle, ["3", "1", "2", "3", "continue", "continue"])
    aside = encounter.events.get(kind="encounter.stack_set_aside")
    assert aside.visible_to == ["gm"]
    assert "(5H was not left in the GM's deck when the battle drew from it)" in aside.text
    assert encounter.stacked_position == len(encounter.stacked_cards)
    assert encounter.events.filter(kind="positioning.test").exists()
    job = encounter_resolve_rest(encounter=encounter, user=gm)
    job_run(job_id=job.pk)
    encounter.refresh_from_db()
    assert encounter.status == Encounter.Status.FINISHED
    assert encounter_replay(encounter=encounter)["matches"]


def test_bad_setups_and_stacked_cards_are_refused(campaign, gm, hermes, corsair, gm_client):
    with pytest.raises(ValidationError) as caught:
        encounter_create(campaign=campaign, user=gm, engine="btq_naval", title="x",
                         setup=naval_setup(pc_ship=hermes, enemy_ship=corsair,
                                           weather="hurricane"))
    assert "setup" in caught.value.message_dict
    with pytest.raises(ValidationError) as caught:
        encounter_create(campaign=campaign, user=gm, engine="btq_naval", title="x",
                         setup=naval_setup(pc_ship=hermes, enemy_ship=corsair,
                                           weather="storm"), stacked_cards="AS ZZ")
    assert "ZZ" in caught.value.message_dict["stacked_cards"][0]
    with pytest.raises(ValidationError, match="no encounter engine"):
        encounter_create(campaign=campaign, user=gm, engine="chess", title="x", setup={})
    response = gm_client.post(reverse("combat:new", args=[campaign.pk]), {
        "pc_ship": hermes.pk, "enemy_ship": corsair.pk, "weather": "storm",
        "stacked_cards": "AS 11X"})
    assert response.status_code == 200
    assert "11X" in response.content.decode()
    response = gm_client.post(reverse("combat:new", args=[campaign.pk]), {
        "pc_ship": corsair.pk, "enemy_ship": hermes.pk, "weather": "storm"})
    assert response.status_code == 200
    response = gm_client.post(reverse("api-encounter-list", args=[campaign.pk]), {
        "pc_ship": hermes.pk, "enemy_ship": hermes.pk + corsair.pk + 100,
        "weather": "storm"}, content_type="application/json")
    assert response.status_code == 400 and "enemy_ship" in response.json()
    assert not Encounter.objects.exists()


def test_the_new_battle_form_prepares_the_book_example(campaign, hermes, corsair, gm_client):
    response = gm_client.post(reverse("combat:new", args=[campaign.pk]), {
        "pc_ship": hermes.pk, "enemy_ship": corsair.pk, "weather": "good_wind",
        "start_distance": "", "book_cards": "on"})
    encounter = Encounter.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("combat:detail", args=[encounter.pk])
    assert encounter.title == "HMS Hermes vs Corsair"
    assert encounter.stacked_cards == book_cards().split()
    assert encounter.setup["start_distance"] is None
    assert encounter.status == Encounter.Status.SETUP
    page = gm_client.get(response["Location"]).content.decode()
    assert "Begin the battle" in page
    gm_client.post(reverse("combat:start", args=[encounter.pk]), {"version": encounter.version})
    encounter.refresh_from_db()
    assert encounter.status == Encounter.Status.ACTIVE
    assert encounter.events.filter(kind="awareness.test").get().data["card_of_fate"] == "6C"


def test_a_stack_set_aside_names_the_pcs_deck_it_did_not_fit(campaign, gm, hermes, corsair):
    """Twelve Aces of Spades: the second of O'Toole's pool is not in his deck. The GM reads
    whose deck, by name, never its id."""
    encounter = encounter_create(campaign=campaign, user=gm, engine="btq_naval", title="x",
                                 setup=naval_setup(pc_ship=hermes, enemy_ship=corsair,
                                                   weather="storm"),
                                 ships=[hermes, corsair], stacked_cards=" ".join(["AS"] * 12))
    encounter = encounter_start(encounter=encounter, user=gm,
                                expected_version=encounter.version)
    aside = encounter.events.get(kind="encounter.stack_set_aside")
    assert "AS was not left in" in aside.text and "pc:" not in aside.text
    names = [p.character.name for p in hermes.postings.all()]
    assert any(f"{name}'s deck" in aside.text for name in names), aside.text
