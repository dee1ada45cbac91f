"""Template tags of the battle log: the cards an engine's event shows (drawn with the shared
card tags, ``campaigns.templatetags.cards``), and its pool breakdowns and GM-only details as
text a person reads."""

import re

from django import template

from rules.btq.characters import SKILLS
from rules.btq.tests import pool_sum
from rules.engine import engines

register = template.Library()


@register.filter
def round_word(engine_name: str) -> str:
    """What an engine's game calls one of its rounds in the log: an engine's ``round_word``
    (a wargame's "Turn"), else "Round" (a battle's, a skirmish's)."""
    return getattr(engines().get(engine_name), "round_word", "Round")


@register.filter
def round_counter(number) -> str:
    """A battle page's round counter: "Round 2", or, while the engine's count is still 0,
    "Before the first round" (a BtQ battle's Steps One and Two, before its first round is
    counted; a BvP game's roll for the first player and the setting of the wind), not a
    "Round —" or "Round 0" a player cannot read."""
    return f"Round {number}" if number else "Before the first round"


@register.simple_tag
def round_label(engine_name: str, event) -> str:
    """The log's "Round 2" (:func:`round_word`) before an event of a round (a row of
    ``combat.selectors.events_for``), or "" where it would say nothing new: before the rounds
    begin, on a ``round.start``, and where the event's text names its round itself ("Round 1:
    The British' turn.", "Turn 3 of 12.", "Boarding, round 2."), which the log would show
    twice ("Round 1 Round 1: ...")."""
    number, kind, text = (event.get(k) for k in ("round", "kind", "text"))
    if not number or kind == "round.start":
        return ""
    label = f"{round_word(engine_name)} {number}"
    if re.search(rf"\b{re.escape(label)}\b", str(text), re.IGNORECASE):
        return ""
    return label


BOOK_TERMS = {"ship_morale": "Ship Morale", "weather_gage": "Weather Gage",
              "how_will_you_fight": "How Will You Fight?"}
"""Breakdown keys the book names in its own words (capitals, punctuation), as the step and
track names on the page say them."""


def _term(key) -> str:
    """A skill's name, the book's name of a term (:data:`BOOK_TERMS`), or a key or label
    with its first letter raised ("changing_shot" -> "Changing shot"; "PCs who won" stays
    so, "Ship Morale Injured" keeps its capitals)."""
    key = str(key)
    text = key.replace("_", " ")
    return SKILLS.get(key) or BOOK_TERMS.get(key) or text[:1].upper() + text[1:]


def breakdown_text(breakdown, turned: int | None = None) -> str:
    """A card pool's breakdown, term -> cards (penalties negative), as the sum a person
    reads, skills first and penalties last: ``{"seamanship": 3, "handling": 4, "weather":
    -1}`` -> "Seamanship 3 + Handling 4 - Weather 1 = 6". A pool is never below 0 cards
    (BtQ digest D2): penalties beyond its cards sum to 0 ("Command 2 - PCs who lost 2 -
    Ship Morale Injured 1 = 0"); when it ``turned`` more cards than that, a campaign's floor
    did, and the sum says so ("= 0, at least 1 card", :func:`rules.btq.tests.pool_sum`).
    Terms that are not whole numbers are left out."""
    terms = [(k, v) for k, v in (breakdown or {}).items()
             if isinstance(v, int) and not isinstance(v, bool)]
    # The skill first, then the bonuses, then the penalties (PostgreSQL's JSON does not keep
    # the order the engine wrote).
    terms.sort(key=lambda term: 0 if term[0] in SKILLS else 1 if term[1] >= 0 else 2)
    if not terms:
        return ""
    text = " ".join(
        f"{'' if i == 0 and v >= 0 else '+ ' if v >= 0 else '- ' if i else '-'}{_term(k)} "
        f"{abs(v)}" for i, (k, v) in enumerate(terms)
    )
    total = sum(v for _, v in terms)
    return f"{text} {pool_sum(total, max(0, total) if turned is None else turned)}"


def _pool(data, key) -> dict:
    """The pool ``key`` of an event's ``pools`` (``{"who", "cards"}``), ``{}`` if none."""
    pools = data.get("pools") if isinstance(data, dict) else None
    pool = pools.get(key) if isinstance(pools, dict) else None
    return pool if isinstance(pool, dict) else {}


def _turned(data, key) -> int | None:
    """How many cards the pool ``key`` of an event's ``pools`` turned, if it says."""
    cards = _pool(data, key).get("cards")
    return len(cards) if isinstance(cards, list) else None


def _who(data, key) -> str:
    return _pool(data, key).get("who") or _term(key)


def _details(values: dict, data, owner=None) -> list[str]:
    """``key value`` details as text: a ``breakdown`` as its sum (of the pool ``owner``),
    a pool's dict by its owner's name, anything else as "Key: value"."""
    lines = []
    for key, value in values.items():
        if key == "breakdown" and isinstance(value, dict):
            lines.append(f"pool {breakdown_text(value, _turned(data, owner))}")
        elif isinstance(value, dict):
            inner = "; ".join(_details(value, data, key))
            lines.append(f"{_who(data, key)}: {inner}")
        elif isinstance(value, list):
            lines.append(f"{_term(key)}: {', '.join(map(str, value))}")
        else:
            lines.append(f"{_term(key)}: {value}")
    return lines


@register.simple_tag
def public_breakdowns(data) -> list[str]:
    """The pool breakdowns every participant who sees the event may read (its ``data``: a
    ``breakdown``, or the ``breakdown`` of a contest's ``pools``), as text."""
    if not isinstance(data, dict):
        return []
    lines = []
    if isinstance(data.get("breakdown"), dict):
        lines.append(f"Pool: {breakdown_text(data['breakdown'])}")
    pools = data.get("pools")
    for key, pool in (pools.items() if isinstance(pools, dict) else ()):
        if isinstance(pool, dict) and isinstance(pool.get("breakdown"), dict):
            lines.append(f"{_who(data, key)}: "
                         f"{breakdown_text(pool['breakdown'], _turned(data, key))}")
    return lines


@register.simple_tag
def gm_details(gm_data, data) -> list[str]:
    """An event's GM-only ``gm_data`` as text lines (pool breakdowns as sums, pools named by
    their owner from the event's ``data``)."""
    return _details(gm_data, data) if isinstance(gm_data, dict) else []


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
