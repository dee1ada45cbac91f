"""The one source of randomness for the rules kernel.

Every card draw and die roll goes through a :class:`RandomSource`, and every one is recorded
in its ``log`` as a :class:`Draw`, so a test or a battle can be audited and replayed.

* :class:`SeededSource` is used in play: the same seed gives the same draws. Its state can
  be saved as JSON (:meth:`SeededSource.state`) and restored, so a battle played step by step
  across web requests draws exactly what one uninterrupted run would.
* :class:`ScriptedSource` stacks the deck for tests: "the next cards are 4H, AH, 2D, 7S".
  It still checks each scripted card against the deck it is drawn from (a card cannot be
  drawn twice, and the GM deck has no Joker), so a script cannot do what a real deck cannot.

>>> from rules.cards import Deck
>>> source = ScriptedSource(cards="4S 4H AH")
>>> gm = Deck("gm")
>>> source.draw(gm, 1, purpose="card of fate"), source.draw(gm, 2, purpose="pool")
([Card('4S')], [Card('4H'), Card('AH')])
>>> [str(d) for d in source.log]
['gm card of fate: 4S', 'gm pool: 4H AH']
"""

from __future__ import annotations

import random as _random
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from math import ceil, log
from typing import Any, TypeVar

from mypy_extensions import mypyc_attr

from rules.cards import GM_DECK, PLAYER_DECK, Card, CardError, Deck, deck_cards, parse_card

T = TypeVar("T")


@mypyc_attr(native_class=False)  # mypyc compiles no subclass of a built-in error
class ScriptExhausted(RuntimeError):
    """A scripted source was asked for more cards or rolls than its script holds."""


@mypyc_attr(native_class=False)  # (as CardError)
class NotInDeck(CardError):
    """A scripted (stacked) ``card`` cannot be drawn from the deck named ``deck`` (a
    :class:`rules.cards.Deck`'s name: ``"gm"``, ``"pc:<id>"``...): it is not in it, or not
    any more."""

    def __init__(self, card: str, deck: str) -> None:
        super().__init__(f"scripted card {card} is not in the {deck} deck")
        self.card, self.deck = card, deck


class Draw:
    """One recorded draw: ``source`` is the deck name (or ``"d6"`` and the like for dice),
    ``purpose`` says what it was for, ``values`` are card texts or die faces, as text.

    Immutable. ``Draw(source, purpose, values)`` takes the values as texts, cards or faces:
    a random source records the cards and faces themselves, and ``values`` writes them out
    when it is read, so a Monte Carlo that never reads its log does not pay for the text.
    Two draws are equal when their source, purpose and ``values`` are.
    """

    __slots__ = ("_source", "_purpose", "_turned")

    def __init__(self, source: str, purpose: str, values: Iterable[str | Card | int]):
        self._source = source
        self._purpose = purpose
        self._turned = tuple(values)

    @property
    def source(self) -> str:
        return self._source

    @property
    def purpose(self) -> str:
        return self._purpose

    @property
    def values(self) -> tuple[str, ...]:
        return tuple(map(str, self._turned))

    def __str__(self) -> str:
        return f"{self._source} {self._purpose}: {' '.join(self.values)}"

    def __repr__(self) -> str:
        return f"Draw(source={self._source!r}, purpose={self._purpose!r}, values={self.values!r})"

    def __eq__(self, other) -> bool:
        if not isinstance(other, Draw):
            return NotImplemented
        return (self._source, self._purpose, self.values) == (other._source, other._purpose,
                                                              other.values)

    def __hash__(self) -> int:
        return hash((self._source, self._purpose, self.values))

    def as_dict(self) -> dict:
        return {"source": self._source, "purpose": self._purpose, "values": list(self.values)}


@mypyc_attr(allow_interpreted_subclasses=True)  # tests subclass the sources
class RandomSource(ABC):
    """Base class: draws cards from decks and rolls dice, recording each in ``log``."""

    def __init__(self, *, record: bool = True) -> None:
        self.log: list[Draw] = []
        self.record = record
        """Whether draws are recorded in ``log`` (a Monte Carlo, which never reads it, sets
        it off: the draws are the same)."""

    def draw(self, deck: Deck, count: int, *, purpose: str = "draw") -> list[Card]:
        """Turn ``count`` cards from ``deck`` (removing them from it) and return them in
        the order turned. ``count`` above the cards left is capped at what is left
        (``rules/btq_characters.md`` §10.2.6); a negative count is an error."""
        if count < 0:
            raise ValueError(f"cannot draw {count} cards")
        cards = self._pick(deck, min(count, len(deck.remaining)))
        deck.take_all(cards)
        if self.record:
            self.log.append(Draw(deck.name, purpose, cards))
        return cards

    def draw_full(self, kind: str, name: str, count: int, *, purpose: str = "draw"
                  ) -> list[Card]:
        """:meth:`draw` from a full deck of ``kind`` named ``name`` that nobody keeps: a
        PC's own deck, whole at every test and gathered after it (BtQ L1247-1249)."""
        return self.draw(Deck(kind, name), count, purpose=purpose)

    def draw_test(self, what: str, hands: Sequence[tuple[str, int, bool]]
                  ) -> tuple[Card, list[list[Card]]]:
        """The cards of one draw of a test: a Card of Fate from a fresh GM deck, then each of
        ``hands`` in turn, ``(label, size, own)``: ``size`` cards (none for 0 or less) from
        the full player deck named ``label`` where ``own`` (a PC's own deck, whole at every
        test, BtQ L1247-1249), else from what is left of that GM deck. The draws' purposes
        are ``"<what> card of fate"`` and ``"<what> <label>"`` (written only when the log
        is kept). Returns the Card of Fate and the hands, in the order of ``hands``."""
        gm = Deck(GM_DECK)
        record = self.record
        fate = self.draw(gm, 1, purpose=f"{what} card of fate" if record else "")[0]
        turned: list[list[Card]] = []
        for label, size, own in hands:
            if size <= 0:
                turned.append([])
                continue
            purpose = f"{what} {label}" if record else ""
            turned.append(self.draw_full(PLAYER_DECK, label, size, purpose=purpose) if own
                          else self.draw(gm, size, purpose=purpose))
        return fate, turned

    def roll(self, sides: int, count: int = 1, *, purpose: str = "roll") -> list[int]:
        """Roll ``count`` dice of ``sides`` faces; returns the faces (1..sides)."""
        if sides < 2 or count < 0:
            raise ValueError(f"cannot roll {count}d{sides}")
        faces = self._roll(sides, count)
        if self.record:
            self.log.append(Draw(f"d{sides}", purpose, faces))
        return faces

    @abstractmethod
    def _pick(self, deck: Deck, count: int) -> list[Card]:
        """Choose ``count`` distinct cards from ``deck.remaining`` (not yet removed)."""

    @abstractmethod
    def _roll(self, sides: int, count: int) -> list[int]:
        """Choose ``count`` faces from 1..``sides``."""


@mypyc_attr(allow_interpreted_subclasses=True)
class SeededSource(RandomSource):
    """Pseudo-random draws from ``random.Random(seed)``: shuffling a deck and turning its top
    cards is the same as sampling without replacement, which is what this does.
    ``record=False`` keeps no ``log`` (the draws are the same)."""

    def __init__(self, seed: int, state: list | None = None, *, record: bool = True):
        super().__init__(record=record)
        self.seed = seed
        self._rng = _random.Random(seed)
        if state is not None:
            version, internal, gauss = state
            self._rng.setstate((version, tuple(internal), gauss))
        self._getrandbits = self._rng.getrandbits

    def state(self) -> list:
        """The generator's position as JSON-serialisable data, for :meth:`__init__`."""
        version, internal, gauss = self._rng.getstate()
        return [version, list(internal), gauss]

    def draw(self, deck: Deck, count: int, *, purpose: str = "draw") -> list[Card]:
        """:meth:`RandomSource.draw`, the cards removed from the deck by their places in it
        (the sample knows them) rather than looked for. One card (a Card of Fate), the
        commonest draw, is :func:`_sample` for ``k = 1``, whose two ways are then the
        same: one index below ``n``, drawn again while out of range."""
        if count < 0:
            raise ValueError(f"cannot draw {count} cards")
        remaining = deck.remaining
        n = len(remaining)
        if count == 1 and n:
            bits = _BITS[n]  # (a deck holds 53 cards at most: _sample)
            j = self._getrandbits(bits)
            while j >= n:
                j = self._getrandbits(bits)
            cards = [remaining.pop(j)]
        else:
            places = _sample(self._getrandbits, n, count if count < n else n)
            cards = [remaining[j] for j in places]  # (map would call a method wrapper a card)
            places.sort(reverse=True)  # the sample's own list: sorted in place, then dropped
            for j in places:
                del remaining[j]
        deck.out.extend(cards)
        if self.record:
            self.log.append(Draw(deck.name, purpose, cards))
        return cards

    def draw_full(self, kind: str, name: str, count: int, *, purpose: str = "draw"
                  ) -> list[Card]:
        """:meth:`RandomSource.draw_full` without a deck: the cards the sample picks of the
        deck's composition (:func:`_sample`, which for one card picks the card at the single
        index :meth:`draw` turns), none of them removed from anything."""
        if count < 0:
            raise ValueError(f"cannot draw {count} cards")
        cards = deck_cards(kind)
        n = len(cards)
        turned: list[Card] = _sample(self._getrandbits, n, count if count < n else n, cards)
        if self.record:
            self.log.append(Draw(name, purpose, turned))
        return turned

    def draw_test(self, what: str, hands: Sequence[tuple[str, int, bool]]
                  ) -> tuple[Card, list[list[Card]]]:
        """:meth:`RandomSource.draw_test` without decks where no log is kept (a Monte
        Carlo's, which draws some ten tests a battle): the Card of Fate is the card at the
        single index :meth:`draw` turns of a full GM deck, and each hand the sample
        :meth:`draw` or :meth:`draw_full` takes of the cards its deck holds then (the GM
        deck's: the 51 the Card of Fate leaves, less any GM hand before)."""
        if self.record:
            return super().draw_test(what, hands)
        getrandbits = self._getrandbits
        j = getrandbits(_GM_BITS)
        while j >= _GM_SIZE:
            j = getrandbits(_GM_BITS)
        fate = _GM_CARDS[j]
        taken: list[Card] = []  # the GM hands' cards so far
        turned: list[list[Card]] = []
        for _, size, own in hands:
            if size <= 0:
                turned.append([])
                continue
            cards: Sequence[Card]
            if own:
                cards = _PLAYER_CARDS
            elif taken:  # what the GM hands before left, in the deck's order
                cards = [c for c in _GM_AFTER[j] if c not in taken]
            else:
                cards = _GM_AFTER[j]
            n = len(cards)
            hand: list[Card] = _sample(getrandbits, n, size if size < n else n, cards)
            if not own:
                taken.extend(hand)
            turned.append(hand)
        return fate, turned

    def _pick(self, deck: Deck, count: int) -> list[Card]:
        remaining = deck.remaining
        return [remaining[j] for j in _sample(self._getrandbits, len(remaining), count)]

    def _roll(self, sides: int, count: int) -> list[int]:
        return [self._rng.randint(1, sides) for _ in range(count)]


def _sample(getrandbits: Callable[[int], int], n: int, k: int,
            population: Sequence[Any] | None = None) -> list[Any]:
    """What ``random.Random.sample(population, k)`` returns for a ``population`` of ``n``
    distinct items (a deck's composition), with ``getrandbits`` the generator's method; or,
    without one, the places (indexes) of those items. The algorithm of Python 3.11's
    ``Lib/random.py``, step for step, so it turns the same cards and leaves the generator in
    the same state. Spelled out because a Monte Carlo samples hundreds of thousands of times
    and the library's version pays for generality (counts, checks, a method call per random
    number); and so that seeded battles, which are stored and replayed, do not change if a
    later Python changes its ``sample``. ``n`` is a deck's number of cards: above 63,
    ``ValueError``.
    """
    if n >= len(_BITS):
        raise ValueError(f"a deck of {n} cards: a deck holds {len(_BITS) - 1} at most")
    items: Sequence[Any] = range(n) if population is None else population
    result = []
    if n <= (_SETSIZES[k] if k < len(_SETSIZES) else _setsize(k)):
        # Draw from a copy, moving the last item not yet drawn into each gap: ``last`` is
        # the place of that item, below which the index is drawn (_randbelow(last + 1)),
        # of ``bits`` bits.
        pool = list(items)
        for last, bits in _COUNTDOWNS[n][:k]:
            j = getrandbits(bits)
            while j > last:  # random.Random._randbelow: reject and draw again
                j = getrandbits(bits)
            result.append(pool[j])
            pool[j] = pool[last]
        return result
    # Draw indexes, drawing again when out of range or already drawn (the library's set; a
    # list keeps them in the order drawn, and is the quicker to search for the few indexes
    # of this way: k is at most 5 when n is a deck's 53 cards or fewer).
    selected: list[int] = []
    bits = _BITS[n]
    for _ in range(k):
        j = getrandbits(bits)
        while j >= n or j in selected:
            j = getrandbits(bits)
        selected.append(j)
        result.append(items[j])
    return result


def _setsize(k: int) -> int:
    """The library's measure in ``sample``: above it, a set of ``k`` indexes is cheaper than
    a copy of the list."""
    return 21 + (4 ** ceil(log(k * 3, 4)) if k > 5 else 0)


_SETSIZES = tuple(_setsize(k) for k in range(64))
_BITS = tuple(n.bit_length() for n in range(64))
_COUNTDOWNS = tuple(tuple((last, _BITS[last + 1]) for last in range(n - 1, -1, -1))
                    for n in range(64))
""":func:`_setsize` of the draws a game makes (a pool is seldom above 20 cards), the
``bit_length`` of the numbers of cards a deck can hold (53 at most), and for each number
``n`` the places of a copy of ``n`` items from the last down, each with the ``bit_length``
of the count of places up to it (what :func:`_sample` draws an index below)."""
_GM_CARDS = deck_cards(GM_DECK)
_GM_SIZE = len(_GM_CARDS)
_GM_BITS = _BITS[_GM_SIZE]
_GM_AFTER = tuple(_GM_CARDS[:j] + _GM_CARDS[j + 1:] for j in range(_GM_SIZE))
_PLAYER_CARDS = deck_cards(PLAYER_DECK)
"""What :meth:`SeededSource.draw_test` draws from: a full GM deck, what each Card of Fate
leaves of it (in the deck's order, as :meth:`SeededSource.draw` leaves it) and a full
player deck."""


@mypyc_attr(allow_interpreted_subclasses=True)
class ScriptedSource(RandomSource):
    """Draws the scripted cards and rolls in order ("stack the deck").

    ``cards``: card texts or :class:`Card` objects (``"4H AH 2D"`` or a list); a ``JK=7D``
    entry is the Joker already declared as the 7D. ``rolls``: die faces. When the script runs
    out, draws go to ``then`` (another source) if given, else :class:`ScriptExhausted` is
    raised. A scripted card that is not in the deck it is drawn from raises
    :class:`rules.cards.CardError`.
    """

    def __init__(
        self,
        cards: str | Iterable[str | Card] = (),
        rolls: Iterable[int] = (),
        then: RandomSource | None = None,
    ):
        super().__init__()
        if isinstance(cards, str):
            cards = cards.replace(",", " ").split()
        self._cards = deque(c if isinstance(c, Card) else parse_card(c) for c in cards)
        self._rolls = deque(rolls)
        self.then = then

    @property
    def cards_left(self) -> int:
        return len(self._cards)

    def push(self, cards: str | Iterable[str | Card]) -> None:
        """Append more scripted cards to the end of the script."""
        if isinstance(cards, str):
            cards = cards.replace(",", " ").split()
        self._cards.extend(c if isinstance(c, Card) else parse_card(c) for c in cards)

    def _pick(self, deck: Deck, count: int) -> list[Card]:
        picked: list[Card] = []
        for _ in range(count):
            if not self._cards:
                if self.then is None:
                    raise ScriptExhausted(
                        f"the script has no card left for the {deck.name} deck"
                    )
                # The scripted cards are not taken yet: the fallback must not pick them again.
                taken = {p.base() for p in picked}
                rest = Deck(deck.kind, deck.name)
                rest.remaining = [c for c in deck.remaining if c not in taken]
                picked.extend(self.then._pick(rest, count - len(picked)))
                break
            card = self._cards.popleft()
            if card.base() not in deck.remaining or card.base() in (p.base() for p in picked):
                raise NotInDeck(str(card), deck.name)
            picked.append(card)
        return picked

    def _roll(self, sides: int, count: int) -> list[int]:
        faces: list[int] = []
        for _ in range(count):
            if not self._rolls:
                if self.then is None:
                    raise ScriptExhausted(f"the script has no roll left for a d{sides}")
                faces.extend(self.then._roll(sides, count - len(faces)))
                break
            face = self._rolls.popleft()
            if not 1 <= face <= sides:
                raise ValueError(f"scripted roll {face} is not a face of a d{sides}")
            faces.append(face)
        return faces


def stacked_step(step: Callable[[RandomSource], T], stacked: Sequence[str],
                 seeded: Callable[[], SeededSource]
                 ) -> tuple[T, SeededSource, int, CardError | None]:
    """One step of a game whose next cards are ``stacked`` (a GM's stacked deck; card texts),
    the seeded source taking over when they run out: ``step(source)`` with the stacked cards
    first, then ``seeded()`` (a fresh seeded source at the game's position). Returns
    ``(what step returned, the seeded source after it, the stacked cards it drew, None)``.
    When a stacked card cannot be drawn (the game took another course than the one stacked
    for), the step is taken again with a fresh ``seeded()`` alone and the rest of the stack
    is set aside, so that a stack never blocks a game: ``(..., 0, the CardError that said
    why)``. Without stacked cards, ``step`` is taken with ``seeded()``. What ``step`` raises
    otherwise goes through."""
    source = seeded()
    if not stacked:
        return step(source), source, 0, None
    scripted = ScriptedSource(cards=stacked, then=source)
    try:
        result = step(scripted)
    except CardError as exc:
        source = seeded()
        return step(source), source, 0, exc
    return result, source, len(stacked) - scripted.cards_left, None
