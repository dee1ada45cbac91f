"""Card tests through the service layer, with the cards stacked (``ScriptedSource``): the
book's examples end to end, the Joker pause, unskilled and assisted tests, damage,
retests, and the decks' record."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from campaigns.models import CardTest, Deck, DeckDraw
from campaigns.selectors import card_test_view
from campaigns.services import StaleVersion, campaign_update
from campaigns.services.card_tests import (
    IllegalStep,
    card_test_accept,
    card_test_call,
    card_test_confirm,
    card_test_declare_joker,
    card_test_propose,
)
from characters.services import character_update
from rules.btq.characters import DamageState
from rules.cards import deck_cards
from ships.services import posting_remove, posting_set, ship_update

VARIANT_B = "4S  4C KD KS QH JH 2C  4H AH 2D 7S"
"""TV-11 as the narration reads it (BtQ L1228-1241): O'Toole wins, KS against 7S."""
VARIANT_A = "4S  4C KD 3S QH JH 2C  4H AH 2D 7S"
"""TV-11 as the draw list prints it: the tie-break goes to Jones, 7S against 3S."""


def draws(test):
    return [(d.deck.name, d.round, d.purpose, d.cards)
            for d in DeckDraw.objects.filter(card_test=test).select_related("deck")]


def test_tv11_variant_b_the_book_race_to_portsmouth(race, turn, player_a, pc_a, jones,
                                                     distrusted, campaign):
    test = race()
    assert test.status == CardTest.Status.AWAITING_CONFIRMATION and test.version == 1
    test = turn(test, player_a, VARIANT_B)
    assert test.status == CardTest.Status.DONE and test.version == 2
    record = test.record
    assert record["outcome"] == "won" and record["winner"] == f"pc:{pc_a.pk}"
    assert record["result"] == "critical"
    assert record["sides"][0]["pool"]["explanation"] == (
        "Seamanship 4 + Crusty Old Seadog 1 + Distrusted by Captain Jones 1 = 6")
    rnd = record["rounds"][0]
    assert rnd["fate"] == "4S"
    assert rnd["hands"][0]["cards"] == ["4C", "KD", "KS", "QH", "JH", "2C"]
    assert rnd["hands"][0]["levels"] == ["critical", "failure", "ordinary", "failure",
                                         "failure", "failure"]
    assert rnd["hands"][1]["cards"] == ["4H", "AH", "2D", "7S"]
    assert rnd["comparison"] == {"result": "a", "by": "tie_break", "a": "KS", "b": "7S",
                                 "position": 2}
    assert record["damage"] == []  # the loser, Jones, put no reputation in his pool
    distrusted.refresh_from_db()
    assert distrusted.damage_state == DamageState.HEALTHY
    # The draws are on the decks' record: the Card of Fate and Jones from the GM deck.
    assert draws(test) == [
        ("gm", 1, "card of fate", ["4S"]),
        (f"pc:{pc_a.pk}", 1, f"pc:{pc_a.pk} pool", ["4C", "KD", "KS", "QH", "JH", "2C"]),
        ("gm", 1, f"npc:{jones.pk} pool", ["4H", "AH", "2D", "7S"]),
    ]
    assert all(d.out == [] and d.tests == 1 for d in Deck.objects.filter(campaign=campaign))
    entry = campaign.log_entries.filter(kind="card_test.done").get()
    assert not entry.gm_only and entry.data["winner"] == "Lieutenant Anne Able"
    assert "won with a Critical success" in entry.text
    assert entry.data["rounds"][0]["hands"][1] == {
        "who": "Captain Jones", "cards": ["4H", "AH", "2D", "7S"],
        "levels": ["critical", "failure", "failure", "ordinary"]}


def test_tv11_variant_a_the_loser_s_reputation_drops_one_level(race, turn, player_a,
                                                                distrusted, jones, campaign):
    test = turn(race(), player_a, VARIANT_A)
    assert test.record["winner"] == f"npc:{jones.pk}" and test.record["result"] == "critical"
    assert test.record["rounds"][0]["comparison"]["b"] == "7S"
    distrusted.refresh_from_db()
    assert distrusted.damage_state == DamageState.INJURED  # D1 one_step, whatever Jones scored
    assert distrusted.version == 2
    assert "Distrusted by Captain Jones: Healthy → Injured" in campaign.log_entries.get(
        kind="card_test.done").text


def test_tv11_variant_a_under_the_severity_setting(race, turn, player_a, gm, distrusted,
                                                   campaign):
    campaign_update(campaign=campaign, actor=gm, version=campaign.version,
                    settings={**campaign.rules_settings(), "reputation_loss_mode": "severity"})
    turn(race(), player_a, VARIANT_A)
    distrusted.refresh_from_db()
    assert distrusted.damage_state == DamageState.MAIMED  # Jones's best success: a Critical


def test_the_health_at_risk_takes_the_winner_s_best_success_and_costs_a_card_next_time(
        race, turn, player_a, pc_a, jones):
    test = turn(race(at_risk="health", opponent_at_risk="health", reputations=[]),
                player_a, "4S  4C KD 3S QH JH  4H AH 2D 7S")
    assert test.record["winner"] == f"npc:{jones.pk}"
    pc_a.refresh_from_db()
    jones.refresh_from_db()
    assert pc_a.health_state == DamageState.MAIMED  # Jones's Critical: two levels
    assert jones.health_state == DamageState.HEALTHY
    again = race(at_risk="health", reputations=[])
    view = card_test_view(player_a, again)
    assert view["pool"]["explanation"] == "Seamanship 4 + Crusty Old Seadog 1 - Health Maimed 3 = 2"
    assert view["gates"] == ["Health is Maimed: first a Guts test"]  # BtQ L1314-1316


def test_ship_morale_at_risk_is_the_ship_s_and_a_loss_damages_the_ship(
        race, turn, gm, player_a, pc_a, pc_b, pc_ship, jones, campaign):
    test = turn(race(at_risk="ship_morale", reputations=[]),
                player_a, "4S  4C KD 3S QH JH  4H AH 2D 7S")
    assert test.record["winner"] == f"npc:{jones.pk}"  # with a Critical: two levels
    version = pc_ship.version
    pc_ship.refresh_from_db()
    assert pc_ship.morale_state == DamageState.MAIMED and pc_ship.version == version + 1
    pc_a.refresh_from_db()
    assert pc_a.health_state == DamageState.HEALTHY and pc_a.version == 1
    assert pc_a.ship_morale_state == pc_b.ship_morale_state == DamageState.MAIMED  # the crew
    entry = campaign.log_entries.get(kind="ship.morale")
    assert entry.data == {"ship": pc_ship.pk, "morale": 2} and not entry.gm_only
    assert "HMS Testament (22)'s Ship Morale: Healthy → Maimed" in campaign.log_entries.get(
        kind="card_test.done").text
    with pytest.raises(StaleVersion):  # an edit of the ship made before the test
        ship_update(ship=pc_ship, actor=gm, version=version, morale_state=0)
    # The ship's Maimed Ship Morale costs its crew three cards, and a Discipline test first.
    view = card_test_view(player_a, race(at_risk="ship_morale", reputations=[]))
    assert view["pool"]["explanation"] == (
        "Seamanship 4 + Crusty Old Seadog 1 - Ship Morale Maimed 3 = 2")
    assert view["gates"] == ["Ship Morale is Maimed: first a Discipline test"]


def test_ship_morale_at_risk_needs_a_ship_the_players_may_see(race, gm, pc_a, jones,
                                                               enemy_ship):
    posting_remove(posting=pc_a.postings.get(), actor=gm)
    with pytest.raises(ValidationError, match="serves on no ship"):
        race(at_risk="ship_morale")
    posting_set(ship=enemy_ship, character=jones, station="captain", actor=gm)
    with pytest.raises(ValidationError, match="players may not see") as refused:
        race(opponent_at_risk="ship_morale")
    assert "opponent_at_risk" in refused.value.message_dict


def test_tv17_lonsdale_proposes_a_wealth_test_and_his_wealth_is_injured(
        campaign, gm, player_a, pc_a, turn):
    character_update(character=pc_a, actor=gm, version=pc_a.version, wealth=4)
    test = card_test_propose(campaign=campaign, actor=player_a, character=pc_a.pk,
                             skill="wealth", opposition="difficulty", difficulty="3",
                             intent="a new dress uniform for the Duke's ball in Lisbon",
                             stakes_lose="his line of credit is suspended", at_risk="wealth")
    assert test.status == CardTest.Status.PROPOSED and test.origin == CardTest.Origin.PLAYER
    # The GM sets the opposition by price and rarity: four cards (BtQ L1747, L1751).
    test = card_test_accept(test=test, actor=gm, version=test.version, difficulty="4")
    assert test.status == CardTest.Status.AWAITING_CONFIRMATION and test.difficulty == "4"
    test = turn(test, player_a, "2D  10C 3C 10H 3S  5D 10S QH AH")
    assert test.record["outcome"] == "won" and test.record["winner"] == "difficulty"
    assert test.record["result"] == "ordinary"
    pc_a.refresh_from_db()
    assert pc_a.wealth_state == DamageState.INJURED
    assert "Wealth: Healthy → Injured" in campaign.log_entries.get(kind="card_test.done").text
    # "he will operate at -1 card to his Wealth" (BtQ L1753).
    nxt = card_test_call(campaign=campaign, actor=gm, character=pc_a.pk, skill="wealth",
                         opposition="difficulty", difficulty="4", intent="a sword")
    assert card_test_view(gm, nxt)["pool"]["explanation"] == "Wealth 4 - Wealth Injured 1 = 3"


def test_a_joker_pauses_the_test_until_its_card_is_named(race, turn, player_a, player_b, gm,
                                                         pc_a, campaign):
    test = turn(race(reputations=[]), player_a, "4S  JK KD KS QH JH  4H AH 2D 7S")
    assert test.status == CardTest.Status.AWAITING_JOKER and test.record is None
    assert test.pending["awaiting"] == [f"pc:{pc_a.pk}"]
    gm_deck = Deck.objects.get(campaign=campaign, kind="gm")
    own = Deck.objects.get(character=pc_a)
    assert gm_deck.out == ["4S", "4H", "AH", "2D", "7S"]
    assert own.out == ["JK", "KD", "KS", "QH", "JH"]
    # While its cards lie on the table no other test is drawn.
    other = card_test_call(campaign=campaign, actor=gm, character=pc_a.pk, skill="guts",
                           opposition="none", intent="keep his nerve")
    with pytest.raises(IllegalStep, match="still on the table"):
        turn(other, player_a, "9C  5H")
    with pytest.raises(PermissionDenied):
        card_test_declare_joker(test=test, actor=player_b, version=test.version, card="4S")
    test = card_test_declare_joker(test=test, actor=player_a, version=test.version, card="4C")
    assert test.status == CardTest.Status.DONE and test.pending is None
    hand = test.record["rounds"][0]["hands"][0]
    assert hand["cards"][0] == "JK=4C" and hand["joker"] == "declared"
    assert hand["levels"][0] == "critical"
    assert test.record["winner"] == f"pc:{pc_a.pk}"  # TV-11 again: KS beats 7S
    gm_deck.refresh_from_db()
    own.refresh_from_db()
    assert gm_deck.out == [] and own.out == []
    assert [d[2] for d in draws(test)] == ["card of fate", f"pc:{pc_a.pk} pool",
                                           f"npc:{test.opponent_id} pool"]
    assert DeckDraw.objects.get(deck=own).cards == ["JK", "KD", "KS", "QH", "JH"]
    other.refresh_from_db()
    assert turn(other, player_a, "9C  5H").status == CardTest.Status.DONE


def test_the_joker_s_default_is_the_card_of_fate_and_the_gm_may_name_it(race, turn, player_a,
                                                                         gm):
    test = turn(race(reputations=[]), player_a, "4S  JK KD 3S QH JH  4H AH 2D 7S")
    test = card_test_declare_joker(test=test, actor=gm, version=test.version, card=None)
    hand = test.record["rounds"][0]["hands"][0]
    assert hand["cards"][0] == "JK=4S" and hand["joker"] == "default"
    assert hand["levels"][0] == "perfect" and test.record["result"] == "perfect"


@pytest.mark.parametrize("card", ["JK", "1X", "JK=4S"])
def test_a_joker_must_be_named_as_one_of_the_52(race, turn, player_a, card):
    test = turn(race(reputations=[]), player_a, "4S  JK KD 3S QH JH  4H AH 2D 7S")
    with pytest.raises(ValidationError):
        card_test_declare_joker(test=test, actor=player_a, version=test.version, card=card)
    test.refresh_from_db()
    assert test.status == CardTest.Status.AWAITING_JOKER and test.version == 2


def test_an_unskilled_test_turns_one_card_and_counts_ordinary_at_best(campaign, gm, pc_b,
                                                                      player_b, turn):
    # TV-13: Intrigue 0, CoF 6H, the card turned 6H: a Perfect capped to an Ordinary.
    test = card_test_call(campaign=campaign, actor=gm, character=pc_b.pk, skill="intrigue",
                          opposition="none", intent="lay the ground against the accusations")
    view = card_test_view(player_b, test)
    assert view["pool"]["size"] == 1 and view["pool"]["unskilled"] is True
    assert view["odds"]["pool"] == 1
    test = turn(test, player_b, "6H  6H")
    assert test.record["outcome"] == "passed" and test.record["result"] == "ordinary"
    assert test.record["rounds"][0]["hands"][0]["levels"] == ["ordinary"]


def test_tv12_a_static_test_against_a_challenging_difficulty(campaign, gm, pc_a, player_a,
                                                             turn):
    character_update(character=pc_a, actor=gm, version=pc_a.version, skills={"awareness": 2})
    test = card_test_call(campaign=campaign, actor=gm, character=pc_a.pk, skill="awareness",
                          opposition="difficulty", difficulty="challenging",
                          intent="reach the Admiralty in time through London's streets")
    test = turn(test, player_a, "10S  10S 2H  4H 2D 8D 3C 2C")
    assert test.record["kind"] == "static" and test.record["result"] == "perfect"
    assert test.record["sides"][1]["pool"]["size"] == 5


def test_tv14_helpers_add_their_skill_up_to_three(campaign, gm, pc_a, pc_b, player_b):
    character_update(character=pc_b, actor=gm, version=pc_b.version, skills={"seamanship": 4})
    test = card_test_call(campaign=campaign, actor=gm, character=pc_a.pk, skill="seamanship",
                          modifiers=[{"source": "Storm", "cards": 1}], helpers=[pc_b.pk],
                          opposition="difficulty", difficulty="damned_hard",
                          intent="bring the ship under control in the storm")
    pool = card_test_view(player_b, test)["pool"]
    assert pool["size"] == 8
    assert pool["explanation"] == "Seamanship 4 + Storm 1 + helped by Midshipman Ben Baker 4 " \
        "(at most +3) 3 = 8"


def test_a_mutual_failure_is_retested_with_a_new_card_of_fate(race, turn, player_a, pc_a):
    test = turn(race(reputations=[]),
                player_a, "4S  2H 3H 5H 6H 7H  2D 3D 5D 6D   9C  9H 2C 3H 4H 5H  2D 3D 4D 5D")
    record = test.record
    assert len(record["rounds"]) == 2 and record["rounds"][0]["comparison"]["by"] == "no_success"
    assert record["winner"] == f"pc:{pc_a.pk}"
    rounds = [(d[0], d[1]) for d in draws(test)]
    assert rounds == [("gm", 1), (f"pc:{pc_a.pk}", 1), ("gm", 1),
                      ("gm", 2), (f"pc:{pc_a.pk}", 2), ("gm", 2)]
    assert "after 1 retest" in test.campaign.log_entries.get(kind="card_test.done").text


def test_a_simple_test_cannot_put_an_area_at_risk(campaign, gm, pc_a):
    with pytest.raises(ValidationError, match="simple test"):
        card_test_call(campaign=campaign, actor=gm, character=pc_a.pk, skill="guts",
                       opposition="none", intent="steady", at_risk="health")


def test_the_campaign_s_seeded_source_draws_and_keeps_its_state(campaign, gm, player_a, pc_a,
                                                                npc):
    """Without a stacked deck the cards come from the campaign's seeded source; its state is
    kept, so the same seed draws the same cards again."""
    def play(n):
        for _ in range(n):
            test = card_test_call(campaign=campaign, actor=gm, character=pc_a.pk,
                                  skill="seamanship", opposition="npc", opponent=npc.pk,
                                  opponent_skill="command", intent="outsail him")
            test = card_test_confirm(test=test, actor=player_a, version=test.version)
            while test.status == CardTest.Status.AWAITING_JOKER:
                test = card_test_declare_joker(test=test, actor=player_a,
                                               version=test.version)
        return [d.cards for d in DeckDraw.objects.order_by("id")]

    first = play(3)
    campaign.refresh_from_db()
    assert campaign.rng_seed and campaign.rng_state
    seed, state = campaign.rng_seed, campaign.rng_state
    more = play(1)[len(first):]
    campaign.refresh_from_db()
    assert campaign.rng_state != state
    # Rewind the source: the same seed and state turn the same cards.
    type(campaign).objects.filter(pk=campaign.pk).update(rng_seed=seed, rng_state=state)
    again = play(1)[len(first) + len(more):]
    assert again == more


def test_the_decks_stay_whole_over_a_run_of_tests(campaign, gm, player_a, player_b, pc_a, pc_b,
                                                  npc):
    """After every test the cards go back: each draw holds distinct cards of its deck (no
    Joker in the GM deck), the GM deck never turns the same card twice in one round, and no
    card is left out."""
    for i in range(30):
        character, user = (pc_a, player_a) if i % 2 else (pc_b, player_b)
        opposition = ["npc", "difficulty", "none"][i % 3]
        setup = {"opposition": opposition, "intent": f"try {i}", "skill": "gunnery"}
        if opposition == "npc":
            setup.update(opponent=npc.pk, opponent_skill="command")
        elif opposition == "difficulty":
            setup.update(difficulty=str(i % 10))
        test = card_test_call(campaign=campaign, actor=gm, character=character.pk, **setup)
        test = card_test_confirm(test=test, actor=user, version=test.version)
        while test.status == CardTest.Status.AWAITING_JOKER:
            test = card_test_declare_joker(test=test, actor=user, version=test.version)
        assert test.status == CardTest.Status.DONE
    full_player = {str(c) for c in deck_cards("player")}
    full_gm = {str(c) for c in deck_cards("gm")}
    rounds: dict = {}
    for draw in DeckDraw.objects.select_related("deck"):
        assert len(draw.cards) == len(set(draw.cards))
        assert set(draw.cards) <= (full_gm if draw.deck.kind == "gm" else full_player)
        rounds.setdefault((draw.card_test_id, draw.round, draw.deck_id), []).extend(draw.cards)
    for cards in rounds.values():
        assert len(cards) == len(set(cards))
    decks = Deck.objects.filter(campaign=campaign)
    assert {d.name for d in decks} == {"gm", f"pc:{pc_a.pk}", f"pc:{pc_b.pk}"}
    assert all(d.out == [] for d in decks)
    assert decks.get(kind="gm").tests == 30
    assert decks.get(character=pc_a).tests == 15 and decks.get(character=pc_b).tests == 15


ODDS_CASES = {
    "contested": {"opposition": "npc", "skill": "seamanship"},
    "static": {"opposition": "difficulty", "difficulty": "challenging", "skill": "seamanship"},
    "assisted": {"opposition": "difficulty", "difficulty": "routine", "skill": "gunnery",
                 "helpers": "pc_b"},
    "unskilled": {"opposition": "difficulty", "difficulty": "easy", "skill": "intrigue"},
    "simple": {"opposition": "none", "skill": "guts"},
}


@pytest.mark.parametrize("case", ODDS_CASES)
def test_the_gm_sees_the_exact_odds_and_each_set_sums_to_one(case, campaign, gm, pc_a, pc_b,
                                                             jones):
    setup = dict(ODDS_CASES[case])
    if setup.get("helpers"):
        setup["helpers"] = [pc_b.pk]
    if setup["opposition"] == "npc":
        setup.update(opponent=jones.pk, opponent_skill="seamanship")
    test = card_test_call(campaign=campaign, actor=gm, character=pc_a.pk, intent="try", **setup)
    odds = card_test_view(gm, test)["odds"]
    for part in ("first_draw", "final", "levels"):
        assert sum(odds[part].values()) == pytest.approx(1, abs=1e-12), part
    assert sum(odds["win_by_level"].values()) == pytest.approx(odds["final"]["win"])
    lost_to = sum(odds["lose_by_level"].values())  # a simple test fails against nobody
    assert lost_to == pytest.approx(0 if case == "simple" else odds["final"]["lose"])
    assert 0 < odds["final"]["win"] < 1
    if case == "unskilled":
        assert odds["pool"] == 1 and odds["levels"]["critical"] == 0
    if case == "simple":
        assert odds["final"]["stalemate"] == 0 and odds["opposition_pool"] == 0


def test_the_book_race_odds(race, gm, player_a):
    """O'Toole's 6 cards against Jones's 4 (BtQ L1208-1216), as ``rules.btq.odds`` counts."""
    from rules.btq.odds import final, first_draw

    test = race()
    odds = card_test_view(gm, test)["odds"]
    assert odds["pool"] == 6 and odds["opposition_pool"] == 4
    assert odds["first_draw"]["both_failed"] == pytest.approx(first_draw(6, 4)["both_failed"])
    assert odds["final"]["win"] == pytest.approx(final(6, 4)["a"])
    # Against an NPC a player sees only the odds of their own pool: nothing about Jones's.
    mine = card_test_view(player_a, test)
    assert set(mine["odds"]) == {"pool", "levels"} and mine["opposition_pool"] is None
    assert sum(mine["odds"]["levels"].values()) == pytest.approx(1)
