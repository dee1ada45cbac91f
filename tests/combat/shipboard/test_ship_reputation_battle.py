"""A ship reputation in the book's battle (HMS Hermes against the Corsair, BtQ L2533-2603):
its cards join the pools of the PCs aboard (``rules/btq_characters.md`` A22), and it drops one
level when the Hermes loses, none when she wins (BtQ L1241-1242; DECISIONS D1)."""

import pytest

from campaigns.models import CampaignLogEntry
from combat.forms import book_cards
from combat.models import EncounterEvent
from combat.services import encounter_create, encounter_start
from rules.btq.characters import DamageState
from ships.reputations import ship_reputation_create
from ships.services import naval_setup
from tests.combat.conftest import ROUND_1


@pytest.fixture
def feared(hermes, gm):
    return ship_reputation_create(ship=hermes, actor=gm, kind="institution",
                                  descriptor="Feared by", subject="Smugglers", value=2)


@pytest.fixture
def battle(campaign, gm, hermes, corsair, feared):
    encounter = encounter_create(
        campaign=campaign, user=gm, engine="btq_naval", title="Hermes vs Corsair",
        setup=naval_setup(pc_ship=hermes, enemy_ship=corsair, weather="good_wind",
                          ship_reputation=feared),
        stacked_cards=book_cards(), ships=[hermes, corsair])
    return encounter_start(encounter=encounter, user=gm, expected_version=encounter.version)


def _pools(battle) -> list[dict]:
    found = []
    for event in EncounterEvent.objects.filter(encounter=battle).order_by("seq"):
        data = event.data or {}
        found += [data["breakdown"]] if "breakdown" in data else []
        found += [p["breakdown"] for p in (data.get("pools") or {}).values()
                  if isinstance(p, dict) and "breakdown" in p]
    return found


def test_a_lost_battle_injures_the_reputation_its_pcs_used(battle, play, feared):
    battle = play(battle, ROUND_1[:-2] + ["strike", "continue"])  # the Hermes strikes
    assert battle.outcome["winner"] == "enemy"
    pools = _pools(battle)
    assert any(b.get("ship_reputation") == 2 for b in pools)
    feared.refresh_from_db()
    assert feared.damage_state == DamageState.INJURED and feared.version == 2
    entry = CampaignLogEntry.objects.filter(kind="ship.reputation").latest("pk")
    assert "“Feared by Smugglers” is Injured" in entry.text


def test_a_won_battle_leaves_it_whole(battle, play, feared):
    battle = play(battle, ROUND_1[:-1] + ["strike"])  # the Corsair strikes
    assert battle.outcome["winner"] == "pc"
    feared.refresh_from_db()
    assert feared.damage_state == DamageState.HEALTHY
