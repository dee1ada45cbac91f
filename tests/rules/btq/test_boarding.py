"""The boarding action (``rules.btq.boarding``; BtQ L2512-2533, ``rules/btq_naval.md``
§4.14-4.16, N18-N21), with scripted cards: the Grand Melee, attacking the officers, command
casualties, the end-of-round Command test, surrender and Turning the Tide."""

import pytest

from rules.btq import boarding
from rules.engine import IllegalAction, get_engine, play_out
from rules.random import ScriptedSource, SeededSource

ENGINE = get_engine("btq_boarding")


def defended(**more):
    """The Condor (captain, Command 3; a crew of 2 cards) boards the London, defended by
    Anne (cutlass, Command 4)."""
    return {"attacker": "condor", "ships": {
        "london": {"name": "HMS London", "crew": "....|....|....", "officers": []},
        "condor": {"name": "Condor", "crew": "..|..|..", "crew_pool": 2, "officers": [
            {"id": "npc:black", "name": "Captain Black", "post": "captain", "command": 3,
             "weapons": ["cutlass"]}]}},
        "pcs": [{"id": "pc:anne", "name": "Anne", "ship": "london", "seniority": 2,
                 "command": 4, "weapons": ["cutlass"]}], **more}


def attacking():
    """Anne (cutlass, Command 2) leads the Hermes's boarders onto the Corsair, whose
    captain (Command 3) and gunner (Command 2) stand; the Corsair's crew turns 2 cards."""
    return {"attacker": "hermes", "ships": {
        "hermes": {"name": "Hermes", "crew": "..|..|..", "officers": []},
        "corsair": {"name": "Corsair", "crew": "..|..|..", "crew_pool": 2, "officers": [
            {"id": "npc:cap", "name": "the Corsair's captain", "post": "captain",
             "command": 3, "weapons": ["cutlass"]},
            {"id": "npc:gun", "name": "the Corsair's gunner", "post": "gunner", "command": 2,
             "weapons": ["axe"]}]}},
        "pcs": [{"id": "pc:anne", "name": "Anne", "ship": "hermes", "seniority": 1,
                 "command": 2, "weapons": ["cutlass"]}]}


def test_grand_melee_damage_goes_to_the_crews_not_the_pc():
    """BtQ L2517-2519: Anne's Critical is a Maimed-level hit on the Condor's Crew, the
    crew's Ordinary an Injured-level hit on the London's Crew; Anne is unhurt."""
    source = ScriptedSource("7S  7H 2D 3D 4D  9S 2C")
    state, _ = boarding.begin(defended())
    state, _ = boarding.apply(state, "pc:anne", "hold", source)
    assert boarding.pending(state)[0].options[0].key == "melee"
    state, events = boarding.apply(state, "pc:anne", "melee", ScriptedSource(
        "7S  7H 2D 3D 4D  9S 2C   8D  9D 2S 3S 4S 5S  2H 3H 4H"))
    report = boarding.report(state)
    assert report["crew"] == {"london": "x...|....|....", "condor": "..|x.|.."}
    assert report["fighters"]["pc:anne"]["health"] == "healthy"
    assert report["result"] == "continuing"


def test_a_pc_s_special_weapon_adds_its_card_in_the_grand_melee():
    """BtQ L1013: Anne's own cutlass (+1 with a cutlass) makes her pool 4 + 1, named in
    its breakdown; the card she turns more changes nothing else."""
    setup = defended()
    setup["pcs"][0]["items"] = [{"name": "Father's Cutlass", "weapon": "cutlass", "cards": 1}]
    state, _ = boarding.begin(setup)
    state, _ = boarding.apply(state, "pc:anne", "hold", SeededSource(1))
    source = ScriptedSource("7S  7H 2D 3D 4D 5D  9S 2C   8D  9D 2S 3S 4S 5S  2H 3H 4H")
    state, events = boarding.apply(state, "pc:anne", "melee", source)
    assert source.cards_left == 0
    melee = next(e for e in events if "pools" in e.data and "Cutlass" in str(e.data))
    assert melee.data["pools"]["a"]["breakdown"] == {"Cutlass": 4, "Father's Cutlass": 1}
    assert len(melee.data["pools"]["a"]["cards"]) == 5
    assert boarding.report(state)["crew"] == {"london": "x...|....|....", "condor": "..|x.|.."}


def test_a_pc_with_several_hand_to_hand_weapons_chooses_one():
    """The Grand Melee is a combat test of the fighter's weapon (BtQ L1572, L2517-2519):
    Anne, with a cutlass, knives and a pistol (no hand-to-hand weapon), is asked which she
    fights with, her cutlass (4 cards) by default; with the knives she turns 3 cards."""
    setup = defended()
    setup["pcs"][0]["weapons"] = ["knife", "cutlass", "pistol"]
    state, _ = boarding.begin(setup)
    state, _ = boarding.apply(state, "pc:anne", "hold", SeededSource(1))
    state, events = boarding.apply(state, "pc:anne", "melee", SeededSource(1))
    assert not [e for e in events if "pools" in e.data]  # no card before the weapon
    decision = boarding.pending(state)[0]
    assert (decision.actor, decision.kind) == ("pc:anne", "boarding.weapon")
    assert decision.prompt == "Which weapon does Anne fight with?"
    assert [(o.key, o.label) for o in decision.options] == [
        ("knife", "Knives (3 cards)"), ("cutlass", "Cutlass (4 cards)")]
    assert decision.default == "cutlass"
    with pytest.raises(IllegalAction):
        boarding.apply(state, "pc:anne", "pistol", SeededSource(1))
    state, events = boarding.apply(state, "pc:anne", "knife", SeededSource(1))
    assert events[0].text == "Anne fights with Knives (3 cards)."
    melee = next(e for e in events if "pools" in e.data)
    assert melee.data["pools"]["a"]["breakdown"] == {"Knives": 3}
    assert len(melee.data["pools"]["a"]["cards"]) == 3


def test_a_pc_with_one_hand_to_hand_weapon_is_not_asked():
    setup = defended()
    setup["pcs"][0]["weapons"] = ["pistol", "cutlass"]
    state, _ = boarding.begin(setup)
    state, _ = boarding.apply(state, "pc:anne", "hold", SeededSource(1))
    state, events = boarding.apply(state, "pc:anne", "melee", SeededSource(1))
    melee = next(e for e in events if "pools" in e.data)
    assert melee.data["pools"]["a"]["breakdown"] == {"Cutlass": 4}
    assert all(d.kind != "boarding.weapon" for d in boarding.pending(state))


def test_command_test_loser_fights_on_and_crosses_a_box_or_surrenders():
    """BtQ L2528-2530: the boarded ship's commander (Anne, 4 + 1 for her win) against the
    boarders' (Captain Black, 3); the Condor loses: the GM chooses; fighting on crosses off
    one box of her Crew (N19); surrendering ends the boarding."""
    state, _ = boarding.begin(defended())
    state, _ = boarding.apply(state, "pc:anne", "hold", SeededSource(1))
    state, events = boarding.apply(state, "pc:anne", "melee", ScriptedSource(
        "7S  7H 2D 3D 4D  9S 2C   8D  9D 2S 3S 4S 5S  2H 3H 4H"))
    command = [e for e in events if e.kind == "boarding.command"]
    assert command[0].data["pools"]["a"]["breakdown"] == {"Command": 4, "PCs who won": 1}
    decision = boarding.pending(state)[0]
    assert (decision.actor, decision.kind) == ("gm", "boarding.surrender")
    with pytest.raises(IllegalAction):
        boarding.apply(state, "pc:anne", "surrender", SeededSource(1))
    fought, _ = boarding.apply(state, "gm", "fight_on", SeededSource(1))
    assert boarding.report(fought)["crew"]["condor"] == "x.|x.|.."
    assert fought["round"] == 2
    gave_up, _ = boarding.apply(state, "gm", "surrender", SeededSource(1))
    report = boarding.report(gave_up)
    assert (report["result"], report["winner"], report["loser"]) == ("surrendered", "london",
                                                                     "condor")
    assert report["morale"]["condor"] == "injured"  # N18: the loser's Ship Morale


def test_attack_the_officers_two_rounds_and_the_captain_casualty():
    """BtQ L2519-2528: round 1, Anne fights through to the captain: her Critical does the
    Corsair's Crew no harm, the crew's Ordinary hurts the Hermes's Crew; round 2 the two fight
    one on one and the wounds are theirs: the captain is Maimed, so the gunner commands the
    Command test at -2 (his Command 2, so no card), and the Corsair strikes."""
    state, _ = boarding.begin(attacking())
    options = [o.key for o in boarding.pending(state)[0].options]
    assert options == ["melee", "officers:npc:cap", "officers:npc:gun", "firebrand"]
    state, events = boarding.apply(state, "pc:anne", "officers:npc:cap", ScriptedSource(
        "7S  7H 2D 3D 4D  9S 2C   8D  9D 2S 3S  2H 3H 4H"))
    report = boarding.report(state)
    assert report["crew"] == {"hermes": "x.|..|..", "corsair": "..|..|.."}
    assert boarding.pending(state)[0].actor == "pc:anne"  # her ship lost the Command test
    state, _ = boarding.apply(state, "pc:anne", "fight_on", SeededSource(1))
    assert boarding.report(state)["crew"]["hermes"] == "xx|..|.."
    decision = boarding.pending(state)[0]
    assert decision.default == "duel:npc:cap"
    state, events = boarding.apply(state, "pc:anne", "duel:npc:cap", ScriptedSource(
        "KS  KH 2D 3D 4D  QS 2C 3C 4C   5H  6H 2S 3S"))
    report = boarding.report(state)
    assert report["fighters"]["npc:cap"]["health"] == "maimed"
    assert report["fighters"]["pc:anne"]["health"] == "injured"
    assert report["crew"] == {"hermes": "xx|..|..", "corsair": "..|..|.."}
    assert report["casualties"] == [{"id": "npc:cap", "name": "the Corsair's captain",
                                     "ship": "corsair", "post": "captain",
                                     "health": "maimed"}]
    assert report["penalties"]["corsair"] == {"command": -2}
    command = next(e for e in events if e.kind == "boarding.command" and "pools" in e.data)
    assert command.gm_data["pools"]["a"]["breakdown"] == {"Command": 2,
                                                          "the Captain lost": -2}
    assert command.data["pools"]["a"]["cards"] == []
    state, _ = boarding.apply(state, "gm", "surrender", SeededSource(1))
    assert boarding.report(state)["result"] == "surrendered"


def test_gunner_and_master_casualties_penalise_their_tests():
    """BtQ L2526-2528: the gunner's loss -2 Broadside! and gun repair, the master's -2
    Positioning."""
    assert boarding.CASUALTY_PENALTIES["gunner"] == {"broadside": -2, "gun_repair": -2}
    assert boarding.CASUALTY_PENALTIES["master"] == {"positioning": -2}


def test_a_boarded_ship_whose_crew_is_dead_is_taken():
    """BtQ L2530-2531: the boarded ship loses the Command test and fights on: her last box
    is crossed off, her Crew is Dead, and she is taken."""
    setup = defended(pcs=[])
    setup["ships"]["london"] = {"name": "HMS London", "crew": "xx|xx|x.", "officers": [
        {"id": "npc:jones", "name": "Captain Jones", "post": "captain", "command": 2,
         "weapons": ["sword"]}]}
    state, _ = boarding.begin(setup)
    assert boarding.pending(state)[0].kind == "boarding.round"
    state, _ = boarding.apply(state, "gm", "go", ScriptedSource("8D  2S 3S  9D 2H 3H"))
    state, events = boarding.apply(state, "gm", "fight_on", SeededSource(1))
    report = boarding.report(state)
    assert (report["result"], report["winner"]) == ("taken", "condor")
    assert report["crew"]["london"] == "xx|xx|xx"
    assert ENGINE.outcome(state).result == "taken"


def test_turning_the_tide():
    """BtQ L2531-2533: the London's commander declares the drive; Anne wins her melee and
    the Command test: the tide turns and the Condor is the boarded ship, in addition to the
    round's damage."""
    state, _ = boarding.begin(defended())
    assert boarding.pending(state)[0].kind == "boarding.tide"
    state, events = boarding.apply(state, "pc:anne", "drive", SeededSource(1))
    state, events = boarding.apply(state, "pc:anne", "melee", ScriptedSource(
        "7S  7H 2D 3D 4D  9S 2C   8D  9D 2S 3S 4S 5S  2H 3H 4H"))
    assert state["attacker"] == "london"
    assert any(e.kind == "boarding.tide" and "turned" in e.text for e in events)
    assert boarding.report(state)["crew"]["condor"] == "..|x.|.."
    state, _ = boarding.apply(state, "gm", "fight_on", SeededSource(1))
    # the Condor is boarded now: nobody of hers defends, so no drive is offered; Anne may
    # go for her officers
    assert [o.key for o in boarding.pending(state)[0].options] == [
        "melee", "officers:npc:black", "firebrand"]


def test_no_tide_without_every_pc_winning():
    state, _ = boarding.begin(defended())
    state, _ = boarding.apply(state, "pc:anne", "drive", SeededSource(1))
    state, _ = boarding.apply(state, "pc:anne", "melee", ScriptedSource(
        "7S  2H 2D 3D 4D  9S 2C   8D  9D 2S 3S 4S  2H 3H 4H"))
    assert state["attacker"] == "condor"


def test_bad_sub_states_are_refused_with_a_reason():
    with pytest.raises(ValueError, match="two ships"):
        boarding.validate({"attacker": "a", "ships": {"a": {"name": "A"}}})
    bad = defended()
    bad["pcs"][0]["weapons"] = ["pistol"]
    with pytest.raises(ValueError, match="hand-to-hand"):
        boarding.validate(bad)


def test_player_view_hides_the_crews_pools_and_officers_statistics():
    state, _ = boarding.begin(defended())
    view = boarding.view(state, "pc:anne")
    assert "crew_pool" not in view["ships"]["condor"]
    assert "weapons" not in view["ships"]["condor"]["officers"][0]


def test_every_scenario_plays_to_an_outcome_with_default_choices():
    for scenario in ENGINE.scenarios().values():
        state, _ = ENGINE.start(ENGINE.validate_setup(scenario.setup), SeededSource(5))
        state, _ = play_out(ENGINE, state, SeededSource(5))
        assert ENGINE.outcome(state).result in ("taken", "repelled", "surrendered")


@pytest.mark.parametrize("seed", range(10))
def test_random_seeds_always_end(seed):
    setup = attacking() if seed % 2 else defended()
    state, _ = ENGINE.start(ENGINE.validate_setup(setup), SeededSource(seed))
    state, _ = play_out(ENGINE, state, SeededSource(seed), max_steps=400)
    assert ENGINE.outcome(state) is not None


def test_setting_boarding_crew_loss_by_severity():
    """N19's option: under ``boarding_crew_loss = "severity"`` the loser who fights on
    takes a hit of the winner's best success (here Anne's Ordinary: the same one box), and
    with a Critical a Maimed-level hit."""
    state, _ = boarding.begin(defended(settings={"boarding_crew_loss": "severity"}))
    state, _ = boarding.apply(state, "pc:anne", "hold", SeededSource(1))
    state, _ = boarding.apply(state, "pc:anne", "melee", ScriptedSource(
        "7S  7H 2D 3D 4D  9S 2C   8D  8H 2S 3S 4S 5S  2H 3H 4H"))
    state, _ = boarding.apply(state, "gm", "fight_on", SeededSource(1))
    assert boarding.report(state)["crew"]["condor"] == "..|xx|.."


def test_an_enemy_s_ship_morale_is_the_gm_s_in_the_view_and_the_events():
    """As in the ship battle, a player never learns an enemy's Ship Morale: the Condor,
    without a PC aboard, is an enemy; the London, Anne's, is the players'. Her morale is in
    the GM's view, not Anne's; taken, her fall is an event for the GM alone. A side given
    in the setup wins over the PCs aboard (a consort of the players' with none aboard)."""
    setup = defended()
    setup["ships"]["condor"]["crew"] = "xx|xx|xx"
    setup["attacker"] = "london"
    state, events = boarding.begin(setup)
    assert boarding.report(state)["result"] == "taken"
    assert "morale" not in boarding.view(state, "pc:anne")["ships"]["condor"]
    assert boarding.view(state, "pc:anne")["ships"]["london"]["morale"] == "healthy"
    assert boarding.view(state, "gm")["ships"]["condor"]["morale"] == "injured"
    [fall] = [e for e in events if e.kind == "boarding.morale"]
    assert fall.text == "The Condor's Ship Morale goes from Healthy to Injured."
    assert not fall.visible("pc:anne") and fall.visible("gm")
    assert "Morale" not in " ".join(e.text for e in events if e.visible("pc:anne"))
    setup["ships"]["condor"]["side"] = "pc"
    state, events = boarding.begin(setup)
    assert boarding.view(state, "pc:anne")["ships"]["condor"]["morale"] == "injured"
    assert [e.visible("pc:anne") for e in events if e.kind == "boarding.morale"] == [True]
    setup["ships"]["condor"]["side"] = "pirate"
    with pytest.raises(ValueError, match="side must be pc or enemy"):
        boarding.validate(setup)


def test_the_naval_engine_s_boarding_is_fought_from_its_state():
    """naval TV-N11 (BtQ L2512-2515): the book's Condor closes to Distance 0 and attacks;
    the battle embeds the boarding sub-state built from its own state
    (:func:`boarding.from_naval`): the two ships' Crew tracks and their crews' Command
    (N23); the battle is fought on through it to its end, the loser taken or struck."""
    from rules.engine import play_scenario
    from rules.random import ScriptedSource as Scripted

    naval = get_engine("btq_naval")
    scenario = naval.scenarios()["condor_boards_london"]
    state, _ = play_scenario(naval, scenario, Scripted(scenario.cards))
    assert naval.outcome(state) is None
    sub = state["boarding"]["state"]
    assert (state["boarding"]["attacker"], sub["attacker"]) == ("condor", "condor")
    assert sub["ships"]["condor"]["command"] == 3 and sub["ships"]["london"]["command"] == 0
    assert sub["ships"]["london"]["crew"] == state["ships"]["london"]["tracks"]["crew"]
    built = boarding.from_naval(state, attacker="condor", defender="london")
    assert boarding.validate(built)["ships"] == sub["setup"]["ships"]
    state, _ = play_out(naval, state, SeededSource(2), max_steps=500)
    outcome = naval.outcome(state)
    assert outcome.result in ("taken", "struck")
    assert outcome.data["boardings"][0]["result"] in ("taken", "repelled", "surrendered")
    # the boarding's report keeps both ships' Ship Morale: the Condor's is the GM's
    assert set(outcome.data["boardings"][0]["morale"]) == {"condor", "london"}
    assert set(naval.view(state, "pc:otoole")["boardings"][0]["morale"]) == {"london"}


def firebrand_round(cards, skills=None):
    """Anne (Engineering 2) hurls firebrands at the Condor in round 1; then the Command
    test (Anne 4 + 1 or - 1, Captain Black 3)."""
    pcs_skills = {"engineering": 2} if skills is None else skills
    setup = defended()
    setup["pcs"][0]["skills"] = pcs_skills
    state, _ = boarding.begin(setup)
    state, _ = boarding.apply(state, "pc:anne", "hold", SeededSource(1))
    action = boarding.pending(state)[0]
    assert action.options[-1].key == "firebrand" and action.default == "melee"
    return boarding.apply(state, "pc:anne", "firebrand", ScriptedSource(cards))


def test_firebrand_critical_on_the_rigging_sets_the_enemy_on_fire():
    """BtQ L2663-2664 ("Use firebrands, grenades, burning torches etc. - this can only be
    done at Distance 0. If you score a Critical or Perfect Success on the Rigging or the
    Hull, the ship is on FIRE"); N16: Anne's Engineering (2 cards) against a Routine pool
    (3 cards): her 9C against the Card of Fate 9H is a Critical of Clubs, the Rigging."""
    state, events = firebrand_round("9H  9C 2D  2S 3S 4S   8D  9D 2S 3S 4S 5S  2H 3H 4H")
    draw = next(e for e in events if e.kind == "boarding.draw")
    assert draw.data["card_of_fate"] == "9H" and draw.data["pools"]["a"]["cards"] == ["9C", "2D"]
    fire = next(e for e in events if e.kind == "boarding.fire")
    assert fire.data["ship"] == "condor" and "Rigging" in fire.text
    assert boarding.report(state)["fire"] == {"condor": 1}
    # she won her action: +1 to her side's Command test
    command = next(e for e in events if e.kind == "boarding.command")
    assert command.data["pools"]["a"]["breakdown"] == {"Command": 4, "PCs who won": 1}
    # and nothing is done to either Crew by a firebrand
    assert boarding.report(state)["crew"] == {"london": "....|....|....", "condor": "..|..|.."}


def test_firebrand_perfect_on_the_hull_sets_fire_but_the_crew_and_ordinary_do_not():
    """A Perfect of Spades (the Hull) sets a fire; a Critical of Hearts (the Crew) does not,
    nor an Ordinary of Clubs (BtQ L2663-2664: only a Critical or Perfect, only Rigging or
    Hull)."""
    state, _ = firebrand_round("9S  9S 2D  2H 3H 4H   8D  9D 2S 3S 4S 5S  2H 3H 4H")
    assert boarding.report(state)["fire"] == {"condor": 1}
    for cards in ("9S  9H 2D  2C 3C 4C   8D  9D 2S 3S 4S 5S  2H 3H 4H",
                  "9C  KC 2D  2H 3H 4H   8D  9D 2S 3S 4S 5S  2H 3H 4H"):
        state, events = firebrand_round(cards)
        assert boarding.report(state)["fire"] == {}
        assert any(e.kind == "boarding.fire" and e.data["ship"] is None for e in events)


def test_firebrand_lost_to_the_routine_pool_sets_nothing_alight():
    """N16: the Routine pool's two Criticals beat Anne's one (D2): no fire, and she lost her
    action (-1 to her side's Command test)."""
    state, events = firebrand_round("9H  9C 2D  9D 9S 4S   8D  9D 2S 3S  2H 3H 4H")
    assert boarding.report(state)["fire"] == {}
    command = next(e for e in events if e.kind == "boarding.command")
    assert command.data["pools"]["a"]["breakdown"] == {"Command": 4, "PCs who lost": -1}


def test_firebrand_without_the_skills_turns_one_card():
    """With none of Engineering, Gunnery or Soldiering, Anne turns a single card
    (BtQ L1266-1269), whose success counts as Ordinary at best: no fire."""
    state, events = firebrand_round("9H  9C  2S 3S 4S   8D  9D 2S 3S 4S 5S  2H 3H 4H",
                                    skills={})
    draw = next(e for e in events if e.kind == "boarding.draw")
    assert draw.data["pools"]["a"]["cards"] == ["9C"]
    assert boarding.report(state)["fire"] == {}


def test_a_commander_without_command_leaves_the_command_test_to_his_crew():
    """BtQ L2360-2362: Anne, in command of the London, has no Command; her crew's Command 2
    makes the end-of-round test (2 + 1 for her win, from the GM deck)."""
    setup = defended()
    setup["pcs"][0]["command"] = 0
    setup["ships"]["london"]["command"] = 2
    state, _ = boarding.begin(setup)
    state, _ = boarding.apply(state, "pc:anne", "hold", SeededSource(1))
    state, events = boarding.apply(state, "pc:anne", "melee", ScriptedSource(
        "7S  7H 2D 3D 4D  9S 2C   8D  9D 2S 3S  2H 3H 4H"))
    command = next(e for e in events if e.kind == "boarding.command")
    assert command.data["pools"]["a"]["breakdown"] == {"Command": 2, "PCs who won": 1}
    assert command.data["pools"]["a"]["cards"] == ["9D", "2S", "3S"]


def test_a_commander_without_command_and_a_crew_without_turns_one_card():
    """BtQ L1266-1269: with no Command, and no crew's Command to leave it to, Anne can
    overturn a single card for the end-of-round test, to which her win adds nothing."""
    setup = defended()
    setup["pcs"][0]["command"] = 0
    state, _ = boarding.begin(setup)
    state, _ = boarding.apply(state, "pc:anne", "hold", SeededSource(1))
    state, events = boarding.apply(state, "pc:anne", "melee", ScriptedSource(
        "7S  7H 2D 3D 4D  9S 2C   8D  9D  2H 3H 4H"))
    command = next(e for e in events if e.kind == "boarding.command")
    assert command.data["pools"]["a"]["cards"] == ["9D"]
    assert "PCs who won" not in command.data["pools"]["a"]["breakdown"]


def test_firebrand_reading_any_critical_of_clubs_or_spades():
    """The setting ``firebrand_fire``: Anne's best success is the 9H's Perfect (the Crew),
    her 9C a Critical of Clubs. The digest's reading (the best success's suit, N16) sets
    nothing alight; the other ("a Critical or Perfect Success on the Rigging or the Hull"
    among her cards, BtQ L2663-2664) sets the Condor on fire."""
    cards = "9H  9H 9C  2S 3S 4S   8D  9D 2S 3S 4S 5S  2H 3H 4H"
    state, _ = firebrand_round(cards)
    assert boarding.report(state)["fire"] == {}
    setup = defended(settings={"firebrand_fire": "any"})
    setup["pcs"][0]["skills"] = {"engineering": 2}
    state, _ = boarding.begin(setup)
    state, _ = boarding.apply(state, "pc:anne", "hold", SeededSource(1))
    state, _ = boarding.apply(state, "pc:anne", "firebrand", ScriptedSource(cards))
    assert boarding.report(state)["fire"] == {"condor": 1}


def test_a_ship_boarded_with_her_crew_dead_is_taken_at_once():
    """BtQ L2530-2531 ("If the Crew is Dead, the ship is taken"): the Corsair's crew is Dead
    before the boarding begins: she is taken as her boarders swing over, no card is turned,
    no PC is asked anything and the Hermes's Crew is untouched."""
    setup = attacking()
    setup["ships"]["corsair"]["crew"] = "xx|xx|xx"
    state, events = boarding.begin(setup)
    assert boarding.pending(state) == []
    report = boarding.report(state)
    assert (report["result"], report["winner"], report["loser"]) == ("taken", "hermes",
                                                                     "corsair")
    assert report["crew"]["hermes"] == "..|..|.."
    assert not [e for e in events if e.kind in ("boarding.draw", "boarding.crew")]
    [end] = [e for e in events if e.kind == "boarding.end"]
    assert "taken" in end.text and "repels boarders" not in " ".join(e.text for e in events)
    assert ENGINE.outcome(state).result == "taken"


def test_a_ship_whose_crew_is_dead_cannot_board():
    """A boarding party is her crew swinging over (BtQ L2512-2515): a ship whose Crew is
    Dead has none; refused with the reason."""
    setup = attacking()
    setup["ships"]["hermes"]["crew"] = "xx|xx|xx"
    with pytest.raises(ValueError, match="Dead"):
        boarding.validate(setup)


def test_a_crew_killed_in_the_grand_melee_fights_no_more_that_round():
    """BtQ L2530-2531: Anne's Critical crosses the Corsair's last Crew box: she is taken
    there and then; Bob's melee against her dead crew is not fought (no card more is
    turned, so the dead crew hurts no boarder) and no Command test follows."""
    setup = attacking()
    setup["ships"]["corsair"]["crew"] = "xx|xx|x."
    setup["pcs"].append({"id": "pc:bob", "name": "Bob", "ship": "hermes", "seniority": 0,
                         "command": 1, "weapons": ["cutlass"]})
    state, _ = boarding.begin(setup)
    state, _ = boarding.apply(state, "pc:anne", "melee", SeededSource(1))
    state, events = boarding.apply(state, "pc:bob", "melee",
                                   ScriptedSource("7S  7H 2D 3D 4D  9S 2C"))
    report = boarding.report(state)
    assert report["crew"]["corsair"] == "xx|xx|xx"
    assert (report["result"], report["winner"]) == ("taken", "hermes")
    assert not [e for e in events if e.kind == "boarding.command"]
    assert not [e for e in events if "Bob" in e.text and e.kind == "boarding.draw"]
