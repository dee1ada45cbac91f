"""Dice for the wargame engines (``rules.dice``): every roll through the random source and
recorded, seeded or scripted."""

import pytest

from rules.dice import d6, order_by_dice, pick, roll, shuffled
from rules.random import ScriptedSource, SeededSource


def test_every_roll_is_recorded_with_its_purpose():
    source = ScriptedSource(rolls=[6, 2, 3, 1])
    assert d6(source, "ram") == 6
    assert roll(source, 2, 6, "wind") == [2, 3]
    assert pick(source, ["a", "b"], "coin") == "a"
    assert [str(d) for d in source.log] == ["d6 ram: 6", "d6 wind: 2 3", "d2 coin: 1"]


def test_a_single_item_is_taken_without_a_roll_and_none_is_an_error():
    source = ScriptedSource(rolls=[])
    assert pick(source, ["only"], "coin") == "only" and source.log == []
    with pytest.raises(ValueError, match="nothing to pick"):
        pick(source, [], "coin")


def test_a_shuffle_is_laid_out_by_its_dice():
    assert shuffled(ScriptedSource(rolls=[3, 1]), ["a", "b", "c"], "treasure") == [
        "c", "a", "b"]


def test_ties_roll_again_among_themselves_only():
    source = ScriptedSource(rolls=[4, 2, 4, 6, 1])
    assert order_by_dice(source, ["x", "y", "z"], "initiative") == ["y", "z", "x"]
    assert order_by_dice(ScriptedSource(rolls=[1, 6]), ["p", "q"], "i", ascending=False) == [
        "q", "p"]


def test_the_same_seed_rolls_the_same():
    first, second = SeededSource(42), SeededSource(42)
    assert shuffled(first, list(range(10)), "s") == shuffled(second, list(range(10)), "s")
    assert first.log == second.log
