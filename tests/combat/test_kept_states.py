"""A game stored by an earlier version of the app plays on under this one: a battle begun
before a campaign setting existed reads the setting at its default (``combat.models``'
``_KeptState``, ``rules.btq.settings.upgraded``), the play it had before."""

import pytest

from combat.models import Encounter, Job
from combat.services import encounter_create, encounter_replay, encounter_start
from rules.btq.settings import SETTINGS
from ships.services import naval_setup
from tests.combat.conftest import resolve_to_the_end

pytestmark = pytest.mark.django_db

MADE_SINCE = ("becalmed_tow", "maimed_morale_test", "maimed_morale_scope", "fled_ship_morale",
              "full_tie", "retest_fate", "unskilled_traits", "double_shot_extra")
"""Settings a battle stored a few versions ago does not carry."""


def test_a_battle_begun_before_a_setting_existed_plays_on_as_it_would_have(
        campaign, gm, hermes, corsair):
    """Becalmed, the engine reads ``becalmed_tow`` at once; the battle, played to its end
    from the old state, is what a battle begun today plays (its replay from the seed)."""
    battle = encounter_create(
        campaign=campaign, user=gm, engine="btq_naval", title="Becalmed",
        setup=naval_setup(pc_ship=hermes, enemy_ship=corsair, weather="becalmed"),
        ships=[hermes, corsair])
    battle = encounter_start(encounter=battle, user=gm, expected_version=battle.version)
    old = {**battle.state, "settings": {name: value for name, value
                                        in battle.state["settings"].items()
                                        if name not in MADE_SINCE}}
    Encounter.objects.filter(pk=battle.pk).update(state=old)
    assert "becalmed_tow" not in Encounter.objects.values_list(
        "state", flat=True).get(pk=battle.pk)["settings"]

    battle.refresh_from_db()
    assert set(battle.state["settings"]) >= set(SETTINGS)
    assert resolve_to_the_end(battle, gm).status == Job.Status.DONE
    battle.refresh_from_db()
    assert battle.status == Encounter.Status.FINISHED
    replay = encounter_replay(encounter=battle)
    assert replay["matches"], replay["mismatch"]
    assert replay["state"] == battle.state
