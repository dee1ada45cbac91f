"""The HFG battlefield on the page (``combat/templatetags/hfg.py``): terrain, every element on
the table with its facing, type, grade and state, drawn from the engine's view."""

import re

from django.template.loader import render_to_string

from combat.templatetags.hfg import LABEL_EM
from rules.engine import GM
from rules.hfg.engine import ENGINE, validate_setup
from rules.random import SeededSource


def test_the_board_draws_terrain_and_elements():
    setup = validate_setup(ENGINE.scenarios()["landing_party"].setup)
    state, _ = ENGINE.start(setup, SeededSource(3))
    state["elements"]["sailors"]["state"] = "routing"
    state["elements"]["garrison"]["state"] = "destroyed"
    html = render_to_string("combat/engines/hfg.html", {"view": ENGINE.view(state, GM)})
    assert html.count('class="terrain ') == 5 and 'data-terrain="village"' in html
    assert 'data-element="marines"' in html and '>BAY E</text>' in html
    assert 'data-order-name="Elite Bayonets (marines)"' in html  # as its orders name it
    assert "marines: Elite Bayonets, facing 0°" in html
    assert 'class="element routing" data-element="sailors"' in html
    assert 'g class="element" data-element="garrison"' not in html  # gone from the table
    assert "Inferior Muskets, destroyed" in html  # still in the army's list
    assert "Bound 1" in html and "The landing party to move" in html and "(attacking)" in html


def test_the_board_draws_field_works():
    setup = ENGINE.scenarios()["landing_party"].setup
    setup = {**setup, "terrain": [*setup["terrain"], {
        "id": "earthwork", "kind": "redoubt", "x": 1800, "y": 2600, "w": 400, "h": 400,
        "name": "the battery redoubt"}]}
    state, _ = ENGINE.start(validate_setup(setup), SeededSource(3))
    html = render_to_string("combat/engines/hfg.html", {"view": ENGINE.view(state, GM)})
    assert 'class="terrain redoubt" data-terrain="earthwork"' in html
    assert html.count('stroke-dasharray="60 30"') == 1  # the works alone are outlined
    assert "<title>the battery redoubt</title>" in html


def test_the_board_draws_roads_water_fords_and_only_its_own_delayed_command():
    from tests.rules.hfg.test_hfg_moves import delayed_setup, el

    setup = delayed_setup([el("scout", "a", 1000, 400, type_="LI")])
    setup["terrain"] += [
        {"id": "brook", "kind": "river", "x": 0, "y": 2000, "w": 4000, "h": 200,
         "name": "the brook"},
        {"id": "lane", "kind": "road", "x": 1950, "y": 1300, "w": 100, "h": 1900,
         "name": "the lane", "quality": "bad"}]
    state, _ = ENGINE.start(validate_setup(setup), SeededSource(3))
    red = render_to_string("combat/engines/hfg.html", {"view": ENGINE.view(state, "side:a")})
    assert 'class="terrain road" data-terrain="east-road"' in red
    assert 'class="terrain river" data-terrain="brook"' in red
    assert "<title>a ford across the brook</title>" in red  # where the lane crosses it
    assert "the lane (a bad road)" in red
    assert red.index('data-terrain="brook"') < red.index('data-terrain="brook-ford-1800"') < \
        red.index('data-terrain="lane"')  # the ford on the river, the road on top
    assert "Command late is not yet on the table" in red and "by the east road" in red
    assert "Muskets, not yet arrived" in red and 'data-element="l1"' in red
    blue = render_to_string("combat/engines/hfg.html", {"view": ENGINE.view(state, "side:b")})
    assert "not yet" not in blue and 'data-element="l1"' not in blue
    assert "east road" in blue  # the road itself is on the map, not who will use it


def test_the_first_manassas_board_has_its_roads_river_fords_legend_and_a_late_command():
    state, _ = ENGINE.start(validate_setup(ENGINE.scenarios()["first_manassas"].setup),
                            SeededSource(3))
    html = render_to_string("combat/engines/hfg.html", {"view": ENGINE.view(state, "side:c")})
    assert 'class="terrain river" data-terrain="bull-run"' in html
    assert html.count("<title>a ford across Bull Run</title>") == 2  # turnpike, Lewis Ford
    assert 'data-terrain="turnpike"' in html and "the track to Lewis Ford (a bad road)" in html
    assert "Johnston&#x27;s command is not yet on the table" in html  # its name, not its id
    assert "Manassas-Sudley road" in html
    assert 'data-element="cj1"' not in html.split("<figcaption")[0]  # off the table
    legend = html.split('class="hfg-legend"')[1].split("</ul>")[0]
    for words in ("River (crossed only at a ford)", "Ford", "Road", "Hill", "Wood",
                  "Built-up area", "<strong>BAY</strong> Bayonets", "<strong>I</strong> Inferior"):
        assert words in legend
    assert "Marsh" not in legend  # only what the board draws
    union = render_to_string("combat/engines/hfg.html", {"view": ENGINE.view(state, "side:u")})
    assert "Johnston&#x27;s command" not in union  # hidden from the other side


def label_boxes(html):
    """Each element's label on the board as (code, left, top, right, bottom) in paces: its
    text centred on its element, as wide as its letters at :data:`LABEL_EM` an em."""
    boxes = []
    for x, y, size, code in re.findall(
            r'<text x="(-?\d+)" y="(-?\d+)" dy="0.35em" text-anchor="middle" '
            r'style="font-size: (\d+)px">([^<]+)</text>', html):
        x, y, size, half = int(x), int(y), int(size), int(size) * LABEL_EM * len(code) / 2
        boxes.append((code, x - half, y - size / 2, x + half, y + size / 2))
    return boxes


def test_labels_fit_their_elements_and_never_overlap_in_a_packed_line():
    """The tester's phone at 390px: labels of elements standing side by side, one behind the
    other and turned across (the landing party's, and a packed block added to it) ran into
    each other. Each label now fits inside its element, so none overlaps another."""
    setup = ENGINE.scenarios()["landing_party"].setup
    block = [{"id": f"k{i}", "side": "a", "command": "party", "type": t, "grade": g,
              "x": x, "y": y, "heading": h}
             for i, (t, g, x, y, h) in enumerate([
                 ("BAY", "E", 3200, 1600, 0), ("MUS", "I", 3600, 1600, 0),
                 ("MUS", "I", 3200, 1400, 0), ("SK", None, 3600, 1400, 0),
                 ("LTA", None, 1000, 1000, 90), ("CP", None, 1000, 1500, 90)])]
    setup = {**setup, "elements": [*setup["elements"], *block]}
    state, _ = ENGINE.start(validate_setup(setup), SeededSource(3))
    html = render_to_string("combat/engines/hfg.html", {"view": ENGINE.view(state, GM)})
    boxes = label_boxes(html)
    assert len(boxes) == html.count('<g class="element') == 12 + len(block)
    assert "BAY E" in [b[0] for b in boxes] and "LTA" in [b[0] for b in boxes]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            apart = a[3] <= b[1] or b[3] <= a[1] or a[4] <= b[2] or b[4] <= a[2]
            assert apart, (a, b)
    assert all(int(size) <= 170 for size in re.findall(r"font-size: (\d+)px", html))


def test_the_pips_are_shown_by_command_name():
    state, _ = ENGINE.start(validate_setup(ENGINE.scenarios()["first_manassas"].setup),
                            SeededSource(3))
    state["phasing"], state["pips"] = "c", {"beau": 4, "john": 2}
    html = render_to_string("combat/engines/hfg.html", {"view": ENGINE.view(state, GM)})
    assert "PIPs left: Beauregard&#x27;s command 4, Johnston&#x27;s command 2" in html


def test_the_header_of_a_battle_over_says_how_it_ended_not_who_is_to_move():
    setup = validate_setup(ENGINE.scenarios()["landing_party"].setup)
    final = ENGINE.auto_play(ENGINE.start(setup, SeededSource(3))[0], SeededSource(3))
    assert final["result"] is not None
    html = render_to_string("combat/engines/hfg.html", {"view": ENGINE.view(final, GM)})
    header = html.split("<header>", 1)[1].split("</header>", 1)[0]
    assert final["result"]["summary"] in header
    assert "to move" not in header and "PIPs left" not in header
