"""Card tests through the service layer, with the cards stacked (the encounter's stacked
cards): the book's examples end to end, the Joker pause, unskilled and assisted tests,
damage, retests, and the record of the draws in the test's events."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from campaigns.services import StaleVersion, campaign_update
from characters.services import character_update, trait_add
from combat.card_tests.selectors import card_test_status, card_test_view
from combat.card_tests.services import (
    card_test_accept,
    card_test_call,
    card_test_confirm,
    card_test_declare_joker,
    card_test_propose,
)
from combat.services import encounter_replay, seed_hash
from rules.btq.characters import DamageState
from rules.cards import deck_cards
from ships.services import posting_remove, posting_set, ship_update

VARIANT_B = "4S  4C KD KS QH JH 2C  4H AH 2D 7S"
"""TV-11 as the narration reads it (BtQ L1228-1241): O'Toole wins, KS against 7S."""
VARIANT_A = "4S  4C KD 3S QH JH 2C  4H AH 2D 7S"
"""TV-11 as the draw list prints it: the tie-break goes to Jones, 7S against 3S."""


def draws(test):
    """Every draw of ``test`` from its ``test.round`` events, in order: ``(deck, round, what,
    cards)``; each round appears once, as it was judged."""
    rounds = {}
    for event in test.events.filter(kind="test.round").order_by("seq"):
        rounds[event.data["number"]] = event.data
    found = []
    for number, rnd in sorted(rounds.items()):
        found.append(("gm", number, "card of fate", [rnd["fate"]]))
        found += [("gm" if h["deck"] == "gm" else h["who"], number, f"{h['who']} pool",
                   [c.partition("=")[0] for c in h["cards"]]) for h in rnd["hands"]]
    return found


def record_of(test):
    return test.state["record"]


def status(test):
    return card_test_status(test)


def test_tv11_variant_b_the_book_race_to_portsmouth(race, turn, player_a, pc_a, jones,
                                                     distrusted, campaign):
    test = race()
    assert status(test) == "awaiting_confirmation" and test.version == 2  # called, started
    test = turn(test, player_a, VARIANT_B)
    assert status(test) == "done" and test.version == 3
    record = record_of(test)
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
    entry = campaign.log_entries.filter(kind="test.finished").get()
    assert not entry.gm_only and entry.data["winner"] == "Lieutenant Anne Able"
    assert "won with a Critical success" in entry.text
    assert entry.data["rounds"][0]["hands"][1] == {
        "who": "Captain Jones", "cards": ["4H", "AH", "2D", "7S"],
        "levels": ["critical", "failure", "failure", "ordinary"]}


def test_tv11_variant_a_the_loser_s_reputation_drops_one_level(race, turn, player_a,
                                                                distrusted, jones, campaign):
    test = turn(race(), player_a, VARIANT_A)
    assert record_of(test)["winner"] == f"npc:{jones.pk}"
    assert record_of(test)["result"] == "critical"
    assert record_of(test)["rounds"][0]["comparison"]["b"] == "7S"
    distrusted.refresh_from_db()
    assert distrusted.damage_state == DamageState.INJURED  # D1 one_step, whatever Jones scored
    assert distrusted.version == 2
    assert "Distrusted by Captain Jones: Healthy → Injured" in campaign.log_entries.get(
        kind="test.finished").text


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
    assert record_of(test)["winner"] == f"npc:{jones.pk}"
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
    assert record_of(test)["winner"] == f"npc:{jones.pk}"  # with a Critical: two levels
    version = pc_ship.version
    pc_ship.refresh_from_db()
    assert pc_ship.morale_state == DamageState.MAIMED and pc_ship.version == version + 1
    pc_a.refresh_from_db()
    assert pc_a.health_state == DamageState.HEALTHY and pc_a.version == 1
    assert pc_a.ship_morale_state == pc_b.ship_morale_state == DamageState.MAIMED  # the crew
    entry = campaign.log_entries.get(kind="ship.morale")
    assert entry.data == {"ship": pc_ship.pk, "morale": 2} and not entry.gm_only
    assert "HMS Testament (22)'s Ship Morale: Healthy → Maimed" in campaign.log_entries.get(
        kind="test.finished").text
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
    assert status(test) == "proposed" and test.terms["origin"] == "player"
    # The GM sets the opposition by price and rarity: four cards (BtQ L1747, L1751).
    test = card_test_accept(test=test, actor=gm, version=test.version, difficulty="4")
    assert status(test) == "awaiting_confirmation" and test.terms["difficulty"] == "4"
    test = turn(test, player_a, "2D  10C 3C 10H 3S  5D 10S QH AH")
    assert record_of(test)["outcome"] == "won" and record_of(test)["winner"] == "difficulty"
    assert record_of(test)["result"] == "ordinary"
    pc_a.refresh_from_db()
    assert pc_a.wealth_state == DamageState.INJURED
    assert "Wealth: Healthy → Injured" in campaign.log_entries.get(kind="test.finished").text
    # "he will operate at -1 card to his Wealth" (BtQ L1753).
    nxt = card_test_call(campaign=campaign, actor=gm, character=pc_a.pk, skill="wealth",
                         opposition="difficulty", difficulty="4", intent="a sword")
    assert card_test_view(gm, nxt)["pool"]["explanation"] == "Wealth 4 - Wealth Injured 1 = 3"


def test_a_joker_pauses_the_test_until_its_card_is_named(race, turn, player_a, player_b, gm,
                                                         pc_a, campaign):
    test = turn(race(reputations=[]), player_a, "4S  JK KD KS QH JH  4H AH 2D 7S")
    assert status(test) == "awaiting_joker" and record_of(test) is None
    assert test.state["pending"]["awaiting"] == [f"pc:{pc_a.pk}"]
    assert campaign.log_entries.get(kind="test.joker").text == (
        f"In the test “{test.title}”, Lieutenant Anne Able turned the Joker and names the "
        "card it counts as.")
    assert draws(test) == [("gm", 1, "card of fate", ["4S"]),
                           (f"pc:{pc_a.pk}", 1, f"pc:{pc_a.pk} pool",
                            ["JK", "KD", "KS", "QH", "JH"]),
                           ("gm", 1, f"npc:{test.terms['opponent']} pool",
                            ["4H", "AH", "2D", "7S"])]
    # Each test has whole decks of its own (BtQ L1247-1249): another test is drawn meanwhile.
    other = card_test_call(campaign=campaign, actor=gm, character=pc_a.pk, skill="guts",
                           opposition="none", intent="keep his nerve")
    assert status(turn(other, player_a, "9C  5H")) == "done"
    with pytest.raises(PermissionDenied):
        card_test_declare_joker(test=test, actor=player_b, version=test.version, card="4S")
    test = card_test_declare_joker(test=test, actor=player_a, version=test.version, card="4C")
    assert status(test) == "done" and test.state["pending"] is None
    hand = record_of(test)["rounds"][0]["hands"][0]
    assert hand["cards"][0] == "JK=4C" and hand["joker"] == "declared"
    assert hand["levels"][0] == "critical"
    assert record_of(test)["winner"] == f"pc:{pc_a.pk}"  # TV-11 again: KS beats 7S
    assert [d[2] for d in draws(test)] == ["card of fate", f"pc:{pc_a.pk} pool",
                                           f"npc:{test.terms['opponent']} pool"]
    assert draws(test)[1][3] == ["JK", "KD", "KS", "QH", "JH"]


def test_the_joker_s_default_is_the_card_of_fate_and_the_gm_may_name_it(race, turn, player_a,
                                                                         gm):
    test = turn(race(reputations=[]), player_a, "4S  JK KD 3S QH JH  4H AH 2D 7S")
    test = card_test_declare_joker(test=test, actor=gm, version=test.version, card=None)
    hand = record_of(test)["rounds"][0]["hands"][0]
    assert hand["cards"][0] == "JK=4S" and hand["joker"] == "default"
    assert hand["levels"][0] == "perfect" and record_of(test)["result"] == "perfect"


@pytest.mark.parametrize("card", ["JK", "1X", "JK=4S"])
def test_a_joker_must_be_named_as_one_of_the_52(race, turn, player_a, card):
    test = turn(race(reputations=[]), player_a, "4S  JK KD 3S QH JH  4H AH 2D 7S")
    with pytest.raises(ValidationError):
        card_test_declare_joker(test=test, actor=player_a, version=test.version, card=card)
    test.refresh_from_db()
    assert status(test) == "awaiting_joker" and test.version == 3


def test_an_unskilled_test_turns_one_card_and_counts_ordinary_at_best(campaign, gm, pc_b,
                                                                      player_b, turn):
    # TV-13: Intrigue 0, CoF 6H, the card turned 6H: a Perfect capped to an Ordinary.
    test = card_test_call(campaign=campaign, actor=gm, character=pc_b.pk, skill="intrigue",
                          opposition="none", intent="lay the ground against the accusations")
    view = card_test_view(player_b, test)
    assert view["pool"]["size"] == 1 and view["pool"]["unskilled"] is True
    assert view["odds"]["pool"] == 1
    test = turn(test, player_b, "6H  6H")
    assert record_of(test)["outcome"] == "passed" and record_of(test)["result"] == "ordinary"
    assert record_of(test)["rounds"][0]["hands"][0]["levels"] == ["ordinary"]


@pytest.mark.parametrize("allowed", [False, True])
def test_setting_unskilled_traits_at_the_table(campaign, gm, pc_a, player_a, turn, allowed):
    """A9: Crusty Old Seadog adds nothing to O'Toole's Maritime 0 test by default, and a
    card the GM states for a trait or curio is refused; under ``unskilled_traits`` both are
    turned, each an Ordinary success at best."""
    trait_add(character=pc_a, actor=gm, trait="crusty_old_seadog", reputations=[
        {"descriptor": "Trusted by", "subject": "a"}, {"descriptor": "Trusted by",
                                                       "subject": "b"}])
    character_update(character=pc_a, actor=gm, version=pc_a.version, skills={"maritime": 0})
    if allowed:
        campaign_update(campaign=campaign, actor=gm, version=campaign.version,
                        settings={"unskilled_traits": True})
    test = card_test_call(campaign=campaign, actor=gm, character=pc_a.pk, skill="maritime",
                          opposition="none", intent="knots")
    pool = test.setup["sides"][0]["pool"]
    assert pool["modifiers"] == ([{"source": "Crusty Old Seadog", "cards": 1}] if allowed
                                 else [])
    test = turn(test, player_a, "6H  2C 6H" if allowed else "6H  6H")
    assert record_of(test)["result"] == "ordinary"
    assert len(record_of(test)["rounds"][0]["hands"][0]["cards"]) == (2 if allowed else 1)
    stated = {"modifiers": [{"source": "Reef Map", "cards": 1}], "character": pc_a.pk,
              "skill": "maritime", "opposition": "none", "intent": "knots"}
    if allowed:
        assert {"source": "Reef Map", "cards": 1} in card_test_call(
            campaign=campaign, actor=gm, **stated).setup["sides"][0]["pool"]["modifiers"]
    else:
        with pytest.raises(ValidationError, match="Reef Map cannot add to it"):
            card_test_call(campaign=campaign, actor=gm, **stated)


def test_tv12_a_static_test_against_a_challenging_difficulty(campaign, gm, pc_a, player_a,
                                                             turn):
    character_update(character=pc_a, actor=gm, version=pc_a.version, skills={"awareness": 2})
    test = card_test_call(campaign=campaign, actor=gm, character=pc_a.pk, skill="awareness",
                          opposition="difficulty", difficulty="challenging",
                          intent="reach the Admiralty in time through London's streets")
    test = turn(test, player_a, "10S  10S 2H  4H 2D 8D 3C 2C")
    assert record_of(test)["kind"] == "static" and record_of(test)["result"] == "perfect"
    assert record_of(test)["sides"][1]["pool"]["size"] == 5


def test_tv14_helpers_add_their_skill_up_to_three(campaign, gm, pc_a, pc_b, player_b):
    character_update(character=pc_b, actor=gm, version=pc_b.version, skills={"seamanship": 4})
    test = card_test_call(campaign=campaign, actor=gm, character=pc_a.pk, skill="seamanship",
                          modifiers=[{"source": "Storm", "cards": 1}], helpers=[pc_b.pk],
                          opposition="difficulty", difficulty="damned_hard",
                          intent="bring the ship under control in the storm")
    pool = card_test_view(player_b, test)["pool"]
    assert pool["size"] == 8
    assert pool["explanation"] == ("Seamanship 4 + Storm 1 + help from Midshipman Ben Baker "
                                   "(4, at most 3) 3 = 8")


def test_a_mutual_failure_is_retested_with_a_new_card_of_fate(race, turn, player_a, pc_a):
    test = turn(race(reputations=[]),
                player_a, "4S  2H 3H 5H 6H 7H  2D 3D 5D 6D   9C  9H 2C 3H 4H 5H  2D 3D 4D 5D")
    record = record_of(test)
    assert len(record["rounds"]) == 2 and record["rounds"][0]["comparison"]["by"] == "no_success"
    assert record["winner"] == f"pc:{pc_a.pk}"
    rounds = [(d[0], d[1]) for d in draws(test)]
    assert rounds == [("gm", 1), (f"pc:{pc_a.pk}", 1), ("gm", 1),
                      ("gm", 2), (f"pc:{pc_a.pk}", 2), ("gm", 2)]
    assert "after 1 retest" in test.campaign.log_entries.get(kind="test.finished").text


def test_a_simple_test_cannot_put_an_area_at_risk(campaign, gm, pc_a):
    with pytest.raises(ValidationError, match="simple test"):
        card_test_call(campaign=campaign, actor=gm, character=pc_a.pk, skill="guts",
                       opposition="none", intent="steady", at_risk="health")


def _play(campaign, gm, player, pc, npc, *, seed: str | None = None):
    """Call a test and play it out (every Joker named as the Card of Fate); ``seed`` set in
    place of the one it was given."""
    test = card_test_call(campaign=campaign, actor=gm, character=pc.pk, skill="seamanship",
                          opposition="npc", opponent=npc.pk, opponent_skill="command",
                          intent="outsail him")
    if seed is not None:
        type(test).objects.filter(pk=test.pk).update(seed=seed, seed_hash=seed_hash(seed),
                                                     rng_state=None)
        test.refresh_from_db()
    test = card_test_confirm(test=test, actor=player, version=test.version)
    while status(test) == "awaiting_joker":
        test = card_test_declare_joker(test=test, actor=player, version=test.version)
    return test


def test_each_test_draws_from_its_own_seed_its_hash_shown_before_and_the_seed_after(
        campaign, gm, player_a, player_b, pc_a, npc):
    """Without a stacked deck the cards come from the test's own seeded source: its hash is
    published when the test is called, the seed revealed when it ends; the same seed turns
    the same cards again, and the test replays from it."""
    test = card_test_call(campaign=campaign, actor=gm, character=pc_a.pk, skill="seamanship",
                          opposition="npc", opponent=npc.pk, opponent_skill="command",
                          intent="outsail him")
    for viewer in (gm, player_a, player_b):
        before = card_test_view(viewer, test)
        assert before["seed_hash"] == test.seed_hash == seed_hash(test.seed)
        assert before["seed"] is None and test.seed not in str(before)
    opening = test.events.get(kind="encounter.start")
    assert test.seed_hash in opening.text and test.seed not in opening.text
    test = card_test_confirm(test=test, actor=player_a, version=test.version)
    while status(test) == "awaiting_joker":
        test = card_test_declare_joker(test=test, actor=player_a, version=test.version)
    after = card_test_view(player_b, test)
    assert after["seed"] == test.seed and after["replayable"] is True
    assert test.events.get(kind="encounter.end").data["seed"] == test.seed
    assert encounter_replay(encounter=test)["matches"] is True
    again = _play(campaign, gm, player_a, pc_a, npc, seed=test.seed)
    assert draws(again) == draws(test) and record_of(again) == record_of(test)
    other = _play(campaign, gm, player_a, pc_a, npc)
    assert other.seed != test.seed


def test_the_decks_are_whole_for_every_test_over_a_run_of_tests(
        campaign, gm, player_a, player_b, pc_a, pc_b, npc):
    """Every test's decks are whole and shuffled (BtQ L1247-1249): each draw holds distinct
    cards of its deck (no Joker in the GM deck), and no deck turns the same card twice in one
    round."""
    full_player = {str(c) for c in deck_cards("player")}
    full_gm = {str(c) for c in deck_cards("gm")}
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
        while status(test) == "awaiting_joker":
            test = card_test_declare_joker(test=test, actor=user, version=test.version)
        assert status(test) == "done"
        rounds: dict = {}
        for deck, number, _what, cards in draws(test):
            assert len(cards) == len(set(cards))
            assert set(cards) <= (full_gm if deck == "gm" else full_player)
            rounds.setdefault((number, deck), []).extend(cards)
        for cards in rounds.values():
            assert len(cards) == len(set(cards))


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


def test_the_odds_and_their_words_follow_the_settings_the_test_is_drawn_under(
        race, campaign, gm, gm_client):
    """Under ``full_tie = "defender"`` a full tie is Jones's win, not a retest (A5), and the
    page says so; under ``retest_fate = "same"`` a retest keeps the Card of Fate (A6), which
    changes no odds (``rules.btq.odds.final``) but the words. A test called under these
    settings keeps them when the campaign changes its own."""
    from django.urls import reverse

    from rules.btq.odds import final

    defaults = campaign.rules_settings()
    campaign_update(campaign=campaign, actor=gm, version=campaign.version,
                    settings={**defaults, "full_tie": "defender", "retest_fate": "same"})
    test = race()
    campaign.refresh_from_db()
    campaign_update(campaign=campaign, actor=gm, version=campaign.version, settings=defaults)
    odds = card_test_view(gm, test)["odds"]
    assert (odds["full_tie"], odds["retest_fate"]) == ("defender", "same")
    under = final(6, 4, full_tie="defender")
    assert odds["final"]["lose"] == pytest.approx(under["b"])
    assert odds["final"]["lose"] > final(6, 4)["b"]
    assert odds["final"]["stalemate"] == pytest.approx(under["stalemate"])
    page = gm_client.get(reverse("card_tests:detail", args=[campaign.pk, test.pk])).content.decode()
    assert "(won by the opposition, not retested)" in page
    assert "(retested against the same Card of Fate)" in page
    assert "(retested)" not in page
    # A test called now is drawn under the campaign's defaults again.
    page = gm_client.get(reverse("card_tests:detail", args=[campaign.pk, race().pk])
                         ).content.decode()
    assert page.count("(retested against a new Card of Fate)") == 2


def test_a_curio_for_the_skill_with_no_condition_is_added_by_itself(
        race, campaign, gm, pc_a, pc_b, player_a):
    """A curio adds +1 card to its skill, a priceless item +2 (BtQ L522-530, L1007-1017),
    in every test of that skill when it has no condition; the Reef Map of the West Indies
    only in those waters (BtQ L954, L1211), so the GM adds it (TV-11: curio 0 off
    Portsmouth); a curio stated by the GM counts once; an unskilled test turns one card and
    takes none (A9)."""
    from characters.services import item_create

    item_create(character=pc_a, actor=gm, kind="curio", name="Reef Map", skill="seamanship",
                condition="navigating the West Indies")
    item_create(character=pc_a, actor=gm, kind="curio", name="Lucky Sextant",
                skill="seamanship")
    item_create(character=pc_a, actor=gm, kind="priceless_item", name="Harrison's Chronometer",
                skill="seamanship")
    item_create(character=pc_a, actor=gm, kind="curio", name="Spyglass", skill="awareness")
    pool = card_test_view(player_a, race())["pool"]
    assert pool["explanation"] == (
        "Seamanship 4 + Crusty Old Seadog 1 + Lucky Sextant 1 + Harrison's Chronometer 2 + "
        "Distrusted by Captain Jones 1 = 9")
    stated = race(modifiers=[{"source": "Crusty Old Seadog", "cards": 1},
                             {"source": "Lucky Sextant", "cards": 1}])
    assert card_test_view(player_a, stated)["pool"]["size"] == 9
    item_create(character=pc_b, actor=gm, kind="curio", name="Dice", skill="intrigue")
    unskilled = card_test_call(campaign=campaign, actor=gm, character=pc_b.pk,
                               skill="intrigue", opposition="none", intent="lay the ground")
    assert card_test_view(gm, unskilled)["pool"]["size"] == 1


def test_an_important_item_adds_to_the_reputation_it_is_for_when_it_is_used(
        race, campaign, gm, pc_a, player_a, player_a_client, jones, distrusted):
    """An important item raises the reputation with its individual by +1 when used (BtQ
    L526), a priceless one +2 (BtQ L530): each is a line of the pool, by its name, in a test
    that uses that reputation, on the owner's page too; not in a test without it, nor one
    with a condition (the GM's to add), and stated by the GM it counts once."""
    from django.urls import reverse

    from characters.services import item_create, reputation_create

    item_create(character=pc_a, actor=gm, kind="important_item", name="Jones's Letter",
                reputation=distrusted.pk)
    item_create(character=pc_a, actor=gm, kind="important_item", name="Sealed Orders",
                reputation=distrusted.pk, condition="before the Admiralty")
    other = reputation_create(character=pc_a, actor=gm, kind="personal",
                              descriptor="Friend of", subject="Captain Turner", value=1)
    item_create(character=pc_a, actor=gm, kind="priceless_item", name="Turner's Telescope",
                reputation=other.pk)
    test = race()
    assert card_test_view(player_a, test)["pool"]["explanation"] == (
        "Seamanship 4 + Crusty Old Seadog 1 + Jones's Letter 1 + "
        "Distrusted by Captain Jones 1 = 7")
    page = player_a_client.get(reverse("card_tests:detail", args=[campaign.pk, test.pk]))
    assert "Jones&#x27;s Letter" in page.content.decode()
    assert card_test_view(player_a, race(reputations=[]))["pool"]["size"] == 5
    assert card_test_view(player_a, race(reputations=[other.pk]))["pool"]["explanation"] == (
        "Seamanship 4 + Crusty Old Seadog 1 + Turner's Telescope 2 + "
        "Friend of Captain Turner 1 = 8")
    stated = race(modifiers=[{"source": "Jones's Letter", "cards": 1}])
    assert card_test_view(player_a, stated)["pool"]["size"] == 6
