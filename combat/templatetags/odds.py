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
def what_if_fits(decision) -> bool:
    """:func:`combat.odds.services.what_if_fits` at its games per option: a "what if" that
    would only be refused is not offered."""
    return services.what_if_fits(decision)


@register.filter
def points(value) -> str:
    """A share as percentage points with one decimal, without the sign: 0.6426 -> "64.3"."""
    return f"{float(value) * 100:.1f}"


@register.filter
def share_points(value) -> str:
    """A share as :func:`points`, but one that is not nothing, or not all, never rounds to
    it: 4 games in 10,000 -> "<0.1", 9,996 -> ">99.9"."""
    share = float(value)
    if 0 < share < 0.0005:
        return "<0.1"
    if 0.9995 <= share < 1:
        return ">99.9"
    return points(share)


@register.filter
def thousands(value) -> str:
    """A count with thousands separated: 10000 -> "10,000"."""
    return f"{int(value):,}"
