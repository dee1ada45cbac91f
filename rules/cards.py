"""Playing cards and decks, in the notation of *Beat to Quarters*.

Notation (BtQ L50): rank then suit. Ranks ``2``-``10``, ``J``, ``Q``, ``K``, ``A``; suits
``D`` (Diamonds), ``H`` (Hearts), ``C`` (Clubs), ``S`` (Spades). ``JK`` is a Joker, and
``JK=7D`` a Joker played as the 7 of Diamonds. Ranks are numbered 2-14, aces high, for
tie-breaks (BtQ L1239).

Decks (``rules/btq_characters.md`` §4.1; BtQ L45, L1193): a player deck is the 52 cards plus
one Joker; the GM deck is the 52 cards. The Card of Fate is drawn from the GM deck and stays
out of it for the whole test. Drawing is done through a :class:`rules.random.RandomSource`,
which removes the drawn cards from the deck and records them.

>>> parse_card("10s")
Card('10S')
>>> parse_cards("4C, KD 3S")
[Card('4C'), Card('KD'), Card('3S')]
>>> str(parse_card("JK=7D"))
'JK=7D'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import FrozenInstanceError
from typing import cast

from mypy_extensions import mypyc_attr

SUITS = ("D", "H", "C", "S")
SUIT_NAMES = {"D": "Diamonds", "H": "Hearts", "C": "Clubs", "S": "Spades"}
RANK_NAMES = {11: "J", 12: "Q", 13: "K", 14: "A"}
_RANK_VALUES = {**{str(n): n for n in range(2, 11)}, "J": 11, "Q": 12, "K": 13, "A": 14}
JOKER_RANK = 0

PLAYER_DECK = "player"
GM_DECK = "gm"
DECK_KINDS = (PLAYER_DECK, GM_DECK)


@mypyc_attr(native_class=False)  # mypyc compiles no subclass of a built-in error
class CardError(ValueError):
    """A card or deck was named or used in a way the rules do not allow."""


_Key = tuple[int, str, "Card | None"]


@mypyc_attr(native_class=False)  # interned through object.__new__, which a native class refuses
class Card:
    """One playing card.

    ``rank`` is 2-14 (11 J, 12 Q, 13 K, 14 A) or 0 for the Joker; ``suit`` is one of
    :data:`SUITS`, or ``""`` for the Joker. A Joker may carry ``played_as``, the card its
    owner declared it to be (BtQ L1228: "you can choose it to be ANY CARD").

    Cards are immutable and interned: the 52 cards, the Joker and the Joker declared as each
    of the 52 exist once each, so ``Card(14, "H") is parse_card("AH")``. Equality and hashing
    are therefore by identity, which decks and grade tables use on every card turned. A rank,
    suit or declaration that makes no such card raises :class:`CardError`.
    """

    __slots__ = ("rank", "suit", "played_as", "is_joker", "_text")
    __match_args__ = ("rank", "suit", "played_as")

    rank: int
    suit: str
    played_as: Card | None
    is_joker: bool
    _text: str

    def __new__(cls, rank: object, suit: object, played_as: object = None) -> Card:
        # object: any value is looked up and refused here with a reason (compiled, narrower
        # types would refuse a wrong one before, with a bare TypeError)
        try:
            return _INTERNED[cast(_Key, (rank, suit, played_as))]
        except (KeyError, TypeError):
            raise CardError(f"Card({rank!r}, {suit!r}, {played_as!r}) is not a card: rank 2-14 "
                            f"and suit D, H, C or S, or rank 0 and suit '' for the Joker "
                            f"(played as one of the 52 cards, or not)") from None

    @classmethod
    def _intern(cls, rank: int, suit: str, played_as: Card | None = None) -> Card:
        card = object.__new__(cls)
        set_field = object.__setattr__
        set_field(card, "rank", rank)
        set_field(card, "suit", suit)
        set_field(card, "played_as", played_as)
        set_field(card, "is_joker", rank == JOKER_RANK)
        if rank == JOKER_RANK:
            text = "JK" if played_as is None else f"JK={played_as}"
        else:
            text = f"{RANK_NAMES.get(rank, str(rank))}{suit}"
        set_field(card, "_text", text)
        _INTERNED[rank, suit, played_as] = card
        return card

    def __setattr__(self, name, value):
        raise FrozenInstanceError(f"cannot assign to field {name!r}: a card is immutable")

    def __delattr__(self, name):
        raise FrozenInstanceError(f"cannot delete field {name!r}: a card is immutable")

    def __reduce__(self):
        return Card, (self.rank, self.suit, self.played_as)

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo) -> Card:
        return self

    @property
    def effective(self) -> Card:
        """The card this one counts as: a declared Joker's chosen card, else itself."""
        return self.played_as if self.played_as is not None else self

    def base(self) -> Card:
        """The physical card, without any Joker declaration (what goes back into a deck)."""
        return JOKER if self.is_joker else self

    def declare(self, card: Card | str) -> Card:
        """Return this Joker played as ``card``.

        Raises :class:`CardError` if this card is not a Joker or ``card`` is itself a Joker.
        """
        if not self.is_joker:
            raise CardError(f"only a Joker can be played as another card, not {self}")
        chosen = parse_card(card) if isinstance(card, str) else card
        if chosen.is_joker:
            raise CardError("a Joker must be played as one of the 52 cards")
        return _INTERNED[JOKER_RANK, "", chosen]

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card('{self._text}')"


_INTERNED: dict[_Key, Card] = {}
STANDARD_52: tuple[Card, ...] = tuple(Card._intern(r, s) for s in SUITS for r in range(2, 15))
JOKER = Card._intern(JOKER_RANK, "")
DECLARED_JOKERS: tuple[Card, ...] = tuple(Card._intern(JOKER_RANK, "", c) for c in STANDARD_52)
"""The Joker played as each of the 52 cards, in the order of :data:`STANDARD_52`."""
ALL_CARDS: tuple[Card, ...] = STANDARD_52 + (JOKER,) + DECLARED_JOKERS
"""Every card there is: the 52, the Joker and the 52 declared Jokers."""
_BY_TEXT = {str(c): c for c in ALL_CARDS}
_SPLIT = re.compile(r"[\s,]+")


def parse_card(text: object) -> Card:
    """Parse one card in the book's notation (case-insensitive): ``"10S"``, ``"ah"``,
    ``"JK"``, ``"JK=7D"``.

    Raises :class:`CardError` with the offending text if it is not a card.
    """
    if not isinstance(text, str):
        raise CardError(f"a card is written as text such as '10S', not {text!r}")
    card = _BY_TEXT.get(text)  # as the kernel writes it, in states and logs
    if card is not None:
        return card
    cleaned = text.strip().upper()
    if "=" in cleaned:
        joker, _, chosen = cleaned.partition("=")
        if joker.strip() != "JK":
            raise CardError(f"'{text}': only a Joker can be played as another card (JK=7D)")
        return JOKER.declare(parse_card(chosen))
    card = _BY_TEXT.get(cleaned)
    if card is None:
        raise CardError(
            f"'{text}' is not a card: write rank then suit, e.g. 10S, AH, 7D, or JK for a Joker"
        )
    return card


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse cards separated by spaces and/or commas (``"4C, KD 3S"``), or an iterable of
    card texts. Raises :class:`CardError` naming the first bad card."""
    parts = _SPLIT.split(text.strip()) if isinstance(text, str) else list(text)
    try:  # as the kernel writes them, in states and logs
        found = [_BY_TEXT.get(p) for p in parts]
    except TypeError:  # unhashable: no card text (parse_card says so)
        found = [None]
    if None in found:
        return [parse_card(p) for p in parts if p]
    return cast("list[Card]", found)


def card_texts(cards: Iterable[Card]) -> list[str]:
    """The texts of ``cards``, as ``str`` writes them (``["10S", "JK=7D"]``), without a call
    of ``Card.__str__`` a card: a Broadside! writes its cards in the state."""
    return [card._text for card in cards]


SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
"""The suits as the book prints them (BtQ L50)."""


def card_label(text: str | Card) -> str:
    """A card as a player reads it: ``"4S"`` -> ``"4♠"``, ``"10H"`` -> ``"10♥"``, ``"JK"``
    -> ``"Joker"``, ``"JK=9H"`` -> ``"Joker named 9♥"`` (BtQ L50). The one notation of every
    text a person reads; data keeps the plain texts. Raises :class:`CardError` for a text
    that is no card.

    >>> card_label("JK=9H")
    'Joker named 9♥'
    """
    card = text if isinstance(text, Card) else parse_card(text)
    if card.is_joker:
        named = card.played_as
        return "Joker" if named is None else f"Joker named {card_label(named)}"
    return f"{RANK_NAMES.get(card.rank, str(card.rank))}{SUIT_SYMBOLS[card.suit]}"


def card_count(n: int, what: str = "", *, signed: bool = False) -> str:
    """A number of cards in words, the one way every text a person reads counts them:
    ``"1 card"``, ``"3 cards"``, ``"0 cards"``; ``what`` cards, ``"2 Discipline cards"``;
    ``signed`` for what a modifier adds or takes, ``"+1 card"``, ``"-2 cards"``.

    >>> card_count(1), card_count(5), card_count(-1, signed=True), card_count(2, "Discipline")
    ('1 card', '5 cards', '-1 card', '2 Discipline cards')
    """
    number = f"{n:+d}" if signed else str(n)
    kind = f" {what}" if what else ""
    return f"{number}{kind} card{'' if abs(n) == 1 else 's'}"


def rank_value(text: str) -> int:
    """The numeric rank (2-14) of a rank symbol such as ``"10"`` or ``"A"``."""
    try:
        return _RANK_VALUES[text.strip().upper()]
    except KeyError:
        raise CardError(f"'{text}' is not a rank (2-10, J, Q, K, A)") from None


def deck_cards(kind: str) -> tuple[Card, ...]:
    """The full composition of a deck of ``kind`` ``"player"`` (52 + Joker) or ``"gm"`` (52)."""
    try:
        return _COMPOSITIONS[kind]
    except (KeyError, TypeError):
        raise CardError(f"unknown deck kind {kind!r}: use 'player' or 'gm'") from None


_COMPOSITIONS = {PLAYER_DECK: STANDARD_52 + (JOKER,), GM_DECK: STANDARD_52}


class Deck:
    """A deck of cards: the cards still in it and the cards out of it (turned or held).

    ``name`` identifies the deck in the draw log (``"gm"``, ``"pc:otoole"``). The cards in
    the deck plus the cards out of it always make up the deck's full composition; drawing
    is done by a random source (:meth:`rules.random.RandomSource.draw`), which calls
    :meth:`take_all`. :meth:`gather` returns every card to the deck, as after each test
    (BtQ L1247-1249).
    """

    __slots__ = ("kind", "name", "cards", "remaining", "out")

    def __init__(self, kind: str, name: str | None = None):
        self.kind = kind
        self.name = name or kind
        try:  # deck_cards, spelled out: a deck is made for every test
            self.cards = _COMPOSITIONS[kind]
        except (KeyError, TypeError):
            self.cards = deck_cards(kind)  # raises the error
        self.remaining: list[Card] = list(self.cards)
        self.out: list[Card] = []

    def take(self, card: Card) -> Card:
        """Remove ``card`` (any Joker declaration ignored) from the deck and return it.

        Raises :class:`CardError` if the card is not in the deck (never in it, or already out).
        """
        self.take_all((card,))
        return card

    def take_all(self, cards: Iterable[Card]) -> None:
        """:meth:`take` each of ``cards`` in turn (a draw takes its cards at once)."""
        remaining, out = self.remaining, self.out
        for card in cards:
            physical = JOKER if card.is_joker else card  # card.base()
            try:
                remaining.remove(physical)
            except ValueError:
                where = "is already out of" if physical in out else "is not part of"
                raise CardError(f"{physical} {where} the {self.name} deck") from None
            out.append(physical)

    def gather(self) -> None:
        """Return every card to the deck (the deck is shuffled by the next draw)."""
        self.remaining = list(self.cards)
        self.out = []

    def __len__(self) -> int:
        return len(self.remaining)

    def __repr__(self) -> str:
        return f"Deck({self.name!r}, {len(self.remaining)} in, {len(self.out)} out)"
