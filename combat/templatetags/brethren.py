"""The board of a Brethren of the Coast game (engine ``brethren``), drawn as SVG from the
engine's view for the viewer (``rules.brethren.engine.BrethrenEngine.view``): the sea in
inches with y to the north (SVG's y runs down, so it is flipped here), islands and terrain
as circles, each ship as her hull pointing along her heading with a dot for every mast, the
wind as an arrow, the measured ranges from the viewer's ships as dashed lines."""

from __future__ import annotations

from django import template

from rules.brethren.data import crew_type
from rules.brethren.engine import describe_plan
from rules.brethren.geometry import COMPASS, S, unit
from rules.brethren.wind import strength

register = template.Library()

SIDE_COLOURS = ("#b22222", "#1f4e9c", "#2e7d32", "#8e44ad", "#c77700", "#00796b")
TERRAIN_NAMES = {"reef": "Reef", "sargasso": "Sargasso Sea", "fog": "Fog bank",
                 "wreck": "Wreck"}
MAST_STATES = {"UP": "standing", "HP": "hanging to port", "HS": "hanging to starboard",
               "LOST": "lost"}


PHONE_BOARD_PX = 360
"""About how wide the board is drawn on a phone (390 px less the page's margins)."""
PHONE_LABEL_PX = 12
"""How tall a board label is there, in screen pixels, to be read without zooming."""


LABEL_CLEARANCE = 1.4
"""How far apart (in inches, the board's unit) two ship labels' anchors must be: a phone's
label is about 1.1 in tall at 12 px, and a ship's key one or two figures wide."""


def _label_y(placed: list[tuple[float, float]], x: float, y: float, half: float) -> float:
    """Where a ship's label goes (SVG y): above her bow-side end, or below her when another
    ship's label already sits within :data:`LABEL_CLEARANCE` there (ships in a line
    abreast, or a boarding), so that two labels do not overlap; ``placed`` gets it."""
    above, below = y - half - 0.4, y + half + 1.1
    for spot in (above, below):
        if all(abs(x - px) >= LABEL_CLEARANCE or abs(spot - py) >= LABEL_CLEARANCE
               for px, py in placed):
            placed.append((x, spot))
            return spot
    placed.append((x, above))
    return above


def _f(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".")


@register.inclusion_tag("combat/engines/_brethren_board.html")
def brethren_board(view: dict) -> dict:
    """The board's drawing data from ``view`` (a ``brethren`` view)."""
    h = view["board"]["h"]
    colours = {s: SIDE_COLOURS[i % len(SIDE_COLOURS)] for i, s in enumerate(view["side_ids"])}
    islands = []
    for iid in view["island_ids"]:
        i = view["islands"][iid]
        coins = i["coins"] if isinstance(i["coins"], int) else len(i["coins"])
        islands.append({"id": iid, "name": i["name"], "cx": _f(i["x"]), "cy": _f(h - i["y"]),
                        "r": _f(i["r"]), "kind": i["kind"], "coins": coins,
                        "home_colour": colours.get(i["home_of"]) if i["home_of"] else None,
                        "label_y": _f(h - i["y"] + i["r"] + 0.8)})
    terrain = [{"id": t["id"], "kind": t["kind"], "name": TERRAIN_NAMES[t["kind"]],
                "cx": _f(t["x"]), "cy": _f(h - t["y"]), "r": _f(t["r"])}
               for t in view["terrain"]]
    ships: list[dict] = []
    placed: list[tuple[float, float]] = []
    for sid in view["ship_ids"]:
        s = view["ships"][sid]
        if s["sunk"] or s["gone"]:
            continue
        length, beam = s["length"], s["beam"]
        half, b = length / 2, beam / 2
        hull = (f"0,{_f(-half)} {_f(b)},{_f(-half + b)} {_f(b)},{_f(half)} "
                f"{_f(-b)},{_f(half)} {_f(-b)},{_f(-half + b)}")
        n = s["masts_original"]
        masts = [{"cy": _f(-(half - length * (k + 1) / (n + 1))), "state": s["masts"][k],
                  "label": MAST_STATES[s["masts"][k]]} for k in range(n)]
        up = sum(1 for m in s["masts"] if m == "UP")
        label_y = _label_y(placed, s["x"], h - s["y"], half)
        ships.append({"id": sid, "name": s["name"], "side": s["side"],
                      "key": str(len(ships) + 1), "side_name": view["sides"][s["side"]]["name"],
                      "colour": colours[s["side"]],
                      "transform": f"translate({_f(s['x'])} {_f(h - s['y'])}) "
                                   f"rotate({_f(s['heading'])})",
                      "hull": hull, "masts": masts, "r": _f(b * 0.6),
                      "label_x": _f(s["x"]), "label_y": _f(label_y),
                      "derelict": s["derelict"], "lost": s["lost"], "up": up,
                      "heading": round(s["heading"])})
    ranges = []
    for r in view.get("ranges", []):
        a, b2 = view["ships"][r["from"]], view["ships"][r["to"]]
        ranges.append({"x1": _f(a["x"]), "y1": _f(h - a["y"]), "x2": _f(b2["x"]),
                       "y2": _f(h - b2["y"]), "mx": _f((a["x"] + b2["x"]) / 2),
                       "my": _f(h - (a["y"] + b2["y"]) / 2), "inches": r["inches"],
                       "band": r["band"], "from": a["name"], "to": b2["name"]})
    wind = view["wind"]
    ux, uy = unit(wind["dir"] * 45.0)
    wx, wy = 3.0, 3.0
    goal = view.get("goal") or {}
    exit_zone = goal.get("exit")
    return {
        "w": _f(view["board"]["w"]), "h": _f(h), "islands": islands,
        # on a phone the board is about 360 px across: labels of about 12 px (the page's CSS)
        "phone_label": _f(max(0.8, view["board"]["w"] * PHONE_LABEL_PX / PHONE_BOARD_PX)),
        "terrain": terrain,
        "terrain_kinds": [{"kind": k, "name": n} for k, n in TERRAIN_NAMES.items()
                          if any(t["kind"] == k for t in terrain)],
        "ships": ships, "ranges": ranges, "colours": colours,
        "wind": {"x1": _f(wx - ux * 1.5), "y1": _f(wy + uy * 1.5), "x2": _f(wx + ux * 1.5),
                 "y2": _f(wy - uy * 1.5), "name": strength(wind["strength"])["name"],
                 "toward": COMPASS[wind["dir"]]},
        "exit": None if not exit_zone else {"cx": _f(exit_zone["x"]),
                                            "cy": _f(h - exit_zone["y"]),
                                            "r": _f(exit_zone["r"])},
        "coast": goal.get("coast"), "scale_x2": _f(1 + S),
        "sides": [{"id": s, "name": view["sides"][s]["name"], "colour": colours[s]}
                  for s in view["side_ids"]],
    }


@register.filter
def compass(degrees) -> str:
    """A heading in degrees as the nearest of the eight compass points."""
    return COMPASS[round(float(degrees) / 45) % 8]


@register.filter
def wind_name(wind: dict) -> str:
    return f"{strength(wind['strength'])['name']}, blowing toward {COMPASS[wind['dir']]}"


@register.filter
def order_words(key: str, view: dict) -> str:
    """An order key in words, with the view's island and ship names."""
    text = describe_plan(view, key)
    return text[:1].upper() + text[1:]


@register.filter
def crew_names(crew) -> str:
    """A ship's crew counters in words ("3 Seaman, Explorer"), or their number."""
    if isinstance(crew, int):
        return f"{crew} counter{'s' if crew != 1 else ''}"
    counts: dict[str, int] = {}
    for c in crew:
        counts[c] = counts.get(c, 0) + 1
    return ", ".join(f"{n} {crew_type(c)['name']}" if n > 1 else crew_type(c)["name"]
                     for c, n in counts.items()) or "none"


@register.filter
def treasure_words(coins) -> str:
    """Treasure aboard: its coins' values for the owner, a count for anyone else."""
    if isinstance(coins, int):
        return f"{coins} coin{'s' if coins != 1 else ''} (face down)" if coins else "none"
    if not coins:
        return "none"
    names = {"ghost": "Ghostly Encounter", "map": "Treasure Map", "rum": "Rum"}
    return ", ".join(names[c["special"]] if c["special"] else f"{c['value']} gold"
                     for c in coins)



@register.filter
def masts_left(masts) -> int:
    return sum(1 for m in masts if m == "UP")
