"""Card test scenarios on top of the personas of ``tests/conftest.py``: the book's contested
test (BtQ L1195-1241) played by Anne Able (as O'Toole: Seamanship 4, Crusty Old Seadog +1,
"Distrusted by Captain Jones" 1) against the NPC Captain Jones (Seamanship 4)."""

import pytest

from campaigns.services.card_tests import card_test_call, card_test_confirm
from characters.models import Character
from characters.services import character_create, reputation_create
from rules.random import ScriptedSource


@pytest.fixture
def jones(campaign, gm):
    return character_create(campaign=campaign, actor=gm, kind=Character.Kind.NPC,
                            name="Jones", rank="Captain", skills={"seamanship": 4},
                            gm_notes="jones-secret", revealed=True)


@pytest.fixture
def distrusted(pc_a, gm):
    return reputation_create(character=pc_a, actor=gm, kind="personal",
                             descriptor="Distrusted by", subject="Captain Jones", value=1)


@pytest.fixture
def race(campaign, gm, pc_a, jones, distrusted):
    """A factory of the book's race to Portsmouth, called by the GM: ``race(**changes)``."""
    def make(**changes):
        setup = {
            "character": pc_a.pk, "skill": "seamanship", "reputations": [distrusted.pk],
            "modifiers": [{"source": "Crusty Old Seadog", "cards": 1}],
            "opposition": "npc", "opponent": jones.pk, "opponent_skill": "seamanship",
            "intent": "bring the Hermes into Portsmouth before Jones docks the Achilles",
            "stakes_win": "O'Toole testifies first", "stakes_lose": "Jones testifies first",
        }
        setup.update(changes)
        return card_test_call(campaign=campaign, actor=gm, **setup)
    return make


@pytest.fixture
def turn():
    """``turn(test, user, cards)``: confirm ``test`` as ``user`` with the cards stacked
    (Card of Fate, the PC's pool, then the NPC's or the difficulty's)."""
    def confirm(test, user, cards: str):
        return card_test_confirm(test=test, actor=user, version=test.version,
                                 source=ScriptedSource(cards))
    return confirm
