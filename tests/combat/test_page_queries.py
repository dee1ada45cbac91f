"""Pages cost the same number of queries however big the campaign: the campaign page, a
character sheet, a ship page, the battle page and an API list, for the GM and a player,
with 2 and then 20 characters and ships. The viewer's role is looked up once per request.
"""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

pytestmark = pytest.mark.django_db

ROLE_LOOKUP = re.compile(r'^SELECT "campaigns_membership"."role" AS "role" FROM')


def grow(campaign, gm, player, n: int) -> None:
    """``n`` more of everything a page lists: PCs of ``player`` posted aboard new ships of
    the players' side, revealed NPCs, revealed enemy ships."""
    from characters.models import Character
    from characters.services import character_create
    from ships.models import Ship, ShipType
    from ships.services import posting_set, ship_create, ship_reveal

    brig = ShipType.objects.get(name="Brig Sloop")
    for i in range(n):
        ours = ship_create(campaign=campaign, actor=gm, name=f"HMS Extra {i}", guns=18,
                           side=Ship.Side.PC, ship_type=brig)
        pc = character_create(campaign=campaign, actor=gm, owner=player, name=f"Extra {i}",
                              rank="Midshipman", skills={"gunnery": 2})
        posting_set(ship=ours, character=pc, station="midshipman", actor=gm)
        character_create(campaign=campaign, actor=gm, kind=Character.Kind.NPC,
                         name=f"Stranger {i}", skills={"command": 2}, revealed=True)
        theirs = ship_create(campaign=campaign, actor=gm, name=f"Enemy {i}", guns=10,
                             ship_type=ShipType.objects.get(name="Cutter"))
        ship_reveal(ship=theirs, actor=gm)


def page_queries(client, url: str) -> list[str]:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return [q["sql"] for q in ctx.captured_queries]


@pytest.fixture
def pages(campaign, hermes, book_battle):
    otoole = campaign.characters.get(name="Gregory O'Toole")
    return {
        "campaign page": f"/campaigns/{campaign.pk}/",
        "character sheet": f"/characters/{otoole.pk}/",
        "ship page": f"/ships/{hermes.pk}/",
        "battle page": f"/combat/{book_battle.pk}/",
        "API characters": f"/api/campaigns/{campaign.pk}/characters/",
        "API ships": f"/api/campaigns/{campaign.pk}/ships/",
    }


@pytest.mark.parametrize("who", ["gm", "player_a"])
def test_queries_per_page_do_not_grow_with_characters_and_ships(
    who, request, campaign, gm, player_a, pages
):
    client = request.getfixturevalue(f"{who}_client")
    grow(campaign, gm, player_a, 1)
    small = {name: page_queries(client, url) for name, url in pages.items()}
    grow(campaign, gm, player_a, 18)
    large = {name: page_queries(client, url) for name, url in pages.items()}
    for name in pages:
        assert len(large[name]) == len(small[name]), (name, large[name])


@pytest.mark.parametrize("who", ["gm", "player_a"])
def test_the_viewers_role_is_looked_up_once_per_request(who, request, pages):
    client = request.getfixturevalue(f"{who}_client")
    for name, url in pages.items():
        lookups = [q for q in page_queries(client, url) if ROLE_LOOKUP.search(q)]
        assert len(lookups) <= 1, (name, lookups)
