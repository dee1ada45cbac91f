"""Helpers of the British vs Pirates kernel tests: a table set as the book's pictures set it.

:func:`table` starts a game of two sides (``a`` British on the west tile, ``b`` Pirates on
the east one, the Wind tile between), with the opening fixed (side ``a`` first, the wind
given), then puts each ship where the test says: the book's examples are pictures of ships
already at sea, so the test places them as the picture does."""

import copy

from rules.bvp.data import provisional
from rules.bvp.engine import ENGINE, validate_setup
from rules.random import SeededSource

TILES = [{"id": "west", "q": -5, "r": 2}, {"id": "wind", "q": 0, "r": 0, "wind": True},
         {"id": "east", "q": 5, "r": -2}]
CAPTAINS = {"british_frigate": "redne", "british_sloop": "british_3",
            "british_line_ship": "british_2", "british_galleon": "british_2",
            "pirates_frigate": "pirates_2", "pirates_sloop": "valentine",
            "pirates_line_ship": "pirates_3", "pirates_zebec": "valentine",
            "pirates_galleon": "pirates_3"}


def card_data(decks=True):
    """The provisional card data; ``decks=False`` empties the skill decks (no shuffle, no
    hands, so no card step in an attack)."""
    data = provisional()
    if not decks:
        data["decks"] = {}
    return data


def table(ships, *, wind=0, settings=None, decks=False, first="a", mode="annihilation",
          source=None, data=None, turn_limit=30):
    """The state after the opening of a game with ``ships``: ``[(id, card, side, (q, r),
    heading)]`` or dicts with those keys and ``captain``/``merchant``; each starts on its
    side's tile and is then placed at ``(q, r)``."""
    made, at = [], {}
    starts = {"a": [(-5, 2), (-4, 1), (-6, 3), (-5, 1), (-4, 2), (-6, 2)],
              "b": [(5, -2), (4, -1), (6, -3), (5, -1), (4, -2), (6, -2)]}
    for s in ships:
        if not isinstance(s, dict):
            s = dict(zip(("id", "card", "side", "at", "heading"), s))
        q, r = starts[s["side"]].pop(0)
        made.append({"id": s["id"], "card": s["card"],
                     "captain": s.get("captain", CAPTAINS.get(s["card"])),
                     "side": s["side"], "q": q, "r": r, "heading": s["heading"],
                     "merchant": s.get("merchant", False)})
        at[s["id"]] = s["at"]
    setup = validate_setup({
        "mode": mode, "tiles": copy.deepcopy(TILES), "turn_limit": turn_limit,
        "sides": [{"id": "a", "name": "Side A", "commander": "side:a", "faction": "british",
                   "tile": "west"},
                  {"id": "b", "name": "Side B", "commander": "side:b", "faction": "pirates",
                   "tile": "east"}],
        "ships": made, "opening": {"first": first, "wind": wind},
        "settings": settings or {}, "card_data": data or card_data(decks)})
    state, _ = ENGINE.start(setup, source or SeededSource(1))
    for sid, where in at.items():
        if where is not None:
            state["ships"][sid]["q"], state["ships"][sid]["r"] = where
    return state


def options(state):
    """The keys of the first pending decision."""
    return [o.key for o in ENGINE.pending(state)[0].options]
