"""Reading a dict by a key held in a variable, which Django's template language cannot:
``{{ view.ships|get_item:sid }}``, for the wargame pages' views (ships, sides, elements by
id)."""

from django import template

register = template.Library()


@register.filter
def get_item(mapping, key):
    """``mapping[key]`` in a template (``None`` if absent or not a dict)."""
    return mapping.get(key) if isinstance(mapping, dict) else None
