"""The Brethren of the Coast board is legible on a phone: no two ship labels on top of each
other, short keys for the ships there, and a legend of the ships and the marks (a tester
found the pieces' labels overlapping at 390 px and no legend)."""

import re

import pytest
from django.template.loader import render_to_string

from combat.templatetags.brethren import LABEL_CLEARANCE, brethren_board
from rules.brethren.engine import ENGINE
from rules.engine import GM
from rules.random import SeededSource

SCENARIOS = sorted(ENGINE.scenarios())


def _board(name: str) -> tuple[dict, str]:
    setup = ENGINE.validate_setup(ENGINE.scenarios()[name].setup)
    state, _ = ENGINE.start(setup, SeededSource(1))
    data = brethren_board(ENGINE.view(state, GM))
    return data, render_to_string("combat/engines/_brethren_board.html", data)


@pytest.mark.parametrize("name", SCENARIOS)
def test_no_two_ship_labels_sit_on_each_other(name):
    data, _ = _board(name)
    spots = [(float(s["label_x"]), float(s["label_y"])) for s in data["ships"]]
    for i, (x, y) in enumerate(spots):
        for x2, y2 in spots[i + 1:]:
            assert abs(x - x2) >= LABEL_CLEARANCE or abs(y - y2) >= LABEL_CLEARANCE, (
                name, (x, y), (x2, y2))


def test_a_ship_alongside_another_has_her_label_below_her():
    """Two ships side by side (a boarding): the second's label goes below her."""
    setup = ENGINE.validate_setup(ENGINE.scenarios()["first_broadside"].setup)
    state, _ = ENGINE.start(setup, SeededSource(1))
    first, second = (state["ships"][i] for i in state["ship_ids"][:2])
    second.update(x=first["x"] + 0.6, y=first["y"], heading=first["heading"])
    a, b = brethren_board(ENGINE.view(state, GM))["ships"][:2]
    assert float(b["label_y"]) > float(a["label_y"]) + LABEL_CLEARANCE


@pytest.mark.parametrize("name", SCENARIOS)
def test_the_legend_names_every_ship_by_her_key_and_the_marks(name):
    data, html = _board(name)
    legend = html.split('class="board-legend"')[1]
    for s in data["ships"]:
        assert re.search(rf'data-ship="{s["id"]}"><strong class="legend-key"[^>]*>{s["key"]}'
                         rf'</strong> {re.escape(s["name"])} ', legend.replace("&#x27;", "'"))
        assert f'class="label-key" x="{s["label_x"]}" y="{s["label_y"]}"' in html
    assert "an island" in legend and "a mast standing" in legend
    for t in data["terrain_kinds"]:
        assert t["name"] in legend
    assert [s["key"] for s in data["ships"]] == [str(i) for i in range(1, len(data["ships"]) + 1)]
