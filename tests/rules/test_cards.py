"""Playing cards and decks (rules/cards.py; BtQ L45, L50, L1193, L1239)."""

import copy
import pickle
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.cards import (
    ALL_CARDS,
    DECK_KINDS,
    DECLARED_JOKERS,
    GM_DECK,
    JOKER,
    PLAYER_DECK,
    STANDARD_52,
    SUITS,
    Card,
    CardError,
    Deck,
    card_texts,
    deck_cards,
    parse_card,
    parse_cards,
    rank_value,
)

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


@pytest.mark.parametrize("rank", RANKS)
@pytest.mark.parametrize("suit", SUITS)
def test_every_card_parses_and_prints_in_the_books_notation(rank, suit):
    card = parse_card(rank + suit)
    assert str(card) == rank + suit
    assert card.suit == suit
    assert card.rank == RANKS.index(rank) + 2
    assert parse_card((rank + suit).lower()) == card


def test_ranks_run_two_to_fourteen_aces_high():
    assert [parse_card(r + "S").rank for r in RANKS] == list(range(2, 15))
    assert rank_value("10") == 10
    assert rank_value(" a ") == 14
    assert rank_value("j") == 11


@pytest.mark.parametrize("text", ["1", "11", "X", "", "JK"])
def test_rank_value_refuses_what_is_not_a_rank(text):
    with pytest.raises(CardError, match="is not a rank"):
        rank_value(text)


def test_notation_tolerates_case_and_spaces():
    assert parse_card("  10s ") == Card(10, "S")
    assert parse_card("ah") == Card(14, "H")
    assert parse_card("jk") is JOKER


@pytest.mark.parametrize("text", ["1S", "11H", "AX", "A", "S", "", "10", "KK", "JK7D", "0D"])
def test_a_bad_card_names_the_offending_text(text):
    with pytest.raises(CardError) as excinfo:
        parse_card(text)
    assert f"'{text}'" in str(excinfo.value)


@pytest.mark.parametrize("value", [None, 7, Card(7, "D")])
def test_a_card_must_be_written_as_text(value):
    with pytest.raises(CardError, match="written as text"):
        parse_card(value)


def test_a_joker_can_be_written_with_the_card_it_is_played_as():
    card = parse_card("jk = 7d")
    assert card.is_joker
    assert card.played_as == Card(7, "D")
    assert card.effective == Card(7, "D")
    assert card.base() is JOKER
    assert str(card) == "JK=7D"
    assert repr(card) == "Card('JK=7D')"
    assert card != JOKER


@pytest.mark.parametrize("text", ["7D=8D", "JK=JK", "JK=", "JK=1S", "QS=JK"])
def test_only_a_joker_is_played_as_another_of_the_52_cards(text):
    with pytest.raises(CardError):
        parse_card(text)


def test_declare():
    assert JOKER.declare("KS") == parse_card("JK=KS")
    assert JOKER.declare(Card(13, "S")).effective == Card(13, "S")
    with pytest.raises(CardError, match="only a Joker"):
        Card(7, "D").declare("8D")
    with pytest.raises(CardError, match="one of the 52 cards"):
        JOKER.declare(JOKER)


def test_a_plain_card_is_its_own_effective_and_base_card():
    card = parse_card("QH")
    assert not card.is_joker
    assert card.effective is card
    assert card.base() is card
    assert JOKER.declare("QH") != card


def test_parse_cards_splits_on_spaces_and_commas_or_takes_an_iterable():
    assert parse_cards("4C, KD 3S,QH") == [Card(4, "C"), Card(13, "D"), Card(3, "S"),
                                          Card(12, "H")]
    assert parse_cards(["10S", "JK=2H"]) == [Card(10, "S"), JOKER.declare("2H")]
    assert parse_cards("") == []
    assert parse_cards("  ") == []


def test_parse_cards_names_the_first_bad_card():
    with pytest.raises(CardError, match="'ZZ'"):
        parse_cards("4C ZZ 1S")


def test_standard_deck_composition():
    assert len(STANDARD_52) == len(set(STANDARD_52)) == 52
    assert Counter(c.suit for c in STANDARD_52) == {s: 13 for s in SUITS}
    assert Counter(c.rank for c in STANDARD_52) == {r: 4 for r in range(2, 15)}


def test_a_player_deck_is_52_cards_and_one_joker_the_gm_deck_has_no_joker():
    player, gm = deck_cards(PLAYER_DECK), deck_cards(GM_DECK)
    assert len(player) == 53
    assert sum(c.is_joker for c in player) == 1
    assert set(player) - {JOKER} == set(STANDARD_52)
    assert len(gm) == 52
    assert JOKER not in gm
    with pytest.raises(CardError, match="unknown deck kind"):
        deck_cards("tarot")
    with pytest.raises(CardError, match="unknown deck kind"):
        Deck("tarot")


def test_deck_take_and_gather():
    deck = Deck(PLAYER_DECK, "pc:otoole")
    assert deck.name == "pc:otoole"
    assert len(deck) == 53
    assert deck.take(parse_card("JK=7D")) == parse_card("JK=7D")
    assert JOKER in deck.out and JOKER not in deck.remaining
    deck.take(Card(7, "D"))  # the Joker played as the 7D is not the 7D itself
    assert len(deck) == 51
    assert repr(deck) == "Deck('pc:otoole', 51 in, 2 out)"
    deck.gather()
    assert deck.out == []
    assert deck.remaining == list(deck_cards(PLAYER_DECK))


def test_a_deck_refuses_a_card_that_is_out_or_not_in_it():
    gm = Deck(GM_DECK)
    assert gm.name == "gm"
    gm.take(Card(4, "S"))
    with pytest.raises(CardError, match="4S is already out of the gm deck"):
        gm.take(Card(4, "S"))
    with pytest.raises(CardError, match="JK is not part of the gm deck"):
        gm.take(JOKER)
    assert len(gm) == 51
    assert gm.out == [Card(4, "S")]


@given(st.sampled_from(DECK_KINDS), st.data())
def test_in_deck_and_out_always_make_the_composition(kind, data):
    deck = Deck(kind)
    for _ in range(data.draw(st.integers(1, 6))):
        for _ in range(data.draw(st.integers(0, 10))):
            if not deck.remaining:
                break
            deck.take(data.draw(st.sampled_from(deck.remaining)))
            assert Counter(deck.remaining) + Counter(deck.out) == Counter(deck.cards)
            assert len(set(deck.out)) == len(deck.out)
        deck.gather()
        assert Counter(deck.remaining) == Counter(deck.cards) and not deck.out


def test_cards_are_interned_and_equal_by_value():
    assert parse_card("AH") == Card(14, "H") and parse_card("AH") is Card(14, "H")
    assert hash(parse_card("AH")) == hash(Card(14, "H"))
    assert parse_card("JK=7D") == JOKER.declare(Card(7, "D")) == Card(0, "", Card(7, "D"))
    assert parse_card("JK=7D") != JOKER and parse_card("JK=7D") != Card(7, "D")
    assert parse_card("JK=7D") != parse_card("JK=7H")
    assert Card(7, "D") != "7D" and Card(7, "D") != (7, "D", None)
    assert len({parse_card("JK=7D"), JOKER.declare("7D"), JOKER, Card(7, "D")}) == 3
    assert Counter(parse_cards("4C 4C JK=4C")) == {Card(4, "C"): 2, JOKER.declare("4C"): 1}


def test_copies_and_pickles_of_a_card_are_the_card():
    for card in (Card(10, "S"), JOKER, JOKER.declare("QH")):
        assert copy.copy(card) is card and copy.deepcopy(card) is card
        assert pickle.loads(pickle.dumps(card)) is card


@pytest.mark.parametrize("args", [(1, "S"), (15, "H"), (7, "X"), (0, "S"), (7, ""),
                                  (0, "", JOKER), (7, "D", Card(8, "D")), ([7], "D")])
def test_only_real_cards_can_be_made(args):
    with pytest.raises(CardError, match="is not a card"):
        Card(*args)


def test_a_card_is_immutable():
    card = Card(7, "D")
    with pytest.raises(AttributeError, match="immutable"):
        card.rank = 8
    with pytest.raises(AttributeError, match="immutable"):
        del card.suit
    assert card.rank == 7


def test_every_card_there_is():
    assert len(ALL_CARDS) == len(set(ALL_CARDS)) == 105
    assert [c.played_as for c in DECLARED_JOKERS] == list(STANDARD_52)
    assert all(parse_card(str(c)) is c for c in ALL_CARDS)


def test_card_texts_are_what_str_writes_and_parse_back_to_the_same_cards():
    assert card_texts(ALL_CARDS) == [str(c) for c in ALL_CARDS]
    assert parse_cards(card_texts(ALL_CARDS)) == list(ALL_CARDS)
    assert parse_cards(["10s", "jk=7d", ""]) == [Card(10, "S"), JOKER.declare("7D")]
    with pytest.raises(CardError, match="'1S'"):
        parse_cards(["10S", "1S"])
    with pytest.raises(CardError, match="written as text"):
        parse_cards([["10S"]])
