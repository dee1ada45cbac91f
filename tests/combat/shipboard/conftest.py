"""Shipboard test data: the shared campaign's PCs with Wealth and a service record."""

import pytest

from characters.services import character_update


@pytest.fixture
def wealthy_a(pc_a, gm):
    """Anne Able with Captain Lonsdale's Wealth 4 (BtQ L1749)."""
    return character_update(character=pc_a, actor=gm, version=pc_a.version, wealth=4)


def stack(test, cards: str):
    from combat.models import Encounter
    from rules.cards import parse_cards

    Encounter.objects.filter(pk=test.pk).update(
        stacked_cards=[str(c) for c in parse_cards(cards)], stacked_position=0)


@pytest.fixture
def turn():
    """``turn(test, user, cards)``: its player turns ``test``'s cards, stacked."""
    from combat.card_tests.services import card_test_confirm

    def confirm(test, user, cards: str):
        stack(test, cards)
        test.refresh_from_db()
        return card_test_confirm(test=test, actor=user, version=test.version)
    return confirm
