"""The odds' part of a battle page: ``{% battle_odds as odds %}`` gives whether the viewer
may ask for odds of the battle as it stands and the simulations of it he may see
(``combat.odds``); a player without the campaign's setting gets neither."""

from django import template

from combat.odds import selectors, services
from combat.odds.views import odds_context

register = template.Library()


@register.simple_tag(takes_context=True)
def battle_odds(context) -> dict:
    user, encounter = context["request"].user, context["encounter"]
    if not user.is_authenticated or encounter.status != "active":
        return {"may_ask": False, "panels": []}
    return {"may_ask": services.may_ask_odds(user, encounter),
            "panels": [odds_context(user, simulation, with_charts=False)
                       for simulation in selectors.simulations_for_encounter(user, encounter)]}


@register.filter
def points(value) -> str:
    """A share as percentage points with one decimal, without the sign: 0.6426 -> "64.3"."""
    return f"{float(value) * 100:.1f}"


@register.filter
def thousands(value) -> str:
    """A count with thousands separated: 10000 -> "10,000"."""
    return f"{int(value):,}"
