"""Template tags of the card table: a turned card as a card face, marked with the success
level the kernel recorded for it (so an unskilled test's Perfect shows as the Ordinary it
counts as, BtQ L1269-1272), the Card of Fate outlined; odds as percentages; what decided a
draw in words. Classes of ``static/css/quarterdeck.css``: card-face, red, fate, success-1..3.
"""

from django import template
from django.utils.html import format_html, format_html_join

from rules.cards import CardError, parse_card

register = template.Library()

SUIT_SYMBOLS = {"D": "♦", "H": "♥", "C": "♣", "S": "♠"}
LEVELS = {"ordinary": 1, "critical": 2, "perfect": 3}
ORDINALS = {1: "first", 2: "second", 3: "third"}


def _text(card) -> str:
    shown = card.effective
    if card.is_joker and card.played_as is None:
        return "Joker"
    text = f"{str(shown)[:-1]}{SUIT_SYMBOLS[shown.suit]}"
    return f"Joker as {text}" if card.is_joker else text


def _face(text, classes: list[str], title: str) -> str:
    try:
        card = parse_card(str(text))
    except CardError:
        return format_html('<span class="card-face">{}</span>', text)
    if card.effective.suit in ("D", "H"):
        classes.append("red")
    return format_html('<span class="{}" title="{}" data-card="{}">{}</span>',
                       " ".join(["card-face", *classes]), title, str(card), _text(card))


@register.simple_tag
def card(text, level=None):
    """A turned card, marked with its recorded ``level`` (``"ordinary"``, ``"critical"``,
    ``"perfect"``; a failure or ``None`` is unmarked)."""
    number = LEVELS.get(level)
    classes = [f"success-{number}"] if number else []
    title = f"{level.capitalize()} success" if number else ("" if level else "to be named")
    return _face(text, classes, title)


@register.simple_tag
def fate(text):
    """The Card of Fate."""
    return _face(text, ["fate"], "Card of Fate")


@register.filter
def percent(value) -> str:
    """A probability as a percentage with one decimal: 0.6426 -> "64.3%"."""
    try:
        return f"{float(value) * 100:.1f}%"
    except (TypeError, ValueError):
        return "—"


@register.filter
def decided(comparison) -> str:
    """What decided a draw (``rules.btq.tests.Comparison.as_dict()``), in words."""
    if not comparison:
        return ""
    by, a, b = comparison.get("by"), comparison.get("a"), comparison.get("b")
    result = comparison.get("result")
    if result in ("pass", "fail"):
        return "at least one success: passed" if result == "pass" else "no success: failed"
    if by in LEVELS:
        return f"more {by.capitalize()} successes ({a} to {b})"
    if by == "tie_break":
        nth = ORDINALS.get(comparison.get("position"), f"#{comparison.get('position')}")
        return f"equal successes; the tie-break at the {nth} success: {a} against {b}"
    if by == "no_success":
        return "no success on either side: both shuffle and test again (D3)"
    if by == "full_tie":
        return "a full tie: both shuffle and test again (D3)"
    return by or ""


@register.simple_tag
def hand(cards, levels=None):
    """A hand of turned cards (texts), each marked with its recorded level from ``levels``
    (the kernel's ``Hand.as_dict()``: parallel lists)."""
    levels = list(levels or [])
    levels += [None] * (len(cards) - len(levels))
    return format_html_join(" ", "{}", ((card(c, lv),) for c, lv in zip(cards, levels)))
