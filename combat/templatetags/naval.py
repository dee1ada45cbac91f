"""Names the Beat to Quarters battle page shows for the ``btq_naval`` engine's keys
(``rules.btq.naval``: weather, distance bands, steps, areas)."""

from django import template

from rules.btq.naval import DISTANCES, WEATHER

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
    """The ships of a view, the players' ship first, each with its ``tracks`` as a list of
    ``(area, track, state)``."""
    ships = view.get("ships", {})
    order = [view.get("sides", {}).get(side) for side in ("pc", "enemy")]
    rows = []
    for sid in [s for s in order if s in ships] + [s for s in ships if s not in order]:
        ship = ships[sid]
        states = ship.get("states", {})
        rows.append({**ship, "areas": [(area, ship["tracks"][area], states.get(area, 0))
                                       for area in AREA_NAMES if area in ship.get("tracks", {})]})
    return rows


@register.filter
def ship_name(view, ship_id):
    """The name of ship ``ship_id`` in a view."""
    return view.get("ships", {}).get(str(ship_id), {}).get("name", "")
