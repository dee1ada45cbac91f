"""Prize money: the book's battle, HMS Hermes against the Corsair (BtQ L2533-2603), played with
the book's cards through the services until the Corsair strikes her colours at the end of
round 1; every PC aboard the Hermes is paid his share by rank of an un-rated prize (BtQ
L1769-1835, ``rules/btq_missions.md`` §7.6), once, even if the finish is recorded again."""

from campaigns.models import CampaignLogEntry
from characters.models import PrizeShare
from combat.services import _AFTER_BATTLE
from rules.engine import Outcome, get_engine
from tests.combat.conftest import ROUND_1


def test_a_battle_that_takes_a_prize_pays_the_shares_by_rank_once(book_battle, play, hermes,
                                                                  campaign, gm):
    battle = play(book_battle, ROUND_1[:-1] + ["strike"])  # the Corsair strikes
    assert battle.status == "finished"
    assert (battle.outcome["result"], battle.outcome["winner"]) == ("struck", "pc")
    shares = {s.character.name: s for s in PrizeShare.objects.select_related("character")}
    assert set(shares) == {"Gregory O'Toole", "Bosworth", "Smith"}  # not Anne Able: elsewhere
    # a Cutter is un-rated: the Master and the Gunner share as Warrant Officers, Smith as a
    # Midshipman: 3(1), 2(3), 1(3)
    assert {n: (s.row, s.prize_class, s.entries) for n, s in shares.items()} == {
        "Gregory O'Toole": ("warrant_officer", "unrated", [[3, 1], [2, 3], [1, 3]]),
        "Bosworth": ("warrant_officer", "unrated", [[3, 1], [2, 3], [1, 3]]),
        "Smith": ("midshipman", "unrated", [[3, 1], [2, 3], [1, 3]]),
    }
    assert all(s.battle == battle.pk and s.status == "held" for s in shares.values())
    # Wealth itself does not change: a share is spending money (BtQ L1827-1835)
    assert {s.character.wealth for s in shares.values()} == {0}
    assert CampaignLogEntry.objects.filter(kind="prize.paid").count() == 1
    # the finish recorded a second time pays nothing more
    outcome = Outcome(**battle.outcome)
    _AFTER_BATTLE["btq_naval"](battle, get_engine("btq_naval"), outcome, gm)
    assert PrizeShare.objects.count() == 3
    assert CampaignLogEntry.objects.filter(kind="prize.paid").count() == 1


def test_a_battle_without_a_prize_pays_nothing(book_battle, play):
    battle = play(book_battle, ROUND_1[:-2] + ["strike", "continue"])  # the Hermes strikes
    assert battle.outcome["winner"] == "enemy"
    assert not PrizeShare.objects.exists()
