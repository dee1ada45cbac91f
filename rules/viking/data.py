"""The tables of the Viking wargame's movement instalment (``rules/viking.md`` §2), as data.

Speed levels are integers, fastest first in the book's order: ``FULL`` 3, ``PACED`` 2,
``SLOW`` 1, ``DIW`` (dead in the water) 0 (§1.2, V-L56-L61). Distances and facing are in
inches. Classes: ``DRAGONSHIP``, ``LONGSHIP``, ``KARFI``, ``KAUPSHIP`` (§1.1, V-L49-L54).
"""

from __future__ import annotations

DIW, SLOW, PACED, FULL = 0, 1, 2, 3
LEVELS = (DIW, SLOW, PACED, FULL)
LEVEL_NAMES = {DIW: "DIW", SLOW: "SLOW", PACED: "PACED", FULL: "FULL"}
LEVEL_WORDS = {DIW: "dead in the water", SLOW: "slow", PACED: "paced", FULL: "full speed"}
LEVEL_OF = {v: k for k, v in LEVEL_NAMES.items()}

CLASSES = ("DRAGONSHIP", "LONGSHIP", "KARFI", "KAUPSHIP")
CLASS_NAMES = {"DRAGONSHIP": "Dragonship", "LONGSHIP": "Longship", "KARFI": "Karfi raider",
               "KAUPSHIP": "Kaupship"}

SPEED: dict[str, dict[int, tuple[float, float]]] = {
    # Table 2.1 (V-L63-L69): inches a turn under oars, (least, most) for each level; the DIW
    # cells "1-0" and "1/4-0" read as 0 to 1 and 0 to 1/4 (A12).
    "DRAGONSHIP": {FULL: (6, 8), PACED: (4, 5), SLOW: (2, 2), DIW: (0, 1)},
    "LONGSHIP": {FULL: (5, 6), PACED: (3, 4), SLOW: (1.5, 1.5), DIW: (0, 0.25)},
    "KARFI": {FULL: (4, 4), PACED: (2, 2), SLOW: (1, 1), DIW: (0, 0.25)},
    "KAUPSHIP": {FULL: (2, 2), PACED: (1, 1), SLOW: (0.5, 0.5), DIW: (0, 0)},
}

FACING: dict[str, dict[int, float]] = {
    # Table 2.2 (V-L117-L122): facing inches allowed a turn.
    "DRAGONSHIP": {FULL: 4, PACED: 4, SLOW: 5, DIW: 6},
    "LONGSHIP": {FULL: 3, PACED: 3, SLOW: 4, DIW: 5},
    "KARFI": {FULL: 2, PACED: 2, SLOW: 3, DIW: 4},
    "KAUPSHIP": {FULL: 1, PACED: 2, SLOW: 2, DIW: 3},
}

FORWARD_PER_FACING_INCH = {FULL: 2.0, PACED: 1.0, SLOW: 0.5, DIW: 0.0}
"""Table 2.3 (V-L124-L127, L133): forward inches that pay for one inch of facing."""

LIGHT, MODERATE, HEAVY, ZERO = 1, 2, 3, 0
WIND_NAMES = {ZERO: "no wind", LIGHT: "a light wind", MODERATE: "a moderate wind",
              HEAVY: "a heavy wind"}

SAIL_MAX: dict[int, dict[str, tuple[int, int]]] = {
    # Table 2.4 (V-L141-L157): the fastest level under sail, (heading within 45 degrees of
    # the wind's source, wind behind or on the beam); no wind, no sail (V-L139).
    LIGHT: {"DRAGONSHIP": (SLOW, PACED), "LONGSHIP": (SLOW, PACED), "KARFI": (SLOW, SLOW),
            "KAUPSHIP": (DIW, SLOW)},
    MODERATE: {"DRAGONSHIP": (SLOW, FULL), "LONGSHIP": (SLOW, FULL), "KARFI": (DIW, PACED),
               "KAUPSHIP": (DIW, SLOW)},
    HEAVY: {"DRAGONSHIP": (DIW, FULL), "LONGSHIP": (DIW, FULL), "KARFI": (DIW, FULL),
            "KAUPSHIP": (DIW, PACED)},
}

RAISE_TURNS = {True: 2, False: 3}
"""Table 2.5 (V-L159): turns to raise sail, Viking crew / any other crew."""
LOWER_TURNS = {True: 1, False: 2}
"""Table 2.5 (V-L161): turns to lower sail, Viking crew / any other crew."""
OAR_TURNS = 1
"""Table 2.5 (V-L163): shipping or setting out oars takes one complete turn."""

HULL_LENGTH = {"DRAGONSHIP": 6.0, "LONGSHIP": 5.0, "KARFI": 4.0, "KAUPSHIP": 3.5}
"""Hull lengths in inches: the digest's placeholders (A3), not in the source."""
BEAM_RATIO = 4.0
"""Length to beam (errata VK-4: the earlier instalment gives 4:1 to 7:1; the broadest)."""

ORDERS = ("LEFT", "CENTER", "RIGHT", "FLAGSHIP")
ORDER_NAMES = {"LEFT": "Left", "CENTER": "Center", "RIGHT": "Right",
               "FLAGSHIP": "Move as Flagship"}
ORDER_CHANGE_RANGE = 16.0
"""An order may be changed once, with the flagship within 16 inches (V-L21)."""
CENTER_BAND = 16.0
"""The Center order keeps a vessel within 16 inches of the centreline (V-L27)."""
DOUBLE_MOVE_GAP = 24.0
"""Both sides at least 24 inches apart: every move may be doubled (V-L38, A11)."""
