"""Campaign settings (``rules.btq.settings``): defaults, validation, and what each affects."""

import ast
import re
from pathlib import Path

import pytest

from rules.btq import naval
from rules.btq.settings import SETTINGS, SettingError, resolve, upgraded
from rules.btq.tests import MAX_RETESTS

USES = {"card tests", "ship-to-ship combat", "skirmishes", "boarding actions", "prize money",
        "purchases", "grog", "character creation", "missions", "healing",
        "odds", "Brethren of the Coast", "British vs Pirates", "Viking sea fight",
        "Horse, Foot and Guns"}
_USE = "|".join(re.escape(use) for use in USES)


def test_resolve_fills_in_the_defaults_and_rejects_unknown_names_and_values():
    assert resolve() == {name: s.default for name, s in SETTINGS.items()}
    assert resolve({"repair_lockout": "next_round"})["repair_lockout"] == "next_round"
    with pytest.raises(SettingError, match="unknown campaign setting 'fog'"):
        resolve({"fog": True})
    with pytest.raises(SettingError, match="repair_lockout: 'never' is not one of"):
        resolve({"repair_lockout": "never"})


def test_every_setting_says_what_in_the_app_it_affects():
    for setting in SETTINGS.values():
        assert setting.default in setting.choices
        # parts joined by ", " (a part may hold a comma: "Horse, Foot and Guns")
        assert not setting.used_by or re.fullmatch(f"({_USE})(, ({_USE}))*",
                                                   setting.used_by), setting.name


@pytest.mark.parametrize("name, used_by", [
    ("scar_rule", "healing"),
    ("scratch_resets", "healing"),
    ("reputation_loss_mode", "card tests"),
    ("personal_pool_floor", "card tests"),
    ("repair_lockout", "ship-to-ship combat"),
    ("becalmed_tow", "ship-to-ship combat"),
    ("double_shot_extra", "ship-to-ship combat"),
    ("great_hardship", "ship-to-ship combat"),
    ("skirmish_morale_loss", "skirmishes"),
    ("mutual_fail_final", "skirmishes"),
    # The card test kernel applies these two wherever a test is turned again.
    ("full_tie", "card tests, skirmishes, boarding actions"),
    ("retest_fate", "card tests, skirmishes, boarding actions"),
    ("unskilled_traits", "card tests"),
    ("maimed_morale_test", "ship-to-ship combat"),
    ("maimed_morale_scope", "ship-to-ship combat"),
    ("fled_ship_morale", "ship-to-ship combat"),
    ("booty_skill_points", "character creation"),
    ("odds_for_players", "odds"),
    ("boarding_crew_loss", "boarding actions"),
    ("firebrand_fire", "boarding actions"),
    ("prize_share_lasts", "purchases"),
    ("grog_critical_failure", "grog"),
    ("mission_injured_cost", "missions"),
    ("general_weather_in_ship_combat", "ship-to-ship combat"),
    ("petty_officer_tier", "character creation, missions, prize money"),
    ("midshipman_wealth", "character creation"),
    ("creation_experiences", "character creation"),
    ("spade_ace_booty", "character creation"),
    # The card tests add the trait's card from the sheet.
    ("crusty_old_seadog_skill", "card tests"),
    # The hfg engine reads its five from the battle's setup.
    ("hfg_spent_vs_dismounted", "Horse, Foot and Guns"),
    ("hfg_army_break_fraction", "Horse, Foot and Guns"),
    ("hfg_foot_charge_shooters", "Horse, Foot and Guns"),
    # Not applied anywhere in the app yet: the scar card is not drawn.
])
def test_used_by_is_honest(name, used_by):
    assert SETTINGS[name].used_by == used_by


def test_the_naval_engine_says_where_it_applies_the_general_weather():
    # its source's docstring: a module compiled by `make fast` keeps none at run time
    source = Path(naval.__file__).with_name("naval.py").read_text(encoding="utf-8")
    docstring = ast.get_docstring(ast.parse(source))
    assert "general_weather_in_ship_combat" in docstring
    assert "not applied here" not in docstring


def test_the_retest_bound_is_the_constant_of_d3():
    assert MAX_RETESTS == 10
    assert "max_retests" not in SETTINGS
    # Setups and records saved while it was a setting still resolve.
    assert "max_retests" not in resolve({"max_retests": 10})


def test_a_stored_state_gets_each_setting_made_since_at_its_default_wherever_it_keeps_them():
    full = resolve()
    old = {k: v for k, v in full.items() if k not in ("becalmed_tow", "full_tie")}
    old["max_retests"] = 3  # retired since: kept as stored
    state = {"settings": dict(old), "round": 4,
             "boarding": {"pair": "a|b", "state": {"setup": {"settings": dict(old)}}}}
    new = upgraded(state)
    assert new["settings"] == {**full, "max_retests": 3}
    assert new["boarding"]["state"]["setup"]["settings"] == {**full, "max_retests": 3}
    assert state["settings"] == old  # the stored state is not changed in place
    skirmish = {"setup": {"settings": dict(old)}, "phase": "tactics"}
    assert upgraded(skirmish)["setup"]["settings"]["full_tie"] == full["full_tie"]
    assert upgraded(new) is new  # nothing missing: the same state
    assert upgraded({"boarding": None, "settings": full}) == {"boarding": None, "settings": full}
