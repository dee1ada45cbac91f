"""The optional Scar rule at the table (``combat.healing``; BtQ L1318-1320,
``rules/btq_characters.md`` §5.5): when the campaign uses it, a Health healed back to
Healthy after being Maimed turns the Scar card, an encounter of ``btq_scar`` (a recorded,
fair draw), and what it leaves is written onto the sheet; by persona (the GM, player A whose
PC it is, player B, an outsider)."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from campaigns.missions import services as missions
from characters.services import character_damage_set, character_heal, character_update
from combat.healing import heal_call, scar_draw_start
from combat.models import Encounter
from combat.services import encounter_act, encounter_replay
from rules.btq.characters import DamageState
from tests.conftest import stack

pytestmark = pytest.mark.django_db

H, INJURED, MAIMED, DEAD = DamageState


def scar_rule(campaign, on=True):
    campaign.settings = {**campaign.settings, "scar_rule": on}
    campaign.save(update_fields=["settings"])


def healed_from_maimed(pc, gm, player, turn):
    """``pc`` Maimed, healed to Injured by a challenge, then to Healthy by a First Aid
    test his player turns (an Ordinary success)."""
    character_damage_set(character=pc, area="health", state=MAIMED, actor=gm)
    pc.refresh_from_db()
    assert pc.scar_due
    character_heal(character=pc, area="health", actor=gm, how="challenge")
    pc.refresh_from_db()
    pc = character_update(character=pc, actor=gm, version=pc.version, skills={"first_aid": 2})
    turn(heal_call(character=pc, area="health", actor=gm), player, "9C  2C 5H")
    pc.refresh_from_db()
    assert pc.health_state == H
    return pc


def act(encounter, user, kind, choice):
    encounter.refresh_from_db()
    decision = next(d for d in encounter_engine_pending(encounter) if d.kind == kind)
    return encounter_act(encounter=encounter, user=user, actor=decision.actor,
                         decision_kind=kind, choice=choice, expected_version=encounter.version)


def encounter_engine_pending(encounter):
    from rules.engine import get_engine

    return get_engine(encounter.engine).pending(encounter.state)


def test_the_heal_to_healthy_turns_the_scar_card_and_a_red_face_costs_charm_or_influence(
        campaign, gm, pc_a, player_a, turn):
    scar_rule(campaign)
    pc = healed_from_maimed(pc_a, gm, player_a, turn)
    draw = Encounter.objects.get(engine="btq_scar")
    assert draw.seed_hash and draw.seed not in str(list(draw.events.values("text")))
    stack(draw, "KD")
    act(draw, player_a, "scar.draw", "draw")
    influence = pc.influence
    act(draw, player_a, "scar.measure", "influence")
    pc.refresh_from_db()
    assert pc.influence == max(1, influence - 1) and not pc.scar_due
    assert "Scar: Heavily scarred and deliriously sick" in pc.notes
    draw.refresh_from_db()
    assert draw.status == Encounter.Status.FINISHED and encounter_replay(encounter=draw)[
        "matches"]
    assert campaign.log_entries.filter(kind="character.scar").exists()


def test_a_black_number_shortens_the_mission_the_gm_records(campaign, gm, pc_a, player_a,
                                                            turn):
    scar_rule(campaign)
    mission, _ = missions.mission_create(campaign=campaign, actor=gm, name="Convoy",
                                         challenges_required=3, characters=[pc_a.pk])
    healed_from_maimed(pc_a, gm, player_a, turn)
    draw = Encounter.objects.get(engine="btq_scar")
    stack(draw, "4S")
    act(draw, player_a, "scar.draw", "draw")
    with pytest.raises(PermissionDenied):
        encounter_act(encounter=draw, user=player_a, actor="gm", decision_kind="scar.mission",
                      choice=str(mission.pk), expected_version=draw.version)
    act(draw, gm, "scar.mission", str(mission.pk))
    mission.refresh_from_db()
    assert mission.deadline_failures == 2


def test_without_the_rule_no_card_is_turned_and_none_is_due(campaign, gm, pc_a, player_a,
                                                            turn, player_a_client):
    healed_from_maimed(pc_a, gm, player_a, turn)
    assert not Encounter.objects.filter(engine="btq_scar").exists()
    with pytest.raises(ValidationError, match="not due"):
        scar_draw_start(character=pc_a, actor=gm)
    page = player_a_client.get(reverse("characters:detail", args=[pc_a.pk]))
    assert b"Turn the Scar card" not in page.content


def test_a_gm_who_set_health_by_hand_has_the_card_turned_from_the_sheet_by_persona(
        campaign, gm, pc_a, player_a, player_b, player_a_client, player_b_client,
        outsider_client):
    scar_rule(campaign)
    pc = character_update(character=pc_a, actor=gm, version=pc_a.version, health_state=MAIMED)
    pc = character_update(character=pc, actor=gm, version=pc.version, health_state=H)
    assert pc.scar_due
    assert b"Turn the Scar card" in player_a_client.get(
        reverse("characters:detail", args=[pc.pk])).content
    assert b"Turn the Scar card" not in player_b_client.get(
        reverse("characters:detail", args=[pc.pk])).content
    with pytest.raises(PermissionDenied):
        scar_draw_start(character=pc, actor=player_b)
    url = reverse("api-scar-card", args=[pc.pk])
    assert player_b_client.post(url).status_code == 403
    assert outsider_client.post(url).status_code == 404
    answer = player_a_client.post(url)
    assert answer.status_code == 201
    draw = Encounter.objects.get(engine="btq_scar")
    assert player_a_client.post(url).status_code == 400  # one at a time
    assert player_b_client.get(reverse("combat:detail", args=[draw.pk])).status_code == 404 \
        or b"scar.draw" not in player_b_client.get(reverse("combat:detail",
                                                           args=[draw.pk])).content
    page = player_a_client.get(reverse("combat:detail", args=[draw.pk])).content.decode()
    assert "The Scar card of" in page and "Turn the card" in page


def test_the_scar_cards_page_calls_it_a_draw(campaign, gm, pc_a, player_a, turn, gm_client,
                                            player_a_client):
    import re

    scar_rule(campaign)
    healed_from_maimed(pc_a, gm, player_a, turn)
    draw = Encounter.objects.get(engine="btq_scar")
    for client in (gm_client, player_a_client):
        page = client.get(reverse("combat:detail", args=[draw.pk])).content.decode()
        page = page.split("<main", 1)[1].split("</main>", 1)[0]  # not the site's menu
        page = re.sub(r'<nav aria-label="breadcrumb">.*?</nav>', "", page, flags=re.S)
        assert not re.search(r"\bbattles?\b", re.sub(r"<[^>]+>", " ", page), re.I)
    assert "Cancel the draw" in gm_client.get(
        reverse("combat:detail", args=[draw.pk])).content.decode()
