"""Ship-to-ship combat (``rules/btq_naval.md`` §4, TV-N02..TV-N13; DECISIONS D16-D22),
played with the book's own cards from a stacked deck (BtQ L2353-2675)."""

import json
import random

import pytest

from rules.btq import naval
from rules.btq.characters import SKILLS
from rules.btq.naval import adjust_hits, broadside_pool, positioning_pool, repair_pool
from rules.engine import GM, IllegalAction, get_engine, play_out, play_scenario
from rules.random import ScriptedSource, SeededSource

ENGINE = get_engine("btq_naval")


def hermes_setup(**settings):
    """The Hermes and the Corsair (BtQ L2533-2543), as the scenario ``hermes_vs_corsair``
    holds them: the tests below check its figures against the book step by step. "All other
    skills are at 2."""
    return {**ENGINE.scenarios()["hermes_vs_corsair"].setup, "settings": settings}


def london_setup(**changes):
    """HMS London, a Fifth Rate with Weight of Lead and a PC Gunner of Gunnery 5 (BtQ
    L2460-2461), against the pirate Condor (Speed 3, BtQ L2422-2423)."""
    setup = {
        "weather": "steady_breeze",
        "start_distance": 5,
        "ships": [
            {"id": "london", "name": "HMS London", "side": "pc", "type": "Fifth Rate",
             "traits": ["Weight of Lead"],
             "crew": {"awareness": 2, "maritime": 3, "seamanship": 4}},
            {"id": "condor", "name": "Condor", "side": "enemy", "type": "Brig Sloop",
             "crew": {"awareness": 2, "seamanship": 3, "gunnery": 3, "command": 3}},
        ],
        "pcs": [{"id": "gunner", "name": "Gunner Hale", "seniority": 2, "discipline": 2,
                 "station": "gunner", "skills": {"gunnery": 5, "seamanship": 4}}],
    }
    setup.update(changes)
    return setup


LONDON_WINS = "2C  3C 4H 5H 6H 7H 8H 9H  3D 4D 5D 6D 7D"
"""A Positioning test London wins with one Ordinary (her 7 cards, then the Condor's 5)."""


def roundtrip(state):
    assert json.loads(json.dumps(state)) == state


class Table:
    """A battle played with a stacked deck: each step names the decision it answers and the
    exact cards it draws, so the draw order is checked too."""

    def __init__(self, setup, cards="", *, all_drawn=True):
        """``cards``: the script, or a :class:`ScriptedSource` (one that goes on to another
        source when the script runs out, say); ``all_drawn=False`` lets the start leave some
        of it for the steps that follow."""
        self.source = cards if isinstance(cards, ScriptedSource) else ScriptedSource(cards)
        self.state, self.events = ENGINE.start(setup, self.source)
        assert self.source.cards_left == 0 or not all_drawn
        roundtrip(self.state)

    def expect(self, actor, kind):
        pending = ENGINE.pending(self.state)
        assert [(d.actor, d.kind) for d in pending] == [(actor, kind)]
        return pending[0]

    def do(self, actor, kind, choice, cards=""):
        self.expect(actor, kind)
        self.source.push(cards)
        before = json.dumps(self.state, sort_keys=True)
        old = self.state
        self.state, new = ENGINE.apply(self.state, actor, choice, self.source)
        assert json.dumps(old, sort_keys=True) == before, "apply changed its input state"
        assert self.source.cards_left == 0, "the step drew fewer cards than scripted"
        roundtrip(self.state)
        self.events += new
        return new

    def ship(self, sid):
        return self.state["ships"][sid]


def of(events, kind):
    return [e for e in events if e.kind == kind]


def only_pair(state):
    """The range chart of a battle of one ship against one."""
    [pair] = state["pairs"].values()
    return pair


def distance(state):
    return only_pair(state)["distance"]


def set_distance(state, d):
    """Put the two ships of a one-on-one battle at Distance ``d``."""
    [(key, pair)] = state["pairs"].items()
    state["pairs"] = {key: {**pair, "distance": d}}


# --- TV-N06 .. TV-N09: the Hermes and the Corsair --------------------------------------------

def hermes_to_round_one(**settings):
    """TV-N06: Awareness CoF 6C, Hermes 4C KS, Corsair 3C JD; the Hermes chooses Distance 3;
    O'Toole gives Smith 2 and Bosworth 1 (BtQ L2541-2544)."""
    table = Table(hermes_setup(**settings), "6C  4C KS  3C JD")
    test = of(table.events, "awareness.test")[0]
    assert test.data["card_of_fate"] == "6C" and test.data["winner"] == "pc"
    assert test.data["pools"]["pc"]["cards"] == [["4C", "ordinary"], ["KS", "failure"]]
    assert test.data["pools"]["enemy"]["cards"] == [["3C", "ordinary"], ["JD", "failure"]]
    decision = table.expect("pc:otoole", "start.distance")
    assert decision.default == "3"
    table.do("pc:otoole", "start.distance", "3")
    assert distance(table.state) == 3
    assert table.expect("pc:otoole", "discipline.cards").options[-1].key == "2"
    table.do("pc:otoole", "discipline.cards", "1")       # Bosworth (seniority 3) first
    # Round 1, Step 3: nothing to repair. Step 4: Positioning, CoF 7D (BtQ L2544-2548).
    table.do("pc:otoole", "discipline.cards", "2",
             "7D  8D KH 7C 4S 2S QS JK  9S KS 10D 2C 3C 4C")
    assert table.state["discipline_cards"] == {"bosworth": 1, "smith": 2}
    return table


def test_tv_n06_setup():
    table = hermes_to_round_one()
    assert table.state["commanders"] == {"hermes": "otoole"}
    assert table.state["round"] == 1


def hermes_round_one(**settings):
    """TV-N07, checked step by step."""
    table = hermes_to_round_one(**settings)
    [pos] = of(table.events, "positioning.test")
    assert pos.data["card_of_fate"] == "7D"
    assert pos.data["pools"]["pc"]["size"] == 7 and pos.data["pools"]["enemy"]["size"] == 6
    assert pos.data["pools"]["pc"]["breakdown"] == {"seamanship": 5, "handling": 3,
                                                    "weather": -1}
    assert ["JK=7D", "perfect"] in pos.data["pools"]["pc"]["cards"]
    assert pos.data["winner"] == "pc"
    move = table.expect("pc:otoole", "positioning.move")
    assert [o.key for o in move.options] == ["0", "1", "2", "3", "4", "5", "escape", "strike"]
    assert move.default == "1"
    table.do("pc:otoole", "positioning.move", "1")
    assert distance(table.state) == 1
    assert only_pair(table.state)["gage"] == {"to": "hermes", "round": 1}
    # Step 5 (BtQ L2552-2558): O'Toole wins his contest with the Captain's Seamanship 3; the
    # Gunner fails a static test; the Midshipman fails his First Aid. Net -1.
    table.do("pc:otoole", "fight.action", "seamanship")
    table.do(GM, "fight.opposition", "contested:seamanship", "2H  3H 4C 5C 6C 7C  8S 9S 10S")
    table.do("pc:bosworth", "fight.action", "gunnery")
    table.do(GM, "fight.opposition", "static:3", "2D  3S 4S 5S 6S 7S  3D 4C 5C")
    table.do("pc:smith", "fight.action", "first_aid")
    table.do(GM, "fight.opposition", "static:3", "2C  3H 4H 5H 6H  3C 4D 5D")
    [total] = of(table.events, "fight.total")
    assert total.data["modifier"] == -1
    # Step 6 (BtQ L2558-2567): shared CoF AS.
    table.do("pc:bosworth", "broadside.ammo", "roundshot")
    table.do(GM, "broadside.ammo", "roundshot",
             "AS  KS 2S 10D 2C AD QH 8D  7C 4S 9D")
    hermes_fire, corsair_fire = of(table.events, "broadside.fire")
    assert hermes_fire.data["size"] == 7 and corsair_fire.data["size"] == 3
    assert hermes_fire.data["breakdown"] == {"gunnery": 4, "discipline": 1, "broadside": 1,
                                             "weather_gage": 2, "how_will_you_fight": -1}
    assert hermes_fire.data["hits"] == [["hull", 1], ["hull", 1], ["guns", 2]]
    assert corsair_fire.data["hits"] == [["hull", 1]]
    assert table.ship("corsair")["tracks"] == {"hull": "xx|..|..", "guns": ".|x|.",
                                               "crew": ".|.|.", "rigging": ".|.|."}
    assert table.ship("corsair")["states"] == {"hull": 1, "guns": 2, "crew": 0, "rigging": 0}
    assert table.ship("hermes")["tracks"]["hull"] == "x.|..|.."
    assert table.ship("hermes")["states"]["hull"] == 0
    # Step 7: the Hermes presses on, the Corsair would flee (the default policies agree).
    assert table.expect("pc:otoole", "continue.orders").default == "continue"
    table.do("pc:otoole", "continue.orders", "continue")
    assert table.expect(GM, "continue.orders").default == "disengage"
    return table


def test_tv_n07_round_one():
    table = hermes_round_one()
    assert table.state["round"] == 1 and table.state["step"] == "continue"


def hermes_round_two(table):
    table.do(GM, "continue.orders", "disengage")
    # Step 3 (BtQ L2577-2581): Smith repairs the Hull, Maritime 3 + 2 = 5 cards vs 7S.
    repair = table.expect("pc:otoole", "repair.action")
    assert "hull:pc:smith" in [o.key for o in repair.options]
    assert repair.default == "hull:pc:smith"  # not the commander: the book sends Smith
    table.do("pc:otoole", "repair.action", "hull:pc:smith", "7S  9S 4H 3H 2H 6D")
    assert table.ship("hermes")["tracks"]["hull"] == "..|..|.."
    # The Corsair repairs her Hull with Seamanship 3, not reduced for her damage; then the
    # Positioning test, CoF 9H: Corsair 3 Ordinaries beat the Hermes' 2 (BtQ L2581-2584).
    table.do(GM, "repair.action", "hull:crew",
             "10H  2C AD QH  9H  5S 4S 2S QC 10C QH 3H  2C QC AD QH 10H 3H")
    smith, corsair = of(table.events, "repair.test")
    assert smith.data["pool"] == 5 and smith.data["success"] == "ordinary"
    assert corsair.data["pool"] == 3 and corsair.data["track"] == "x.|..|.."
    pos = of(table.events, "positioning.test")[-1]
    assert (pos.data["pools"]["pc"]["size"], pos.data["pools"]["enemy"]["size"]) == (7, 6)
    assert pos.data["winner"] == "enemy"
    table.do(GM, "positioning.move", "2")
    return table


def test_tv_n08_round_two():
    table = hermes_round_two(hermes_round_one())
    # Both ships are un-rated: nobody can fire at Distance 2, Steps 5 and 6 are skipped.
    assert distance(table.state) == 2
    table.expect("pc:otoole", "continue.orders")
    round_two = table.events[[e.kind for e in table.events].index("round.start", 10):]
    assert not of(round_two, "broadside.fire") and not of(round_two, "fight.test")


def hermes_round_three(**settings):
    table = hermes_round_two(hermes_round_one(**settings))
    table.do("pc:otoole", "continue.orders", "continue")
    # Step 3: the Hermes is unscathed; the Corsair's crew try the Guns and fail.
    table.do(GM, "continue.orders", "disengage")
    table.do(GM, "repair.action", "guns:crew",
             "2S  3H 4H 5H  10H  6S 4D 3C 8C 9C KC 2H  JD KC JC 8C 6C JS")
    # Step 4 (BtQ L2592-2593): CoF 10H, the Hermes' one Ordinary; back to Distance 1.
    table.do("pc:otoole", "positioning.move", "1")
    assert only_pair(table.state)["gage"]["round"] == 1
    assert not of(table.events[-3:], "weather_gage")
    # Step 5: every PC who acts succeeds.
    table.do("pc:otoole", "fight.action", "seamanship")
    table.do(GM, "fight.opposition", "static:3", "2H  3H 4C 5C 6C 7C  8S 9S 10S")
    table.do("pc:bosworth", "fight.action", "gunnery")
    table.do(GM, "fight.opposition", "static:3", "2D  3D 4S 5S 6S 7S  3C 4C 5C")
    if table.state["settings"]["repair_lockout"] == "same_round":
        table.do("pc:smith", "fight.action", "maritime")
        table.do(GM, "fight.opposition", "static:3", "2C  3C 4H 5H 6H 7H  3D 4D 5D")
    return table


def test_tv_n09_round_three():
    table = hermes_round_three()
    assert of(table.events, "fight.total")[-1].data["modifier"] == 3
    # The Corsair cannot fire: Gunnery 3 + Broadside 0 - 3 for her Maimed Guns = 0, so she
    # makes no Gunnery test and is not asked for her shot (BtQ L2594-2595).
    assert broadside_pool(table.state, "enemy")[0] == 0
    table.do("pc:bosworth", "broadside.ammo", "roundshot", "KH  2H 10H KH 2S 4S KS AS 4D JK")
    joker = table.expect("pc:bosworth", "broadside.joker")
    assert joker.default == "KD"  # the book's choice: the Guns go Dead
    table.do("pc:bosworth", "broadside.joker", "KD")
    [fire] = of(table.events, "broadside.fire")[-1:]
    assert fire.data["size"] == 9
    assert fire.data["hits"] == [["crew", 1], ["crew", 1], ["crew", 3], ["hull", 2], ["guns", 2]]
    assert table.ship("corsair")["tracks"] == {"hull": "x.|x.|..", "guns": ".|x|x",
                                               "crew": "x|x|x", "rigging": ".|.|."}
    outcome = ENGINE.outcome(table.state)
    assert (outcome.winner, outcome.result) == ("pc", "crew_dead")
    assert outcome.data["ships"]["corsair"]["morale"] == 1  # "Ship Morale is INJURED"
    assert outcome.data["ships"]["hermes"]["morale"] == 0
    assert ENGINE.pending(table.state) == []
    assert of(table.events, "battle.end")[-1].text == (
        "The Corsair has lost her crew and can fight no more. The Hermes (22) wins.")


@pytest.mark.parametrize("name, expected", [
    ("Corsair", "The Corsair"), ("HMS Hermes (22)", "HMS Hermes (22)"),
    ("La Minerve (40)", "La Minerve (40)"), ("USS President (44)", "USS President (44)"),
])
def test_ship_names_in_the_log_take_an_article_only_when_they_have_none(name, expected):
    assert naval._the(name) == expected


def test_tv_n09_joker_declared_in_the_script():
    table = hermes_round_three()
    table.do("pc:bosworth", "broadside.ammo", "roundshot", "KH  2H 10H KH 2S 4S KS AS 4D JK=KD")
    assert table.ship("corsair")["tracks"]["guns"] == ".|x|x"
    assert ENGINE.outcome(table.state).result == "crew_dead"


def test_tv_n09_repair_lockout_next_round():
    # D19: under next_round, Smith (who repaired in round 2) sits out round 3's Step 5:
    # +2 and a pool of 8.
    table = hermes_round_three(repair_lockout="next_round")
    assert of(table.events, "fight.total")[-1].data["modifier"] == 2
    table.do("pc:bosworth", "broadside.ammo", "roundshot", "KH  2H 10H KH 2S 4S KS 4D JK=KD")
    assert of(table.events, "broadside.fire")[-1].data["size"] == 8


# --- TV-N02 .. TV-N05: HMS London and the Condor ---------------------------------------------

def london_state(**changes):
    """A battle at the first Positioning move, London having won (CoF 2C, her 3C)."""
    state, _ = ENGINE.start(london_setup(**changes), ScriptedSource(LONDON_WINS))
    return state


def test_tv_n02_enemy_sets_the_start():
    table = Table(london_setup(start_distance=None), "6C  4H KS  3C JD")
    decision = table.expect(GM, "start.distance")
    assert [o.key for o in decision.options] == ["3", "4", "5"]
    table.do(GM, "start.distance", "5", LONDON_WINS)
    assert distance(table.state) == 5


def test_tv_n03_speed_difference():
    state = london_state()
    assert positioning_pool(state, "pc")[1]["speed"] == 1
    assert positioning_pool(state, "enemy")[1]["speed"] == -1


def test_tv_n04_perfect_closes_three_and_takes_the_gage():
    table = Table(london_setup(), "4C  4C 5H 6H 7H 8H 9H 10H  5S 6S 7S 8S 9S")
    move = table.expect("pc:gunner", "positioning.move")
    assert "2" in [o.key for o in move.options]
    table.do("pc:gunner", "positioning.move", "2")
    assert distance(table.state) == 2
    assert only_pair(table.state)["gage"]["to"] == "london"
    assert table.state["rs"]["gage"] == ["london"]


def test_tv_n05_londons_broadside_pool():
    state = london_state()
    set_distance(state, 2)
    state["rs"] = {**state["rs"], "gage": ["london"], "step5": {"london": 1}}
    size, breakdown = broadside_pool(state, "pc")
    assert size == 7
    assert breakdown == {"gunnery": 5, "broadside": 3, "weather_gage": 2,
                         "how_will_you_fight": 1, "range": -4}


@pytest.mark.parametrize("rating_type, penalty", [("Third Rate", 2), ("Sixth Rate", 4)])
def test_long_range_penalty_by_rating(rating_type, penalty):
    setup = london_setup()
    setup["ships"][0]["type"], setup["ships"][0]["traits"] = rating_type, []
    state = london_state(ships=setup["ships"])
    set_distance(state, 2)
    assert broadside_pool(state, "pc")[1]["range"] == -penalty


def test_unrated_ships_cannot_fire_at_long_range():
    state = london_state()
    set_distance(state, 2)
    assert not naval._will_fire(state, "condor") and naval._will_fire(state, "london")


# --- D21: ammunition --------------------------------------------------------------------------

def test_d21_double_shot_first_broadside_and_after_a_change():
    state = london_state()
    set_distance(state, 1)
    state["rs"] = {**state["rs"], "gage": ["london"]}
    assert broadside_pool(state, "pc")[0] == 10
    state["ships"]["london"]["ammo"] = "double"
    assert broadside_pool(state, "pc")[0] == 8
    state["ships"]["london"]["ammo_changed"] = True
    assert broadside_pool(state, "pc")[0] == 6


def test_ammo_hits():
    assert adjust_hits([("crew", 1), ("rigging", 2), ("hull", 1)], "grapeshot") == [
        ("crew", 2), ("rigging", 1)]
    assert adjust_hits([("crew", 3), ("crew", 2)], "grapeshot") == [("crew", 3), ("crew", 3)]
    assert adjust_hits([("crew", 2), ("guns", 1), ("rigging", 1), ("hull", 2)],
                       "chainshot") == [("crew", 1), ("rigging", 2), ("hull", 2)]
    assert adjust_hits([("hull", 1), ("hull", 2), ("guns", 1)], "double") == [
        ("hull", 1), ("hull", 2), ("guns", 1), ("hull", 1)]
    assert adjust_hits([("hull", 1), ("hull", 2)], "double", "per_hit") == [
        ("hull", 1), ("hull", 2), ("hull", 1), ("hull", 1)]
    assert adjust_hits([("hull", 1)], "heated") == [("hull", 1)]
    assert adjust_hits([("guns", 2)], "roundshot") == [("guns", 2)]


# --- TV-N12, TV-N13: fire ---------------------------------------------------------------------

def no_pcs_london(**changes):
    setup = london_setup(pcs=[], **changes)
    return setup


def test_tv_n12_heated_shot_sets_a_fire_that_grows():
    # Positioning, CoF 9D: London (crew Seamanship 4 + Handling 2 + Speed 1 = 7) turns no
    # success, the Condor (3 + 3 - 1 = 5) a Critical: she closes to Distance 1.
    table = Table(no_pcs_london(start_distance=3), "9D  2H 3H 4H 5H 6H 7H 8H  9C 2S 3S 4S 5S")
    table.do(GM, "positioning.move", "1")
    assert table.state["rs"]["gage"] == ["condor"]
    table.do(GM, "broadside.ammo", "roundshot")
    # London: crew Gunnery 0 + Broadside 3 = 3; Condor: 3 + 1 + 2 (gage) - 2 (heated) = 4.
    # Shared CoF 4S; the Condor's 4C is a Critical on the Rigging (BtQ L2667).
    table.do(GM, "broadside.ammo", "heated", "4S  2H 3H 5H  4C 5D 6D 7D")
    assert of(table.events, "broadside.fire")[-1].data["size"] == 4
    assert table.ship("london")["fire"] == 1
    assert table.ship("london")["tracks"]["rigging"] == "....|x...|...."
    assert of(table.events, "fire.start")
    table.do(GM, "continue.orders", "continue")
    # The next Repair phase opens with the fire: the GM turns 5D, an Injured hit on the Guns.
    table.do(GM, "continue.orders", "continue", "5D")
    assert table.ship("london")["tracks"]["guns"] == "x...|....|...."
    # Nobody fights the fire: it grows to two cards. London wins the Positioning and opens
    # to Distance 2, where neither ship can fire.
    table.do(GM, "repair.action", "none", LONDON_WINS)
    assert table.ship("london")["fire"] == 2
    table.do(GM, "positioning.move", "2")
    table.do(GM, "continue.orders", "continue")
    # ... AH and 3H: two Injured hits on the Crew (BtQ L2668-2669).
    table.do(GM, "continue.orders", "continue", "AH 3H")
    assert of(table.events, "fire.damage")[-1].data["hits"] == [["crew", 1], ["crew", 1]]
    assert table.ship("london")["tracks"]["crew"] == "xx..|....|...."


def test_tv_n13_extinguishing():
    # A 2-card fire; the Boatswain (crew Maritime 3) fights it each round (BtQ L2672-2674).
    # The Condor is a First Rate with no Seamanship: no Positioning cards (0 - 2 - 2 < 0),
    # so only London turns a pool (4 + 2 + 2 = 8 cards) each round (D18).
    setup = no_pcs_london()
    setup["ships"][0]["fire"] = 2
    setup["ships"][1].update(type="First Rate", crew={"seamanship": 0})
    no_move = "2C  3H 4H 5H 6H 7H 8H 9H 10H"
    table = Table(setup, "2S 3S")                       # round a: two Injured Hull hits
    assert positioning_pool(table.state, "enemy")[0] == 0
    table.do(GM, "repair.action", "fire:crew", "7D  2H 3H 4H  " + no_move)
    assert table.ship("london")["fire"] == 2            # failed, but it does not grow
    table.do(GM, "continue.orders", "continue")
    table.do(GM, "continue.orders", "continue", "2C 3C")   # round b: two more hits
    table.do(GM, "repair.action", "fire:crew", "7D  8D 3H 4H  " + no_move)
    assert table.ship("london")["fire"] == 1
    table.do(GM, "continue.orders", "continue")
    table.do(GM, "continue.orders", "continue", "2D")       # round c: one hit
    table.do(GM, "repair.action", "fire:crew", "7D  8D 3H 4H  " + no_move)
    assert table.ship("london")["fire"] == 0
    hits = [h for e in of(table.events, "fire.damage") for h in e.data["hits"]]
    assert hits == [["hull", 1]] * 2 + [["rigging", 1]] * 2 + [["guns", 1]]
    assert [e.data["fire"] for e in of(table.events, "repair.test")] == [2, 1, 0]
    table.do(GM, "continue.orders", "continue")
    table.do(GM, "continue.orders", "continue")             # round d: no fire, nothing drawn
    assert table.state["round"] == 4 and len(of(table.events, "fire.damage")) == 3


# --- gates, weather, repair ---------------------------------------------------------------

def test_great_hardship_spends_discipline_to_ignore_ship_morale():
    # D20: O'Toole spends 1 Discipline; he has 2 cards to hand out, and the Maimed Ship
    # Morale neither costs -3 nor calls for a Discipline test.
    setup = hermes_setup(great_hardship=True)
    setup["ships"][0]["morale"] = 2
    table = Table(setup, "6C  4C KS  3C JD")
    table.do("pc:otoole", "start.distance", "3")
    assert table.expect("pc:otoole", "discipline.great_hardship").default == "spend"
    table.do("pc:otoole", "discipline.great_hardship", "spend")
    table.do("pc:otoole", "discipline.cards", "2",
             "7D  8D KH 7C 4S 2S QS JK  9S KS 10D 2C 3C 4C")
    assert table.state["discipline_cards"] == {"bosworth": 2}
    assert not of(table.events, "gate.test")
    assert "ship_morale" not in positioning_pool(table.state, "pc")[1]


def test_maimed_ship_morale_needs_a_discipline_test_to_act():
    setup = hermes_setup()
    setup["ships"][0]["morale"] = 2
    table = Table(setup, "6C  4C KS  3C JD")
    table.do("pc:otoole", "start.distance", "3")
    table.do("pc:otoole", "discipline.cards", "1")
    # O'Toole's Discipline 3 fails against 2D; the Hermes turns no Positioning cards and the
    # Corsair moves by her Critical alone (D18).
    table.do("pc:otoole", "discipline.cards", "2", "2D  3H 4H 5H  9D  9C 2H 3H 4H 5H 6H")
    [gate] = of(table.events, "gate.test")
    assert (gate.data["skill"], gate.data["pool"], gate.data["passed"]) == (
        "discipline", 3, False)
    pos = of(table.events, "positioning.test")[0]
    assert pos.data["pools"]["pc"]["size"] == 0 and pos.data["winner"] == "enemy"
    table.expect(GM, "positioning.move")


@pytest.mark.parametrize("setting, skill, cards", [
    ("discipline", "discipline", "3H 4H 5H"),   # O'Toole's Discipline 3 (BtQ L2483-2484)
    ("command", "command", "3H 4H"),            # his Command 2 (BtQ L1424)
])
def test_setting_maimed_morale_test(setting, skill, cards):
    # A1's option: the gate of a Maimed Ship Morale is the battle's Discipline test by
    # default, the Great Hardship example's Command test under "command"; failed either way,
    # the Hermes turns no Positioning cards (D18).
    setup = hermes_setup(maimed_morale_test=setting)
    setup["ships"][0]["morale"] = 2
    table = Table(setup, "6C  4C KS  3C JD")
    table.do("pc:otoole", "start.distance", "3")
    table.do("pc:otoole", "discipline.cards", "1")
    table.do("pc:otoole", "discipline.cards", "2", f"2D  {cards}  9D  9C 2H 3H 4H 5H 6H")
    [gate] = of(table.events, "gate.test")
    assert (gate.data["skill"], gate.data["pool"], gate.data["passed"]) == (
        skill, len(cards.split()), False)
    assert f"a {skill.capitalize()} test to act" in gate.text
    assert of(table.events, "positioning.test")[0].data["pools"]["pc"]["size"] == 0


def test_awareness_stalemate_leaves_the_start_to_the_gm():
    cards = "  ".join(["6C  4H KS  3H JD"] * 11)
    table = Table(hermes_setup(), cards)
    assert len(of(table.events, "awareness.test")) == 11
    assert table.expect(GM, "start.distance").default == "4"
    table.do(GM, "start.distance", "4")
    assert "the GM" in of(table.events, "start.distance")[0].text


def test_weather_and_weatherly():
    state = london_state()
    base = positioning_pool(state, "pc")[1]
    assert "weather" not in base
    state["weather"] = "storm"
    assert positioning_pool(state, "pc")[1]["weather"] == -3
    state["ships"]["london"]["traits"] = ["Weatherly"]
    # Weatherly eases the Speed penalty, so London is now one faster than the Condor's 1.
    assert positioning_pool(state, "pc")[1]["speed"] == 2
    state["weather"] = "good_wind"
    assert positioning_pool(state, "pc")[1].get("weather") is None
    state["weather"] = "becalmed"
    pool = positioning_pool(state, "pc")[1]
    assert pool["handling"] + pool["weather"] == 0 and "speed" not in pool


@pytest.mark.parametrize("tow", [False, True])
def test_setting_becalmed_tow(tow):
    """N10: becalmed, every ship lies still (Speed 0, Handling 0) by default; under
    ``becalmed_tow`` her boats tow her at Speed 1 and her crew turns half the cards, rounded
    down, for the Broadside! and for repairs (BtQ L1701-1705); the move itself is whole."""
    state = london_state(settings={"becalmed_tow": tow})
    state["weather"] = "becalmed"
    size, pool = positioning_pool(state, "pc")
    assert (size, pool) == (4, {"seamanship": 4, "handling": 2, "weather": -2})
    assert broadside_pool(state, "pc") == ((4, {"gunnery": 5, "broadside": 3,
                                                "boats_towing": -4}) if tow
                                           else (8, {"gunnery": 5, "broadside": 3}))
    assert repair_pool(state, "pc", "hull", "crew") == (
        (2, {"seamanship": 4, "boats_towing": -2}) if tow else (4, {"seamanship": 4}))
    # Towing, London makes way on a demasted Condor, who cannot.
    state["ships"]["condor"]["states"]["rigging"] = 3
    assert positioning_pool(state, "pc")[1].get("speed") == (1 if tow else None)
    # In any wind the boats stay aboard.
    state["weather"] = "steady_breeze"
    assert "boats_towing" not in broadside_pool(state, "pc")[1]


def test_demasted_ship_has_speed_zero():
    state = london_state()
    state["ships"]["london"]["states"]["rigging"] = 3
    assert positioning_pool(state, "pc")[1]["speed"] == -3
    assert positioning_pool(state, "enemy")[1]["speed"] == 3


def test_damage_penalties_stack_and_repair_ignores_them():
    state = london_state()
    state["ships"]["london"]["states"].update(hull=1, crew=2, guns=1, rigging=2)
    assert positioning_pool(state, "pc")[1] | {} == {
        "seamanship": 4, "handling": 2, "speed": 1, "hull": -1, "crew": -3, "rigging": -3}
    assert broadside_pool(state, "pc")[1]["guns"] == -1
    assert repair_pool(state, "pc", "hull", "crew") == (4, {"seamanship": 4})


@pytest.mark.parametrize("scope", ["all_pools", "final_test"])
def test_ship_morale_penalty_d20(scope):
    # D20 (BtQ L1424): Injured -1 and Maimed -3 to all the ship's pools. A1's option
    # "final_test" puts a Maimed Ship Morale's -3 on the Broadside! alone, as a skirmish's
    # falls on its final test (BtQ L1646-1647); Injured's -1 stays on every pool.
    state = london_state(settings={"maimed_morale_scope": scope})
    state["ships"]["london"]["morale"] = 1
    assert positioning_pool(state, "pc")[1]["ship_morale"] == -1
    assert repair_pool(state, "pc", "guns", "gunner")[1]["ship_morale"] == -1
    assert broadside_pool(state, "pc")[1]["ship_morale"] == -1
    for morale in (2, 3):  # Dead is no better than Maimed
        state["ships"]["london"]["morale"] = morale
        assert broadside_pool(state, "pc")[1]["ship_morale"] == -3
        others = (positioning_pool(state, "pc")[1].get("ship_morale"),
                  repair_pool(state, "pc", "guns", "gunner")[1].get("ship_morale"))
        assert others == ((-3, -3) if scope == "all_pools" else (None, None))


def test_maimed_guns_need_a_gunnery_test():
    setup = no_pcs_london(start_distance=3)
    setup["ships"][1]["tracks"] = {"guns": "..|xx|.."}
    setup["ships"][1]["crew"]["gunnery"] = 6
    table = Table(setup)
    table.do(GM, "repair.action", "none", "9D  2H 3H 4H 5H 6H 7H 8H  9C 2S 3S 4S 5S")
    table.do(GM, "positioning.move", "1")
    table.do(GM, "broadside.ammo", "roundshot")
    # The Condor's pool is 6 + 1 + 2 (gage) - 3 (Guns Maimed) = 6, so she must pass a
    # Gunnery test (D16, not reduced): CoF 2D, her 6 cards fail. London fires alone.
    table.do(GM, "broadside.ammo", "roundshot", "2D  3H 4H 5H 6H 7H 8H  4S  2H 3H 5H")
    gate = of(table.events, "gate.test")[-1]
    assert (gate.data["skill"], gate.data["pool"], gate.data["passed"]) == ("gunnery", 6, False)
    assert [e.data["ship"] for e in of(table.events, "broadside.fire")] == ["london"]


def test_crew_maimed_ship_that_fails_command_cannot_act():
    setup = no_pcs_london(start_distance=3)
    setup["ships"][1]["tracks"] = {"crew": "..|xx|.."}
    # Round 1: the Condor's Command test (3 cards vs 2D) fails; she turns no Positioning
    # cards, and London (7 cards) moves by her best success alone (D18).
    table = Table(setup, "2D  3H 4H 5H  9D  9C 2H 3H 4H 5H 6H 7H")
    gate = of(table.events, "gate.test")[0]
    assert gate.data["skill"] == "command" and not gate.data["passed"]
    pos = of(table.events, "positioning.test")[0]
    assert pos.data["pools"]["enemy"]["size"] == 0 and pos.data["winner"] == "pc"
    assert [o.key for o in table.expect(GM, "positioning.move").options] == [
        "1", "2", "3", "4", "5", "strike"]


def test_positioning_retest_after_mutual_failure():
    table = Table(london_setup(), "2C  3H 4H 5H 6H 7H 8H 9H  3D 4D 5D 6D 7D  "
                                  "2C  3C 4H 5H 6H 7H 8H 9H  3D 4D 5D 6D 7D")
    first, second = of(table.events, "positioning.test")
    assert first.data["verdict"] == "both_failed" and second.data["attempt"] == 2
    table.expect("pc:gunner", "positioning.move")


def test_stalemate_after_ten_retests_moves_nothing():
    cards = "  ".join(["2C  3H 4H 5H 6H 7H 8H 9H  3D 4D 5D 6D 7D"] * 11)
    table = Table(london_setup(), cards)
    assert len(of(table.events, "positioning.test")) == 11
    assert distance(table.state) == 5
    table.expect("pc:gunner", "continue.orders")


def test_repair_options_and_crew_repair():
    setup = london_setup(start_distance=3)
    setup["ships"][0]["tracks"] = {"hull": "xx..|x...|...."}
    table = Table(setup)
    decision = table.expect("pc:gunner", "repair.action")
    keys = [o.key for o in decision.options]
    assert keys[0] == "none" and "hull:crew" in keys and "hull:pc:gunner" in keys
    # The crew has no Gunnery: it may still repair the Guns unskilled, one card (L1266-1269).
    assert "unskilled" in repair_pool(table.state, "pc", "guns", "crew")[1]
    # A Critical may clear an Injured or a Maimed box: the captain chooses for his crew;
    # both leave the Hull Healthy, so the default is the Maimed box, the harder to clear (N5).
    table.do("pc:gunner", "repair.action", "hull:crew", "7S  7H 2D 3D 4D")
    box = table.expect("pc:gunner", "repair.box")
    assert [o.key for o in box.options] == ["1", "2"] and box.default == "2"
    table.do("pc:gunner", "repair.box", "2", LONDON_WINS)
    assert table.ship("london")["tracks"]["hull"] == "xx..|....|...."


def test_boarding_is_fought_inside_the_battle_to_its_end():
    """BtQ L2512-2533: the London wins the Positioning to Distance 0 and boards; the battle
    goes on through the boarding's decisions, each asked of its own participant: Gunner
    Hale's action (he fights for himself), the Condor's surrender (the GM's). The Grand
    Melee's hits fall on the Crews of the battle's ships; the Condor strikes and the London
    wins, the Condor a level of Ship Morale down (N18, N22)."""
    table = Table(london_setup(start_distance=3), "4C  4C 5H 6H 7H 8H 9H 10H  5S 6S 7S 8S 9S")
    move = table.expect("pc:gunner", "positioning.move")
    assert move.default != "0"
    events = table.do("pc:gunner", "positioning.move", "0")
    assert [e.kind for e in events][-2:] == ["boarding.begin", "boarding.round"]
    assert table.state["step"] == "boarding" and table.state["boarding"]["attacker"] == "london"
    action = table.expect("pc:gunner", "boarding.action")
    assert [o.key for o in action.options] == ["melee", "firebrand"]
    # Hale's 7H is a Critical against the 7S; the crew's 9S an Ordinary. Then the Command
    # test: the Condor's crew (Command 3) fails, Hale (Command 0, +1 for his win) 9D.
    events = table.do("pc:gunner", "boarding.action", "melee",
                      "7S  7H 2D 3D 4D  9S 2C 3C 4C   8D  2S 3S 4S  9D")
    assert table.ship("condor")["tracks"]["crew"] == "..|x.|.."
    assert table.ship("london")["tracks"]["crew"] == "x...|....|...."
    assert table.ship("london")["states"]["crew"] == 0
    assert any(e.kind == "boarding.command" and e.data.get("loser") == "condor" for e in events)
    table.expect(GM, "boarding.surrender")
    events = table.do(GM, "boarding.surrender", "surrender")
    outcome = ENGINE.outcome(table.state)
    assert (outcome.result, outcome.winner) == ("struck", "pc")
    assert outcome.data["boardings"][0]["result"] == "surrendered"
    assert table.ship("condor")["morale"] == 1 and table.ship("london")["morale"] == 0
    assert table.state["boarding"] is None


def test_a_boarding_lost_by_the_boarders_takes_their_ship():
    """N20: a boarding party whose Crew is Dead is repelled, and the attacking ship is taken
    in turn: with her Crew two boxes from Dead, the London's Hale loses the melee (an
    Injured hit) and the Command test, and fights on (a box): her Crew is Dead, the Condor
    wins."""
    setup = london_setup(start_distance=3)
    setup["ships"][0]["tracks"] = {"crew": "xxxx|xxxx|xx.."}
    # her Crew Maimed: Hale's Command gate (unskilled, one card) passes; she makes no
    # repair and wins the Positioning with 7 - 3 cards
    table = Table(setup, "9H  2H")
    table.do("pc:gunner", "repair.action", "none", "4C  4C 5H 6H 7H  5S 6S 7S 8S 9S")
    table.do("pc:gunner", "positioning.move", "0")
    table.do("pc:gunner", "boarding.action", "melee",
             "7S  2D 3D 4D 5D  8S 2C 3C 4C   8D  9D 2S 3S")
    assert table.ship("london")["tracks"]["crew"] == "xxxx|xxxx|xxx."
    table.do("pc:gunner", "boarding.surrender", "fight_on")
    outcome = ENGINE.outcome(table.state)
    assert (outcome.result, outcome.winner) == ("taken", "enemy")
    assert outcome.data["boardings"][0]["result"] == "repelled"
    assert outcome.data["fates"] == {"london": "taken"}


@pytest.mark.parametrize("fled_ship_morale", [False, True])
def test_escape_beyond_distance_five(fled_ship_morale):
    # N22: the losing side takes a level of Ship Morale; the ship that flees does too only
    # under the option (BtQ L2602-2603 shows only the loser's). The Condor, left behind,
    # never does.
    table = Table(london_setup(settings={"fled_ship_morale": fled_ship_morale}),
                  "4C  4C 5H 6H 7H 8H 9H 10H  5S 6S 7S 8S 9S")
    table.do("pc:gunner", "positioning.move", "escape")
    outcome = ENGINE.outcome(table.state)
    assert outcome.result == "escaped" and outcome.data["escaped"] == "london"
    assert outcome.data["ships"]["london"]["morale"] == (1 if fled_ship_morale else 0)
    assert outcome.data["ships"]["condor"]["morale"] == 0


def test_striking_and_disengaging():
    table = Table(london_setup(), "2C  3H 4H 5H 6H 7H 8H 9H  3D 4D 5D 6D 7D  " * 11)
    table.do("pc:gunner", "continue.orders", "continue")
    table.do(GM, "continue.orders", "strike")
    outcome = ENGINE.outcome(table.state)
    assert (outcome.winner, outcome.result) == ("pc", "struck")
    assert outcome.data["ships"]["condor"]["morale"] == 1
    table = Table(london_setup(), "2C  3H 4H 5H 6H 7H 8H 9H  3D 4D 5D 6D 7D  " * 11)
    table.do("pc:gunner", "continue.orders", "disengage")
    table.do(GM, "continue.orders", "disengage")
    assert ENGINE.outcome(table.state).result == "disengaged"


def test_changing_shot_costs_two_on_the_next_broadside():
    setup = no_pcs_london(start_distance=3)
    setup["ships"][1]["crew"]["gunnery"] = 5
    table = Table(setup, "9D  2H 3H 4H 5H 6H 7H 8H  9C 2S 3S 4S 5S")
    table.do(GM, "positioning.move", "1")
    first = table.expect(GM, "broadside.ammo")
    assert first.default == "roundshot" and "-" not in first.options[0].label
    table.do(GM, "broadside.ammo", "roundshot")
    table.do(GM, "broadside.ammo", "roundshot", "4S  2H 3H 5H  2C 5D 6D 7D 8D 9D 10D JD")
    assert of(table.events, "broadside.fire")[-1].data["size"] == 8  # 5 + 1 + 2 (gage)
    table.do(GM, "continue.orders", "continue")
    table.do(GM, "continue.orders", "continue", LONDON_WINS)
    table.do(GM, "positioning.move", "1")
    table.do(GM, "broadside.ammo", "roundshot")
    change = table.expect(GM, "broadside.ammo")
    assert change.default == "roundshot"
    assert [o.label for o in change.options if o.key == "double"] == ["Double-shotted -4"]
    table.do(GM, "broadside.ammo", "double", "4S  2H 3H 5H  2C 5D")
    [event] = [e for e in of(table.events, "broadside.ammo") if e.data["changed"]]
    assert event.visible_to == frozenset()  # the enemy's shot is the GM's to know
    fire = of(table.events, "broadside.fire")[-1]
    assert fire.data["size"] == 2 and "breakdown" not in fire.data  # 5 + 1 - 2 - 2
    assert fire.gm_data["breakdown"]["changing_shot"] == -2
    assert not table.ship("condor")["ammo_changed"]


# --- the engine contract ------------------------------------------------------------------

def test_illegal_actions_leave_the_state_unchanged():
    table = hermes_to_round_one()
    before = json.dumps(table.state, sort_keys=True)
    with pytest.raises(IllegalAction, match="for Master O'Toole to decide now, not "
                                            "Midshipman Smith"):
        ENGINE.apply(table.state, "pc:smith", "1", ScriptedSource())
    with pytest.raises(IllegalAction, match="not one of the choices"):
        ENGINE.apply(table.state, "pc:otoole", "7", ScriptedSource())
    with pytest.raises(IllegalAction):
        ENGINE.apply(table.state, GM, "1", ScriptedSource())
    assert json.dumps(table.state, sort_keys=True) == before
    final, _ = play_out(ENGINE, table.state, SeededSource(3))
    with pytest.raises(IllegalAction, match="over"):
        ENGINE.apply(final, GM, "continue", SeededSource(3))


@pytest.mark.parametrize("setup, message", [
    ({"weather": "fog"}, "weather"),
    ({"start_distance": 2}, "start_distance"),
    ({"settings": {"repair_lockout": "never"}}, "repair_lockout"),
    ({"ships": []}, "at least two ships"),
    ({"pcs": [{"id": "a", "ship": "corsair"}]}, "PC ship"),
    ({"pcs": [{"id": "a", "skills": {"flying": 2}}]}, "unknown skill"),
    ({"pcs": [{"id": "a", "station": "cook"}]}, "unknown station"),
    ({"pcs": [{"id": "a"}, {"id": "a"}]}, "share an id"),
    ({"surprise": True}, "unknown setup key"),
])
def test_setup_errors(setup, message):
    with pytest.raises(ValueError, match=message):
        ENGINE.validate_setup({**hermes_setup(), **setup})


@pytest.mark.parametrize("ship, message", [
    ({"type": "Galleon"}, "unknown ship type"),
    ({"tracks": {"hull": "x|.|."}}, "does not fit"),
    ({"tracks": {"crew": ".|.|x"}}, "cannot fight"),
    ({"side": "neutral"}, "side"),
    ({"morale": 4}, "morale"),
    ({"crew": {"gunnery": -1}}, "gunnery"),
    ({"ammo": "stones"}, "ammo"),
    ({"traits": ["Heart of Oak", "Weatherly"]}, "1 trait"),
])
def test_ship_setup_errors(ship, message):
    setup = hermes_setup()
    setup["ships"][1] = {**setup["ships"][1], **ship}
    with pytest.raises(ValueError, match=message):
        ENGINE.validate_setup(setup)


def test_participants():
    state = hermes_to_round_one().state
    assert ENGINE.participants(state) == {"pc:otoole": "Master O'Toole",
                                          "pc:bosworth": "Gunner Bosworth",
                                          "pc:smith": "Midshipman Smith"}


def secret_setup():
    setup = hermes_setup()
    setup["ships"][1]["crew"] = {"awareness": 11, "command": 12, "first_aid": 13,
                                 "gunnery": 14, "maritime": 15, "seamanship": 16}
    return setup


def leaks(value, secrets):
    """Whether ``value`` (JSON) holds a skill -> value pair of the enemy's crew."""
    if isinstance(value, dict):
        return any(k in secrets and secrets[k] == v for k, v in value.items()) or any(
            leaks(v, secrets) for v in value.values())
    if isinstance(value, list):
        return any(leaks(v, secrets) for v in value)
    return False


def test_hidden_information_stays_hidden():
    setup = secret_setup()
    secrets = setup["ships"][1]["crew"]
    for seed in range(20):
        source = SeededSource(seed)
        state, events = ENGINE.start(setup, source)
        views = []
        while ENGINE.outcome(state) is None:
            for who in ("pc:otoole", "pc:smith", "outsider"):
                views.append(ENGINE.view(state, who))
            decision = ENGINE.pending(state)[0]
            choice = ENGINE.default_choice(state, decision)
            if decision.kind == "fight.opposition":
                choice = "contested:gunnery"
            state, new = ENGINE.apply(state, decision.actor, choice, source)
            events += new
        for view in views:
            assert "crew" not in view["ships"]["corsair"]
            assert not leaks(view, secrets)
        for event in events:
            assert not leaks(event.data, secrets), event
            if event.visible_to is not None:
                assert "pc:otoole" not in event.visible_to
        assert any(leaks(e.gm_data, secrets) for e in events)  # the GM does see them
    assert ENGINE.view(state, GM)["ships"]["corsair"]["crew"] == secrets


def test_player_view_shows_own_pc_only():
    state = hermes_to_round_one().state
    view = ENGINE.view(state, "pc:smith")
    assert view["pcs"]["smith"]["skills"]["maritime"] == 3
    assert "skills" not in view["pcs"]["otoole"]
    assert view["ships"]["corsair"]["tracks"] == state["ships"]["corsair"]["tracks"]
    assert distance(view) == 3 and view["round"] == 1 and view["step"] == "positioning"
    assert view["waiting_for"] == {"actor": "pc:otoole", "kind": "positioning.move"}


def test_same_seed_same_battle():
    def battle(seed):
        source = SeededSource(seed)
        state, events = ENGINE.start(hermes_setup(), source)
        state, more = play_out(ENGINE, state, source)
        return state, [e.as_dict() for e in events + more], [str(d) for d in source.log]
    assert battle(7) == battle(7)
    assert battle(7) != battle(8)


def test_every_step_round_trips_through_json():
    source = SeededSource(11)
    state, _ = ENGINE.start(hermes_setup(), source)
    while ENGINE.pending(state):
        decision = ENGINE.pending(state)[0]
        state, _ = ENGINE.apply(json.loads(json.dumps(state)), decision.actor,
                                ENGINE.default_choice(state, decision), source)
        roundtrip(state)


def random_setup(rng):
    types = ["Cutter", "Brig Sloop", "Ship Sloop", "Sixth Rate", "Fifth Rate", "Third Rate",
             "First Rate"]
    crew = {k: rng.randint(1, 6) for k in ("awareness", "command", "first_aid", "gunnery",
                                            "maritime", "seamanship")}
    pcs = [{"id": f"p{i}", "name": f"PC {i}", "seniority": rng.randint(0, 9),
            "discipline": rng.randint(1, 4), "station": rng.choice(["master", "gunner", None]),
            "skills": {k: rng.randint(0, 5) for k in SKILLS}}
           for i in range(rng.randint(0, 3))]
    return {
        "weather": rng.choice(list(naval.WEATHER)),
        "start_distance": rng.choice([None, 3, 4, 5]),
        "settings": {"repair_lockout": rng.choice(["same_round", "next_round"]),
                     "double_shot_extra": rng.choice(["per_area", "per_hit"]),
                     "great_hardship": rng.choice([False, True])},
        "ships": [
            {"id": "a", "name": "A", "side": "pc", "type": rng.choice(types), "crew": crew,
             "morale": rng.randint(0, 2), "fire": rng.choice([0, 0, 1])},
            {"id": "b", "name": "B", "side": "enemy", "type": rng.choice(types),
             "crew": dict(crew), "morale": rng.randint(0, 2)},
        ],
        "pcs": pcs,
    }


def test_a_thousand_seeds_all_end():
    setup = hermes_setup()
    for seed in range(1000):
        source = SeededSource(seed)
        state, _ = ENGINE.start(setup, source)
        state, _ = play_out(ENGINE, state, source, max_steps=5000)
        assert ENGINE.outcome(state) is not None
        assert state["round"] <= naval.NIGHTFALL_ROUND


def test_random_choices_in_random_battles_stay_legal():
    rng = random.Random(5)
    for seed in range(150):
        setup = random_setup(rng)
        source = SeededSource(seed)
        state, _ = ENGINE.start(setup, source)
        steps = 0
        while ENGINE.pending(state):
            decision = ENGINE.pending(state)[0]
            assert decision.default in [o.key for o in decision.options], decision
            choice = rng.choice(decision.options).key
            if decision.kind == "positioning.move" and choice == "0" and rng.random() < 0.9:
                choice = decision.default
            state, _ = ENGINE.apply(state, decision.actor, choice, source)
            steps += 1
        roundtrip(state)
        outcome = ENGINE.outcome(state)
        assert outcome.result in {"sunk", "crew_dead", "struck", "escaped", "disengaged",
                                  "taken", "both_lost"}
        assert set(outcome.data["ships"]) == {"a", "b"}


def test_default_battle_is_plausible():
    # The stronger Hermes closes and fights; the Corsair flees or is beaten. Over 300 seeds
    # the Corsair never wins and the Hermes takes her more often than not.
    results = {}
    for seed in range(300):
        source = SeededSource(seed)
        state, _ = ENGINE.start(hermes_setup(), source)
        state, _ = play_out(ENGINE, state, source)
        outcome = ENGINE.outcome(state)
        results[outcome.winner] = results.get(outcome.winner, 0) + 1
    assert results.get("enemy", 0) < 10
    assert results.get("pc", 0) > 150


def fast_and_recorded_setups():
    rng = random.Random(8)
    burning = {  # a fire nobody aboard can fight, and heated shot coming
        "weather": "high_seas", "start_distance": 3,
        "ships": [{"id": "a", "side": "pc", "type": "Sixth Rate", "fire": 2, "morale": 2,
                   "crew": {"gunnery": 4, "seamanship": 4, "command": 3}},
                  {"id": "b", "side": "enemy", "type": "Fifth Rate", "ammo": "heated",
                   "tracks": {"guns": "x...|x...|...."},
                   "crew": {"gunnery": 5, "seamanship": 2, "command": 1}}]}
    return [hermes_setup(), london_setup(), burning] + [random_setup(rng) for _ in range(40)]


def test_the_fast_path_plays_the_same_battles_as_the_recorded_one():
    # auto_start + auto_play (no events built, state copied once) against start + play_out:
    # the same states, the same draws in the same order, the same generator position.
    for i, setup in enumerate(fast_and_recorded_setups()):
        for seed in range(i * 100, i * 100 + (40 if i < 3 else 4)):
            recorded, fast = SeededSource(seed), SeededSource(seed)
            state, _ = ENGINE.start(setup, recorded)
            begun = ENGINE.auto_start(setup, fast)
            assert begun == state and fast.log == recorded.log
            final, _ = play_out(ENGINE, state, recorded)
            assert ENGINE.auto_play(begun, fast) == final
            assert fast.log == recorded.log and fast.state() == recorded.state()


def test_no_step_changes_a_state_it_was_given():
    # States share what they do not change (a ship's tracks, the PCs...): a step that changed
    # such a value in place would change the states before it, or the kept start state.
    rng = random.Random(9)
    for seed, setup in enumerate(fast_and_recorded_setups()[:20]):
        first = json.dumps(ENGINE.start(setup, SeededSource(seed))[0])
        source = SeededSource(seed)
        state, _ = ENGINE.start(setup, source)
        seen = [(state, json.dumps(state))]
        while ENGINE.pending(state):
            decision = ENGINE.pending(state)[0]
            choice = decision.default
            if decision.kind != "positioning.move" and rng.random() < 0.3:
                choice = rng.choice(decision.options).key
            state, _ = ENGINE.apply(state, decision.actor, choice, source)
            seen.append((state, json.dumps(state)))
        for earlier, _ in seen[::3]:
            ENGINE.auto_play(earlier, SeededSource(seed))
        ENGINE.auto_play(ENGINE.auto_start(setup, SeededSource(seed)), SeededSource(seed))
        assert all(json.dumps(st) == text for st, text in seen)
        assert json.dumps(ENGINE.start(setup, SeededSource(seed))[0]) == first


def test_kept_start_states_tell_setups_apart_exactly():
    # Start states are kept by setup; a setup that differs only in a type is its own setup.
    setup = london_setup()
    setup["ships"][0]["morale"] = 1
    ENGINE.start(setup, SeededSource(1))
    setup["ships"][0]["morale"] = True
    with pytest.raises(ValueError, match="morale must be a whole number"):
        ENGINE.start(setup, SeededSource(1))

    class Weather(str):
        pass

    odd = london_setup()
    odd["weather"] = Weather("storm")
    state, _ = ENGINE.start(odd, SeededSource(1))
    assert state["weather"] == "storm"
    assert ENGINE.auto_start(odd, SeededSource(1)) == state


# --- who decides: the shot, the repairer, striking at any time -------------------------------

def hermes_fight_round_one():
    """TV-N07 up to the Broadside!: Distance 1, How Will You Fight? as in the book."""
    table = hermes_to_round_one()
    table.do("pc:otoole", "positioning.move", "1")
    table.do("pc:otoole", "fight.action", "seamanship")
    table.do(GM, "fight.opposition", "contested:seamanship", "2H  3H 4C 5C 6C 7C  8S 9S 10S")
    table.do("pc:bosworth", "fight.action", "gunnery")
    table.do(GM, "fight.opposition", "static:3", "2D  3S 4S 5S 6S 7S  3D 4C 5C")
    table.do("pc:smith", "fight.action", "first_aid")
    table.do(GM, "fight.opposition", "static:3", "2C  3H 4H 5H 6H  3C 4D 5D")
    return table


def test_the_gunner_chooses_the_shot_and_only_a_captain_may_strike_there():
    # BtQ L2609-2610: "the character commanding the guns should choose".
    table = hermes_fight_round_one()
    ours = table.expect("pc:bosworth", "broadside.ammo")
    assert "strike" not in [o.key for o in ours.options]  # Bosworth is not the captain
    table.do("pc:bosworth", "broadside.ammo", "roundshot")
    theirs = table.expect(GM, "broadside.ammo")
    assert theirs.options[-1].key == "strike" and theirs.default == "roundshot"


def test_without_a_posted_gunner_the_pc_who_fires_chooses_the_shot():
    setup = hermes_setup()
    setup["pcs"][1]["station"] = "lieutenant"
    table = Table(setup, "6C  4C KS  3C JD")
    assert naval._gun_commander(table.state, "hermes") == "pc:bosworth"  # the best Gunnery
    assert naval._gun_commander(table.state, "corsair") == GM
    setup["pcs"] = [setup["pcs"][0]]
    setup["pcs"][0]["skills"]["gunnery"] = 0
    assert naval._gun_commander(Table(setup, "6C  4C KS  3C JD").state, "hermes") == "pc:otoole"


def test_a_captain_strikes_his_colours_at_repair():
    setup = london_setup(start_distance=3)
    setup["ships"][0]["tracks"] = {"hull": "xx..|x...|...."}
    table = Table(setup)
    decision = table.expect("pc:gunner", "repair.action")
    assert decision.options[-1].key == "strike" and decision.default == "hull:crew"
    events = table.do("pc:gunner", "repair.action", "strike")
    outcome = ENGINE.outcome(table.state)
    assert (outcome.result, outcome.winner, outcome.data["losers"]) == ("struck", "enemy",
                                                                        ["pc"])
    assert table.ship("london")["struck"] and ENGINE.pending(table.state) == []
    assert of(events, "battle.end")[0].text == (
        "HMS London strikes her colours and surrenders to the Condor.")


def test_the_enemy_captain_strikes_when_he_wins_the_positioning():
    # TV-N12's first Positioning: the Condor wins with a Critical.
    table = Table(no_pcs_london(start_distance=3), "9D  2H 3H 4H 5H 6H 7H 8H  9C 2S 3S 4S 5S")
    move = table.expect(GM, "positioning.move")
    assert move.options[-1].key == "strike" and move.default == "5"
    table.do(GM, "positioning.move", "strike")
    outcome = ENGINE.outcome(table.state)
    assert (outcome.result, outcome.winner, outcome.data["losers"]) == ("struck", "pc",
                                                                        ["enemy"])
    assert table.ship("condor")["struck"] and not table.ship("london")["struck"]


def test_the_crew_repairs_before_any_pc_and_the_commander_last():
    setup = london_setup(start_distance=3)
    setup["ships"][0]["tracks"] = {"hull": "xx..|x...|...."}
    setup["ships"][0]["crew"] = {"awareness": 2}
    setup["pcs"].append({"id": "mid", "name": "Midshipman Vane", "seniority": 1,
                         "station": "midshipman", "skills": {"seamanship": 1}})
    table = Table(setup)
    table.do("pc:gunner", "discipline.cards", "0")
    decision = table.expect("pc:gunner", "repair.action")
    # Hale (the commander, Seamanship 4) has the best pool; Vane, with no post, repairs; the
    # crew, with no skill for it, would turn one card unskilled (BtQ L1266-1269).
    assert "unskilled" in repair_pool(table.state, "pc", "hull", "crew")[1]
    assert decision.default == "hull:pc:mid"
    setup["pcs"].pop()
    assert Table(setup).expect("pc:gunner", "repair.action").default == "hull:pc:gunner"


# --- wording ---------------------------------------------------------------------------------

def test_one_card_is_a_card_and_the_weather_is_named_as_a_state():
    table = hermes_to_round_one()
    start = of(table.events, "battle.start")[0]
    assert start.text == ("The Hermes (22) (Brig Sloop) meets the Corsair (Cutter). "
                          "Weather: Good Wind.")
    assert "wins with an ordinary success" in of(table.events, "awareness.test")[0].text
    table.do("pc:otoole", "positioning.move", "1")
    table.do("pc:otoole", "fight.action", "seamanship")
    labels = [o.label for o in table.expect(GM, "fight.opposition").options]
    assert "Static: Easy (1 card)" in labels and "Static: Routine (3 cards)" in labels
    becalmed = Table({**hermes_setup(), "weather": "becalmed"}, "6C  4C KS  3C JD")
    assert of(becalmed.events, "battle.start")[0].text.endswith("Weather: Becalmed.")


def test_setup_errors_name_the_ship_and_the_pc_not_their_ids():
    setup = hermes_setup()
    setup["ships"][1] = {**setup["ships"][1], "id": "2", "tracks": {"crew": ".|.|x"}}
    with pytest.raises(ValueError, match="^the Corsair: a ship whose crew is Dead cannot fight"):
        ENGINE.validate_setup(setup)
    setup = hermes_setup()
    setup["pcs"][0]["ship"] = "corsair"
    with pytest.raises(ValueError, match="^Master O'Toole: the PCs serve aboard the PC ship, "
                                         r"the Hermes \(22\), not ship 'corsair'"):
        ENGINE.validate_setup(setup)


def test_the_log_of_the_book_battle_reads_as_sentences():
    table = hermes_round_two(hermes_round_one())
    texts = {e.kind: e.text for e in table.events}  # the last of each kind
    assert of(table.events, "awareness.test")[0].text == (
        "Awareness: who sets the starting distance: the Hermes (22) (Master O'Toole) wins "
        "with an ordinary success.")
    assert texts["fight.total"] == "How Will You Fight?: -1 to the Hermes (22)'s Broadside!"
    assert texts["positioning.test"] == "Positioning: the Corsair wins with an ordinary success."
    smith, corsair = (e.text for e in of(table.events, "repair.test"))
    assert smith.startswith("The Hermes (22): Midshipman Smith tries to repair the Hull "
                            "(5 cards against 7♠)")
    assert corsair.startswith("The Corsair's crew tries to repair the Hull (3 cards")
    assert texts["discipline.cards"] == ("Master O'Toole hands out his Discipline: "
                                         "Gunner Bosworth +1, Midshipman Smith +2.")


# --- the scenarios ----------------------------------------------------------------------------

def test_the_hermes_vs_corsair_scenario_is_the_books_battle():
    """The scenario's cards and choices play the book's battle to TV-N09's end (its setup is
    :func:`hermes_setup`, checked step by step above)."""
    scenario = ENGINE.scenarios()["hermes_vs_corsair"]
    source = ScriptedSource(scenario.cards)
    state, events = play_scenario(ENGINE, scenario, source)
    assert source.cards_left == 0
    assert ENGINE.pending(state) == []
    assert state["ships"]["corsair"]["tracks"] == {"hull": "x.|x.|..", "guns": ".|x|x",
                                                   "crew": "x|x|x", "rigging": ".|.|."}
    assert state["ships"]["hermes"]["tracks"]["hull"] == "..|..|.."
    outcome = ENGINE.outcome(state)
    assert (outcome.winner, outcome.result) == ("pc", "crew_dead")
    assert outcome.data["ships"]["corsair"]["morale"] == 1
    assert [e.data["card_of_fate"] for e in of(events, "broadside.fire")] == ["AS", "AS", "KH"]
    assert of(events, "fight.total")[-1].data["modifier"] == 3


def book(name):
    """Scenario ``name`` played with its cards and choices: the state and the events."""
    scenario = ENGINE.scenarios()[name]
    source = ScriptedSource(scenario.cards)
    state, events = play_scenario(ENGINE, scenario, source)
    assert source.cards_left == 0, "the scenario holds cards its choices never draw"
    roundtrip(state)
    return state, events


def test_the_scenarios_are_the_books_battles():
    assert set(ENGINE.scenarios()) == {"hermes_vs_corsair", "london_vs_condor",
                                       "london_vs_vulture", "london_condor_and_vulture",
                                       "condor_boards_london", "london_on_fire",
                                       "london_fights_fire"}


def test_tv_n02_to_n05_london_vs_condor():
    state, events = book("london_vs_condor")
    awareness = of(events, "awareness.test")[0]
    assert awareness.data["winner"] == "enemy"
    assert of(events, "start.distance")[0].data["distance"] == 5      # TV-N02
    pos = of(events, "positioning.test")[0]
    assert pos.data["pools"]["pc"]["breakdown"] == {"seamanship": 4, "handling": 2, "speed": 1}
    assert positioning_pool(state, "enemy")[1]["speed"] == -1            # TV-N03
    assert ["4C", "perfect"] in pos.data["pools"]["pc"]["cards"]        # TV-N04
    assert pos.data["winner"] == "pc"
    assert distance(state) == 2 and only_pair(state)["gage"]["to"] == "london"
    assert of(events, "fight.total")[0].data["modifier"] == 1
    [fire] = of(events, "broadside.fire")                               # TV-N05
    assert fire.data["size"] == 7 and fire.data["card_of_fate"] == "4S"
    assert fire.data["breakdown"] == {"gunnery": 5, "broadside": 3, "weather_gage": 2,
                                      "how_will_you_fight": 1, "range": -4}
    assert sorted(map(tuple, fire.data["hits"])) == [("hull", 1), ("hull", 1), ("hull", 3),
                                                     ("rigging", 2)]
    assert state["ships"]["condor"]["tracks"] == {"hull": "xx|..|x.", "guns": "..|..|..",
                                                  "crew": "..|..|..", "rigging": "..|x.|.."}
    assert [(d.actor, d.kind) for d in ENGINE.pending(state)] == [("pc:carew",
                                                                   "continue.orders")]


def test_tv_n10_london_vs_vulture_one_on_one():
    state, events = book("london_vs_vulture")
    pos = of(events, "positioning.test")[0]
    assert pos.data["winner"] == "pc" and ["9D", "critical"] in pos.data["pools"]["pc"]["cards"]
    assert distance(state) == 2 and only_pair(state)["gage"]["to"] == "london"
    size, breakdown = broadside_pool(state, "pc")
    assert size == 6 and sum(v for k, v in breakdown.items() if k != "range") == 10
    assert breakdown["range"] == -4
    assert broadside_pool(state, "enemy") == (3, {"gunnery": 5, "broadside": 2, "range": -4})


def test_tv_n11_the_condor_boards_and_is_the_attacker():
    state, events = book("condor_boards_london")
    assert distance(state) == 0 and ENGINE.outcome(state) is None
    assert state["boarding"]["attacker"] == "condor"
    assert next(e for e in events if e.kind == "boarding.begin").data == {"attacker": "condor"}
    pos = of(events, "positioning.test")[-1]
    assert pos.data["winner"] == "enemy" and ["9C", "critical"] in pos.data["pools"]["enemy"][
        "cards"]


def test_tv_n12_heated_shot_sets_the_london_on_fire():
    state, events = book("london_on_fire")
    london = state["ships"]["london"]
    assert of(events, "fire.start")
    assert [e.data["hits"] for e in of(events, "fire.damage")] == [
        [["guns", 1]], [["crew", 1], ["crew", 1]]]
    assert london["tracks"]["guns"] == "x...|....|...."
    assert london["tracks"]["crew"] == "xx..|....|...."
    assert london["fire"] == 2


def test_tv_n13_the_boatswain_puts_the_fire_out():
    state, events = book("london_fights_fire")
    hits = [h for e in of(events, "fire.damage") for h in e.data["hits"]]
    assert hits == [["hull", 1]] * 2 + [["rigging", 1]] * 2 + [["guns", 1]]
    assert [e.data["fire"] for e in of(events, "repair.test")] == [2, 1, 0]
    assert state["ships"]["london"]["fire"] == 0 and state["round"] == 4


def test_firebrands_in_a_boarding_set_the_battle_s_fire():
    """BtQ L2663-2669 (N16, N17): Hale hurls firebrands instead of his boarding action: his
    9C against the 9H is a Critical of Clubs (the Rigging) and beats the Routine pool, so
    the Condor is on fire; at the start of the next round's Repair her fire turns a card
    (the 5D, an Injured hit on her Guns), and the GM may fight it."""
    table = Table(london_setup(start_distance=3), "4C  4C 5H 6H 7H 8H 9H 10H  5S 6S 7S 8S 9S")
    table.do("pc:gunner", "positioning.move", "0")
    action = table.expect("pc:gunner", "boarding.action")
    assert action.options[-1].label == "Firebrands and grenades (Gunnery)"
    table.do("pc:gunner", "boarding.action", "firebrand",
             "9H  9C 2D 3D 4D 5D  2S 3S 4S   8D  2S 3S 4S  9D")
    assert table.state["boarding"]["state"]["fire"] == {"condor": 1}
    events = table.do(GM, "boarding.surrender", "fight_on", "5D")
    fire = of(events, "fire.start")
    assert fire and fire[0].data == {"ship": "condor", "fire": 1}
    assert of(events, "fire.damage")[0].data["hits"] == [["guns", 1]]
    assert table.ship("condor")["tracks"]["guns"].startswith("x")
    assert "fire:crew" in [o.key for o in table.expect(GM, "repair.action").options]


def test_a_command_casualty_costs_the_ship_two_cards():
    """BtQ L2526-2528: with her Master down, the mate makes the ship's Positioning tests at
    -2; with her Gunner down, her Broadside! and gun repairs."""
    table = Table(london_setup(start_distance=3), "4C  4C 5H 6H 7H 8H 9H 10H  5S 6S 7S 8S 9S")
    state = table.state
    before = naval.positioning_pool(state, "condor")[0]
    ships = dict(state["ships"])
    ships["condor"] = {**ships["condor"], "casualties": {"positioning": -2, "broadside": -2,
                                                         "gun_repair": -2}}
    hurt = {**state, "ships": ships}
    size, breakdown = naval.positioning_pool(hurt, "condor")
    assert size == before - 2 and breakdown["command_casualty"] == -2
    assert naval.broadside_pool(hurt, "condor", distance=1)[0] == naval.broadside_pool(
        state, "condor", distance=1)[0] - 2
    assert naval.repair_pool(hurt, "condor", "guns", "crew")[1]["command_casualty"] == -2


def test_a_pc_boards_with_the_health_his_sheet_has():
    """BtQ L1314-1316: Hale, Injured, turns one card fewer in the Grand Melee (the cutlass's
    4 less 1); a Dead man fights no battle."""
    setup = london_setup(start_distance=3)
    setup["pcs"][0].update(health="injured", guts=3)
    table = Table(setup, "4C  4C 5H 6H 7H 8H 9H 10H  5S 6S 7S 8S 9S")
    table.do("pc:gunner", "positioning.move", "0")
    fighter = table.state["boarding"]["state"]["fighters"]["pc:gunner"]
    assert (fighter["health"], fighter["guts"]) == ("injured", 3)
    events = table.do("pc:gunner", "boarding.action", "melee",
                      "7S  7H 2D 3D  9S 2C 3C 4C   8D  2S 3S 4S  9D")
    draw = next(e for e in events if e.kind == "boarding.draw")
    assert len(draw.data["pools"]["a"]["cards"]) == 3
    setup["pcs"][0]["health"] = "dead"
    with pytest.raises(ValueError, match="health"):
        naval.validate_setup(setup)


def test_a_pc_s_combat_traits_go_with_him_into_the_boarding():
    """BtQ L1092-1101: Hale's Strong Swordarm (2) adds two cards to his cutlass in the Grand
    Melee; a trait personal combat does not know is refused."""
    setup = london_setup(start_distance=3)
    setup["pcs"][0]["combat_traits"] = {"Strong Swordarm": 2}
    table = Table(setup, "4C  4C 5H 6H 7H 8H 9H 10H  5S 6S 7S 8S 9S")
    table.do("pc:gunner", "positioning.move", "0")
    events = table.do("pc:gunner", "boarding.action", "melee",
                      "7S  7H 2D 3D 4D 5D 6D  9S 2C 3C 4C   8D  2S 3S 4S  9D")
    draw = next(e for e in events if e.kind == "boarding.draw")
    assert len(draw.data["pools"]["a"]["cards"]) == 6
    setup["pcs"][0]["combat_traits"] = {"Stargazer": 1}
    with pytest.raises(ValueError, match="combat_traits"):
        naval.validate_setup(setup)


@pytest.mark.parametrize("scratched", [False, True])
def test_is_but_a_scratch_spent_on_the_sheet_stays_spent_in_the_boarding(scratched):
    """D12 (BtQ L1049-1050): Is But A Scratch, Sir!'s extra wound level is used once, until
    the Health heals; a PC whose sheet has it spent boards without it, the fighter's
    ``scratch`` (still unspent) false; one who has not, with it."""
    setup = london_setup(start_distance=3)
    setup["pcs"][0].update(combat_traits={"Is But A Scratch, Sir!": 1}, scratched=scratched)
    assert naval.validate_setup(setup)["pcs"][0].get("scratched", False) is scratched
    table = Table(setup, "4C  4C 5H 6H 7H 8H 9H 10H  5S 6S 7S 8S 9S")
    table.do("pc:gunner", "positioning.move", "0")
    fighter = table.state["boarding"]["state"]["fighters"]["pc:gunner"]
    assert fighter["traits"] == {"Is But A Scratch, Sir!": 1}
    assert fighter["scratch"] is not scratched
    setup["pcs"][0]["scratched"] = "yes"
    with pytest.raises(ValueError, match="scratched"):
        naval.validate_setup(setup)


def test_maimed_rigging_needs_a_maritime_test_to_position():
    # BtQ L2478 (D16): the Condor's Rigging Maimed; her crew's Maritime 3 against the 2D
    # fails, so she turns no Positioning cards (3 + 3 - 1 - 3 = 2) and London (7 cards)
    # moves by her 9C alone (D18).
    setup = no_pcs_london(start_distance=3)
    setup["ships"][1]["tracks"] = {"rigging": "..|xx|.."}
    setup["ships"][1]["crew"]["maritime"] = 3
    table = Table(setup)
    table.do(GM, "repair.action", "none", "2D  3H 4H 5H  9D  9C 2H 3H 4H 5H 6H 7H")
    [gate] = of(table.events, "gate.test")
    assert (gate.data["skill"], gate.data["pool"], gate.data["passed"]) == ("maritime", 3, False)
    assert gate.text == ("The Condor: Rigging Maimed: a Maritime test to position; the "
                         "Condor's crew tests Maritime and fails.")
    pos = of(table.events, "positioning.test")[0]
    assert pos.data["pools"]["enemy"]["size"] == 0 and pos.data["winner"] == "pc"


def test_maimed_hull_needs_a_seamanship_test_to_fire():
    # BtQ L2476-2477 (D16): the Condor's Hull Maimed. She wins the Positioning with her 9C
    # (2 cards: 3 + 3 - 1 - 3) and closes to 1; her pool to fire is 6 + 0 + 2 (gage) - 3 = 5,
    # so she must pass a Seamanship test: her crew's 3 cards against the 2D fail, and London
    # fires alone.
    setup = no_pcs_london(start_distance=3)
    setup["ships"][1]["tracks"] = {"hull": "..|xx|.."}
    setup["ships"][1]["crew"]["gunnery"] = 6
    table = Table(setup)
    table.do(GM, "repair.action", "none", "9D  2H 3H 4H 5H 6H 7H 8H  9C 2S")
    table.do(GM, "positioning.move", "1")
    table.do(GM, "broadside.ammo", "roundshot")
    table.do(GM, "broadside.ammo", "roundshot", "2D  3H 4H 5H  4S  2H 3H 5H")
    [gate] = of(table.events, "gate.test")
    assert (gate.data["skill"], gate.data["pool"], gate.data["passed"]) == (
        "seamanship", 3, False)
    assert [e.data["ship"] for e in of(table.events, "broadside.fire")] == ["london"]
