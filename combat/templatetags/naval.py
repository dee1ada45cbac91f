"""Names the Beat to Quarters battle page shows for the ``btq_naval`` engine's keys
(``rules.btq.naval``: weather, distance bands, steps, areas, the range chart)."""

from django import template

from rules.btq.characters import DamageState
from rules.btq.naval import DISTANCES, GAGE_BONUS, WEATHER

register = template.Library()

STEP_NAMES = {
    "conditions": "Step One: Establish the Conditions",
    "discipline": "Step Two: Discipline",
    "repair": "Step Three: Repair",
    "positioning": "Step Four: Positioning",
    "how_will_you_fight": "Step Five: How Will You Fight?",
    "broadside": "Step Six: Broadside!",
    "continue": "Step Seven: Continuing the Engagement",
    "over": "The battle is over",
}
"""The book's names of the steps of a ship battle (BtQ L2363-2496)."""

AREA_NAMES = {"hull": "Hull", "guns": "Guns", "crew": "Crew", "rigging": "Rigging"}


@register.filter
def weather_name(key):
    return WEATHER[key][0] if key in WEATHER else key


@register.filter
def distance_name(distance):
    return DISTANCES.get(distance, "not yet set") if distance is not None else "not yet set"


@register.filter
def step_name(key):
    return STEP_NAMES.get(key, key)


@register.filter
def area_name(key):
    return AREA_NAMES.get(key, key)


@register.filter
def ordered_ships(view):
    """The ships of a view in battle order (the players' side first), each with its
    ``tracks`` as a list of ``(area, track, state)`` and, where the view carries her Ship
    Morale (0-3: the GM's view, a player's of his side's ships), ``morale_label``
    ("Injured"), else ``None``: a player never learns an enemy's morale."""
    ships = view.get("ships", {})
    order = view.get("order", [])
    rows = []
    for sid in [s for s in order if s in ships] + [s for s in ships if s not in order]:
        ship = ships[sid]
        states = ship.get("states", {})
        morale = ship.get("morale")
        rows.append({**ship, "areas": [(area, ship["tracks"][area], states.get(area, 0))
                                       for area in AREA_NAMES if area in ship.get("tracks", {})],
                     "morale_label": None if morale is None else DamageState(morale).label})
    return rows


LEFT = {"sunk": "sunk", "crew_dead": "her crew lost", "struck": "struck her colours",
        "escaped": "beyond Distance 5", "taken": "taken by boarding"}
"""How a ship left the battle, as the page says it."""


@register.filter
def left_name(key):
    return LEFT.get(key, key)


@register.filter
def range_chart(view):
    """Each pair of ships on the range chart (BtQ L2395, L2498): ``{"a", "b"}`` (names),
    ``distance`` (0-5, 6 beyond the horizon), ``band`` (its name), ``gage`` (the name of
    the ship that took the Weather Gage, or ``""``), ``gage_round`` and ``gage_bonus`` (what
    it adds to her Broadside! now: only in the round she took it, D17); the pairs whose
    ships have not both joined are left out."""
    ships = view.get("ships", {})
    rows = []
    for pair in view.get("pairs", {}).values():
        if pair.get("distance") is None:
            continue
        gage = pair.get("gage") or {}
        rows.append({"a": ship_name(view, pair["a"]), "b": ship_name(view, pair["b"]),
                     "distance": pair["distance"], "band": distance_name(pair["distance"]),
                     "gage": ship_name(view, gage["to"]) if gage else "",
                     "gage_round": gage.get("round"),
                     "gage_bonus": GAGE_BONUS if gage and gage.get("round") == view.get(
                         "round") else 0,
                     "over": any(ships.get(s, {}).get("out") for s in (pair["a"], pair["b"]))})
    return rows


@register.filter
def ship_name(view, ship_id):
    """The name of ship ``ship_id`` in a view."""
    return view.get("ships", {}).get(str(ship_id), {}).get("name", "")
