"""The API as its OpenAPI schema describes it, and a campaign with a record behind every path
of it, for the tests that walk every operation (``test_bad_input.py``,
``test_api_properties.py``).

* :data:`SCHEMA`: the schema ``/api/schema/`` serves, as plain JSON;
* :data:`OPERATIONS`: ``(method, path)`` of every operation in it;
* ``api_world``: the personas' campaign (``tests/conftest.py``) with, made through the API
  itself as a table would, a reputation of pc_a, a card test the GM called for pc_a
  (awaiting player_a's confirmation), one player_a proposed, a running battle of the
  personas' ships and its job, the odds of a battle of them, a second PC ship in a battle
  still in setup, a live invitation, a character player_a is making, and pc_a's prize
  share and Captain's Favour (as a battle and a scene leave them): ``{first path segment:
  the id (or token) a path of that resource takes}``;
* :func:`fill_path`: a path of the schema with the world's ids in it.
"""

import json
import re

import pytest
from django.urls import reverse
from drf_spectacular.generators import SchemaGenerator

SCHEMA = json.loads(json.dumps(SchemaGenerator().get_schema(request=None, public=True),
                               default=str))
OPERATIONS = [(method.upper(), path) for path, ops in SCHEMA["paths"].items()
              for method in ops]
WRITE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}


def _created(response, status=201) -> dict:
    assert response.status_code == status, response.content
    return response.json()


@pytest.fixture
def api_world(campaign, pc_a, pc_b, npc, pc_ship, enemy_ship, hidden_ship, gm_client,
              player_a_client) -> dict:
    def post(client, name, args, body, status=201):
        return _created(client.post(reverse(name, args=args), body,
                                    content_type="application/json"), status)

    reputation = post(gm_client, "api-character-reputations", [pc_a.pk], {
        "kind": "personal", "descriptor": "Distrusted by", "subject": "Captain Jones",
        "value": 1})
    called = post(gm_client, "api-campaign-card-tests", [campaign.pk], {
        "character": pc_a.pk, "skill": "seamanship", "intent": "Beat the squall",
        "opposition": "difficulty", "difficulty": "routine"})
    post(player_a_client, "api-campaign-card-tests", [campaign.pk], {
        "character": pc_a.pk, "skill": "wealth", "intent": "Buy a round",
        "opposition": "difficulty", "difficulty": "easy"})
    battle = {"pc_ship": pc_ship.pk, "enemy_ship": enemy_ship.pk, "weather": "good_wind"}
    running = post(gm_client, "api-encounter-list", [campaign.pk],
                   {**battle, "start_distance": 3})
    second = post(gm_client, "api-campaign-ships", [campaign.pk], {
        "name": "HMS Second", "ship_type": "Cutter", "side": "pc"})
    post(gm_client, "api-encounter-list", [campaign.pk],
         {**battle, "pc_ship": second["id"], "enemy_ship": hidden_ship.pk})
    post(gm_client, "api-encounter-start", [running["id"]], {"version": running["version"]},
         status=200)
    job = post(gm_client, "api-encounter-resolve", [running["id"]], None, status=202)
    invite = post(gm_client, "api-campaign-invite", [campaign.pk], None)
    draft = post(player_a_client, "api-draft-start", [campaign.pk], None)
    from characters.models import PrizeShare, SceneToken

    share = PrizeShare.objects.create(character=pc_a, battle=running["id"], captured="Le Secret",
                                      prize_class="unrated", row="lieutenant",
                                      entries=[[4, 1], [3, 2], [2, 3], [1, 3]])
    from ships.models import Prize

    prize = Prize.objects.create(campaign=campaign, ship=enemy_ship, battle=running["id"],
                                 captured=enemy_ship.display_name)
    prize.crew.set([pc_a])
    token = SceneToken.objects.create(campaign=campaign, token="favour", holder=pc_a,
                                      earned_by=pc_a, topic="storms off the Cape")
    item = post(gm_client, "api-character-items", [pc_a.pk], {
        "kind": "curio", "name": "Sextant", "skill": "seamanship"})
    trait = post(gm_client, "api-character-traits", [pc_a.pk], {"trait": "swimming"})
    odds = post(gm_client, "api-odds-new", [campaign.pk], {**battle, "games": 500})
    return {
        "items": item["id"], "character-traits": trait["id"],
        "campaigns": campaign.pk, "characters": pc_a.pk, "reputations": reputation["id"],
        "ships": enemy_ship.pk, "card-tests": called["id"], "encounters": running["id"],
        "jobs": job["id"], "invites": invite["token"], "prize-shares": share.pk,
        "scene-tokens": token.pk, "drafts": draft["id"],
        "odds": odds["id"], "prizes": prize.pk,
    }


def fill_path(path: str, world: dict) -> str:
    """``path`` (``/api/campaigns/{id}/ships/``) with the world's id of its first
    resource in each parameter."""
    resource = path.split("/")[2]
    return re.sub(r"\{[^}]+\}", str(world[resource]), path)
