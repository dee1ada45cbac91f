"""``{% once_token %}``: the hidden one-time token of a create form (``campaigns.once``), put
beside ``{% csrf_token %}`` in every form whose view is ``once_per_token``."""

from django import template
from django.utils.html import format_html

from campaigns.once import FIELD, new_token

register = template.Library()


@register.simple_tag
def once_token() -> str:
    """A hidden input with a fresh token: each page shown is one submission."""
    return format_html('<input type="hidden" name="{}" value="{}">', FIELD, new_token())
