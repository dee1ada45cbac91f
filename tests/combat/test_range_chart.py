"""The range chart on a battle's page (``combat.templatetags.naval.range_chart``)."""

from django.template.loader import render_to_string

from rules.btq.naval import GAGE_BONUS
from rules.engine import GM, get_engine
from rules.random import SeededSource


def _view(round_: int) -> dict:
    engine = get_engine("btq_naval")
    setup = engine.scenarios()["hermes_vs_corsair"].setup
    state, _ = engine.start({**setup, "start_distance": 3}, SeededSource(1))
    (key,) = state["pairs"]
    state["pairs"][key]["gage"] = {"to": "hermes", "round": 1}
    state["round"] = round_
    return engine.view(state, GM)


def test_the_weather_gage_says_its_bonus_in_its_round_and_when_it_was_taken_after():
    taken = render_to_string("combat/engines/btq_naval.html", {"view": _view(1)})
    assert f"Weather Gage: Hermes (22) (+{GAGE_BONUS} to her Broadside! this round)" \
        in " ".join(taken.split())
    later = " ".join(render_to_string("combat/engines/btq_naval.html",
                                      {"view": _view(7)}).split())
    assert "Weather Gage: Hermes (22), taken in round 1" in later
    assert "this round" not in later
