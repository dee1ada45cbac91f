"""Filters for the decision forms every encounter page shares (``_decisions.html``)."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def option_groups(options: list[dict]) -> list[tuple[str, list[dict]]]:
    """A decision's options (``Option.as_dict()``) as ``[(group, [option, ...]), ...]``, the
    groups in the order their first option comes, each group's options in their own order;
    options without a ``group`` under ``""``. For a long list of choices: one ``<optgroup>``
    each, so that a phone's picker shows headings."""
    groups: dict[str, list[dict]] = {}
    for option in options:
        groups.setdefault(option.get("group", ""), []).append(option)
    return list(groups.items())
