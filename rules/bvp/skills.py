"""The faction skill decks of British vs Pirates (``british_vs_pirates.md`` §2.3, §3 step 5,
§4 step 2, A12; [L38], [L57]).

Each faction's deck is shuffled face down through the random source (every pick recorded,
:func:`rules.dice.shuffled`); each player is dealt 3 and draws back up to 3 at the start of
their turn; an empty deck is made again from that faction's discards, shuffled (A12: the
book is silent). A card in play is an opaque instance id (``"k7"``) so that an id shown to
its holder says nothing to anyone else; ``state["card_of"]`` maps it to its skill card.
"""

from __future__ import annotations

from rules.dice import shuffled
from rules.random import RandomSource

HAND_SIZE = 3


def build_decks(cards: dict, factions: list[str]) -> tuple[dict, dict]:
    """``(decks, card_of)``: for each faction in ``factions`` its cards in printed order
    (``{"draw": [ids], "discard": []}``), and instance id -> skill id."""
    decks, card_of = {}, {}
    n = 0
    for faction in factions:
        ids = []
        for skill, copies in cards["decks"].get(faction, {}).items():
            for _ in range(copies):
                n += 1
                card_of[f"k{n}"] = skill
                ids.append(f"k{n}")
        decks[faction] = {"draw": ids, "discard": []}
    return decks, card_of


def shuffle(deck: dict, source: RandomSource, faction: str) -> None:
    """Shuffle ``deck["draw"]`` in place (recorded as ``"<faction> deck shuffle"``)."""
    deck["draw"] = shuffled(source, deck["draw"], f"{faction} deck shuffle")


def draw_up(state: dict, side_id: str, source: RandomSource) -> tuple[list[str], bool]:
    """Draw for side ``side_id`` from its faction's deck until it holds 3 cards [L57]
    (fewer if deck and discards run out). Returns the ids drawn and whether the discards
    were shuffled into a new deck (A12)."""
    side = state["sides"][side_id]
    deck = state["decks"][side["faction"]]
    drawn, reshuffled = [], False
    while len(side["hand"]) < HAND_SIZE:
        if not deck["draw"]:
            if not deck["discard"]:
                break
            deck["draw"], deck["discard"] = deck["discard"], []
            shuffle(deck, source, side["faction"])
            reshuffled = True
        card = deck["draw"].pop(0)
        side["hand"].append(card)
        drawn.append(card)
    return drawn, reshuffled


def discard(state: dict, side_id: str, card: str) -> None:
    """Move ``card`` from the side's hand to its faction's discards; ``ValueError`` if the
    side does not hold it."""
    side = state["sides"][side_id]
    if card not in side["hand"]:
        raise ValueError(f"{side['name']} holds no card {card!r}")
    side["hand"].remove(card)
    state["decks"][side["faction"]]["discard"].append(card)
