"""Helpers of the Viking kernel tests: games built as the engine builds them, with a fixed
wind so that no die is rolled before the script."""

from rules.random import ScriptedSource
from rules.viking import house
from rules.viking.engine import ENGINE


def make_game(vessels, *, wind=(0, 2), settings=None, house_rules=True, board=(72, 48),
              turn_limit=12, rolls=()):
    """A started game (turn 1, waiting for the wind checks) of ``vessels`` (setup dicts;
    side ``a`` on the south baseline, ``b`` on the north) and the scripted source. Played by
    the source's rules only (``house_rules=False``), each vessel is given her class's crew
    figures."""
    source = ScriptedSource(rolls=list(rolls))
    if house_rules is False:  # the source gives no crew figures: the table gives its own
        vessels = [{"crew_full": house.CREW[v.get("class", "DRAGONSHIP")][0],
                    "crew_minimum": house.CREW[v.get("class", "DRAGONSHIP")][1], **v}
                   for v in vessels]
    setup = {"board": {"w": board[0], "h": board[1]}, "turn_limit": turn_limit,
             "wind": {"from": wind[0], "speed": wind[1]}, "settings": settings or {},
             "house_rules": house_rules,
             "sides": [{"id": "a", "name": "Side A", "commander": "side:a"},
                       {"id": "b", "name": "Side B", "commander": "side:b"}],
             "vessels": list(vessels)}
    state, _ = ENGINE.start(setup, source)
    return state, source


def vessel(id, side="a", cls="DRAGONSHIP", x=36.0, y=10.0, heading=0.0, **kw):
    """A vessel's setup entry."""
    return {"id": id, "name": id.upper(), "side": side, "class": cls, "x": x, "y": y,
            "heading": heading, **kw}


def to_orders(state, source, checks=("keep", "keep")):
    """Answer both wind checks: the state waits for the orders."""
    for side, choice in zip(("a", "b"), checks):
        state, _ = ENGINE.apply(state, f"side:{side}", choice, source)
    return state


def play_turn(state, source, orders, checks=("keep", "keep")):
    """One whole turn: the wind checks, then each vessel's order (``{id: key}``; the default
    policy for the others). Returns the state and the events."""
    events = []
    for side, choice in zip(("a", "b"), checks):
        state, ev = ENGINE.apply(state, f"side:{side}", choice, source)
        events += ev
    turn = state["turn"]
    while state["turn"] == turn and state["result"] is None:
        d = ENGINE.pending(state)[0]
        vid = d.kind.split(":")[1]
        state, ev = ENGINE.apply(state, d.actor, orders.get(vid, d.default), source)
        events += ev
    return state, events
