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


def _spends_a_card(option: dict) -> bool:
    """Whether ``option`` gives up one of the side's skill cards: BvP's ``discard:<card>``
    and ``<ship>:card:<card>`` (``rules.bvp.engine.turn_options``). A card spent is gone
    until the side draws back up to 3 at the start of its next turn [BvP L57]."""
    key = option["key"]
    return key.startswith("discard:") or ":card:" in key


@register.filter
def choice_layout(decision: dict) -> dict:
    """How a decision's options are laid out: ``{"listed": [option, ...], "closing": option
    or None, "selected": key}``. The closing option (:data:`CLOSING_KEY`), where there are
    others, is taken out of the list for a button of its own; the list's pre-selected key is
    the decision's default, or where that is the closing option, the first listed order that
    keeps the side's cards (:func:`_spends_a_card`), so that the page offers an order and
    ending the turn is a separate, deliberate tap. Where every other option spends a card
    (the ships have all acted, the hand is not empty), the closing option stays in the list
    and is its pre-selected choice: a player who just confirms ends the turn and keeps his
    hand."""
    options = decision["options"]
    closing = next((o for o in options if o["key"] == CLOSING_KEY), None)
    listed = [o for o in options if o is not closing]
    selected = decision["default"]
    if not listed:
        return {"listed": options, "closing": None, "selected": selected}
    if selected == CLOSING_KEY:
        orders = [o for o in listed if not _spends_a_card(o)]
        if not orders:
            return {"listed": options, "closing": None, "selected": CLOSING_KEY}
        selected = orders[0]["key"]
    return {"listed": listed, "closing": closing, "selected": selected}
