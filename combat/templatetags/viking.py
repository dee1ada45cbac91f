"""The board of a Viking sea fight (engine ``viking``), drawn as SVG from the engine's view
(``rules.viking.engine.VikingEngine.view``): the table in inches with y away from the south
baseline (SVG's y runs down, so it is flipped here), each vessel as its hull pointing along
its heading with its sail (up, being raised or lowered) and its oars when they are out, its
speed level beside it, and the wind as an arrow blowing from where it comes."""

from __future__ import annotations

from math import cos, radians, sin

from django import template

from combat.templatetags.brethren import _f
from rules.viking.data import CLASS_NAMES, LEVEL_WORDS, ORDER_NAMES
from rules.viking.engine import describe_wind
from rules.viking.orders import describe

register = template.Library()

SIDE_COLOURS = ("#b22222", "#1f4e9c")
SAIL_WORDS = {"DOWN": "sail down", "UP": "sail up", "RAISING": "raising sail",
              "LOWERING": "lowering sail"}


@register.inclusion_tag("combat/engines/_viking_board.html")
def viking_board(view: dict) -> dict:
    """The board's drawing data from ``view`` (a ``viking`` view)."""
    h = view["board"]["h"]
    colours = {s: SIDE_COLOURS[i % 2] for i, s in enumerate(view["side_ids"])}
    vessels = []
    for vid in view["vessel_ids"]:
        v = view["vessels"][vid]
        half, b = v["length"] / 2, v["beam"] / 2
        hull = (f"0,{_f(-half)} {_f(b)},{_f(-half + b * 1.5)} {_f(b)},{_f(half - b)} "
                f"0,{_f(half)} {_f(-b)},{_f(half - b)} {_f(-b)},{_f(-half + b * 1.5)}")
        state = ("sunk" if v["sunk"] else "surrendered" if v["struck"] else
                 "grappled" if v["grappled"] else "")
        vessels.append({
            "id": vid, "name": v["name"], "side": v["side"], "colour": colours[v["side"]],
            "transform": f"translate({_f(v['x'])} {_f(h - v['y'])}) rotate({_f(v['heading'])})",
            "hull": hull, "sail": v["sail"], "sail_w": _f(b * 3.2), "sail_x": _f(-b * 1.6),
            "sail_y": _f(-b * 0.4), "oars": v["oars_out"], "b": _f(b), "ob": _f(b * 1.9),
            "oar_ys": [_f(-half * 0.5), _f(0), _f(half * 0.5)], "state": state,
            "label_x": _f(v["x"]), "label_y": _f(h - v["y"] - half - 0.5),
            "speed": LEVEL_WORDS[v["level"]] + (" astern" if v["backward"] else ""),
            "speed_y": _f(h - v["y"] + half + 1.1), "heading": round(v["heading"]) % 360,
            "sail_words": SAIL_WORDS[v["sail"]]})
    wind = view["wind"]
    toward = radians(wind["from"] + 180.0)
    ux, uy = sin(toward), cos(toward)
    return {"w": _f(view["board"]["w"]), "h": _f(h), "vessels": vessels,
            "wind": {"x1": _f(4 - ux * 2.5), "y1": _f(4 + uy * 2.5), "x2": _f(4 + ux * 2.5),
                     "y2": _f(4 - uy * 2.5), "words": describe_wind(wind),
                     "calm": wind["speed"] == 0},
            "mid": _f(view["board"]["w"] / 2),
            "sides": [{"id": s, "name": view["sides"][s]["name"], "colour": colours[s]}
                      for s in view["side_ids"]]}


@register.filter
def viking_order(key: str) -> str:
    """An order key in words."""
    text = describe(key)
    return text[:1].upper() + text[1:]


@register.filter
def viking_wind(wind: dict) -> str:
    """The wind in words."""
    return describe_wind(wind)


@register.filter
def viking_class(cls: str) -> str:
    """A vessel class's name."""
    return CLASS_NAMES[cls]


@register.filter
def viking_standing(order: str) -> str:
    """A standing order's name."""
    return ORDER_NAMES[order]


@register.filter
def viking_speed(vessel: dict) -> str:
    """A vessel's speed level in words, "astern" when it backs."""
    return LEVEL_WORDS[vessel["level"]] + (" astern" if vessel["backward"] else "")
