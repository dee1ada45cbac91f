"""Template tags of the battle log: the cards an engine's event shows (drawn with the shared
card tags, ``campaigns.templatetags.cards``)."""

from django import template

register = template.Library()


@register.inclusion_tag("combat/_draws.html")
def draws(data):
    """The cards an event's ``data`` shows: its Card of Fate (``card_of_fate``), a list of
    ``cards`` turned against it (or without one, as fire cards are), and the ``pools`` of a
    contested test (key -> ``{"who", "cards"}``). Anything else in ``data`` is not cards."""
    data = data if isinstance(data, dict) else {}
    cards = data.get("cards")
    pools = data.get("pools")
    return {
        "fate": data.get("card_of_fate"),
        "cards": cards if isinstance(cards, list) else None,
        "pools": [(key, pool) for key, pool in pools.items()
                  if isinstance(pool, dict) and isinstance(pool.get("cards"), list)]
        if isinstance(pools, dict) else [],
    }
