"""The live part of the battle page: htmx polls for the events after the last one shown and,
when the battle changed, fresh panels; nothing new is a 204."""

import re

import pytest
from django.urls import reverse

from .conftest import ROUND_1

pytestmark = pytest.mark.django_db


def poller(html: str) -> tuple[int, str]:
    found = re.search(r'data-last-seq="(\d+)" data-token="([^"]+)"', html)
    return int(found.group(1)), found.group(2)


def test_the_poll_sends_only_what_is_new(book_battle, play, player_b_client):
    url = reverse("combat:detail", args=[book_battle.pk])
    poll = reverse("combat:poll", args=[book_battle.pk])
    after, token = poller(player_b_client.get(url).content.decode())
    assert player_b_client.get(poll, {"after": after, "token": token}).status_code == 204
    play(book_battle, ROUND_1[:4])  # up to the Hermes closing to Distance 1
    response = player_b_client.get(poll, {"after": after, "token": token})
    assert response.status_code == 200
    html = response.content.decode()
    assert 'hx-swap-oob="afterbegin:#event-log"' in html
    assert 'data-kind="positioning.test"' in html
    assert f'data-seq="{after}"' not in html  # nothing already shown is sent again
    assert '<section id="battle-state" hx-swap-oob="true">' in html
    assert "1 (Broadside!)" in html
    new_after, new_token = poller(html)
    assert new_after > after and new_token != token
    assert player_b_client.get(poll, {"after": new_after, "token": new_token}
                               ).status_code == 204
