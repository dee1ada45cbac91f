"""A mission run through the services and the pages (issue 9, "Done when"): the book's Scout
Soukir Bay (BtQ L1549-1561) for the Hermes' O'Toole and Bosworth, its challenges met by a
card test (the book's contested test, stacked) and by the book's ship battle (Hermes vs
Corsair, stacked), completed, and its rewards taken on the sheets exactly as the book prices
them; then the book's Enter the Ward Room failed and paid (missions TV-05), and the TV-04
escalation paid on a sheet. Everything in the journal."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaigns.missions import services as missions
from campaigns.missions.models import Mission
from characters.advancement import dues, mission_purchase, trait_points
from characters.services import reputation_create
from combat.card_tests.services import card_test_call
from combat.challenges import players_won
from combat.services import encounter_create, encounter_start
from rules.btq.characters import DamageState
from ships.services import naval_setup

from .conftest import ROUND_1, ROUNDS_2_3

pytestmark = pytest.mark.django_db

VARIANT_B = "4S  4C KD KS QH JH 2C  4H AH 2D 7S"
"""The book's contested test as its narration reads it: the PC wins (BtQ L1228-1241)."""
LOST = "4S  2H 3D  4H AH 2D 7S"
"""Bosworth's Seamanship 2 turns nothing against the Card of Fate; Jones has a Critical."""


@pytest.fixture
def otoole(campaign, hermes):
    return campaign.characters.get(name="Gregory O'Toole")


@pytest.fixture
def bosworth(campaign, hermes):
    return campaign.characters.get(name="Bosworth")


def challenge(campaign, gm, mission, what="a step"):
    return missions.challenge_create(campaign=campaign, actor=gm, missions=[mission],
                                     description=what)


def race_for(campaign, gm, pc, jones, cards, turn, user, challenge=None):
    test = card_test_call(campaign=campaign, actor=gm, challenge=challenge, character=pc.pk,
                          skill="seamanship", opposition="npc", opponent=jones.pk,
                          opponent_skill="seamanship", intent="outsail the pirates' lookout")
    return turn(test, user, cards)


def test_a_mission_met_by_a_card_test_and_a_battle_then_its_rewards_taken(
        campaign, gm, player_a, player_b, hermes, corsair, otoole, bosworth, jones, turn, play,
        smith, gm_client, player_a_client, player_b_client):
    mission = missions.mission_load_sample(campaign=campaign, actor=gm, key="scout_soukir_bay",
                                           characters=[otoole.pk, bosworth.pk])
    first = challenge(campaign, gm, mission, "find the pirates' anchorage before dawn")
    second = challenge(campaign, gm, mission, "fight the Corsair at the bay's mouth")

    # A card test played for the first: called from the page with the challenge chosen.
    page = gm_client.get(reverse("card_tests:new", args=[campaign.pk]),
                         {"character": otoole.pk, "challenge": first.pk}).content.decode()
    assert "For a challenge" in page and f'value="{first.pk}" selected' in page
    test = race_for(campaign, gm, otoole, jones, VARIANT_B, turn, player_a, challenge=first)
    assert test.status == "finished" and test.challenge_id == first.pk
    mission.refresh_from_db()
    assert (mission.successes, mission.failed) == (1, 0)

    # The book's battle played for the second, through the services, the cards stacked
    # (the battle form offers the challenge as the call form does).
    page = gm_client.get(reverse("combat:new", args=[campaign.pk]),
                         {"challenge": second.pk}).content.decode()
    assert "For a challenge" in page and f'value="{second.pk}" selected' in page
    from combat.forms import book_cards
    battle = encounter_create(
        campaign=campaign, user=gm, engine="btq_naval", title="Hermes vs Corsair",
        setup=naval_setup(pc_ship=hermes, enemy_ship=corsair, weather="good_wind"),
        stacked_cards=book_cards(), ships=[hermes, corsair], challenge=second.pk)
    battle = encounter_start(encounter=battle, user=gm, expected_version=battle.version)
    battle = play(battle, ROUND_1 + [c.format(smith=smith.pk) for c in ROUNDS_2_3])
    assert battle.status == "finished" and battle.outcome["winner"] == "pc"
    mission.refresh_from_db()
    assert (mission.successes, mission.failed, mission.status) == (2, 0, "active")

    # The other two challenges of the four, by the GM's word (cards turned on paper).
    for what in ("free the prisoners", "cut out the ships"):
        missions.challenge_record(challenge=challenge(campaign, gm, mission, what), met=True,
                                  actor=gm)
    mission.refresh_from_db()
    assert mission.status == Mission.Status.REQUIREMENT_MET
    assert dues(otoole) == []  # nothing to take before the GM confirms
    response = gm_client.post(reverse("missions:step", args=[campaign.pk, mission.pk,
                                                             "complete"]),
                              {"version": mission.version})
    assert response.status_code == 302
    mission.refresh_from_db()
    assert mission.status == Mission.Status.COMPLETED

    # The rewards, bought on O'Toole's page by his player exactly as the book prices them:
    # Institution: Hated by Barbary Pirates +1 (2) and +1 trait point (2).
    url = reverse("characters:missions", args=[otoole.pk])
    page = player_a_client.get(url).content.decode()
    assert "+1 to a Reputation" in page and "+1 point to buy a Trait" in page
    due = {d.entry.kind: d for d in dues(otoole)}
    assert [o.key for o in due["reputation"].options] == [
        "new:institution:Hated by:Barbary Pirates"]
    for kind in ("reputation", "trait_point"):
        d = due[kind]
        response = player_a_client.post(url, {"mission": mission.pk, "side": "reward",
                                              "index": d.index, "option": d.options[0].key})
        assert response.status_code == 302
    hated = otoole.reputations.get(descriptor="Hated by")
    assert (hated.kind, hated.subject, hated.value) == ("institution", "Barbary Pirates", 1)
    assert trait_points(otoole) == 1
    assert dues(otoole) == []
    # Taken once: the same submission again is refused and changes nothing.
    again = player_a_client.post(url, {"mission": mission.pk, "side": "reward",
                                       "index": due["trait_point"].index,
                                       "option": "trait_point"}, follow=True)
    assert "not due on this character" in again.content.decode()
    assert trait_points(otoole) == 1
    # Player A cannot take Bosworth's; Bosworth's player does, the same two.
    bos_url = reverse("characters:missions", args=[bosworth.pk])
    assert player_a_client.post(bos_url, {"mission": mission.pk, "side": "reward",
                                          "index": 1, "option": "trait_point"}).status_code == 403
    assert len(dues(bosworth)) == 2

    # The journal holds it all, each linked to its record.
    journal = gm_client.get(reverse("campaigns:log", args=[campaign.pk])).content.decode()
    for words in ("opened the mission “Scout Soukir Bay”", "Challenge met: find the pirates",
                  "Challenge met: fight the Corsair", "is completed",
                  "took from “Scout Soukir Bay”: new reputation “Hated by Barbary Pirates” +1",
                  "+1 trait point"):
        assert words in journal, words
    assert reverse("missions:detail", args=[campaign.pk, mission.pk]) in journal
    only_missions = gm_client.get(reverse("campaigns:log", args=[campaign.pk]),
                                  {"kind": "challenge"}).content.decode()
    assert "Challenge met" in only_missions and "took from" not in only_missions
    found = player_b_client.get(reverse("campaigns:log", args=[campaign.pk]),
                                {"q": "hated by barbary"}).content.decode()
    assert "Hated by Barbary Pirates" in found and "Challenge met" not in found


def test_a_lost_test_fails_its_challenge_and_the_failure_is_paid_exactly(
        campaign, gm, player_a, player_b, hermes, bosworth, jones, turn, gm_client,
        player_b_client):
    """missions TV-05 on a sheet: Enter the Ward Room fails; the GM pays Gun Deck MAIMED,
    the Captain's reputation INJURED and Influence -1 on Bosworth's page."""
    from characters.services import character_update

    bosworth = character_update(character=bosworth, actor=gm, version=bosworth.version,
                                influence=2)
    gun_deck = reputation_create(character=bosworth, actor=gm, kind="institution",
                                 descriptor="Respected by", subject="the Gun Deck", value=1)
    captain = reputation_create(character=bosworth, actor=gm, kind="personal",
                                descriptor="Trusted by", subject="Captain Johnson", value=1)
    mission = missions.mission_load_sample(campaign=campaign, actor=gm,
                                           key="enter_the_ward_room", characters=[bosworth.pk])
    lost = challenge(campaign, gm, mission, "impress the Master")
    test = race_for(campaign, gm, bosworth, jones, LOST, turn, player_b, challenge=lost)
    assert test.state["record"]["winner"] == f"npc:{jones.pk}"
    mission.refresh_from_db()
    assert (mission.successes, mission.failed) == (0, 1)
    mission = missions.mission_fail(mission=mission, actor=gm, version=mission.version,
                                    reason="the Captain sailed without him")
    url = reverse("characters:missions", args=[bosworth.pk])
    due = dues(bosworth)
    assert [d.entry.kind for d in due] == ["maimed", "injured", "measure"]
    # The player may not choose what his failure costs.
    assert player_b_client.post(url, {"mission": mission.pk, "side": "failure", "index": 1,
                                      "option": f"reputation:{gun_deck.pk}"}).status_code == 403
    choices = {"maimed": f"reputation:{gun_deck.pk}", "injured": f"reputation:{captain.pk}",
               "measure": "measure:influence"}
    suggested = {d.entry.kind: d.options[0].key for d in due}
    assert suggested["maimed"] == choices["maimed"]  # the entry names the Gun Deck
    for d in due:
        assert gm_client.post(url, {"mission": mission.pk, "side": "failure", "index": d.index,
                                    "option": choices[d.entry.kind]}).status_code == 302
    gun_deck.refresh_from_db()
    captain.refresh_from_db()
    bosworth.refresh_from_db()
    assert gun_deck.damage_state == DamageState.MAIMED
    assert captain.damage_state == DamageState.INJURED
    assert bosworth.influence == 1
    assert dues(bosworth) == []
    page = player_b_client.get(url).content.decode()
    assert "Influence -1 (2 → 1)" in page and "“Respected by the Gun Deck”: Healthy → Maimed" \
        in page
    journal = player_b_client.get(reverse("campaigns:log", args=[campaign.pk]),
                                  {"character": bosworth.pk}).content.decode()
    assert "Challenge failed: impress the Master" in journal
    assert "paid from “Enter the Ward Room”: Influence -1 (2 → 1)" in journal


def test_tv_04_a_wound_on_an_injured_area_escalates_on_the_sheet(campaign, gm, pc_a):
    """missions TV-04 / characters TV-18 through the sheet: Wealth 3 INJURED, the failure
    Wealth - MAIMED leaves it DEAD with the value 3; a later reward heals it to MAIMED."""
    from characters.services import character_damage_set, character_update

    pc_a = character_update(character=pc_a, actor=gm, version=pc_a.version, wealth=3)
    character_damage_set(character=pc_a, area="wealth", state=DamageState.INJURED)
    failed, _ = missions.mission_create(
        campaign=campaign, actor=gm, name="Pay the debts", challenges_required=4,
        failures=[{"kind": "maimed", "target": "wealth"}], characters=[pc_a.pk])
    failed = missions.mission_fail(mission=failed, actor=gm, version=failed.version)
    mission_purchase(character=pc_a, actor=gm, mission_id=failed.pk, side="failure", index=0,
                     option="wealth")
    pc_a.refresh_from_db()
    assert (pc_a.wealth, pc_a.wealth_state) == (3, DamageState.DEAD)
    healing, _ = missions.mission_create(
        campaign=campaign, actor=gm, name="Win back the bank", challenges_required=4,
        rewards=[{"kind": "heal_dead"}], characters=[pc_a.pk])
    for _ in range(4):
        missions.challenge_record(challenge=challenge(campaign, gm, healing), met=True, actor=gm)
    healing.refresh_from_db()
    healing = missions.mission_complete(mission=healing, actor=gm, version=healing.version)
    (due,) = dues(pc_a)
    assert [o.key for o in due.options] == ["wealth"]  # Health is not Dead, nor any other
    mission_purchase(character=pc_a, actor=gm, mission_id=healing.pk, side="reward", index=0,
                     option="wealth")
    pc_a.refresh_from_db()
    assert pc_a.wealth_state == DamageState.MAIMED


def test_a_reward_above_the_cap_is_kept_whole_with_a_warning(campaign, gm, player_a, pc_a):
    """D9: Charm 1, Loved by Lady Pemberton +2 is stored as 2 and counts as 1."""
    mission = missions.mission_load_sample(campaign=campaign, actor=gm,
                                           key="seduce_lady_pemberton", characters=[pc_a.pk])
    for _ in range(4):
        missions.challenge_record(challenge=challenge(campaign, gm, mission), met=True,
                                  actor=gm)
    mission.refresh_from_db()
    missions.mission_complete(mission=mission, actor=gm, version=mission.version)
    (due,) = dues(pc_a)
    _, warnings = mission_purchase(character=pc_a, actor=player_a, mission_id=mission.pk,
                                   side="reward", index=0, option=due.options[0].key)
    loved = pc_a.reputations.get(subject="Lady Pemberton")
    assert loved.value == 2 and loved.over_cap and loved.cap == 1
    assert "counts as 1 in tests" in warnings[0]


def test_a_ship_morale_failure_is_paid_once_for_the_ship(campaign, gm, otoole, bosworth,
                                                         hermes):
    """The Soukir Bay failure, Ship's Morale MAIMED (BtQ L1560): one track per ship, paid
    on one crewman's page, no longer due on his shipmate's."""
    mission = missions.mission_load_sample(campaign=campaign, actor=gm, key="scout_soukir_bay",
                                           characters=[otoole.pk, bosworth.pk])
    mission = missions.mission_fail(mission=mission, actor=gm, version=mission.version)
    (due,) = dues(otoole)
    assert due.options[0].key == "ship_morale"
    mission_purchase(character=otoole, actor=gm, mission_id=mission.pk, side="failure",
                     index=0, option="ship_morale")
    hermes.refresh_from_db()
    assert hermes.morale_state == DamageState.MAIMED
    assert dues(bosworth) == []
    with pytest.raises(ValidationError):
        mission_purchase(character=bosworth, actor=gm, mission_id=mission.pk, side="failure",
                         index=0, option="ship_morale")


def test_who_won_for_each_engine(campaign, gm):
    """``combat.challenges.players_won``: the rule of each engine in one place."""
    from combat.models import Encounter
    from rules.engine import Outcome

    def won(engine, winner, result="x", setup=None):
        return players_won(Encounter(engine=engine, setup=setup or {}),
                           Outcome(winner, result, ""))

    assert won("btq_test", "pc:3", "won") is True
    assert won("btq_test", "pc:3", "passed") is True
    assert won("btq_test", "difficulty", "failed") is False
    assert won("btq_test", None, "stalemate") is None
    assert won("btq_naval", "pc") is True and won("btq_naval", "enemy") is False
    assert won("btq_naval", None, "escaped") is None
    sides = {"sides": {"french": {"commander": "side:french"}, "ours": {"commander": "pc:4"}}}
    assert won("hfg", "side:ours", setup=sides) is True
    assert won("hfg", "side:french", setup=sides) is False
    assert won("viking", "pc:9") is True


def test_a_reward_for_the_ratings_is_due_to_the_ratings_only(campaign, gm, player_a, pc_a):
    """BtQ L1447, L1517: a reward may differ for Officers and Ratings; a Mate counts by the
    setting petty_officer_tier (D7)."""
    from campaigns.services import campaign_update
    from characters.services import character_create

    tar = character_create(campaign=campaign, actor=gm, owner=player_a, name="Jack Tar",
                           rank="Able Seaman")
    mate = character_create(campaign=campaign, actor=gm, owner=player_a, name="Will Mate",
                            rank="Boatswain's Mate")
    mission, _ = missions.mission_create(
        campaign=campaign, actor=gm, name="Take the battery", challenges_required=4,
        rewards=[{"kind": "skill", "scope": "officers"}, {"kind": "wealth", "scope": "ratings"}],
        characters=[pc_a.pk, tar.pk, mate.pk])
    for _ in range(4):
        missions.challenge_record(challenge=challenge(campaign, gm, mission), met=True,
                                  actor=gm)
    mission.refresh_from_db()
    missions.mission_complete(mission=mission, actor=gm, version=mission.version)
    assert [d.entry.kind for d in dues(pc_a)] == ["skill"]  # a Lieutenant
    assert [d.entry.kind for d in dues(tar)] == ["wealth"]
    assert [d.entry.kind for d in dues(mate)] == ["skill"]  # a Warrant Officer by default
    campaign.refresh_from_db()
    campaign_update(campaign=campaign, actor=gm, version=campaign.version,
                    settings={**campaign.rules_settings(), "petty_officer_tier": "rating"})
    mate.refresh_from_db()
    assert [d.entry.kind for d in dues(mate)] == ["wealth"]


def test_a_battle_resolved_by_the_computer_meets_its_challenge_once(
        campaign, gm, hermes, corsair, otoole):
    """"Resolve the rest" (the job's task, here in the test process, its message delivered
    twice): the battle's end meets the challenge it was played for, once."""
    from combat.forms import book_cards
    from combat.services import encounter_resolve_rest
    from combat.tasks import run_job

    mission, _ = missions.mission_create(campaign=campaign, actor=gm, name="Take the Corsair",
                                         challenges_required=2, characters=[otoole.pk])
    fight = challenge(campaign, gm, mission, "bring her to action")
    battle = encounter_create(
        campaign=campaign, user=gm, engine="btq_naval", title="Hermes vs Corsair",
        setup=naval_setup(pc_ship=hermes, enemy_ship=corsair, weather="good_wind"),
        stacked_cards=book_cards(), ships=[hermes, corsair], challenge=fight)
    battle = encounter_start(encounter=battle, user=gm, expected_version=battle.version)
    job = encounter_resolve_rest(encounter=battle, user=gm)
    run_job(job.pk)
    run_job(job.pk)  # the broker delivers the message again
    battle.refresh_from_db()
    mission.refresh_from_db()
    assert battle.status == "finished"
    from rules.engine import Outcome

    won = players_won(battle, Outcome(**{k: battle.outcome[k]
                                         for k in ("winner", "result", "summary", "data")}))
    # Past the stacked cards the battle draws from its seed: whoever won, it counts once.
    assert (mission.successes, mission.failed) == {True: (1, 0), False: (0, 1),
                                                   None: (0, 0)}[won]
    assert campaign.log_entries.filter(kind__in=["challenge.met", "challenge.failed"]
                                       ).count() == (0 if won is None else 1)
