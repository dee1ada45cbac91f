"""The data migration of the old card table (``combat`` 0005, then ``campaigns`` 0003): every
card test a campaign recorded, with its draws and its log entries, becomes an encounter of
``btq_test`` that the pages show, and replay says plainly that an old test cannot be
replayed."""

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from rules.btq.tests import Pool, Side, start_contested
from rules.random import ScriptedSource

OLD = [("campaigns", "0002_card_tests_and_decks"), ("combat", "0005_encounter_terms"),
       ("characters", "0005_player_notes")]
VARIANT_B = "4S  4C KD KS QH JH 2C  4H AH 2D 7S"


def _old_record(pc: str, npc: str, cards: str = VARIANT_B, size: int = 6) -> dict:
    """The book's race (TV-11, BtQ L1228-1241) as the old card table recorded it (or its
    pending test, when ``cards`` turn the Joker)."""
    mine = Side(pc, Pool("seamanship", size), "player")
    his = Side(npc, Pool("seamanship", 4), "gm", secret=True)
    return start_contested(mine, his, ScriptedSource(cards), intent="to Portsmouth").as_dict()


@pytest.mark.django_db(transaction=True)
def test_old_card_tests_become_encounters_with_their_draws_and_log():
    executor = MigrationExecutor(connection)
    executor.migrate(OLD)
    apps = executor.loader.project_state(OLD).apps
    User = apps.get_model("auth", "User")
    gm, player = User.objects.create(username="gm"), User.objects.create(username="anne")
    campaign = apps.get_model("campaigns", "Campaign").objects.create(name="Old", rng_seed="7")
    Membership = apps.get_model("campaigns", "Membership")
    Membership.objects.create(campaign=campaign, user=gm, role="gm")
    Membership.objects.create(campaign=campaign, user=player, role="player")
    Character = apps.get_model("characters", "Character")
    pc = Character.objects.create(campaign=campaign, name="Anne Able", rank="Lieutenant",
                                  kind="pc", owner=player, skills={"seamanship": 4})
    npc = Character.objects.create(campaign=campaign, name="Jones", rank="Captain",
                                   kind="npc", skills={"seamanship": 4}, revealed=True)
    CardTest = apps.get_model("campaigns", "CardTest")
    common = {"campaign": campaign, "character": pc, "skill": "seamanship",
              "opposition": "npc", "opponent": npc, "opponent_skill": "seamanship",
              "intent": "to Portsmouth", "stakes_win": "she testifies first"}
    record = _old_record(f"pc:{pc.pk}", f"npc:{npc.pk}")
    done = CardTest.objects.create(status="done", origin="gm", version=2, record=record,
                                   created_by=gm, **common)
    declined = CardTest.objects.create(status="declined", origin="player", created_by=player,
                                       decline_reason="Not at sea.", **{
                                           **common, "opposition": "difficulty",
                                           "opponent": None, "opponent_skill": "",
                                           "difficulty": "4"})
    called = CardTest.objects.create(status="awaiting_confirmation", origin="gm",
                                     created_by=gm, **common)
    joker = CardTest.objects.create(
        status="awaiting_joker", origin="gm", created_by=gm, version=2, **common,
        pending=_old_record(f"pc:{pc.pk}", f"npc:{npc.pk}", "4S  JK KD KS QH JH  4H AH 2D 7S",
                            5))
    Deck = apps.get_model("campaigns", "Deck")
    DeckDraw = apps.get_model("campaigns", "DeckDraw")
    gm_deck = Deck.objects.create(campaign=campaign, kind="gm", tests=1)
    own = Deck.objects.create(campaign=campaign, kind="player", character=pc, tests=1)
    for deck, purpose, cards in ((gm_deck, "card of fate", ["4S"]),
                                 (own, f"pc:{pc.pk} pool", ["4C", "KD", "KS", "QH", "JH", "2C"]),
                                 (gm_deck, f"npc:{npc.pk} pool", ["4H", "AH", "2D", "7S"])):
        DeckDraw.objects.create(deck=deck, card_test=done, round=1, purpose=purpose,
                                cards=cards)
    Log = apps.get_model("campaigns", "CampaignLogEntry")
    Log.objects.create(campaign=campaign, kind="card_test.done", text="Test won.",
                       data={"card_test": done.pk, "rounds": []})
    Log.objects.create(campaign=campaign, kind="card_test.declined", text="Declined.",
                       data={"card_test": declined.pk})

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    from django.contrib.auth import get_user_model

    from campaigns.models import CampaignLogEntry
    from combat.card_tests.selectors import card_test_status, card_test_view
    from combat.card_tests.services import card_test_declare_joker
    from combat.models import Encounter
    from combat.services import encounter_replay

    tests = {card_test_status(e): e for e in Encounter.objects.filter(engine="btq_test")}
    assert set(tests) == {"done", "declined", "proposed", "awaiting_joker"}
    finished = tests["done"]
    assert finished.status == "finished" and finished.seed == ""
    assert finished.state["record"] == record and finished.outcome["result"] == "won"
    assert finished.terms["character"] == pc.pk and finished.terms["origin"] == "gm"
    assert finished.terms["stakes_win"] == "she testifies first"
    rounds = finished.events.filter(kind="test.round")
    assert [e.data["draws"] for e in rounds] == [[
        {"purpose": "card of fate", "cards": ["4S"]},
        {"purpose": f"pc:{pc.pk} pool", "cards": ["4C", "KD", "KS", "QH", "JH", "2C"]},
        {"purpose": f"npc:{npc.pk} pool", "cards": ["4H", "AH", "2D", "7S"]}]]
    assert "Captain Jones: 4H AH 2D 7S" in rounds.get().text
    with pytest.raises(ValidationError, match="cannot be replayed"):
        encounter_replay(encounter=finished)
    assert tests["declined"].status == "cancelled"
    assert tests["declined"].terms["declined"] == "Not at sea."
    waiting = tests["proposed"]
    assert waiting.status == "setup" and waiting.seed and waiting.seed_hash
    assert waiting.terms["origin"] == "gm" and called.pk  # the GM starts it again
    entry = CampaignLogEntry.objects.get(kind="test.finished")
    assert entry.data["card_test"] == finished.pk and entry.data["card_test_was"] == done.pk
    assert CampaignLogEntry.objects.get(kind="test.declined").data["card_test"] == \
        tests["declined"].pk
    anne = get_user_model().objects.get(username="anne")
    # A test left waiting for its Joker goes on: the Joker named, the round is judged.
    waiting = tests["awaiting_joker"]
    assert waiting.terms["migrated"] and waiting.version == joker.version
    waiting = card_test_declare_joker(test=waiting, actor=anne, version=waiting.version,
                                      card="4C")
    assert card_test_status(waiting) == "done"
    assert waiting.state["record"]["rounds"][0]["hands"][0]["cards"][0] == "JK=4C"
    assert waiting.state["record"]["winner"] == f"pc:{pc.pk}"  # KS beats 7S
    with pytest.raises(ValidationError, match="cannot be replayed"):
        encounter_replay(encounter=waiting)
    view = card_test_view(anne, finished)
    assert view["outcome"] == "Lieutenant Anne Able won with a Critical success."
    assert view["record"]["sides"][1]["pool"] == {"secret": True, "size": 4}
    assert view["seed"] is None and view["replayable"] is False
