""""Your turn": the battle and card test pages say so at the top and in the title to the
viewer a decision waits for, and to nobody else; the live parts say so too (their
out-of-band banner), so the banner follows the battle without a reload."""

import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def title(html: str) -> str:
    return re.search(r"<title>(.*?)</title>", html, re.S).group(1).strip()


def banner(html: str) -> bool:
    return 'class="your-turn message"' in html


def test_the_battle_page_tells_the_player_whose_decision_waits(
        book_battle, play, player_a_client, player_b_client, gm_client):
    url = reverse("combat:detail", args=[book_battle.pk])
    mine = player_a_client.get(url).content.decode()  # the start distance: O'Toole's
    assert banner(mine) and title(mine).startswith("Your turn")
    assert mine.index('id="your-turn"') < mine.index('id="battle-state"')
    for client in (player_b_client, gm_client):
        theirs = client.get(url).content.decode()
        assert not banner(theirs) and not title(theirs).startswith("Your turn")
    poll = reverse("combat:poll", args=[book_battle.pk])
    play(book_battle, ["3", "1", "2", "1", "seamanship"])  # up to the GM's opposition
    live = gm_client.get(poll, {"after": 0, "token": "x"}).content.decode()
    assert '<div id="your-turn" hx-swap-oob="true">' in live and banner(live)
    live = player_a_client.get(poll, {"after": 0, "token": "x"}).content.decode()
    assert '<div id="your-turn" hx-swap-oob="true">' in live and not banner(live)


def test_the_card_test_page_tells_the_player_to_turn_the_cards(race, campaign,
                                                               player_a_client, gm_client):
    test = race()
    url = reverse("card_tests:detail", args=[campaign.pk, test.pk])
    mine = player_a_client.get(url).content.decode()
    assert banner(mine) and "turn the cards" in mine and title(mine).startswith("Your turn")
    gm = gm_client.get(url).content.decode()  # the GM may cancel: that waits for nobody
    assert not banner(gm)
    live = player_a_client.get(reverse("card_tests:live", args=[campaign.pk, test.pk])
                               ).content.decode()
    assert '<div id="your-turn" hx-swap-oob="true">' in live and banner(live)
