"""Helpers of the Brethren kernel tests: ships and tables built as the engine builds them."""

import pytest

from rules.brethren.engine import _initial_state, _new_ship, validate_setup


def make_ship(cls="frigate", *, id="s1", side="a", x=10.0, y=10.0, heading=0.0, crew=None,
              coins=None, merchant=False):
    """A ship as the engine keeps her (``rules.brethren.engine._new_ship``)."""
    return _new_ship({"id": id, "class": cls, "side": side, "name": id.upper(), "x": x,
                      "y": y, "heading": heading, "crew": crew or ["seaman"] * 6,
                      "coins": coins or [], "merchant": merchant, "convoy": False})


def make_table(ships, *, islands=(), terrain=(), wind=("N", 2), mission="fleet_action",
               settings=None, sides=("a", "b"), goal=None, source=None, turn_limit=12):
    """A validated setup's first state (no turn begun): two sides ``a`` and ``b``."""
    setup = validate_setup({
        "mission": mission, "board": {"w": 40, "h": 40}, "turn_limit": turn_limit,
        "wind": {"dir": wind[0], "strength": wind[1]}, "settings": settings or {},
        "sides": [{"id": s, "name": f"Side {s}", "commander": f"side:{s}"} for s in sides],
        "islands": list(islands), "terrain": list(terrain), "ships": list(ships),
        "treasure": None, "goal": goal or {}})
    return _initial_state(setup, source, [])


@pytest.fixture
def ship():
    return make_ship
