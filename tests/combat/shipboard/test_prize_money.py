"""Prize money: the book's battle, HMS Hermes against the Corsair (BtQ L2533-2603), played with
the book's cards through the services until the Corsair strikes her colours at the end of
round 1. The Corsair is held as a prize; only when the GM marks her arrived in port is every
PC aboard the Hermes paid his share by rank of an un-rated prize (BtQ L1769-1835,
``rules/btq_missions.md`` §7.6), once, even if the finish or the arrival is recorded again.
A prize lost or recaptured pays nothing."""

import re

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from campaigns.models import CampaignLogEntry
from campaigns.services import Conflict, StaleVersion
from characters.models import PrizeShare
from characters.shipboard import infraction_record
from combat.forms import ship_with_damage
from combat.services import _AFTER_BATTLE
from rules.engine import Outcome, get_engine
from ships.models import Prize
from ships.prizes import prize_resolve
from tests.combat.conftest import ROUND_1


@pytest.fixture
def prize(book_battle, play):
    battle = play(book_battle, ROUND_1[:-1] + ["strike"])  # the Corsair strikes
    assert battle.status == "finished"
    assert (battle.outcome["result"], battle.outcome["winner"]) == ("struck", "pc")
    return Prize.objects.get()


def test_a_prize_is_paid_by_rank_once_when_she_reaches_port(prize, gm, campaign):
    assert prize.status == "held" and prize.captured.startswith("Corsair")
    assert {c.name for c in prize.crew.all()} == {"Gregory O'Toole", "Bosworth", "Smith"}
    # nothing is paid at the capture (not Anne Able either: she serves elsewhere)
    assert not PrizeShare.objects.exists()
    assert CampaignLogEntry.objects.filter(kind="prize.taken").count() == 1
    # the finish recorded a second time holds nothing more
    battle = prize.campaign.encounters.get(pk=prize.battle)
    _AFTER_BATTLE["btq_naval"](battle, get_engine("btq_naval"), Outcome(**battle.outcome), gm)
    assert Prize.objects.count() == 1
    prize_resolve(prize=prize, actor=gm, version=prize.version, status="arrived")
    shares = {s.character.name: s for s in PrizeShare.objects.select_related("character")}
    # a Cutter is un-rated: the Master and the Gunner share as Warrant Officers, Smith as a
    # Midshipman: 3(1), 2(3), 1(3)
    assert {n: (s.row, s.prize_class, s.entries) for n, s in shares.items()} == {
        "Gregory O'Toole": ("warrant_officer", "unrated", [[3, 1], [2, 3], [1, 3]]),
        "Bosworth": ("warrant_officer", "unrated", [[3, 1], [2, 3], [1, 3]]),
        "Smith": ("midshipman", "unrated", [[3, 1], [2, 3], [1, 3]]),
    }
    assert all(s.battle == prize.battle and s.status == "held" for s in shares.values())
    # Wealth itself does not change: a share is spending money (BtQ L1827-1835)
    assert {s.character.wealth for s in shares.values()} == {0}
    assert CampaignLogEntry.objects.filter(kind="prize.paid").count() == 1
    prize.refresh_from_db()
    assert prize.status == "arrived"
    with pytest.raises(Conflict, match="no longer on her way"):
        prize_resolve(prize=prize, actor=gm, version=prize.version, status="arrived")
    assert PrizeShare.objects.count() == 3


@pytest.mark.parametrize("status", ["lost", "recaptured"])
def test_a_prize_lost_or_recaptured_pays_nothing(prize, gm, status):
    prize_resolve(prize=prize, actor=gm, version=prize.version, status=status)
    assert not PrizeShare.objects.exists()
    assert CampaignLogEntry.objects.filter(kind=f"prize.{status}").count() == 1


def test_only_the_gm_resolves_a_prize_with_the_version_seen(prize, gm, player_a):
    with pytest.raises(PermissionDenied):
        prize_resolve(prize=prize, actor=player_a, version=prize.version, status="arrived")
    with pytest.raises(StaleVersion):
        prize_resolve(prize=prize, actor=gm, version=prize.version + 1, status="arrived")
    with pytest.raises(ValidationError):
        prize_resolve(prize=prize, actor=gm, version=prize.version, status="sold")
    prize.refresh_from_db()
    assert prize.status == "held" and not PrizeShare.objects.exists()


def test_loss_of_prize_money_takes_a_man_off_a_prize_at_sea(prize, gm):
    smith = prize.crew.get(name="Smith")
    infraction_record(character=smith, actor=gm, article=8, punishment="loss_of_prize")
    prize_resolve(prize=prize, actor=gm, version=prize.version, status="arrived")
    assert set(PrizeShare.objects.values_list("character__name", flat=True)) == {
        "Gregory O'Toole", "Bosworth"}


def test_a_battle_without_a_prize_holds_nothing(book_battle, play):
    battle = play(book_battle, ROUND_1[:-2] + ["strike", "continue"])  # the Hermes strikes
    assert battle.outcome["winner"] == "enemy"
    assert not Prize.objects.exists() and not PrizeShare.objects.exists()


def test_the_campaign_page_shows_held_prizes_and_the_gm_marks_one_arrived(
        prize, gm_client, player_a_client, outsider_client):
    page = player_a_client.get(f"/campaigns/{prize.campaign_id}/").content.decode()
    assert prize.captured in page and "Reached port" not in page  # the buttons are the GM's
    assert player_a_client.post(f"/shipboard/prize/{prize.pk}/",
                                {"status": "arrived", "version": prize.version}
                                ).status_code == 403
    page = gm_client.get(f"/campaigns/{prize.campaign_id}/").content.decode()
    assert "Reached port" in page
    stale = gm_client.post(f"/shipboard/prize/{prize.pk}/",
                           {"status": "arrived", "version": prize.version + 1}, follow=True)
    assert "reload" in stale.content.decode().lower() and not PrizeShare.objects.exists()
    gm_client.post(f"/shipboard/prize/{prize.pk}/",
                   {"status": "arrived", "version": prize.version})
    assert PrizeShare.objects.count() == 3
    assert outsider_client.post(f"/shipboard/prize/{prize.pk}/",
                                {"status": "lost", "version": 2}).status_code == 404


def test_prizes_through_the_api(prize, gm_client, player_a_client, outsider_client):
    listed = player_a_client.get(f"/api/campaigns/{prize.campaign_id}/prizes/").json()
    assert [(p["id"], p["status"]) for p in listed] == [(prize.pk, "held")]
    assert outsider_client.get(f"/api/campaigns/{prize.campaign_id}/prizes/").status_code == 404
    body = {"status": "recaptured", "version": prize.version}
    resolve = f"/api/prizes/{prize.pk}/resolve/"
    assert player_a_client.post(resolve, body, content_type="application/json"
                                ).status_code == 403
    assert gm_client.post(resolve, {"status": "sunk", "version": 1},
                          content_type="application/json").status_code == 400
    assert gm_client.post(resolve, {**body, "version": 9},
                          content_type="application/json").status_code == 409
    answer = gm_client.post(resolve, body, content_type="application/json")
    assert answer.json()["status"] == "recaptured"
    assert gm_client.post(resolve, {**body, "version": 2},
                          content_type="application/json").status_code == 409
    assert not PrizeShare.objects.exists()


def _ended(battle, gm, winner, result, hermes_out, corsair_out):
    """The naval recorder run on the book's battle as if it had ended so: the Hermes and the
    Corsair left it as ``hermes_out`` and ``corsair_out`` (None: still in it)."""
    sides = {ship["side"]: sid for sid, ship in battle.state["ships"].items()}
    ships = {sid: {"tracks": battle.state["ships"][sid]["tracks"], "morale": 0, "out": out}
             for sid, out in ((sides["pc"], hermes_out), (sides["enemy"], corsair_out))}
    outcome = Outcome(winner, result, "the end", {"ships": ships, "rounds": 22})
    _AFTER_BATTLE["btq_naval"](battle, get_engine("btq_naval"), outcome, gm)


@pytest.mark.parametrize(("winner", "result", "hermes_out", "corsair_out"), [
    # the Corsair struck in round 10; her consort took the ships beyond Distance 5 in round 22
    (None, "escaped", "escaped", "struck"),
    # night fell on the rest of the squadrons
    (None, "disengaged", None, "crew_dead"),
    # the Hermes's boarders took her
    ("pc", "taken", None, "taken"),
])
def test_an_enemy_taken_is_a_prize_whenever_the_players_were_not_beaten(
        book_battle, gm, winner, result, hermes_out, corsair_out):
    _ended(book_battle, gm, winner, result, hermes_out, corsair_out)
    assert Prize.objects.get().captured.startswith("Corsair")


@pytest.mark.parametrize(("winner", "result", "hermes_out", "corsair_out"), [
    (None, "struck", "struck", "struck"),  # both captains strike
    ("enemy", "taken", "taken", None),  # the Hermes is taken: no prize of hers either
    (None, "escaped", "escaped", "sunk"),  # a sunk ship is no prize
])
def test_no_prize_when_the_players_were_beaten_or_the_enemy_sank(
        book_battle, gm, winner, result, hermes_out, corsair_out):
    _ended(book_battle, gm, winner, result, hermes_out, corsair_out)
    assert not Prize.objects.exists()


def test_a_ship_held_as_a_prize_is_no_enemy_to_fight_until_she_is_recaptured(
        prize, gm, gm_client, hermes, corsair):
    """A struck ship taken as a prize is the victors' until she reaches port (BtQ
    L1769-1771): a new battle against her is refused with the reason, on the page too; once
    the GM marks her recaptured by the enemy she may be fought, and taken, again."""
    from combat.services import encounter_create
    from ships.services import naval_setup

    def new_battle():
        return encounter_create(
            campaign=prize.campaign, user=gm, engine="btq_naval", title="Second chase",
            setup=naval_setup(pc_ship=hermes, enemy_ship=corsair, weather="good_wind"),
            ships=[hermes, corsair])

    with pytest.raises(ValidationError, match="prize"):
        new_battle()
    form = gm_client.get(f"/combat/campaign/{prize.campaign_id}/new/").content.decode()
    corsair.refresh_from_db()
    assert f"{ship_with_damage(corsair)} (the players’ prize, on her way to port)" in form
    page = gm_client.post(f"/combat/campaign/{prize.campaign_id}/new/", {
        "pc_ship": hermes.pk, "enemy_ship": corsair.pk, "weather": "good_wind"})
    assert page.status_code == 200
    assert "the players’ prize" in page.content.decode()
    assert prize.campaign.encounters.count() == 1
    prize_resolve(prize=prize, actor=gm, version=prize.version, status="recaptured")
    assert new_battle().title == "Second chase"


def test_a_ship_held_as_a_prize_is_not_held_a_second_time(prize, gm, corsair):
    """One ship, one prize at a time (her money is shared once, when she reaches port, BtQ
    L1769-1772): taken again in another battle while she is held, she is not recorded
    again; recaptured and taken again, she is a new prize."""
    from ships.prizes import prize_hold

    crew = list(prize.crew.all())
    assert prize_hold(campaign=prize.campaign, battle=prize.battle + 1, ship=corsair,
                      crew=crew, actor=gm) is None
    assert Prize.objects.count() == 1
    prize_resolve(prize=prize, actor=gm, version=prize.version, status="recaptured")
    again = prize_hold(campaign=prize.campaign, battle=prize.battle + 1, ship=corsair,
                       crew=crew, actor=gm)
    assert again is not None and Prize.objects.count() == 2


def _refusals(gm_client, campaign, hermes, corsair) -> dict[str, str]:
    """What New battle, its "What are the odds?", the odds' API and New boarding answer
    the GM who picks the Corsair as the enemy, and the labels of her in the pickers."""
    battle = {"pc_ship": hermes.pk, "enemy_ship": corsair.pk, "weather": "good_wind",
              "start_distance": "3"}
    boarding = {"attacker": hermes.pk, "defender": corsair.pk, "pc_weapons": ["cutlass"],
                "officer_weapon": "cutlass", "attacker_crew_pool": 4, "defender_crew_pool": 4}
    new, odds = reverse("combat:new", args=[campaign.pk]), reverse("combat:odds_new",
                                                                    args=[campaign.pk])
    board = reverse("combat:fight_new", args=[campaign.pk, "boarding"])
    api = gm_client.post(reverse("api-odds-new", args=[campaign.pk]),
                         {**battle, "start_distance": 3}, content_type="application/json")
    assert api.status_code == 400
    return {"new battle": gm_client.post(new, battle).content.decode(),
            "odds": gm_client.post(odds, battle).content.decode(),
            "odds API": api.content.decode(),
            "new boarding": gm_client.post(board, boarding).content.decode(),
            "new battle's picker": gm_client.get(new).content.decode(),
            "new boarding's picker": gm_client.get(board).content.decode()}


def test_a_prize_is_refused_as_an_enemy_for_what_she_is_everywhere(
        prize, gm, gm_client, campaign, hermes, corsair):
    """The Corsair, taken with her Crew Dead, is the players' prize on her way to port: New
    battle, "What are the odds?" (page and API) and New boarding refuse her for that, not
    for her Dead Crew, and their pickers say what she is. Once she has reached port she is
    theirs for good (sold or taken into service), refused as an enemy with that reason;
    made the players' ship, she may fight with them."""
    from ships.models import Ship

    crew = "|".join("x" * len(part) for part in corsair.tracks["crew"].split("|"))
    Ship.objects.filter(pk=corsair.pk).update(crew_track=crew)
    held = "Corsair is the players’ prize, on her way to port: she is no enemy to fight."
    for where, text in _refusals(gm_client, campaign, hermes, corsair).items():
        assert (held if "picker" not in where
                else "(the players’ prize, on her way to port)") in text, where
        assert "Crew is Dead" not in text, where
    prize_resolve(prize=prize, actor=gm, version=prize.version, status="arrived")
    arrived = "Corsair reached port as the players’ prize: she is theirs now"
    for where, text in _refusals(gm_client, campaign, hermes, corsair).items():
        assert (arrived if "picker" not in where
                else "(the players’ prize, in port)") in text, where
    Ship.objects.filter(pk=corsair.pk).update(side=Ship.Side.PC, crew_track=crew.replace(
        "x", "."))
    answer = gm_client.post(reverse("combat:fight_new", args=[campaign.pk, "boarding"]), {
        "attacker": corsair.pk, "defender": hermes.pk, "pc_weapons": ["cutlass"],
        "officer_weapon": "cutlass", "attacker_crew_pool": 4, "defender_crew_pool": 4})
    assert answer.status_code == 302


def test_the_gm_confirms_a_prize_s_end_and_a_double_tap_acts_once(
        prize, gm_client, player_a_client):
    """A prize's end cannot be undone (her money is paid, or never will be): the campaign
    page's buttons ask first, as the app asks before every such act, and the confirmation
    sent twice (a double tap, a reload) resolves her once, without an error."""
    campaign_page = f"/campaigns/{prize.campaign_id}/"
    page = gm_client.get(campaign_page).content.decode()
    assert 'name="status"' not in page  # no one-click form on the campaign page
    url = reverse("shipboard:prize_resolve", args=[prize.pk])
    assert f'href="{url}?status=arrived"' in page
    assert player_a_client.get(url, {"status": "arrived"}).status_code == 403
    asked = gm_client.get(url, {"status": "arrived"})
    text = asked.content.decode()
    assert asked.status_code == 200 and "Has the prize Corsair reached port?" in text
    prize.refresh_from_db()
    assert prize.status == "held" and not PrizeShare.objects.exists()
    token = re.search(r'name="once_token" value="([^"]+)"', text)[1]
    body = {"status": "arrived", "version": prize.version, "once_token": token,
            "confirmed": "1"}
    first = gm_client.post(url, body, follow=True).content.decode()
    again = gm_client.post(url, body, follow=True).content.decode()
    assert "reached port: prize money paid" in first.lower()
    assert "already sent" in again and "no longer on her way" not in again
    assert PrizeShare.objects.count() == 3
    assert CampaignLogEntry.objects.filter(kind="prize.arrived").count() == 1
    assert "no longer on her way" in gm_client.get(url, {"status": "lost"},
                                                   follow=True).content.decode()
