"""The reference data of Brethren of the Coast, shipped as JSON files in ``data/`` and read
by one loader (:func:`reference`): ship cards (``ships.json``, [BASE - not in source] B6),
crew types and personalities (``crews.json``, Brethren L13-L23), wind strengths, points of
sailing and the wind-change dice (``sea.json``, L41-L49, L113-L114) and treasure
(``treasure.json``, L36-L41)."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

FILES = ("ships", "crews", "sea", "treasure")


@cache
def _load(name: str) -> dict:
    text = resources.files("rules.brethren").joinpath("data", f"{name}.json").read_text(
        encoding="utf-8")
    return json.loads(text)


def reference(name: str) -> dict:
    """The data file ``name`` (one of :data:`FILES`) as parsed JSON; callers must not change
    it (it is shared). ``KeyError`` for an unknown name."""
    if name not in FILES:
        raise KeyError(f"no Brethren reference data {name!r}; known: {', '.join(FILES)}")
    return _load(name)


def ship_class(code: object) -> dict:
    """The ship card ``code`` (``"frigate"``); ``ValueError`` naming the known ones."""
    ships = reference("ships")["ships"]
    if not isinstance(code, str) or code not in ships:
        raise ValueError(f"unknown ship {code!r}; known: {', '.join(sorted(ships))}")
    return ships[code]


def cannon(text: str) -> dict:
    """A cannon written rank and range (``"3S"``: hits on 3+, short range; B3) as
    ``{"rank", "range"}``; ``ValueError`` for anything else."""
    if (not isinstance(text, str) or len(text) != 2 or text[0] not in "123456"
            or text[1] not in "SL"):
        raise ValueError(f"a cannon is a rank 1-6 and a range S or L, like '3S', not {text!r}")
    return {"rank": int(text[0]), "range": text[1]}


def crew_type(code: object) -> dict:
    """The crew type or personality ``code``; ``ValueError`` for an unknown one."""
    crews = reference("crews")
    if not isinstance(code, str):
        raise ValueError(f"a crew is named by its code, not {code!r}")
    if code in crews["crew"]:
        return crews["crew"][code]
    if code in crews["personalities"]:
        return crews["personalities"][code]
    known = sorted([*crews["crew"], *crews["personalities"]])
    raise ValueError(f"unknown crew {code!r}; known: {', '.join(known)}")


def is_personality(code: str) -> bool:
    return code in reference("crews")["personalities"]
