"""Character creation through the kernel (``rules.btq.creation``, ``rules.btq.ship_creation``):
the worked examples TV-01 to TV-09 of ``rules/btq_characters.md`` with the book's cards, each
named by its id, and the validation of §2.10."""

import json

import pytest

from rules.btq.creation import (
    ENGINE,
    STEP_KEYS,
    booty_meaning,
    experience_gain,
    rating_warnings,
)
from rules.btq.settings import resolve
from rules.btq.ship_creation import ENGINE as SHIP_ENGINE
from rules.btq.ship_creation import crew_member
from rules.cards import parse_card
from rules.engine import GM, FieldErrors, IllegalAction, play_scenario
from rules.random import ScriptedSource, SeededSource

PLAYER = "player:andrew"


def otoole():
    return ENGINE.scenarios()["otoole"]


def steps(upto_kind, *, skip=()):
    """The O'Toole scenario's choices up to (not including) the first of kind
    ``upto_kind``, leaving out the kinds in ``skip``."""
    out = []
    for choice in otoole().choices:
        if choice["kind"] == upto_kind:
            break
        if choice["kind"] not in skip:
            out.append(choice)
    return out


def choice_of(kind, n=1):
    """The ``n``th choice of ``kind`` in the O'Toole scenario, as a dict."""
    found = [c for c in otoole().choices if c["kind"] == kind][n - 1]
    return json.loads(found["choice"]) if found["choice"].startswith("{") else found["choice"]


def as_position(position, choices):
    """The O'Toole choices for another position (the rank's Profession left out where the
    bundle has none)."""
    out = []
    for c in choices:
        if c["kind"] == "creation.concept":
            c = {**c, "choice": c["choice"].replace("wardroom_officer", position)}
        if c["kind"] == "creation.training" and position not in ("wardroom_officer",
                                                                 "petty_officer"):
            values = json.loads(c["choice"])
            values.pop("bundle_profession")
            c = {**c, "choice": json.dumps(values)}
        out.append(c)
    return out


class Draft:
    """A draft played step by step with the book's cards."""

    def __init__(self, cards=None, **setup):
        self.source = ScriptedSource(otoole().cards if cards is None else cards,
                                     then=SeededSource(3))
        self.state, self.events = ENGINE.start(
            ENGINE.validate_setup({**otoole().setup, **setup}), self.source)

    def play(self, choices):
        for c in choices:
            self.do(c["kind"], c["choice"], actor=c["actor"])
        return self

    def do(self, kind, choice, *, actor=PLAYER):
        waiting = [(d.actor, d.kind) for d in ENGINE.pending(self.state)]
        assert (actor, kind) in waiting, f"{kind} is not awaited: {waiting}"
        text = choice if isinstance(choice, str) else json.dumps(choice)
        self.state, new = ENGINE.apply(self.state, actor, text, self.source)
        self.events += new
        return new

    @property
    def sheet(self):
        return self.state["sheet"]

    def kinds(self):
        return [(d.actor, d.kind) for d in ENGINE.pending(self.state)]


def rep_names(sheet):
    return {(r["kind"][0].upper(), f"{r['descriptor']} {r['subject']}", r["value"])
            for r in sheet["reputations"]}


BOOK_SKILLS_TV06 = {"awareness": 2, "command": 2, "diplomacy": 1, "gambling": 1,
                    "maritime": 4, "purser": 2, "scavenge": 1, "seamanship": 4,
                    "skullduggery": 3}


# --- TV-01 ------------------------------------------------------------------------------------


def test_tv01_fisherman_allocation_rule_correct_variant_a():
    """TV-01 (a): the Fisherman's 4 Measure points and 6 skill points on class skills."""
    draft = Draft().play(steps("creation.override"))
    sheet = draft.sheet
    assert sheet["measures"] == {"guts": 2, "discipline": 2, "influence": 2, "charm": 2}
    assert sheet["skills"] == {"awareness": 1, "maritime": 2, "seamanship": 1}
    assert sheet["professions"] == {"Fisherman": 2}
    assert sheet["wealth"] == 0


def test_tv01_the_books_printed_allocation_is_refused_per_field():
    """TV-01 BOOK-INCONSISTENT: Charm 3 spends 5 Measure points where a Fisherman has 4; the
    rules refuse it, naming the field, and nothing changes."""
    draft = Draft().play(steps("creation.allocation"))
    before = draft.state
    printed = {**choice_of("creation.allocation"), "m_charm": 2}
    with pytest.raises(FieldErrors) as refused:
        draft.do("creation.allocation", printed)
    assert "exactly 4 Measure points; these make 5" in refused.value.errors["m_guts"]
    assert draft.state is before


def test_tv01_book_replay_by_the_gms_marked_override():
    """TV-01 (b): the book's numbers reached by a marked manual override of the GM."""
    draft = Draft().play(steps("creation.life_count"))
    assert draft.sheet["measures"]["charm"] == 3
    assert draft.sheet["overridden"]["measure:charm"]["reason"].startswith("As the book")
    override = [e for e in draft.events if e.kind == "creation.override"]
    assert override and "it was 2" in override[0].text


def test_a_gms_override_above_the_books_scale_is_taken_with_a_warning():
    """The GM may set Awareness 11 by hand (the book sets no maximum, BtQ L171), and the
    override's entry says it is above 6, the top of the book's scale (BtQ L177)."""
    draft = Draft().play(steps("creation.override"))
    draft.do("creation.override", {"target": "skill:awareness", "value": 11,
                                   "reason": "a sharp-eyed lookout"}, actor=GM)
    assert draft.sheet["skills"]["awareness"] == 11
    text = [e for e in draft.events if e.kind == "creation.override"][-1].text
    assert "Awareness 11 is above 6, the top of the book's scale" in text


def test_rating_warnings_name_each_measure_and_skill_above_six_only():
    assert rating_warnings({"guts": 6, "charm": 7}, {"awareness": 11, "gunnery": 6}) == [
        "Charm 7 is above 6, the top of the book's scale (a real area of expertise): no "
        "character of the book starts so high. Check it is meant.",
        "Awareness 11 is above 6, the top of the book's scale (a real area of expertise): no "
        "character of the book starts so high. Check it is meant."]
    assert rating_warnings({"guts": 6}, {}) == []


# --- TV-02 ------------------------------------------------------------------------------------


def test_tv02_life_before_recruitment_two_experiences():
    """TV-02: KD and 3D for experience, 10S and 2D for booty, Experiences of Life."""
    draft = Draft().play(steps("creation.ship"))
    sheet = draft.sheet
    assert sheet["measures"] == {"guts": 3, "discipline": 2, "influence": 2, "charm": 3}
    assert sheet["wealth"] == 1
    assert sheet["skills"] == {"awareness": 1, "maritime": 2, "seamanship": 2,
                               "skullduggery": 1}
    assert sheet["professions"] == {"Fisherman": 2}
    assert rep_names(sheet) == {("P", "Distrusted by Captain Jones", 1),
                                ("I", "Trusted by New Orleans Fisherman", 1)}
    draws = [e for e in draft.events if e.kind == "creation.draw"]
    assert [e.data["cards"] for e in draws] == [["KD", "10S"], ["3D", "2D"]]
    assert "K♦" in draws[0].text and "10♠" in draws[0].text


def test_tv02_experience_points_may_go_to_any_skill_but_class_points_may_not():
    """TV-02: Skullduggery is no Fisherman skill, yet an experience may raise it; the class's
    own points cannot buy it (§2.10)."""
    draft = Draft().play(steps("creation.allocation"))
    with pytest.raises(FieldErrors) as refused:
        draft.do("creation.allocation", {**choice_of("creation.allocation"),
                                         "s_skullduggery": 1})
    assert "'s_skullduggery' is not a field" in refused.value.errors["s_skullduggery"]


# --- TV-03 and TV-04 (the ship, as a group) ---------------------------------------------------


def test_tv03_ship_origin_and_npc_crew():
    """TV-03: a Club for the origin (a captured prize, the Hermes); 3C KH 8D 7C JD 3S for the
    crew: key skills 4/2/6 by rank class, other skills key-2 at least 1, disposition by
    suit (Clubs disinclined)."""
    scenario = SHIP_ENGINE.scenarios()["hermes"]
    state, events = play_scenario(SHIP_ENGINE, scenario, ScriptedSource(scenario.cards))
    ship = SHIP_ENGINE.outcome(state).data["ship"]
    assert ship["origin"].startswith("A captured French or Spanish prize")
    assert ship["superstition"].startswith("Every calm is blamed")
    table = [(m["position"], m["card"], m["key"], m["other"], m["disposition"].split()[0])
             for m in ship["crew"]]
    assert table == [
        ("Purser", "3C", 4, 2, "disinclined"),
        ("Marine", "KH", 2, 1, "an"),
        ("Gunner", "8D", 4, 2, "favourably"),
        ("Boatswain", "7C", 4, 2, "disinclined"),
        ("Rating", "JD", 2, 1, "favourably"),
        ("Rating", "3S", 4, 2, "a"),
    ]
    assert ship["crew"][1]["feature"] == "Well Connected in Port Royal"
    assert ship["crew"][5]["feature"] == "Drunk"
    assert crew_member("Gunner", parse_card("AS"))["key"] == 6


def test_tv03_a_joker_is_any_crew_result_and_an_origin_joker_is_turned_again():
    """TV-03 with Jokers (D5): the crew's Joker is chosen; the origin table has no Joker row."""
    setup = {"ship_type": "Cutter", "players": {PLAYER: "Andrew"}, "positions": ["Gunner"]}
    source = ScriptedSource("JK 9H JK")
    state, _ = SHIP_ENGINE.start(setup, source)
    state, events = SHIP_ENGINE.apply(state, PLAYER, "draw", source)
    assert [e.data.get("card") for e in events] == ["JK", "9H"]
    assert state["record"]["origin"]["suit"] == "H"
    state, _ = SHIP_ENGINE.apply(state, PLAYER, json.dumps({"name": "Fox", "guns": 10}),
                                 source)
    state, _ = SHIP_ENGINE.apply(state, PLAYER, "draw", source)
    assert [d.kind for d in SHIP_ENGINE.pending(state)] == ["ship.crew_joker"]
    state, _ = SHIP_ENGINE.apply(state, PLAYER, json.dumps(
        {"competence": "exceptional", "suit": "D"}), source)
    assert state["record"]["crew"][0]["key"] == 6


def test_tv04_ship_reputations_total_five_and_one_trait_unrated():
    """TV-04: Feared by French Couriers +1, Feared by Smugglers +2, Sworn enemy of Black Bill
    Forsyth +2 = 5; an un-rated ship takes one trait, Expertly Coppered Hull."""
    scenario = SHIP_ENGINE.scenarios()["hermes"]
    state, _ = play_scenario(SHIP_ENGINE, scenario, ScriptedSource(scenario.cards))
    ship = SHIP_ENGINE.outcome(state).data["ship"]
    assert sum(r["value"] for r in ship["reputations"]) == 5
    assert ship["traits"] == ["Expertly Coppered Hull"]
    traits_decision = SHIP_ENGINE.pending({**state, "status": "drafting", "record": {
        **state["record"], "traits": None}})[0]
    assert [f.name for f in traits_decision.fields] == ["trait_1", "wily_skill"]


def hermes_at_her_traits():
    """The book's Hermes (TV-03, TV-04) up to her traits; the state and the source."""
    scenario = SHIP_ENGINE.scenarios()["hermes"]
    source = ScriptedSource(scenario.cards)
    state, _ = SHIP_ENGINE.start(scenario.setup, source)
    for c in scenario.choices[:-2]:
        state, _ = SHIP_ENGINE.apply(state, c["actor"], c["choice"], source)
    assert SHIP_ENGINE.pending(state)[0].kind == "ship.traits"
    return state, source


def test_wily_sea_dogs_raises_the_crew_skill_the_players_name():
    # BtQ L2345-2346: "+1 to the skill of one of your ship's officers or crew"; the crew's
    # Gunnery is the Gunner's 4 (TV-03), 5 with the trait, as the book's Intrepid prints
    # hers with it (L2831-2857).
    state, source = hermes_at_her_traits()
    state, events = SHIP_ENGINE.apply(state, PLAYER, json.dumps(
        {"trait_1": "Wily Sea Dogs", "wily_skill": "gunnery"}), source)
    assert events[0].text == "Ship trait: Wily Sea Dogs (Gunnery)."
    state, _ = SHIP_ENGINE.apply(state, GM, json.dumps({"verdict": "approve"}), source)
    ship = SHIP_ENGINE.outcome(state).data["ship"]
    assert ship["traits"] == ["Wily Sea Dogs (Gunnery)"]
    assert ship["crew_skills"]["gunnery"] == 5
    plain = play_scenario(SHIP_ENGINE, SHIP_ENGINE.scenarios()["hermes"], ScriptedSource(
        SHIP_ENGINE.scenarios()["hermes"].cards))[0]
    assert {k: v for k, v in ship["crew_skills"].items() if k != "gunnery"} == {
        k: v for k, v in SHIP_ENGINE.outcome(plain).data["ship"]["crew_skills"].items()
        if k != "gunnery"}
    assert SHIP_ENGINE.outcome(plain).data["ship"]["crew_skills"]["gunnery"] == 4


@pytest.mark.parametrize("choice, message", [
    ({"trait_1": "Wily Sea Dogs"}, "Name the crew's skill Wily Sea Dogs raises."),
    ({"trait_1": "Weatherly", "wily_skill": "gunnery"},
     "Only a ship with Wily Sea Dogs raises a crew's skill."),
])
def test_wily_sea_dogs_and_its_skill_go_together(choice, message):
    state, source = hermes_at_her_traits()
    with pytest.raises(FieldErrors) as refused:
        SHIP_ENGINE.apply(state, PLAYER, json.dumps(choice), source)
    assert refused.value.errors == {"wily_skill": message}


def test_tv04_ship_reputations_of_other_than_five_points_are_refused():
    scenario = SHIP_ENGINE.scenarios()["hermes"]
    source = ScriptedSource(scenario.cards)
    state, _ = SHIP_ENGINE.start(scenario.setup, source)
    for c in scenario.choices[:4]:
        state, _ = SHIP_ENGINE.apply(state, c["actor"], c["choice"], source)
    with pytest.raises(FieldErrors) as refused:
        SHIP_ENGINE.apply(state, PLAYER, json.dumps(
            {"rep1_kind": "institution", "rep1_descriptor": "Feared by",
             "rep1_subject": "Smugglers", "rep1_value": 4}), source)
    assert "these make 4" in refused.value.errors["rep1_value"]


# --- TV-05 ------------------------------------------------------------------------------------


def test_tv05_recruitment_and_training_sailor_and_ward_room_warrant_officer():
    """TV-05: Sailor, Ship's Master (Ward Room WO), Profession Mapmaker, free points to
    Command and Skullduggery."""
    draft = Draft().play(otoole().choices[:11])
    sheet = draft.sheet
    assert sheet["measures"] == {"guts": 4, "discipline": 2, "influence": 3, "charm": 3}
    assert sheet["wealth"] == 1
    assert sheet["skills"] == {"awareness": 1, "command": 2, "diplomacy": 1, "maritime": 4,
                               "purser": 1, "scavenge": 1, "seamanship": 4, "skullduggery": 2}
    assert sheet["professions"] == {"Fisherman": 2, "Mapmaker": 1}
    assert ("I", "Respected by the Ward Room", 1) in rep_names(sheet)
    assert ("I", "Trusted by the Hermes", 1) in rep_names(sheet)


def test_tv05_free_skills_must_differ_and_a_landsman_may_not_take_seamanship():
    draft = Draft().play(steps("creation.training"))
    with pytest.raises(FieldErrors) as refused:
        draft.do("creation.training", {**choice_of("creation.training"), "free_2": "command"})
    assert "different skill" in refused.value.errors["free_2"]
    landsman = Draft().play(as_position("landsman", steps("creation.training")))
    decision = ENGINE.pending(landsman.state)[0]
    free = next(f for f in decision.fields if f.name == "free_1")
    assert "seamanship" not in {o.key for o in free.options}
    assert [f.name for f in decision.fields].count("measure_1") == 1


# --- TV-06 ------------------------------------------------------------------------------------


def test_tv06_naval_experiences_three_with_kh_turned_twice():
    """TV-06: AH/10C, 8C/2D, KH/KH (the deck is whole again for every card); Experience of
    the Sea to the Ward Room, Skullduggery and Gambling; two +1s combined into Friend of
    Captain Turner +2."""
    draft = Draft().play(steps("creation.trait"))
    sheet = draft.sheet
    assert sheet["measures"] == {"guts": 4, "discipline": 3, "influence": 4, "charm": 3}
    assert sheet["wealth"] == 2  # the rank's +1 comes at Step 8 (TV-08)
    assert sheet["skills"] == BOOK_SKILLS_TV06
    assert sum(sheet["skills"].values()) + sum(sheet["professions"].values()) == 23
    assert sheet["items"] == [{"kind": "curio", "name": "Reef Map of the West Indies",
                               "bonus": 1, "for": "Seamanship",
                               "when": "navigating the West Indies"}]
    assert rep_names(sheet) == {
        ("P", "Distrusted by Captain Jones", 1), ("P", "Friend of Captain Turner", 2),
        ("I", "Trusted by New Orleans Fisherman", 1), ("I", "Respected by the Ward Room", 2),
        ("I", "Trusted by the Hermes", 1)}
    draws = [e.data["cards"] for e in draft.events if e.kind == "creation.draw"]
    assert draws[2:] == [["AH", "10C"], ["8C", "2D"], ["KH", "KH"]]


def test_tv06_any_measure_on_a_face_card_not_appendix_ii():
    """TV-06 note: KH may give Influence (the main rule), which Appendix II would not."""
    assert experience_gain(parse_card("KH")) == (False, True)
    assert experience_gain(parse_card("AH")) == (True, True)
    assert experience_gain(parse_card("8C")) == (True, False)


def test_a_joker_experience_card_counts_as_an_ace_and_a_booty_joker_chooses_a_row():
    """D5: the experience Joker is an Ace (+1 Measure and +1 skill); the booty Joker any row."""
    assert experience_gain(parse_card("JK")) == (True, True)
    draft = Draft(cards="JK JK").play(steps("creation.draw"))
    draft.do("creation.draw", "draw")
    assert draft.kinds()[0] == (PLAYER, "creation.booty_joker")
    draft.do("creation.booty_joker", "Dace")
    decision = ENGINE.pending(draft.state)[0]
    assert {"skill", "measure", "booty", "booty_skill"} <= {f.name for f in decision.fields}
    draft.do("creation.experience", {"skill": "gunnery", "measure": "guts", "booty": "skill",
                                     "booty_skill": "command", "point": "measure",
                                     "point_measure": "charm"})
    assert draft.sheet["skills"]["command"] == 3
    assert draft.sheet["skills"]["gunnery"] == 1


@pytest.mark.parametrize("setting", ["one_skill", "split"])
def test_setting_booty_skill_points(setting):
    """btq_characters A19: a Diamond Ace's 3 points are "added to a Skill" (BtQ L490, L977),
    all to one by default; under ``booty_skill_points = "split"`` the player may name a
    skill for each point after the first (left blank, it goes to the first point's)."""
    draft = Draft(cards="JK JK", settings={"booty_skill_points": setting})
    draft.play(steps("creation.draw")).do("creation.draw", "draw")
    draft.do("creation.booty_joker", "Dace")
    names = {f.name for f in ENGINE.pending(draft.state)[0].fields}
    assert ({"booty_skill2", "booty_skill3"} <= names) == (setting == "split")
    draft.do("creation.experience", {"skill": "gunnery", "measure": "guts", "booty": "skill",
                                     "booty_skill": "command", "booty_skill3": "riding",
                                     "point": "measure", "point_measure": "charm"}
             if setting == "split" else
             {"skill": "gunnery", "measure": "guts", "booty": "skill",
              "booty_skill": "command", "point": "measure", "point_measure": "charm"})
    skills = draft.sheet["skills"]
    assert (skills["command"], skills.get("riding", 0)) == ((2, 1) if setting == "split"
                                                             else (3, 0))


def test_the_spade_ace_booty_is_institution_unless_the_setting_honours_the_print():
    """btq_characters A12."""
    assert booty_meaning("Sace", "life", resolve())["rep_kind"] == "institution"
    printed = resolve({"spade_ace_booty": "personal"})
    assert booty_meaning("Sace", "naval", printed)["rep_kind"] == "personal"
    assert booty_meaning("Cface", "naval", resolve())["item"] == "special_weapon"
    assert booty_meaning("Cface", "life", resolve())["item"] == "important_item"


def test_no_draw_is_taken_again():
    """A card turned is recorded; there is no decision that turns it again, only the
    choices on it."""
    draft = Draft().play(steps("creation.draw"))
    draft.do("creation.draw", "draw")
    assert draft.kinds()[0] == (PLAYER, "creation.experience")
    with pytest.raises(IllegalAction):
        draft.do("creation.experience", "draw")
    assert len(draft.state["record"]["experiences"]) == 1


def test_a_reputation_above_its_cap_is_refused():
    """§2.10: every reputation at most its cap, checked after every step: two Personal +1s
    combined to +2 against Charm 2 (no override) passes; a third would not."""
    draft = Draft().play(steps("creation.trait", skip=("creation.override",)))
    assert draft.sheet["measures"]["charm"] == 2
    assert ("P", "Friend of Captain Turner", 2) in rep_names(draft.sheet)
    with pytest.raises(FieldErrors) as refused:
        draft.do("creation.trait", {"trait": "heartbreaker", "rep1_subject": "Captain Turner",
                                    "rep1_descriptor": "Friend of", "rep2_subject": "Lady Jane",
                                    "rep2_descriptor": "Admired by"})
    assert "above its cap" in str(refused.value)


# --- TV-07, TV-08, TV-09 ----------------------------------------------------------------------


def test_tv07_traits_come_to_ten_points_and_crusty_gives_two_reputations():
    """TV-07: Read and Write, Second Language (French), Swimming, Jack Tar, Crusty Old
    Seadog, Knife Fighting = 10; Crusty's two Institution reputations."""
    draft = Draft().play(steps("creation.wealth"))
    sheet = draft.sheet
    assert sheet["trait_points"] == 10
    assert [t["name"] for t in sheet["traits"]] == [
        "Read and Write", "Second Language", "Swimming", "Jack Tar", "Crusty Old Seadog",
        "Knife Fighting"]
    assert ("I", "Always Welcome on The Silver Fin", 1) in rep_names(sheet)
    assert ("I", "Distrusted by the HMS Achilles", 1) in rep_names(sheet)


def test_tv07_an_eleventh_point_a_second_jack_tar_and_a_ward_room_trait_are_refused():
    draft = Draft().play(steps("creation.trait", skip=()) + [
        c for c in otoole().choices if c["kind"] == "creation.trait"][:6])
    with pytest.raises(FieldErrors) as refused:
        draft.do("creation.trait", {"trait": "topman"})
    assert "only 0 of your 10 points are left" in refused.value.errors["trait"]
    with pytest.raises(FieldErrors) as refused:
        draft.do("creation.trait", {"trait": "knife_fighting", "times": 3})
    assert "3 time(s) at most" in refused.value.errors["times"]
    draft.do("creation.trait", {"trait": "undo"})
    with pytest.raises(FieldErrors) as refused:
        draft.do("creation.trait", {"trait": "jack_tar"})
    assert "not one of the choices" in refused.value.errors["trait"]
    rating = Draft().play(as_position("able_seaman", steps("creation.trait")))
    with pytest.raises(FieldErrors) as refused:
        rating.do("creation.trait", {"trait": "at_home_in_the_ward_room"})
    assert "officers" in refused.value.errors["trait"]


# The costs and take limits of the table creation kept beside rules.btq.traits until it read
# that one: (cost, most takes), None for no limit (BtQ L1028-1111).
CREATION_TRAIT_TABLE = {
    "educated": (1, 1), "swimming": (1, 1), "read_and_write": (1, 1), "pitch_perfect": (1, 1),
    "second_language": (1, None), "gods_servant": (1, 1), "iron_stomach": (1, 1),
    "silver_tongue": (1, 1), "stargazer": (1, 1), "whittler": (1, 1), "natural_rider": (2, 1),
    "strong_as_an_ox": (2, 1), "fearless": (2, 1), "fair_of_face": (2, 1),
    "natural_mathematician": (2, 1), "hard_as_nails": (3, 1), "heartbreaker": (3, 1),
    "is_but_a_scratch": (5, 1), "under_the_lash": (1, 1), "at_home_in_the_ward_room": (1, 1),
    "tactical_genius": (2, 1), "known_below_decks": (1, 1), "topman": (1, 1),
    "protege": (1, 3), "born_for_battle": (2, 1), "respect_of_the_men": (2, 1),
    "jack_tar": (3, 1), "lap_of_luxury": (2, 1), "blameless": (2, 1), "naysayer": (2, 1),
    "letter_from_london": (3, 1), "family_connections": (3, 1), "officer_patron": (3, 1),
    "crusty_old_seadog": (3, 1), "jonah": (4, 1), "cheat_death": (2, 3), "crackshot": (1, 3),
    "duellist": (1, 3), "strong_swordarm": (1, 3), "handy_in_a_scrap": (1, 3),
    "hack_and_slay": (1, 3), "master_gunner": (1, 3), "knife_fighting": (1, 3),
    "ferocious_boarder": (1, 3), "accurate_gunner": (3, 1), "cutpurse": (1, 1),
    "scoundrel": (1, 1), "agitator": (1, 1), "grappler": (1, 1), "keen_eyed": (1, 1),
    "cosmopolitan": (1, 1), "lower_deck_lawyer": (1, 1), "thief_in_the_night": (2, 1),
    "gastronome": (2, 1), "physician": (2, 1)}

ANY_WORDS = {"detail": "Captain Hale", "rep1_descriptor": "Liked by",
             "rep1_subject": "the Gun Deck", "rep2_descriptor": "Known to",
             "rep2_subject": "the Ward Room"}


def test_creation_charges_the_one_trait_tables_costs_unchanged():
    """Step 7 reads ``rules.btq.traits.TRAITS``: every trait is offered with the cost and
    limit creation's own copy had, and taking it (once) spends that cost; the copy is gone
    from the creation tables."""
    from rules.btq.creation import data

    assert "traits" not in data()
    draft = Draft().play(steps("creation.trait"))
    options = {o.key: o.label for o in next(
        d for d in ENGINE.pending(draft.state) if d.kind == "creation.trait").fields[0].options}
    assert set(CREATION_TRAIT_TABLE) <= set(options)
    for key, (cost, most) in CREATION_TRAIT_TABLE.items():
        limit = "" if most == 1 else (f" (up to ×{most})" if most else " (repeatable)")
        assert options[key].endswith(f"({cost}){limit}"), key
        start = draft.state
        try:
            draft.do("creation.trait", {"trait": key, **ANY_WORDS})
        except FieldErrors as refused:  # Officer Patron's +3 is above Charm 2 at creation
            assert key == "officer_patron" and "above its cap" in str(refused), key
            continue
        finally:
            taken = draft.state
            draft.state = start
        assert taken["sheet"]["trait_points"] - start["sheet"]["trait_points"] == cost, key


def test_traits_that_name_someone_take_the_name_as_their_reputations_subject():
    """Protégé's captain, Letter from London's contacts: the detail names them, or the
    reputation's "by whom" does; without either the detail is asked for."""
    draft = Draft().play(steps("creation.trait"))
    draft.do("creation.trait", {"trait": "protege", "times": 2, "rep1_subject": "Captain Hale"})
    assert ("P", "Protégé of Captain Hale", 2) in rep_names(draft.sheet)
    draft.do("creation.trait", {"trait": "letter_from_london", "detail": "the Admiralty"})
    assert ("I", "Connected with the Admiralty", 1) in rep_names(draft.sheet)
    with pytest.raises(FieldErrors) as refused:
        draft.do("creation.trait", {"trait": "family_connections"})
    assert "family member" in refused.value.errors["detail"]
    with pytest.raises(FieldErrors) as refused:
        draft.do("creation.trait", {"trait": "gastronome", "rep1_subject": "the Admiralty"})
    assert "the Gun Deck, the Ward Room" in refused.value.errors["rep1_subject"]


def test_a_curio_names_a_skill_or_a_weapon_and_may_say_when_it_applies():
    """A curio is +1 card to one skill (BtQ L522-524; the Appendix IV captains' pistols and
    swords are curios too): anything else is refused on its field; the Reef Map's waters are
    its condition (TV-06)."""
    reef = choice_of("creation.experience", 3)
    assert reef["item_when"] == "navigating the West Indies"
    draft = Draft().play(otoole().choices[:12])  # the naval draw that turned the club
    with pytest.raises(FieldErrors) as refused:
        draft.do("creation.experience", {**reef, "item_for": "Captain Turner"})
    assert "one skill or weapon" in refused.value.errors["item_for"]
    draft.do("creation.experience", {**reef, "item_for": "pistols", "item_when": ""})
    assert draft.sheet["items"] == [{"kind": "curio", "name": "Reef Map of the West Indies",
                                     "bonus": 1, "for": "pistols", "when": ""}]


def test_a_french_character_must_take_second_language():
    """BtQ L304-305."""
    french = Draft().play([{**c, "choice": c["choice"].replace("american", "french")}
                           if c["kind"] == "creation.station" else c
                           for c in steps("creation.trait")])
    with pytest.raises(FieldErrors, match="must take Second Language"):
        french.do("creation.trait", {"trait": "done"})


def test_tv08_final_wealth_is_three():
    """TV-08: class 0 + pre-navy booty 1 + naval booty 1 + traits 0 + Warrant Officer 1."""
    draft = Draft().play(steps("creation.details"))
    assert draft.sheet["wealth"] == 3
    assert draft.sheet["wealth_breakdown"] == {"class": 0, "swapped": 0, "booty": 2,
                                               "traits": 0, "rank": 1}


@pytest.mark.parametrize("tier, wealth", [("warrant", 1), ("rating", 0)])
def test_tv08_petty_officer_wealth_by_d7(tier, wealth):
    draft = Draft(settings={"petty_officer_tier": tier}).play(
        as_position("petty_officer", steps("creation.details")))
    assert draft.sheet["wealth_breakdown"]["rank"] == wealth


@pytest.mark.parametrize("reading, wealth", [("officer", 2), ("warrant", 1)])
def test_tv08_midshipman_wealth_by_d8(reading, wealth):
    draft = Draft(settings={"midshipman_wealth": reading}).play(
        as_position("midshipman", steps("creation.details")))
    assert draft.sheet["wealth_breakdown"]["rank"] == wealth


def test_tv09_otooles_final_sheet_as_the_book_prints_it():
    """TV-09: the scenario plays to the book's sheet: 4/3/3/4, Wealth 3, TV-06's skills,
    seven reputations (2 Personal, 5 Institution), TV-07's traits; approved by the GM."""
    scenario = otoole()
    state, events = play_scenario(ENGINE, scenario,
                                  ScriptedSource(scenario.cards, then=SeededSource(3)))
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.result == "approved"
    sheet = outcome.data["character"]
    assert sheet["name"] == "Gregory O'Toole"
    assert (sheet["measures"]["guts"], sheet["measures"]["discipline"],
            sheet["measures"]["charm"], sheet["measures"]["influence"]) == (4, 3, 3, 4)
    assert sheet["wealth"] == 3
    assert sheet["skills"] == BOOK_SKILLS_TV06
    assert sheet["professions"] == {"Fisherman": 2, "Mapmaker": 1}
    kinds = [r["kind"] for r in sheet["reputations"]]
    assert (kinds.count("personal"), kinds.count("institution")) == (2, 5)
    assert sheet["trait_points"] == 10
    assert ENGINE.pending(state) == []


def test_tv09_rule_correct_variant_sums_thirteen():
    """TV-09 with TV-01 (a): without the GM's override one Measure is 1 lower: 13, not 14."""
    draft = Draft().play(steps("creation.review", skip=("creation.override",)))
    assert sum(draft.sheet["measures"].values()) == 13
    assert draft.state["status"] == "submitted"
    draft.do("creation.review", {"verdict": "approve"}, actor=GM)
    assert ENGINE.outcome(draft.state).data["character"]["measures"]["charm"] == 2


# --- the GM's review --------------------------------------------------------------------------


def test_sent_back_keeps_the_cards_and_clears_the_later_choices():
    """The GM sends the draft back to the naval experiences: their cards stay turned, their
    choices and every later step are made again; a reason is required."""
    draft = Draft().play(steps("creation.review"))
    with pytest.raises(FieldErrors) as refused:
        draft.do("creation.review", {"verdict": "return", "step": "naval"}, actor=GM)
    assert "reason" in refused.value.errors
    draft.do("creation.review", {"verdict": "return", "step": "naval",
                                 "reason": "Take Seamanship for the Reef Map",
                                 "gm_notes": "SECRET-GM"}, actor=GM)
    record = draft.state["record"]
    assert [e["cards"] for e in record["experiences"]] == [
        ["KD", "10S"], ["3D", "2D"], ["AH", "10C"], ["8C", "2D"], ["KH", "KH"]]
    assert [e["gain"] is None for e in record["experiences"]] == [False, False, True, True,
                                                                  True]
    assert record["traits"] == [] and record["details"] is None
    assert draft.kinds()[0] == (PLAYER, "creation.experience")
    assert draft.state["returned"]["reason"] == "Take Seamanship for the Reef Map"
    assert "gm_notes" not in ENGINE.view(draft.state, PLAYER)
    assert ENGINE.view(draft.state, GM)["gm_notes"] == "SECRET-GM"
    returned = [e for e in draft.events if e.kind == "creation.returned"][0]
    assert "SECRET-GM" not in returned.text + json.dumps(returned.data)


def test_the_player_cannot_approve_nor_decide_for_the_gm():
    draft = Draft().play(steps("creation.review"))
    with pytest.raises(IllegalAction):
        ENGINE.apply(draft.state, "player:someone", "{}", draft.source)
    assert [k for a, k in draft.kinds() if a == PLAYER] == []


def test_every_step_is_on_the_progress_line():
    draft = Draft()
    seen = []
    for choice in otoole().choices:
        step = ENGINE.view(draft.state, PLAYER)["step"]
        if step and step not in seen:
            seen.append(step)
        draft.do(choice["kind"], choice["choice"], actor=choice["actor"])
    assert tuple(seen) == STEP_KEYS


def test_the_default_policy_makes_a_character():
    from rules.engine import play_out

    state, _ = ENGINE.start({"player": PLAYER, "experiences": 3}, SeededSource(1))
    final, _ = play_out(ENGINE, state, SeededSource(1))
    assert ENGINE.outcome(final).data["character"]["position"] == "able_seaman"


def test_appendix_prompts_are_story_only_and_appendix_iii_names_the_ships():
    """Appendix I/II give each experience card a prompt (the mechanics stay §2's, A11);
    Appendix III offers British names by rate (BtQ L3462-3589)."""
    from rules.btq.creation import story_prompt
    from rules.btq.ship_creation import ship_names

    draft = Draft().play(steps("creation.experience"))
    draw = [e for e in draft.events if e.kind == "creation.draw"][0]
    assert "For the story: you were forced to work in a different community." in draw.text
    assert story_prompt(parse_card("KH"), "naval") == "a fleet action, in the thick of it"
    assert ship_names("Cutter")[:3] == ("Fox", "Frisk", "Resolution")
    assert "Victory" in ship_names("First Rate") and "Victory" not in ship_names("Third Rate")
    details = SHIP_ENGINE.pending({**SHIP_ENGINE.start(
        {"ship_type": "Fifth Rate", "players": {PLAYER: "A"}}, SeededSource(1))[0],
        "record": {"origin": {"suit": "D"}, "details": None, "crew": None, "features": None,
                   "reputations": None, "traits": None}})[0]
    assert "Amazon" in details.fields[0].suggestions


def test_reputations_of_the_same_words_but_another_kind_are_two():
    """BtQ L134-135, L985, L997: a Personal and an Institution reputation are capped by
    different Measures, so the same words make two reputations, one of each kind; only the
    same kind and words combine (L960-961, "Friend of Captain Turner +2"). O'Toole's first
    booty (10S) is "Trusted by New Orleans Fisherman", Institution; his second experience's
    point makes a Personal one of the same words, and his last booty (KH, two Personal +1s)
    gives that Personal one again and Friend of Captain Turner."""
    choices = steps("creation.trait", skip=("creation.override",))
    experiences = [c for c in choices if c["kind"] == "creation.experience"]
    second, last = (json.loads(experiences[i]["choice"]) for i in (1, 4))
    second.update(point_rep_kind="personal", point_descriptor="Trusted by",
                  point_subject="New Orleans Fisherman")
    last.update(rep1_descriptor="Trusted by", rep1_subject="New Orleans Fisherman")
    experiences[1]["choice"], experiences[4]["choice"] = json.dumps(second), json.dumps(last)
    draft = Draft().play(choices)
    reps = rep_names(draft.sheet)
    assert ("I", "Trusted by New Orleans Fisherman", 1) in reps
    assert ("P", "Trusted by New Orleans Fisherman", 2) in reps
    assert ("P", "Friend of Captain Turner", 1) in reps
    said = " ".join(e.text for e in draft.events)
    assert "Institution: Trusted by New Orleans Fisherman +1" in said
    assert "Personal: Trusted by New Orleans Fisherman +1" in said
