"""Personal combat (``rules.btq.personal_combat``; BtQ L1565-1621, ``rules/btq_missions.md``
§4 and its vectors TV-17 to TV-20, DECISIONS D11, D12), with scripted cards."""

import pytest

from rules.btq.personal_combat import (
    CombatError,
    fighter,
    range_band,
    weapon_pool,
    weather_modifier,
    weather_pool,
    wound,
)
from rules.engine import IllegalAction, get_engine, play_out, play_scenario
from rules.random import ScriptedSource, SeededSource

ENGINE = get_engine("btq_personal_combat")


def play(name):
    scenario = ENGINE.scenarios()[name]
    source = ScriptedSource(scenario.cards)
    state, events = play_scenario(ENGINE, scenario, source)
    assert source.cards_left == 0
    return state, events, ENGINE.outcome(state)


@pytest.mark.parametrize(("weapon", "feet", "band", "cards"), [
    ("musket", 60, "long", 2), ("pistol", 5, "point_blank", 4), ("pistol", 21, "long", 1),
    ("rifle", 300, "extreme", 1), ("rifle", 401, None, None), ("thrown_knife", 16, None, None),
])
def test_missions_tv17_range_bands(weapon, feet, band, cards):
    """missions TV-17: the band is the first whose distance is at least the range (A5)."""
    assert range_band(weapon, feet) == band
    if band:
        assert weapon_pool(weapon, band)[0] == cards


def test_missions_tv17_crackshot_and_out_of_range():
    """missions TV-17: a musket at 60 ft with Crackshot is 3 cards; a rifle beyond 400 ft
    cannot fire, and a fight set at such a distance is refused."""
    assert weapon_pool("musket", "long", {"Crackshot": 1}) == (3, [("Musket at Long range", 2),
                                                                  ("Crackshot", 1)])
    with pytest.raises(CombatError, match="out of range"):
        ENGINE.validate_setup({"fighters": [
            {"id": "pc:1", "name": "Jack", "weapons": ["rifle"]},
            {"id": "npc:2", "name": "Foe", "weapons": ["rifle"]}], "mode": "fire",
            "distance_ft": 401})
    with pytest.raises(CombatError, match="cannot be used"):
        weapon_pool("cutlass", "normal")


def test_missions_tv17_duel_at_21_feet_turns_one_card_and_duellist():
    scenario = ENGINE.scenarios()["pistols_at_21_feet"]
    setup = ENGINE.validate_setup(scenario.setup)
    assert setup["band"] == "long"
    state, _ = ENGINE.start(setup, SeededSource(3))
    decision = ENGINE.pending(state)[0]
    assert decision.actor == "pc:jack" and decision.options[0].label == "Pistol (2 cards)"


def test_missions_tv18_simultaneous_melee_damage():
    """missions TV-18: the PC's Critical Maims the NPC while the NPC's Ordinary Injures the
    PC, and the PC is the winner (more Criticals)."""
    state, events, outcome = play("simultaneous_wounds")
    assert outcome.winner == "pc:jack"
    assert outcome.data["fighters"]["npc:pirate"]["health"] == "maimed"
    assert outcome.data["fighters"]["pc:jack"]["health"] == "injured"
    draw = next(e for e in events if e.kind == "combat.draw")
    assert draw.data["card_of_fate"] == "7S"
    assert draw.data["pools"]["a"]["cards"] == ["7H", "2D", "3D", "4D"]


def test_missions_tv19_brawl_cannot_kill():
    """missions TV-19: an Injured NPC hit by a brawl's Critical ends Maimed and unconscious."""
    _, _, outcome = play("brawl_cannot_kill")
    bully = outcome.data["fighters"]["npc:bully"]
    assert (bully["health"], bully["unconscious"]) == ("maimed", True)


def test_missions_tv20_foe_busy_elsewhere_two_more_cards_and_no_damage_back():
    """missions TV-20: a cutlass against a foe busy with someone else turns 6 cards; the foe
    deals nothing back."""
    state, events, outcome = play("foe_busy_elsewhere")
    draw = next(e for e in events if e.kind == "combat.draw")
    assert len(draw.data["pools"]["a"]["cards"]) == 6 and "b" not in draw.data["pools"]
    assert outcome.data["fighters"]["pc:jack"]["health"] == "healthy"
    assert outcome.data["fighters"]["npc:marine"]["health"] == "injured"


def test_missions_tv20_coup_de_grace_no_test():
    """missions TV-20: a Maimed foe offering no defence dies with no card turned."""
    source = ScriptedSource("")
    scenario = ENGINE.scenarios()["coup_de_grace"]
    state, _ = ENGINE.start(ENGINE.validate_setup(scenario.setup), source)
    assert source.log == [] and ENGINE.pending(state) == []
    assert ENGINE.outcome(state).data["fighters"]["npc:marine"]["health"] == "dead"
    with pytest.raises(CombatError, match="Maimed or unconscious"):
        ENGINE.validate_setup({**scenario.setup, "fighters": [
            scenario.setup["fighters"][0], {**scenario.setup["fighters"][1],
                                            "health": "injured"}]})


def _f(**kw):
    return fighter({"id": "pc:1", "name": "Jack", "weapons": ["cutlass"], **kw})


def test_d12_is_but_a_scratch():
    """D12 (BtQ L1049-1050): the first wound taken while Healthy is one level lighter: an
    Ordinary is ignored, a Critical leaves Injured, a Perfect (the reading) Maimed; once."""
    jack = _f(traits={"Is But A Scratch, Sir!": 1})
    after, text = wound(jack, 1)
    assert after["health"] == "healthy" and "scratch" in text and not after["scratch"]
    assert wound(after, 1)[0]["health"] == "injured"  # spent
    assert wound(jack, 2)[0]["health"] == "injured"
    assert wound(jack, 3)[0]["health"] == "maimed"
    assert wound(_f(), 3)[0]["health"] == "dead"


def test_d11_cheat_death_only_from_injured_or_maimed():
    """D11 (BtQ L1086-1087): Cheat Death! negates a wound that takes an Injured or Maimed
    fighter to Dead, once per time taken; not a Perfect on a Healthy fighter."""
    jack = _f(traits={"Cheat Death!": 1}, health="injured")
    after, text = wound(jack, 2)
    assert after["health"] == "injured" and after["cheat_death"] == 0 and "cheats death" in text
    assert wound(after, 2)[0]["health"] == "dead"
    assert wound(_f(traits={"Cheat Death!": 1}), 3)[0]["health"] == "dead"


def test_maimed_fighter_tests_guts_first_hard_as_nails():
    """BtQ L1314-1316, L1052: a Maimed fighter passes a Guts test (+3 Hard as Nails) before
    he fights, then turns three cards fewer; failing it he turns none."""
    setup = {"fighters": [
        {"id": "pc:1", "name": "Jack", "weapons": ["cutlass", "sword"], "health": "maimed",
         "guts": 1, "traits": {"Hard as Nails": 1, "Strong Swordarm": 1}},
        {"id": "npc:2", "name": "Foe", "weapons": ["cutlass"]}], "mode": "melee"}
    source = ScriptedSource("2D  3C 4C 5C 2H   KS  QS 2C   3D 4D 5D 6D")
    state, _ = ENGINE.start(ENGINE.validate_setup(setup), source)
    state, _ = ENGINE.apply(state, "pc:1", "sword", source)
    state, events = ENGINE.apply(state, "gm", "cutlass", source)
    gate = next(e for e in events if e.kind == "combat.gate")
    assert gate.data["passed"] and len(gate.data["pools"]["a"]["cards"]) == 4
    draw = next(e for e in events if e.kind == "combat.draw")
    assert len(draw.data["pools"]["a"]["cards"]) == 2  # 4 + 1 - 3


def test_special_weapon_adds_its_card_with_its_weapon_only():
    """BtQ L1013: a special weapon "adds +1 to a combat test when using it": the
    Short-barrelled Carbine (+1 Musket tests, BtQ L2693) makes a musket at Long 2 + 1, with
    Crackshot 4, and adds nothing to a cutlass; the pool's breakdown names it."""
    carbine = [{"name": "Short-barrelled Carbine", "weapon": "musket", "cards": 1}]
    assert weapon_pool("musket", "long", {"Crackshot": 1}, carbine) == (
        4, [("Musket at Long range", 2), ("Crackshot", 1), ("Short-barrelled Carbine", 1)])
    assert weapon_pool("cutlass", "melee", {}, carbine) == (4, [("Cutlass", 4)])
    setup = {"fighters": [
        {"id": "pc:1", "name": "Jack", "weapons": ["cutlass", "musket"], "items": carbine},
        {"id": "npc:2", "name": "Foe", "weapons": ["musket"],
         "items": [{"name": "Ornate Swordstick", "weapon": "sword", "cards": 1}]}],
        "mode": "fire", "band": "long"}
    source = ScriptedSource("7S  7H 2D 3D  9S 2C")
    state, _ = ENGINE.start(ENGINE.validate_setup(setup), source)
    assert ENGINE.pending(state)[0].options[0].label == "Musket (3 cards)"
    state, _ = ENGINE.apply(state, "pc:1", "musket", source)
    state, events = ENGINE.apply(state, "gm", "musket", source)
    assert source.cards_left == 0
    draw = next(e for e in events if e.kind == "combat.draw")
    assert draw.data["pools"]["a"]["breakdown"] == {"Musket at Long range": 2,
                                                    "Short-barrelled Carbine": 1}
    assert len(draw.data["pools"]["a"]["cards"]) == 3
    assert len(draw.data["pools"]["b"]["cards"]) == 2  # the swordstick is not a musket
    # The NPC's items are the GM's: not in a player's view, nor his pool's make-up.
    view = ENGINE.view(state, "pc:1")
    assert view["fighters"][0]["items"] == carbine and "items" not in view["fighters"][1]
    assert "breakdown" not in draw.data["pools"]["b"]


def test_items_of_a_fighter_are_checked():
    """An item names a weapon of the fights and 1 or 2 cards; none leaves the key out (so
    a fighter without items is as before)."""
    assert "items" not in _f()
    for items, match in [("carbine", "must be a list"), ([{"name": "X"}], "a name, a weapon"),
                         ([{"name": "X", "weapon": "carbine", "cards": 1}], "unknown weapon"),
                         ([{"name": "X", "weapon": "musket", "cards": 3}], "cards of X")]:
        with pytest.raises(CombatError, match=match):
            _f(items=items)


def test_weather_static_modifier_and_opponent():
    """missions TV-07 and TV-08 (BtQ L1706-1707, L1716-1722)."""
    assert weather_modifier({"wind": "storm", "precipitation": "storm"}) == -4
    assert weather_pool({"wind": "storm", "precipitation": "blizzard"}) == 10
    assert weather_modifier({"wind": "no_wind", "precipitation": "mist"}) == 0


def test_players_decide_for_their_own_fighter_and_choices_stay_hidden():
    scenario = ENGINE.scenarios()["simultaneous_wounds"]
    state, _ = ENGINE.start(ENGINE.validate_setup(scenario.setup), SeededSource(1))
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, "gm", "cutlass", SeededSource(1))
    state, _ = ENGINE.apply(state, "pc:jack", "cutlass", SeededSource(1))
    assert ENGINE.view(state, "pc:jack")["weapons"] == {"pc:jack": "cutlass"}
    assert ENGINE.participants(state) == {"pc:jack": "Jack"}
    assert "traits" not in ENGINE.view(state, "pc:jack")["fighters"][1]


def test_every_scenario_plays_to_an_outcome_with_default_choices():
    for scenario in ENGINE.scenarios().values():
        state, _ = ENGINE.start(ENGINE.validate_setup(scenario.setup), SeededSource(7))
        state, _ = play_out(ENGINE, state, SeededSource(7))
        assert ENGINE.outcome(state) is not None


@pytest.mark.parametrize("seed", range(12))
def test_random_seeds_always_end(seed):
    setup = {"fighters": [
        {"id": "pc:1", "name": "Jack", "weapons": ["pistol", "brawl"],
         "health": ["healthy", "injured", "maimed"][seed % 3],
         "traits": {"Cheat Death!": 1, "Is But A Scratch, Sir!": 1}},
        {"id": "npc:2", "name": "Foe", "weapons": ["pistol"]}],
        "mode": ["fire", "shot", "unengaged"][seed % 3], "band": "normal",
        "weather": {"wind": "strong", "precipitation": "squall"}}
    state, _ = ENGINE.start(ENGINE.validate_setup(setup), SeededSource(seed))
    state, _ = play_out(ENGINE, state, SeededSource(seed), max_steps=10)
    assert ENGINE.outcome(state).result in ("won", "stalemate", "missed")
