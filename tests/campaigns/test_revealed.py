"""GM preparation stays hidden: an enemy ship or NPC the players have not met does not exist
for them (pages, API lists and details, forms, log) until the GM reveals it or it takes part
in a card test with them."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaigns.models import CampaignLogEntry
from combat.card_tests.services import card_test_call, card_test_propose
from ships.services import ship_reveal

PERSONAS = ["gm", "player_a", "player_b", "outsider"]


def client_of(request, persona):
    return request.getfixturevalue(f"{persona}_client")


@pytest.mark.parametrize("persona", PERSONAS)
def test_unrevealed_npcs_and_ships_are_the_gms_only(request, campaign, hidden_npc, hidden_ship,
                                                   persona):
    client = client_of(request, persona)
    gm = persona == "gm"
    member = persona != "outsider"
    page = client.get(reverse("campaigns:detail", args=[campaign.pk]))
    assert page.status_code == (200 if member else 404)
    html = page.content.decode()
    assert ("Don Oculto" in html) == gm and ("La Sombra" in html) == gm
    if member:
        assert "Nemo Nobody" in html and "Le Secret" in html  # the revealed ones
    ok = 200 if gm else 404
    assert client.get(reverse("ships:detail", args=[hidden_ship.pk])).status_code == ok
    assert client.get(reverse("characters:detail", args=[hidden_npc.pk])).status_code == ok
    assert client.get(f"/api/ships/{hidden_ship.pk}/").status_code == ok
    assert client.get(f"/api/characters/{hidden_npc.pk}/").status_code == ok
    ships = client.get(f"/api/campaigns/{campaign.pk}/ships/")
    characters = client.get(f"/api/campaigns/{campaign.pk}/characters/")
    if member:
        assert (hidden_ship.pk in [s["id"] for s in ships.json()]) == gm
        assert (hidden_npc.pk in [c["id"] for c in characters.json()]) == gm
    log = client.get(reverse("campaigns:log", args=[campaign.pk])).content.decode()
    assert ("Don Oculto" in log) == gm and ("La Sombra" in log) == gm


def test_the_players_propose_form_offers_only_revealed_npcs(player_a_client, campaign, pc_a,
                                                            npc, hidden_npc, player_a):
    url = reverse("card_tests:new", args=[campaign.pk])
    form = player_a_client.get(f"{url}?character={pc_a.pk}").content.decode()
    assert "Nemo Nobody" in form and "Don Oculto" not in form
    with pytest.raises(ValidationError, match="no such NPC"):
        card_test_propose(campaign=campaign, actor=player_a, character=pc_a.pk,
                          skill="intrigue", opposition="npc", opponent=hidden_npc.pk,
                          intent="Unmask him.")


def test_a_test_against_an_npc_reveals_him(player_a_client, campaign, gm, pc_a, hidden_npc):
    card_test_call(campaign=campaign, actor=gm, character=pc_a.pk, skill="intrigue",
                   opposition="npc", opponent=hidden_npc.pk, opponent_skill="intrigue",
                   intent="Unmask him.")
    hidden_npc.refresh_from_db()
    assert hidden_npc.revealed
    assert CampaignLogEntry.objects.filter(kind="character.revealed", gm_only=False).exists()
    page = player_a_client.get(reverse("characters:detail", args=[hidden_npc.pk]))
    assert page.status_code == 200 and "intrigue" not in page.content.decode().lower()


def test_ship_reveal_shows_the_ship_once_and_keeps_its_version(player_a_client, hidden_ship):
    version = hidden_ship.version
    ship_reveal(ship=hidden_ship)
    ship_reveal(ship=hidden_ship)
    hidden_ship.refresh_from_db()
    assert hidden_ship.revealed and hidden_ship.version == version
    assert CampaignLogEntry.objects.filter(kind="ship.revealed",
                                           data__ship=hidden_ship.pk).count() == 1
    page = player_a_client.get(reverse("ships:detail", args=[hidden_ship.pk]))
    assert page.status_code == 200 and "Heart of Oak" not in page.content.decode()


@pytest.mark.parametrize("what,fixture", [("ships", "hidden_ship"),
                                          ("characters", "hidden_npc")])
def test_the_gm_reveals_and_hides_with_a_button(request, gm_client, player_a_client, what,
                                                fixture):
    thing = request.getfixturevalue(fixture)
    detail = reverse(f"{what}:detail", args=[thing.pk])
    url = reverse(f"{what}:reveal", args=[thing.pk])
    assert "Reveal to players" in gm_client.get(detail).content.decode()
    assert player_a_client.post(url, {"revealed": "1", "version": thing.version}
                                ).status_code == 404
    gm_client.post(url, {"revealed": "1", "version": thing.version})
    thing.refresh_from_db()
    assert thing.revealed and player_a_client.get(detail).status_code == 200
    assert player_a_client.post(url, {"revealed": "0", "version": thing.version}
                                ).status_code == 403
    gm_client.post(url, {"revealed": "0", "version": thing.version})
    thing.refresh_from_db()
    assert not thing.revealed and player_a_client.get(detail).status_code == 404
