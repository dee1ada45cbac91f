"""An address that takes only a form's submission, opened in a browser (typed, reloaded),
answers the site's own page with a way back, still 405; the API's 405 stays JSON."""

import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def form_only_urls(battle, campaign):
    """(address, the page its way back leads to) for the addresses the tester opened."""
    detail = reverse("combat:detail", args=[battle.pk])
    return [
        (reverse("combat:odds_new", args=[campaign.pk]),
         reverse("combat:list", args=[campaign.pk])),
        (reverse("combat:odds_ask", args=[battle.pk]), detail),
        (reverse("combat:act", args=[battle.pk]), detail),
        (reverse("combat:resolve", args=[battle.pk]), detail),
        (reverse("combat:start", args=[battle.pk]), detail),
        (reverse("logout"), reverse("campaigns:list")),
    ]


def same_but_token(body):
    """``body`` with its CSRF tokens (masked anew on each answer) blanked."""
    return re.sub(r'[A-Za-z0-9]{64}', "TOKEN", body)


def test_a_form_only_address_opened_in_the_browser_is_the_sites_page_with_a_way_back(
        book_battle, campaign, gm_client):
    for url, back in form_only_urls(book_battle, campaign):
        response = gm_client.get(url)
        assert response.status_code == 405, url
        assert "POST" in response["Allow"]
        body = response.content.decode()
        assert "Quarterdeck" in body and "This address takes a form" in body, url
        assert f'href="{back}"' in body, url
    assert gm_client.head(reverse("combat:act", args=[book_battle.pk])).status_code == 405


def test_the_way_back_is_named_for_what_it_leads_to(book_battle, campaign, gm_client):
    battle = gm_client.get(reverse("combat:act", args=[book_battle.pk])).content.decode()
    assert "Back to the page it belongs to" in battle
    logout = gm_client.get(reverse("logout")).content.decode()
    assert "Back to your campaigns" in logout


def test_an_outsider_learns_nothing_from_a_form_only_address(
        book_battle, campaign, outsider_client):
    for existing, missing in [
        (reverse("combat:act", args=[book_battle.pk]),
         reverse("combat:act", args=[book_battle.pk + 9999])),
        (reverse("combat:odds_new", args=[campaign.pk]),
         reverse("combat:odds_new", args=[campaign.pk + 9999])),
    ]:
        seen, nothing = outsider_client.get(existing), outsider_client.get(missing)
        assert seen.status_code == nothing.status_code == 405
        # The same page but for the address typed: the way back is the one above it.
        above, above_missing = (url.rsplit("/", 2)[0] + "/" for url in (existing, missing))
        assert (same_but_token(seen.content.decode().replace(above, "ABOVE"))
                == same_but_token(nothing.content.decode().replace(above_missing, "ABOVE")))
        assert str(book_battle) not in seen.content.decode()
        assert campaign.name not in seen.content.decode()
    # and the way back, followed, is the 404 of anything he may not see
    assert outsider_client.get(reverse("combat:detail", args=[book_battle.pk])).status_code \
        == 404
    assert outsider_client.get("/combat/no/such/odds/").status_code == 404


def test_a_post_to_a_form_only_address_is_not_changed(book_battle, outsider_client):
    assert outsider_client.post(reverse("combat:act", args=[book_battle.pk])).status_code == 404


def test_the_apis_405_stays_its_json(book_battle, gm_client):
    response = gm_client.get(reverse("api-encounter-act", args=[book_battle.pk]))
    assert response.status_code == 405
    assert response.json() == {"detail": 'Method "GET" not allowed.'}
