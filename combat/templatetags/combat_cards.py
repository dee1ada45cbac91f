"""Template tags that draw playing cards as the battle page shows them: a card face per card,
red for Hearts and Diamonds, the Card of Fate outlined, and each card marked with its
success level against the Card of Fate (classes of ``static/css/quarterdeck.css``)."""

from django import template
from django.utils.html import format_html, format_html_join

from rules.btq.tests import grade
from rules.cards import Card, CardError, parse_card

register = template.Library()

SUIT_SYMBOLS = {"D": "♦", "H": "♥", "C": "♣", "S": "♠"}
LEVEL_NAMES = {1: "Ordinary success", 2: "Critical success", 3: "Perfect success"}


def _parse(text) -> Card | None:
    try:
        return parse_card(str(text))
    except CardError:
        return None


def _label(card: Card) -> str:
    shown = card.effective
    if card.is_joker and card.played_as is None:
        return "Joker"
    text = f"{str(shown)[:-1]}{SUIT_SYMBOLS[shown.suit]}"
    return f"Joker as {text}" if card.is_joker else text


def _face(card_text, fate: Card | None, *, is_fate: bool = False) -> str:
    card = _parse(card_text)
    if card is None:
        return format_html('<span class="card-face">{}</span>', card_text)
    classes = ["card-face"]
    if card.effective.suit in ("D", "H"):
        classes.append("red")
    title = "Card of Fate" if is_fate else ""
    if is_fate:
        classes.append("fate")
    elif fate is not None:
        level = int(grade(card, fate))
        if level:
            classes.append(f"success-{level}")
            title = LEVEL_NAMES[level]
    return format_html('<span class="{}" title="{}" data-card="{}">{}</span>',
                       " ".join(classes), title, str(card), _label(card))


@register.simple_tag
def card_face(card_text, fate_text=None):
    """One card, marked with its success level against ``fate_text`` if given."""
    return _face(card_text, _parse(fate_text) if fate_text else None)


@register.simple_tag
def fate_face(card_text):
    """The Card of Fate."""
    return _face(card_text, None, is_fate=True)


@register.simple_tag
def card_faces(cards, fate_text=None):
    """A row of cards, each marked against ``fate_text``: a list of card texts (or of
    ``[card text, grade name]`` pairs, as engines log them), or one space-separated text."""
    if isinstance(cards, str):
        cards = cards.split()
    fate = _parse(fate_text) if fate_text else None
    texts = [c[0] if isinstance(c, list | tuple) else c for c in cards or ()]
    return format_html_join(" ", "{}", ((_face(c, fate),) for c in texts))


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
