"""Template tags that draw turned cards, for the card tests and the battle pages alike: a
card face per card (the partial ``campaigns/_cards.html``) in the one notation of
``rules.cards.card_label`` (4♠, Joker named 9♥), red for Hearts and Diamonds and black for
Spades and Clubs, the Card of Fate labelled, each card marked with its success level by a
letter and a ring (classes of ``static/css/quarterdeck.css``: card-face, red, black, fate,
success-1..3) that ``{% card_legend %}`` explains. Also odds as percentages, what
decided a draw, and numbers of cards, in words.

A card's level is the one the kernel recorded for it (so an unskilled test's Perfect shows
as the Ordinary it counts as, BtQ L1269-1272); only a card logged without one is graded
against the Card of Fate here, with ``rules.btq.tests.grade``.
"""

import re

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

from rules.btq.tests import SuccessLevel, grade, won_to_none
from rules.cards import Card, CardError, card_count, card_label, parse_card

register = template.Library()

LEVELS = {level.name.lower(): level for level in SuccessLevel}
"""Recorded level names (``"failure"``, ``"ordinary"``, ``"critical"``, ``"perfect"``)."""
ORDINALS = {1: "first", 2: "second", 3: "third"}
UNKNOWN = object()
"""No level recorded for a card, nor a Card of Fate to grade it against: unmarked."""


def _parse(text) -> Card | None:
    try:
        return parse_card(str(text))
    except CardError:
        return None


MARKS = {1: "O", 2: "C", 3: "P"}
"""The letter on a card of each success level: Ordinary, Critical, Perfect."""


def _face(text, *, is_fate: bool = False, level=UNKNOWN) -> dict:
    """What the partial shows of one card: ``level`` a recorded level name, ``None`` for
    one still to be named (a Joker), or :data:`UNKNOWN`."""
    card = _parse(text)
    if card is None:
        return {"label": text}
    classes = ["card-face"]
    if not (card.is_joker and card.played_as is None):
        classes.append("red" if card.effective.suit in ("D", "H") else "black")
    title, mark = "", ""
    if is_fate:
        classes.append("fate")
        title = "Card of Fate"
    elif level is None:
        title = "to be named"
    elif level in LEVELS and LEVELS[level]:
        classes.append(f"success-{int(LEVELS[level])}")
        title = f"{level.capitalize()} success"
        mark = MARKS[int(LEVELS[level])]
    return {"card": str(card), "label": card_label(card), "classes": " ".join(classes),
            "title": title, "mark": mark, "is_fate": is_fate}


def _level(entry, levels: list | None, index: int, fate: Card | None):
    """The level of the card ``entry`` (a text, or a ``[text, level]`` pair as engines log
    them): its pair's, else ``levels[index]``, else its grade against ``fate``."""
    if isinstance(entry, list | tuple):
        return entry[1] if len(entry) > 1 else UNKNOWN
    if levels is not None:
        return levels[index] if index < len(levels) else None
    card = _parse(entry)
    if fate is None or card is None:
        return UNKNOWN
    return grade(card, fate).name.lower()


@register.inclusion_tag("campaigns/_cards.html")
def fate(text):
    """The Card of Fate, labelled as such."""
    return {"faces": [_face(text, is_fate=True)]}


@register.inclusion_tag("campaigns/_card_legend.html")
def card_legend():
    """What the marks on the cards mean (every page that shows cards has it once)."""
    return {"levels": [(MARKS[int(level)], f"success-{int(level)}", level.name.capitalize())
                       for level in SuccessLevel if level]}


_SUITED = re.compile(r"(?<![\w=])(10|[2-9JQKA])([♥♦♠♣])")


@register.filter(needs_autoescape=True)
def suits(text, autoescape=True):
    """A text a person reads (an event's, a log entry's) with each card in it coloured:
    ``"4♥"`` -> ``<span class="suit red">4♥</span>``, ``"4♠"`` black."""
    escaped = conditional_escape(text) if autoescape else str(text)
    return mark_safe(_SUITED.sub(
        lambda m: f'<span class="suit {"red" if m[2] in "♥♦" else "black"}">{m[0]}</span>',
        escaped))


@register.inclusion_tag("campaigns/_cards.html")
def hand(cards, levels=None, fate=None):
    """A row of turned cards, each marked with its level. ``cards``: card texts, or
    ``[text, level]`` pairs as engines log them, or one space-separated text; ``levels``:
    the recorded levels of plain texts (the kernel's ``Hand.as_dict()``, a parallel list;
    ``None`` for a Joker still to be named); ``fate``: the Card of Fate to grade cards
    against when no level was recorded for them."""
    if isinstance(cards, str):
        cards = cards.split()
    fate_card = _parse(fate) if fate else None
    entries = list(cards or ())
    levels = list(levels) if levels is not None else None
    return {"faces": [
        _face(entry[0] if isinstance(entry, list | tuple) else entry,
              level=_level(entry, levels, i, fate_card))
        for i, entry in enumerate(entries)
    ]}


@register.filter(name="card_count")
def card_count_filter(value, what: str = "") -> str:
    """A number of cards in words (``rules.cards.card_count``): 1 -> "1 card", 5 -> "5 cards",
    ``2|card_count:"Discipline"`` -> "2 Discipline cards"."""
    return card_count(int(value), what)


@register.filter
def pool_cards(pool: dict) -> str:
    """A pool's arithmetic (``rules.btq.tests.Pool.as_dict()``) with its cards counted:
    "Seamanship 4 + Crusty Old Seadog 1 = 5 cards", "Guts 1 = 1 card"; a floor's sum,
    "… = 0, at least 1 card", counts them already."""
    text, size = pool["explanation"], pool["size"]
    if not text.endswith(f"= {size}"):
        return text
    return text[:-len(str(size))] + card_count(size)


@register.filter
def percent(value) -> str:
    """A probability as a percentage with one decimal: 0.6426 -> "64.3%"."""
    try:
        return f"{float(value) * 100:.1f}%"
    except (TypeError, ValueError):
        return "—"


@register.filter
def decided(rnd) -> str:
    """What decided a draw, in words. ``rnd``: a round as the kernel or the log keeps it
    (``rules.btq.tests.Round.as_dict()``: its ``comparison`` and its ``hands``, side a's
    first); a draw won against a side that turned no success at all as
    :func:`rules.btq.tests.won_to_none` says ("2 successes to none")."""
    comparison = (rnd or {}).get("comparison")
    if not comparison:
        return ""
    by, a, b = comparison.get("by"), comparison.get("a"), comparison.get("b")
    result = comparison.get("result")
    if result in ("pass", "fail"):
        return "at least one success: passed" if result == "pass" else "no success: failed"
    if LEVELS.get(by):
        winner = won_to_none(rnd)
        if winner is not None:
            return f"{winner} success{'' if winner == 1 else 'es'} to none"
        return f"more {by.capitalize()} successes ({a} to {b})"
    if by == "tie_break":
        nth = ORDINALS.get(comparison.get("position"), f"#{comparison.get('position')}")
        return f"equal successes; the tie-break at the {nth} success: {a} against {b}"
    if by == "no_success":
        return "no success on either side: both shuffle and test again"
    if by == "full_tie":
        return "a full tie: both shuffle and test again"
    return by or ""
