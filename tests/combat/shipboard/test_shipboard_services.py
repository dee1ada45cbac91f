"""Shipboard life through the services: purchases (automatic and with a Wealth test), prize
shares in a Wealth test, grog, the Captain's table, the Articles of War, promotion and the
Lieutenant's examination; who may do what, and bad input refused with the field."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from campaigns.models import CampaignLogEntry
from characters import shipboard as records
from characters.models import Career, PrizeShare, SceneToken
from characters.services import reputation_create
from combat.card_tests.selectors import card_test_status
from combat.services import encounter_replay
from combat.shipboard import services
from rules.btq.characters import DamageState
from rules.btq.tests import Side

LONSDALE = "2D  10C 3C 10H 3S  5D 10S QH AH"
"""TV-17: Wealth 4 turns no success; the opposition's 5D is an Ordinary (BtQ L1750-1751)."""


def size(test) -> int:
    """The cards the test's character turns."""
    return Side.from_dict(test.setup["sides"][0]).pool.size(0)


def test_an_item_cheaper_than_wealth_is_bought_without_a_test(wealthy_a, player_a):
    started = services.purchase_start(character=wealthy_a, actor=player_a,
                                      item="standard_sword")
    assert started.test is None and "without a test" in started.message
    entry = CampaignLogEntry.objects.filter(kind="wealth.purchase").get()
    assert "Standard Sword" in entry.text
    item = wealthy_a.items.get()
    assert (item.name, item.kind, entry.data["item_id"]) == ("Standard Sword", "other", item.pk)
    assert wealthy_a.history.filter(changes__has_key="item “Standard Sword”").exists()


def test_tv17_a_lost_wealth_test_injures_wealth_and_buys_nothing(wealthy_a, player_a, gm,
                                                                 turn):
    started = services.purchase_start(character=wealthy_a, actor=gm,
                                      item="officers_dress_uniform", opposition=4)
    test = started.test
    assert test.terms["shipboard"]["action"] == "purchase"
    assert test.setup["difficulty"] == 4 and test.setup["sides"][0]["pool"]["skill"] == "Wealth"
    test = turn(test, player_a, LONSDALE)
    assert card_test_status(test) == "done"
    wealthy_a.refresh_from_db()
    assert wealthy_a.wealth_state == DamageState.INJURED and wealthy_a.wealth == 4
    end = CampaignLogEntry.objects.filter(kind="test.finished").latest("pk")
    assert "is not bought" in end.text
    assert not CampaignLogEntry.objects.filter(kind="wealth.purchase").exists()
    assert not wealthy_a.items.exists()


def test_a_won_wealth_test_buys_the_item(wealthy_a, player_a, turn):
    test = services.purchase_start(character=wealthy_a, actor=player_a,
                                   item="officers_dress_uniform").test
    assert test.setup["difficulty"] == 5  # the price list's opposition
    test = turn(test, player_a, "2D  2H 3D 10H 3S  5C 10S QH AH 6C")
    wealthy_a.refresh_from_db()
    assert wealthy_a.wealth_state == DamageState.HEALTHY
    assert "Officer's Dress Uniform" in CampaignLogEntry.objects.get(kind="wealth.purchase").text
    assert [i.name for i in wealthy_a.items.all()] == ["Officer's Dress Uniform"]


def test_a_prize_share_turns_the_lost_test_and_is_spent(wealthy_a, player_a, gm, turn):
    share = PrizeShare.objects.create(character=wealthy_a, battle=None, captured="Le Secret",
                                      prize_class="unrated", row="lieutenant",
                                      entries=[[4, 1], [3, 2], [2, 3], [1, 3]])
    test = services.purchase_start(character=wealthy_a, actor=gm,
                                   item="officers_dress_uniform", opposition=4).test
    assert test.terms["shipboard"]["prize_share"]["automatic"] == 1
    # one automatic success ties the opposition's one Ordinary and loses the tie-break: so
    # with 2 cards of opposition 3 the share gives 2
    test = turn(test, player_a, LONSDALE)
    share.refresh_from_db()
    assert share.status == "spent" and share.spent_on == test.pk
    wealthy_a.refresh_from_db()
    assert wealthy_a.wealth_state == DamageState.INJURED
    share2 = PrizeShare.objects.create(character=wealthy_a, battle=7, captured="La Sombra",
                                       prize_class="unrated", row="lieutenant",
                                       entries=[[4, 1], [3, 2], [2, 3], [1, 3]])
    test = services.purchase_start(character=wealthy_a, actor=gm, item="fine_sword",
                                   opposition=3).test
    test = turn(test, player_a, "2D  10C 3C 10H  5D 10S QH")
    assert test.terms["shipboard"]["judged"]["winner"] == f"pc:{wealthy_a.pk}"
    assert test.terms["shipboard"]["judged"]["changed"] is True
    assert encounter_replay(encounter=test)["matches"]
    wealthy_a.refresh_from_db()
    assert wealthy_a.wealth_state == DamageState.INJURED  # no new damage: the share won it
    share2.refresh_from_db()
    assert share2.status == "spent"


def test_purchases_refused_with_the_field_and_the_reason(wealthy_a, player_a, player_b):
    with pytest.raises(ValidationError) as exc:
        services.purchase_start(character=wealthy_a, actor=player_a,
                                item="purchase_country_estate")
    assert "beyond Wealth 4 + 2" in exc.value.message_dict["item"][0]
    with pytest.raises(ValidationError) as exc:
        services.purchase_start(character=wealthy_a, actor=player_a, item="a_yacht")
    assert "item" in exc.value.message_dict
    with pytest.raises(ValidationError) as exc:
        services.purchase_start(character=wealthy_a, actor=player_a, name="A yacht", cost=3)
    assert "item" in exc.value.message_dict
    with pytest.raises(PermissionDenied):
        services.purchase_start(character=wealthy_a, actor=player_a, item="fine_sword",
                                opposition=1)
    with pytest.raises(PermissionDenied):
        services.purchase_start(character=wealthy_a, actor=player_b, item="fine_sword")


def test_a_maimed_wealth_needs_an_influence_test_first(wealthy_a, player_a, gm, turn):
    from characters.services import character_update

    a = character_update(character=wealthy_a, actor=gm, version=wealthy_a.version,
                         wealth_state=DamageState.MAIMED)
    gate = services.purchase_start(character=a, actor=player_a, item="fine_sword").test
    assert gate.terms["shipboard"]["action"] == "purchase_gate"
    assert gate.setup["kind"] == "simple"
    turn(gate, player_a, "5H  5C")  # Influence 1 turns a Critical: passed
    # cost 4 is not below Wealth 4: the Wealth test follows, at -3
    from combat.models import Encounter
    wealth_test = Encounter.objects.filter(terms__shipboard__action="purchase").get()
    assert size(wealth_test) == 1


def test_tv13_grog_gives_kent_minus_one_card(pc_a, gm, player_a, turn):
    from characters.services import character_update

    kent = character_update(character=pc_a, actor=gm, version=pc_a.version, guts=5)
    test = services.grog_start(character=kent, actor=gm, drink="spirits", iron_stomach=True,
                               challenge="Impress Anna Parkinson").test
    assert size(test) == 6 and test.setup["difficulty"] == 6
    turn(test, player_a, "9H  2C 3C 4C 5C 6C 7C  10H 2D 3D 4D 5D 6D")
    end = CampaignLogEntry.objects.filter(kind="test.finished").latest("pk")
    assert "-1 card to Lieutenant Anne Able's pool for “Impress Anna Parkinson”" in end.text
    with pytest.raises(ValidationError) as exc:
        services.grog_start(character=kent, actor=gm, drink="rum", challenge="x")
    assert "drink" in exc.value.message_dict


def test_a_drinker_who_took_iron_stomach_has_its_card_without_the_gms_word(pc_a, gm):
    """Iron Stomach's +1 card in grog tests is a rule the app applies from the sheet."""
    from characters.services import trait_add

    trait_add(character=pc_a, actor=gm, trait="iron_stomach")
    test = services.grog_start(character=pc_a, actor=gm, drink="spirits",
                               challenge="Impress Anna Parkinson").test
    assert {"source": "Iron Stomach", "cards": 1} in test.setup["sides"][0]["pool"]["modifiers"]


@pytest.fixture
def collingwood(pc_b, gm):
    return reputation_create(character=pc_b, actor=gm, kind="personal", descriptor="Protégé of",
                             subject="Cuthbert Collingwood", value=1)


def _table(pc_a, pc_b, npc, gm, collingwood, cards):
    """As TV-14: a PC sponsors the topic, another PC joins with a reputation, the Captain
    joins with a skill of his own; one contested test of the three (BtQ L1872-1898)."""
    return services.scene_start(
        character=pc_a, actor=gm, scene="captains_table", skill="gunnery",
        topic="Sailing the Cape in a storm", others=[pc_b], captain=npc,
        captain_skill="command", reputations=[collingwood.pk], stacked_cards=cards).test


def test_missions_tv14_the_captains_table_leaves_the_favour_to_its_one_winner(
        pc_a, pc_b, gm, player_a, player_b, npc, collingwood):
    with pytest.raises(PermissionDenied):
        services.scene_start(character=pc_a, actor=player_a, scene="captains_table",
                             skill="seamanship", topic="storms", others=[npc])
    # Card of Fate 7H; Anne (Gunnery 2), Ben (Gunnery 3 + Collingwood 1), the Captain
    # (his Command 5): Ben's two Criticals beat the Captain's Critical and Ordinary
    scene = _table(pc_a, pc_b, npc, gm, collingwood,
                   "7H  2C 3C  7C 7S 2D 3D  7D 2H 3S 4S 5C")
    assert scene.engine == "btq_scene" and scene.status == "finished"
    pools = {p["who"]: p["cards"] for p in scene.setup["participants"]}
    assert pools == {f"pc:{pc_a.pk}": 2, f"pc:{pc_b.pk}": 4, f"npc:{npc.pk}": 5}
    token = SceneToken.objects.get()
    assert (token.token, token.holder_id) == ("favour", pc_b.pk)
    collingwood.refresh_from_db()
    assert collingwood.damage_state == DamageState.HEALTHY  # the winner's is safe
    with pytest.raises(PermissionDenied):
        records.scene_token_spend(token=token, actor=player_a, challenge="the storm")
    assert records.scene_token_spend(token=token, actor=player_b,
                                     challenge="The storm off the Cape")["cards"] == 4
    with pytest.raises(ValidationError):
        records.scene_token_spend(token=token, actor=player_b, challenge="again")


def test_the_captain_wins_the_ire_and_a_reputation_used_is_injured(pc_a, pc_b, gm, npc,
                                                                   collingwood):
    _table(pc_a, pc_b, npc, gm, collingwood, "7H  2C 3C  2D 3D 4C 5C  7D 2H 3S 4S 5C")
    token = SceneToken.objects.get()
    assert (token.token, token.holder_id) == ("ire", None)
    collingwood.refresh_from_db()
    assert collingwood.damage_state == DamageState.INJURED
    end = CampaignLogEntry.objects.filter(kind="scene.finished").latest("pk")
    assert "the PCs have earned the Captain's Ire" in end.text


def test_a_scene_refuses_bad_tables_by_field(pc_a, pc_b, gm, npc, collingwood):
    for bad, field in (({"others": []}, "others"),
                       ({"others": [pc_b], "captain": pc_b, "captain_skill": "command"},
                        "captain"),
                       ({"others": [npc], "captain": npc, "captain_skill": ""},
                        "captain_skill"),
                       ({"others": [npc], "reputations": [collingwood.pk]}, "reputations")):
        with pytest.raises(ValidationError) as exc:
            services.scene_start(character=pc_a, actor=gm, scene="captains_table",
                                 skill="gunnery", topic="x", **bad)
        assert field in exc.value.message_dict
    assert not SceneToken.objects.exists()


def test_the_articles_of_war_with_loss_of_prize_money(pc_a, gm, player_a):
    PrizeShare.objects.create(character=pc_a, battle=3, captured="Le Secret",
                              prize_class="unrated", row="lieutenant", entries=[[4, 1]])
    with pytest.raises(PermissionDenied):
        records.infraction_record(character=pc_a, actor=player_a, article=8,
                                  punishment="court_martial")
    for bad, field in (({"article": 11, "punishment": "captains_discretion"}, "punishment"),
                       ({"article": 2, "punishment": "captains_discretion", "lashes": 13},
                        "lashes"),
                       ({"article": 40, "punishment": "none"}, "article")):
        with pytest.raises(ValidationError) as exc:
            records.infraction_record(character=pc_a, actor=gm, **bad)
        assert field in exc.value.message_dict
    infraction = records.infraction_record(character=pc_a, actor=gm, article=8,
                                           punishment="court_martial",
                                           gm_notes="gm-marker-articles")
    assert infraction.punishments == ["loss_of_prize", "court_martial"]
    assert PrizeShare.objects.get().status == "forfeited"
    entry = CampaignLogEntry.objects.get(kind="articles.punished")
    assert "gm-marker-articles" not in entry.text


def test_missions_tv16_the_examination_failed_at_the_second_challenge(pc_b, gm, player_b,
                                                                      turn):
    ward_room = reputation_create(character=pc_b, actor=gm, kind="institution",
                                  descriptor="Trusted in the", subject="Ward Room", value=1)
    with pytest.raises(ValidationError) as exc:
        services.examination_start(character=pc_b, actor=gm)
    assert "2 Voyages" in exc.value.message_dict["character"][0]
    career = records.career_of(pc_b)
    records.career_update(character=pc_b, actor=gm, version=career.version,
                          voyages_since_promotion=2)
    first = services.examination_start(character=pc_b, actor=gm).test
    assert first.setup["difficulty"] == 3
    from combat.models import Encounter
    turn(first, player_b, "5H  5C  6D 7D 8D")  # Maritime 0: unskilled, one card, wins
    second = Encounter.objects.filter(terms__shipboard__action="examination").latest("pk")
    assert second.pk != first.pk and second.setup["sides"][0]["pool"]["skill"] == "seamanship"
    turn(second, player_b, "KS  2D  QS 4H 4C")
    ward_room.refresh_from_db()
    assert ward_room.damage_state == DamageState.INJURED
    assert Career.objects.get(character=pc_b).examination_barred
    pc_b.refresh_from_db()
    assert pc_b.rank == "Midshipman"


def test_missions_tv16_the_examination_passed_makes_a_lieutenant(pc_b, gm, player_b, turn):
    from combat.models import Encounter

    career = records.career_of(pc_b)
    records.career_update(character=pc_b, actor=gm, version=career.version,
                          voyages_since_promotion=2)
    services.examination_start(character=pc_b, actor=gm)
    for _ in range(3):
        test = Encounter.objects.filter(terms__shipboard__action="examination",
                                        status="active").get()
        turn(test, player_b, "5H  5C  6D 7D 8D")
    pc_b.refresh_from_db()
    assert pc_b.rank == "Lieutenant"
    assert Career.objects.get(character=pc_b).voyages_since_promotion == 0


def test_tv20_promotion_to_gunners_mate_checks_the_prerequisites(campaign, gm, player_a):
    from characters.services import character_create

    seaman = character_create(campaign=campaign, actor=gm, owner=player_a, name="Jack",
                              rank="Seaman", skills={"awareness": 2, "gunnery": 2,
                                                     "engineering": 1})
    with pytest.raises(ValidationError) as exc:
        records.character_promote(character=seaman, actor=gm, step="mate", version=seaman.version,
                                  vacancy=True, profession="gunner", post="Gunner's Mate")
    message = exc.value.message_dict["step"][0]
    assert "1 Voyage" in message and "Engineering at least 2" in message
    with pytest.raises(PermissionDenied):
        records.character_promote(character=seaman, actor=player_a, step="mate",
                                  version=seaman.version)
    from characters.services import character_update
    seaman = character_update(character=seaman, actor=gm, version=seaman.version,
                              skills={"awareness": 2, "gunnery": 2, "engineering": 2})
    records.character_voyage_completed(character=seaman)
    promoted = records.character_promote(character=seaman, actor=gm, step="mate",
                                         version=seaman.version, vacancy=True,
                                         profession="gunner", post="Gunner's Mate")
    assert promoted.rank == "Gunner's Mate"


def test_weather_as_the_opponent_and_as_a_modifier(pc_a, gm, player_a):
    opp = services.weather_test_start(character=pc_a, actor=gm, skill="seamanship",
                                      wind="storm", precipitation="blizzard", mode="opponent",
                                      intent="Keep her off the rocks").test
    assert opp.setup["difficulty"] == 10
    mod = services.weather_test_start(character=pc_a, actor=gm, skill="seamanship",
                                      wind="storm", precipitation="storm", mode="modifier",
                                      intent="Reef the topsails", difficulty="routine").test
    assert size(mod) == 0  # Seamanship 4 - 4
    with pytest.raises(PermissionDenied):
        services.weather_test_start(character=pc_a, actor=player_a, skill="seamanship",
                                    wind="storm", precipitation="none", mode="opponent",
                                    intent="x")
    with pytest.raises(ValidationError) as exc:
        services.weather_test_start(character=pc_a, actor=gm, skill="seamanship",
                                    wind="gale", precipitation="none", mode="opponent",
                                    intent="x")
    assert "wind" in exc.value.message_dict


def test_purser_and_scavenge_open_their_tests_and_refuse_bad_input(pc_a, gm, player_a,
                                                                   player_b):
    """The Purser's test is against the Victualling Yard, Routine unless the GM says
    otherwise; Scavenge is a simple test, with no opposition (BtQ L1755-1767, D4); nothing is
    at risk (A14). Only the GM sets a difficulty; the player says what he seeks."""
    purser = services.supply_start(character=pc_a, actor=player_a, skill="purser",
                                   items="salt pork and biscuit").test
    terms = purser.terms
    assert terms["shipboard"] == {"action": "supply", "skill": "purser",
                                  "items": "salt pork and biscuit"}
    assert (terms["skill"], terms["opposition"], terms["difficulty"], terms["at_risk"]) == (
        "purser", "difficulty", "routine", "")
    assert purser.setup["kind"] == "static"
    scavenge = services.supply_start(character=pc_a, actor=player_a, skill="scavenge",
                                     items="spars from the wreck").test
    assert (scavenge.terms["opposition"], scavenge.setup["kind"]) == ("none", "simple")
    hard = services.supply_start(character=pc_a, actor=gm, skill="scavenge",
                                 items="fresh water", difficulty="challenging").test
    assert (hard.terms["opposition"], hard.terms["difficulty"]) == ("difficulty", "challenging")
    with pytest.raises(PermissionDenied, match="Only the GM sets the difficulty"):
        services.supply_start(character=pc_a, actor=player_a, skill="purser", items="rum",
                              difficulty="easy")
    with pytest.raises(PermissionDenied):
        services.supply_start(character=pc_a, actor=player_b, skill="purser", items="rum")
    with pytest.raises(ValidationError, match="Say what is sought"):
        services.supply_start(character=pc_a, actor=player_a, skill="purser", items=" ")
    with pytest.raises(ValidationError, match="Choose Purser or Scavenge"):
        services.supply_start(character=pc_a, actor=player_a, skill="haggle", items="rum")
