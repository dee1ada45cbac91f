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


CLOSING_KEY = "end"
"""The key of a wargame's "end my turn" option (HFG's "End this bound's moves", BvP's "End
the turn"): given a button of its own beside the list rather than a place in it."""


@register.filter
def choice_layout(decision: dict) -> dict:
    """How a decision's options are laid out: ``{"listed": [option, ...], "closing": option
    or None, "selected": key}``. The closing option (:data:`CLOSING_KEY`), where there are
    others, is taken out of the list for a button of its own; the list's pre-selected key is
    the decision's default, or where that is the closing option, the first listed order that
    spends nothing (``rules.engine.Option.spends``: BvP's skill cards), so that the page
    offers an order and ending the turn is a separate, deliberate tap. Where every other
    option spends something (the ships have all acted, the hand is not empty), the closing
    option stays in the list and is its pre-selected choice: a player who just confirms
    ends the turn and keeps his hand."""
    options = decision["options"]
    closing = next((o for o in options if o["key"] == CLOSING_KEY), None)
    listed = [o for o in options if o is not closing]
    selected = decision["default"]
    if not listed:
        return {"listed": options, "closing": None, "selected": selected}
    if selected == CLOSING_KEY:
        orders = [o for o in listed if not o.get("spends")]
        if not orders:
            return {"listed": options, "closing": None, "selected": CLOSING_KEY}
        selected = orders[0]["key"]
    return {"listed": listed, "closing": closing, "selected": selected}
