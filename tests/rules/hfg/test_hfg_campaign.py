"""HFG preliminary map movement (``rules/hfg.md`` §13; HFG L339-353): march rates and
limits on a small map, the weather with scripted dice, engineering work, who defends (and
a battle set up from the map), the battle's map periods, retreat and the colonial option."""

import pytest

from rules.engine import IllegalAction
from rules.hfg.campaign import (
    WORK_PERIODS,
    CampaignMap,
    Link,
    Weather,
    check_march,
    defender,
    map_period,
    may_retreat,
    moves_today,
    rates,
    weather_roll,
)
from rules.hfg.engine import ENGINE, validate_setup
from rules.random import ScriptedSource, SeededSource

#   A -good- B -good- C -good- D,  and  B -bad- E
MAP = CampaignMap(nodes=("A", "B", "C", "D", "E"),
                  links=(Link("A", "B"), Link("B", "C"), Link("C", "D"),
                         Link("B", "E", "bad")))


@pytest.mark.parametrize("code,expected", [
    ("CP", (3, 3)), ("DRG", (3, 3)), ("LC", (3, 3)), ("LI", (3, 3)), ("LH", (3, 3)),
    ("SK", (3, 3)), ("CUI", (2, 3)), ("HC", (2, 3)), ("SIP", (2, 3)), ("MUS", (2, 3)),
    ("HQ", (2, 3)), ("SBA", (1, 2)), ("LTA", (1, 2)),
    # not named in the text: the digest's classes
    ("PIS", (2, 3)), ("ELE", (2, 3)), ("NP", (2, 3)), ("MR", (3, 3)), ("LAA", (1, 2)),
])
def test_march_rates(code, expected):
    assert rates(code) == expected


def test_ships_and_immobile_troops_do_not_march():
    for code in ("SAIL", "SUP", "SPG"):
        with pytest.raises(IllegalAction, match="does not march"):
            rates(code)


def test_the_map_is_checked():
    MAP.check()
    for links, message in [((Link("A", "Z"),), "not on the map"), ((Link("A", "A"),), "nowhere"),
                           ((Link("A", "B"), Link("B", "A")), "two roads"),
                           ((Link("A", "B", "muddy"),), "good or bad")]:
        with pytest.raises(IllegalAction, match=message):
            CampaignMap(nodes=MAP.nodes, links=links).check()
    with pytest.raises(IllegalAction, match="no road joins A and C"):
        MAP.route(["A", "C"])


def test_a_light_brigade_marches_three_good_stages_in_a_morning():
    m = check_march(MAP, ["A", "B", "C", "D"], ["LC", "LC", "CP"], period="morning")
    assert (m.stages, m.periods, m.rest) == (3, 1, False)


@pytest.mark.parametrize("path,codes,kw,message", [
    (["A", "B", "C", "D"], ["MUS"], {}, "at most 2 stages in one period"),
    (["A", "B", "C"], ["LC", "SBA"], {}, "at most 1 stage in one period"),  # the slowest
    (["A", "B", "C"], ["MUS"], {"marched_today": 2}, "at most 3 stages in a day"),
    (["C", "B", "E"], ["LC"], {}, "bad roads or by night covers at most 1 stage"),
    (["A", "B", "C"], ["LC"], {"period": "night"}, "at most 1 stage"),
    (["A", "B"], ["MUS"], {"successive": 2}, "more than 2 successive periods"),
    (["A", "B"], ["MUS"] * 5, {}, "no more than 4 troop elements"),
    (["A", "B"], ["MUS", "MUS"], {"already_on_stage": (3, 0)}, "no more than 4"),
    (["A", "B"], ["CP", "HQ"], {}, "1 staff element"),
    (["A", "B"], ["MUS"], {"period": "evening"}, "a period is one of"),
    (["A"], ["MUS"], {}, "from one place to another"),
    (["A", "B"], [], {}, "at least one element"),
])
def test_marches_the_rules_forbid(path, codes, kw, message):
    kw = {"period": "morning", **kw}
    with pytest.raises(IllegalAction, match=message):
        check_march(MAP, path, codes, **kw)


def test_routers_crowd_a_stage():
    assert check_march(MAP, ["A", "B"], ["MUS"] * 6, period="morning", routing=True).stages == 1


def test_guns_on_a_muddy_bad_road_take_two_periods_and_nights_need_rest():
    m = check_march(MAP, ["B", "E"], ["SBA", "MUS"], period="afternoon", muddy=True)
    assert (m.stages, m.periods, m.rest) == (1, 2, True)  # ends in the night
    assert check_march(MAP, ["B", "E"], ["SBA"], period="morning").periods == 1  # dry
    assert check_march(MAP, ["A", "B"], ["SBA"], period="morning", muddy=True).periods == 1
    with pytest.raises(IllegalAction, match="2 successive periods"):
        check_march(MAP, ["B", "E"], ["SBA"], period="morning", muddy=True, successive=1)
    assert check_march(MAP, ["A", "B"], ["MUS"], period="night").rest


def test_the_weather():
    dry = Weather()
    # a dry afternoon ends: 1 brings rain; anything else keeps it dry
    wet = weather_roll(ScriptedSource(rolls=[1]), dry, "afternoon")
    assert wet == Weather(raining=True, muddy=True)
    assert weather_roll(ScriptedSource(rolls=[2]), dry, "afternoon") == dry
    assert weather_roll(ScriptedSource(rolls=[]), dry, "morning") == dry  # no die
    # each later period while it rains: 4+ stops it, the roads bad to the period's end
    assert weather_roll(ScriptedSource(rolls=[3]), wet, "night") == wet
    stopped = weather_roll(ScriptedSource(rolls=[4]), wet, "morning")
    assert stopped == Weather(raining=False, muddy=True)
    assert weather_roll(ScriptedSource(rolls=[]), stopped, "morning") == dry
    source = ScriptedSource(rolls=[1])
    weather_roll(source, dry, "afternoon")
    assert str(source.log[0]) == "d6 campaign weather: 1"


def test_work_battle_and_retreat():
    assert WORK_PERIODS == {"entrenchment": 1, "break_bridge": 1, "redoubt": 2,
                            "repair_bridge": 2, "build_bridge": 3}
    assert defender({"a": (1, 2), "b": (1, 1)}) == "b"  # b arrived first, in the afternoon
    with pytest.raises(IllegalAction, match="arrived together"):
        defender({"a": (2, 0), "b": (2, 0)})
    assert [map_period(n) for n in (0, 5, 6, 12)] == [0, 0, 1, 2]
    # Light Cavalry and Light Infantry (600p) may slip away from Muskets (400p); with
    # Muskets of their own they may not get away from Light Infantry
    assert may_retreat(["LC", "LI"], ["MUS", "LC"], movement_left=True)
    assert not may_retreat(["LC", "MUS"], ["LI"], movement_left=True)
    assert not may_retreat(["LC"], ["MUS"], movement_left=False)
    assert [moves_today(d, native=True, colonial=True) for d in (1, 2, 3)] == [0, 2, 0]
    assert moves_today(1, native=False, colonial=True) == 1


def met_on_the_map(arrived, attacker=None):
    setup = {"title": "Met", "year": 1800, "campaign": {"arrived": arrived},
             "sides": [{"id": s, "name": s.upper(), "commands": [{"id": s, "general": f"{s}-cp"}]}
                       for s in ("a", "b")],
             "elements": [
                 {"id": "a-cp", "side": "a", "command": "a", "type": "CP", "x": 3000,
                  "y": 1000},
                 {"id": "b-cp", "side": "b", "command": "b", "type": "CP", "x": 3000,
                  "y": 5000, "heading": 180}]}
    if attacker:
        setup["attacker"] = attacker
    return validate_setup(setup)


def test_a_battle_from_the_map_is_defended_by_the_side_there_first():
    setup = met_on_the_map({"a": [2, "morning"], "b": [1, "night"]})
    assert setup["attacker"] == "a" and setup["campaign"]["arrived"]["b"] == [1, "night"]
    state, _ = ENGINE.start(setup, SeededSource(0))
    assert state["defender"] == "b"
    assert met_on_the_map({"a": [1, "morning"], "b": [1, "afternoon"]})["attacker"] == "b"


@pytest.mark.parametrize("arrived,attacker,message", [
    ({"a": [2, "morning"], "b": [1, "night"]}, "b", "side b arrived first .* so it defends"),
    ({"a": [1, "morning"]}, None, "a day and period for each side"),
    ({"a": [1, "dawn"], "b": [1, "night"]}, None, "side a arrived on a day"),
    ({"a": [0, "night"], "b": [1, "night"]}, None, "side a arrived on a day"),
    ({"a": [1, "night"], "b": [1, "night"]}, None, "arrived together"),
])
def test_bad_arrivals_are_refused(arrived, attacker, message):
    with pytest.raises(IllegalAction, match=message):
        met_on_the_map(arrived, attacker)
