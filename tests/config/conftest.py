"""The API as its OpenAPI schema describes it, and a campaign with a record behind every path
of it, for the tests that walk every operation (``test_bad_input.py``,
``test_api_properties.py``).

* :data:`SCHEMA`: the schema ``/api/schema/`` serves, as plain JSON;
* :data:`OPERATIONS`: ``(method, path)`` of every operation in it;
* ``api_world``: a campaign like the personas' (``tests/conftest.py``; its own personas,
  ``api_users``, with ``api_gm_client``), made once a module, with, made through the API
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
from django.db import transaction
from django.test import override_settings
from django.urls import reverse
from drf_spectacular.generators import SchemaGenerator

from ships.services import reference_data_load
from tests.conftest import FAST_HASHERS, client_for, make_campaign, make_hidden_ship, make_user

SCHEMA = json.loads(json.dumps(SchemaGenerator().get_schema(request=None, public=True),
                               default=str))
OPERATIONS = [(method.upper(), path) for path, ops in SCHEMA["paths"].items()
              for method in ops]
WRITE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}
WORLD_USERS = {"gm": "world-gm", "player_a": "world-player-a", "player_b": "world-player-b"}


def _created(response, status=201) -> dict:
    assert response.status_code == status, response.content
    return response.json()


def _make_world(users: dict) -> dict:
    """The world (the module's docstring) of a campaign of ``users``' personas."""
    reference_data_load()
    campaign = make_campaign(users["gm"], users["player_a"], users["player_b"])
    pc_a = campaign.characters.get(owner=users["player_a"])
    pc_ship, enemy_ship = campaign.ships.get(side="pc"), campaign.ships.get(side="enemy")
    hidden_ship = make_hidden_ship(campaign, users["gm"])
    gm_client, player_a_client = client_for(users["gm"]), client_for(users["player_a"])

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
    # the odds of a battle of them, asked before the enemy ship became pc_a's prize (a prize
    # on her way to port is refused as an enemy)
    odds = post(gm_client, "api-odds-new", [campaign.pk], {**battle, "games": 500})
    from ships.models import Prize

    prize = Prize.objects.create(campaign=campaign, ship=enemy_ship, battle=running["id"],
                                 captured=enemy_ship.display_name)
    prize.crew.set([pc_a])
    token = SceneToken.objects.create(campaign=campaign, token="favour", holder=pc_a,
                                      earned_by=pc_a, topic="storms off the Cape")
    item = post(gm_client, "api-character-items", [pc_a.pk], {
        "kind": "curio", "name": "Sextant", "skill": "seamanship"})
    trait = post(gm_client, "api-character-traits", [pc_a.pk], {"trait": "swimming"})
    return {
        "items": item["id"], "character-traits": trait["id"],
        "campaigns": campaign.pk, "characters": pc_a.pk, "reputations": reputation["id"],
        "ships": enemy_ship.pk, "card-tests": called["id"], "encounters": running["id"],
        "jobs": job["id"], "invites": invite["token"], "prize-shares": share.pk,
        "scene-tokens": token.pk, "drafts": draft["id"],
        "odds": odds["id"], "prizes": prize.pk,
    }


@pytest.fixture(scope="module")
def _world(django_db_setup, django_db_blocker):
    """``(users, world)``, made once per test module in a transaction that is rolled back at
    the module's end; each test runs in a savepoint of it (``api_world``), so what one test
    writes is undone before the next. Its personas' usernames are their own
    (:data:`WORLD_USERS`), so that a test of the same module may make the usual ones."""
    with django_db_blocker.unblock(), override_settings(PASSWORD_HASHERS=FAST_HASHERS), \
            transaction.atomic():
        users = {persona: make_user(name) for persona, name in WORLD_USERS.items()}
        yield users, _make_world(users)
        transaction.set_rollback(True)


@pytest.fixture
def api_world(_world, db) -> dict:
    """The world's ``{first path segment: id}`` (the module's docstring)."""
    return _world[1]


@pytest.fixture
def api_users(_world, db) -> dict:
    """The world's personas: ``{"gm" | "player_a" | "player_b": User}``."""
    return _world[0]


@pytest.fixture
def api_gm_client(api_users):
    """A client logged in as the world's GM."""
    return client_for(api_users["gm"])


def fill_path(path: str, world: dict) -> str:
    """``path`` (``/api/campaigns/{id}/ships/``) with the world's id of its first
    resource in each parameter."""
    resource = path.split("/")[2]
    return re.sub(r"\{[^}]+\}", str(world[resource]), path)
