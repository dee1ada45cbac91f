"""The kernel's random sources (rules/random.py): seeded play, stacked decks, the draw log."""

import json
import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.cards import GM_DECK, JOKER, PLAYER_DECK, Card, CardError, Deck, parse_cards
from rules.random import Draw, ScriptedSource, ScriptExhausted, SeededSource, _sample


def _draws(source, n_tests=20):
    out = []
    for _ in range(n_tests):
        gm, pc = Deck(GM_DECK), Deck(PLAYER_DECK, "pc:a")
        out.append((source.draw(gm, 1), source.draw(pc, 6), source.draw(gm, 4),
                    source.roll(6, 2)))
    return out


def test_the_same_seed_gives_the_same_draws_and_rolls():
    assert _draws(SeededSource(1809)) == _draws(SeededSource(1809))


def test_different_seeds_give_different_draws():
    assert _draws(SeededSource(1)) != _draws(SeededSource(2))


def test_seeded_draws_stay_what_they_were():
    # Stored battles are replayed from their seed: these draws must never change.
    source = SeededSource(1809)
    gm, pc = Deck(GM_DECK), Deck(PLAYER_DECK, "pc:a")
    source.draw(gm, 1), source.draw(pc, 6), source.draw(gm, 4)
    assert len(source.draw(pc, 47)) == 47 and source.draw(pc, 1) == []
    assert source.roll(6, 3) == [2, 4, 2]
    assert [str(d) for d in source.log[:3]] == [
        "gm draw: JS", "pc:a draw: JS 7H JC KC 9D KD", "gm draw: 9H KD 9S JC"]


def test_seeded_sampling_is_the_standard_librarys():
    # SeededSource spells out random.Random.sample (Python 3.11): the same cards, in the same
    # order, and the generator left in the same state, for every deck size and draw size.
    population = list(range(53))
    for n in range(54):
        for k in range(n + 1):
            ours, theirs = random.Random(n * 100 + k), random.Random(n * 100 + k)
            for _ in range(3):
                places = _sample(ours.getrandbits, n, k)
                assert [population[j] for j in places] == theirs.sample(population[:n], k)
            assert ours.getstate() == theirs.getstate()
            items = [object() for _ in range(n)]  # distinct, as a deck's cards are
            assert _sample(ours.getrandbits, n, k, items) == theirs.sample(items, k)
            assert ours.getstate() == theirs.getstate()
    with pytest.raises(ValueError, match="a deck holds 63 at most"):
        _sample(random.Random(1).getrandbits, 64, 1)


def test_a_source_that_keeps_no_record_draws_the_same_cards():
    recorded, unrecorded = SeededSource(7), SeededSource(7, record=False)
    assert _draws(recorded, 6) == _draws(unrecorded, 6)
    assert recorded.log and unrecorded.log == []
    assert recorded.state() == unrecorded.state()


def test_state_saved_as_json_and_restored_continues_the_same_sequence():
    source = SeededSource(42)
    _draws(source, 3)
    saved = json.loads(json.dumps(source.state()))
    expected = _draws(source, 5)
    restored = SeededSource(42, state=saved)
    assert _draws(restored, 5) == expected
    assert restored.seed == 42


def test_draw_removes_the_cards_from_the_deck_and_logs_them():
    source = SeededSource(7)
    deck = Deck(PLAYER_DECK, "pc:otoole")
    cards = source.draw(deck, 5, purpose="pool")
    assert len(cards) == len(set(cards)) == 5
    assert deck.out == cards
    assert len(deck) == 48
    assert source.log == [Draw("pc:otoole", "pool", tuple(map(str, cards)))]


def test_a_draw_is_capped_at_the_cards_left_and_never_negative():
    source = SeededSource(3)
    gm = Deck(GM_DECK)
    assert len(source.draw(gm, 60)) == 52
    assert source.draw(gm, 1) == []
    assert str(source.log[-1]) == "gm draw: "
    with pytest.raises(ValueError, match="cannot draw -1 cards"):
        source.draw(Deck(GM_DECK), -1)


def test_a_gm_deck_never_gives_a_joker_a_player_deck_does():
    source = SeededSource(11)
    assert JOKER not in source.draw(Deck(GM_DECK), 52)
    assert JOKER in source.draw(Deck(PLAYER_DECK), 53)


def test_rolls_are_faces_of_the_die_and_logged():
    source = SeededSource(5)
    faces = source.roll(6, 200, purpose="movement")
    assert set(faces) == set(range(1, 7))
    assert source.log[-1].source == "d6"
    assert source.log[-1].purpose == "movement"
    assert source.log[-1].values == tuple(map(str, faces))
    for sides, count in ((1, 1), (6, -1)):
        with pytest.raises(ValueError, match="cannot roll"):
            source.roll(sides, count)


def test_draw_text_and_dict():
    draw = Draw("gm", "card of fate", ("4S",))
    assert str(draw) == "gm card of fate: 4S"
    assert draw.as_dict() == {"source": "gm", "purpose": "card of fate", "values": ["4S"]}


def test_a_draw_keeps_the_cards_and_reads_as_their_text():
    source = ScriptedSource("4S JK=7D", rolls=[3, 6])
    cards = source.draw(Deck(PLAYER_DECK, "pc:a"), 2, purpose="pool")
    faces = source.roll(6, 2)
    cards.append(Card(2, "D"))  # the caller's list is the caller's: the log keeps its own
    faces.append(1)
    drawn, rolled = source.log
    assert drawn.values == ("4S", "JK=7D") and rolled.values == ("3", "6")
    assert drawn == Draw("pc:a", "pool", ("4S", "JK=7D")) == Draw("pc:a", "pool",
                                                                   parse_cards("4S JK=7D"))
    assert hash(drawn) == hash(Draw("pc:a", "pool", ["4S", "JK=7D"]))
    assert drawn != Draw("pc:a", "pool", ("4S",)) and drawn != Draw("gm", "pool", ("4S", "JK=7D"))
    assert drawn != ("pc:a", "pool", ("4S", "JK=7D"))
    assert str(drawn) == "pc:a pool: 4S JK=7D"
    assert repr(rolled) == "Draw(source='d6', purpose='roll', values=('3', '6'))"
    assert rolled.as_dict() == {"source": "d6", "purpose": "roll", "values": ["3", "6"]}
    with pytest.raises(AttributeError):
        drawn.values = ("2C",)
    with pytest.raises(AttributeError):
        drawn.source = "gm"


def test_a_scripted_source_stacks_the_deck_in_order():
    source = ScriptedSource("4S, 4H AH", rolls=[3, 6])
    gm = Deck(GM_DECK)
    assert source.cards_left == 3
    assert source.draw(gm, 1, purpose="card of fate") == parse_cards("4S")
    assert source.draw(gm, 2, purpose="pool") == parse_cards("4H AH")
    assert source.roll(6, 2) == [3, 6]
    assert source.cards_left == 0
    assert [str(d) for d in source.log] == ["gm card of fate: 4S", "gm pool: 4H AH", "d6 roll: 3 6"]


def test_a_scripted_source_takes_cards_as_a_list_and_more_cards_later():
    source = ScriptedSource([Card(2, "D"), "JK=7D"])
    source.push("QS KS")
    deck = Deck(PLAYER_DECK)
    assert source.draw(deck, 4) == parse_cards("2D JK=7D QS KS")
    assert JOKER in deck.out


@pytest.mark.parametrize("script, deck_kind, message", [
    ("JK", GM_DECK, "scripted card JK is not in the gm deck"),
    ("4S 4S", GM_DECK, "scripted card 4S is not in the gm deck"),
    ("JK JK=2D", PLAYER_DECK, "scripted card JK=2D is not in the player deck"),
])
def test_a_scripted_card_that_the_deck_cannot_give_is_refused(script, deck_kind, message):
    deck = Deck(deck_kind)
    source = ScriptedSource(script)
    with pytest.raises(CardError, match=message):
        source.draw(deck, 2)
    assert not deck.out  # nothing was taken


def test_a_card_already_out_cannot_be_scripted_again():
    deck = Deck(GM_DECK)
    source = ScriptedSource("4S 4S")
    source.draw(deck, 1)
    with pytest.raises(CardError, match="4S is not in the gm deck"):
        source.draw(deck, 1)
    deck.gather()
    assert source.log[0].values == ("4S",)


def test_an_exhausted_script_says_so():
    source = ScriptedSource("4S")
    with pytest.raises(ScriptExhausted, match="no card left for the gm deck"):
        source.draw(Deck(GM_DECK), 2)
    with pytest.raises(ScriptExhausted, match="no roll left for a d6"):
        source.roll(6)


def test_a_scripted_roll_must_be_a_face_of_the_die():
    with pytest.raises(ValueError, match="scripted roll 7 is not a face of a d6"):
        ScriptedSource(rolls=[7]).roll(6)


def test_when_the_script_runs_out_the_fallback_source_continues():
    source = ScriptedSource("AS", rolls=[2], then=SeededSource(9))
    cards = source.draw(Deck(GM_DECK), 3)
    assert cards[0] == Card(14, "S")
    assert len(set(cards)) == 3
    faces = source.roll(6, 3)
    assert faces[0] == 2 and len(faces) == 3


@given(st.integers(0, 2**32), st.integers(1, 52), st.lists(st.sampled_from(
    [str(c) for c in Deck(GM_DECK).cards]), max_size=5, unique=True))
def test_the_fallback_never_repeats_a_scripted_card(seed, count, script):
    deck = Deck(GM_DECK)
    source = ScriptedSource(script, then=SeededSource(seed))
    cards = source.draw(deck, max(count, len(script)))
    assert [str(c) for c in cards[:len(script)]] == script
    assert len(set(cards)) == len(cards)
    assert Counter(deck.remaining) + Counter(deck.out) == Counter(deck.cards)


@given(st.integers(0, 2**32), st.lists(st.integers(0, 20), min_size=1, max_size=8))
def test_seeded_draws_never_repeat_a_card_until_gathered(seed, counts):
    source = SeededSource(seed)
    deck = Deck(PLAYER_DECK, "pc:x")
    seen = []
    for count in counts:
        cards = source.draw(deck, count)
        assert len(cards) == min(count, 53 - len(seen))
        seen += cards
        assert len(set(seen)) == len(seen)
        assert Counter(deck.remaining) + Counter(deck.out) == Counter(deck.cards)
    deck.gather()
    assert len(deck) == 53


def test_one_card_drawn_is_the_standard_librarys_sample_of_one():
    # SeededSource.draw takes a shortcut for one card: the same card and generator state.
    for n in range(1, 54):
        for seed in range(20):
            deck = Deck(PLAYER_DECK)
            deck.remaining = deck.remaining[:n]
            before = list(deck.remaining)
            source, theirs = SeededSource(seed), random.Random(seed)
            assert source.draw(deck, 1) == theirs.sample(before, 1)
            assert source._rng.getstate() == theirs.getstate()
            assert deck.remaining == [c for c in before if c not in deck.out]


@given(st.integers(0, 2**32), st.integers(0, 60), st.sampled_from([PLAYER_DECK, GM_DECK]))
def test_a_draw_from_a_full_deck_nobody_keeps_is_a_draw_from_a_new_deck(seed, count, kind):
    """``draw_full`` turns what ``draw`` turns from a new deck, logs it the same and leaves
    the generator where ``draw`` does (a seeded battle draws a PC's deck this way)."""
    full, deck = SeededSource(seed), SeededSource(seed)
    assert full.draw_full(kind, "pc:smith", count, purpose="p") == deck.draw(
        Deck(kind, "pc:smith"), count, purpose="p")
    assert full.log == deck.log
    assert full.state() == deck.state()
    assert full.draw_full(kind, "x", 3) == deck.draw(Deck(kind, "x"), 3)


@given(st.integers(0, 2**32), st.lists(st.tuples(st.integers(-1, 60), st.booleans()),
                                        max_size=4))
def test_a_test_drawn_without_a_log_turns_what_the_decks_turn(seed, hands):
    """``draw_test`` of a source that keeps no log (a Monte Carlo's) turns the Card of Fate
    and the hands that a fresh GM deck and the PCs' full decks give, two GM hands or more
    each from what the last left, and leaves the generator where they do."""
    hands = [(f"h{i}", size, own) for i, (size, own) in enumerate(hands)]
    fast, recorded, decks = (SeededSource(seed, record=False), SeededSource(seed),
                             SeededSource(seed))
    gm = Deck(GM_DECK)
    fate = decks.draw(gm, 1)[0]
    turned = [[] if size <= 0 else decks.draw_full(PLAYER_DECK, label, size) if own
              else decks.draw(gm, size) for label, size, own in hands]
    assert fast.draw_test("t", hands) == recorded.draw_test("t", hands) == (fate, turned)
    assert fast.state() == recorded.state() == decks.state()
    assert [d.purpose for d in recorded.log] == ["t card of fate"] + [
        f"t {label}" for label, size, _ in hands if size > 0]


def test_a_scripted_source_draws_a_full_deck_from_its_script():
    source = ScriptedSource(cards="JK 4H")
    assert source.draw_full(PLAYER_DECK, "pc:smith", 2, purpose="p") == [JOKER, Card(4, "H")]
    assert [str(d) for d in source.log] == ["pc:smith p: JK 4H"]
    with pytest.raises(ValueError):
        SeededSource(1).draw_full(GM_DECK, "gm", -1)
