"""Bad input, everywhere (house rules): a body nested too deep, too large, or of the wrong
type gets a 4xx with a reason, never a 500, on every write operation of the API (walked from
its OpenAPI schema, so a new endpoint is covered the day it is added) and in the forms that
take JSON; and one answer for "unknown user" and "not a member"."""

import json

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.urls import reverse

from campaigns import json_input
from tests.config.conftest import OPERATIONS, SCHEMA, WRITE_METHODS, fill_path

pytestmark = pytest.mark.django_db

DEEP = 5000
"""Levels of nesting that made the parser raise ``RecursionError`` (a 500)."""

BAD_BODIES = {
    "deep list": "[" * DEEP + "]" * DEEP,
    "deep object": '{"a":' * DEEP + "1" + "}" * DEEP,
    "deep inside a field": json.dumps({"name": "x", "version": 1}).replace(
        '"x"', "[" * DEEP + "]" * DEEP),
    "too large": json.dumps({"name": "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)}),
    "a list": "[]",
    "a string": '"name"',
    "a number": "3",
    "null": "null",
    "not JSON": "{'name': ",
    "NaN": '{"version": NaN}',
    "a number of 5000 digits": '{"version": ' + "9" * 5000 + "}",
    # Text that cannot be stored or written out again: a 500 (and, with the debug page, a
    # database connection never given back) before the reader refused it.
    "a lone surrogate": '{"name": "\\ud800", "side": "\\udfff", "weather": "\\ud800", '
                        '"kind": "\\ud800", "version": 1}',
    "a null character": '{"name": "a\\u0000b", "ship_type": "a\\u0000b", "version": 1}',
}

WRITES_WITH_BODY = [
    (method, path) for method, path in OPERATIONS
    if method in WRITE_METHODS and "requestBody" in SCHEMA["paths"][path][method.lower()]
]


def test_the_walk_covers_every_write_with_a_body():
    assert len(WRITES_WITH_BODY) >= 15
    assert ("POST", "/api/campaigns/") in WRITES_WITH_BODY
    assert ("PATCH", "/api/ships/{id}/") in WRITES_WITH_BODY


@pytest.mark.parametrize(("method", "path"), WRITES_WITH_BODY)
def test_every_write_refuses_a_bad_body_with_a_reason(method, path, api_world, api_gm_client):
    url = fill_path(path, api_world)
    for label, body in BAD_BODIES.items():
        response = api_gm_client.generic(method, url, body, content_type="application/json")
        expected = 413 if label == "too large" else 400
        assert response.status_code == expected, (label, response.status_code,
                                                   response.content[:300])
        reason = response.json()
        assert reason and all(reason.values()), (label, reason)
        if label.startswith("deep"):
            assert "nested too deep" in reason["detail"]
        if label == "too large":
            assert "too large" in reason["detail"]
        if label in ("a lone surrogate", "a null character"):
            assert "null character or half of a surrogate pair" in reason["detail"]


@pytest.mark.parametrize(("method", "path"), [
    (m, p) for m, p in OPERATIONS if m in WRITE_METHODS and (m, p) not in WRITES_WITH_BODY])
def test_a_write_without_a_body_never_fails_on_one(method, path, api_world, api_gm_client):
    """Operations that take no body ignore one, whatever it is: never a 5xx."""
    url = fill_path(path, api_world)
    for label, body in BAD_BODIES.items():
        response = api_gm_client.generic(method, url, body, content_type="application/json")
        assert response.status_code < 500, (label, response.status_code)


def test_a_form_body_is_refused_by_the_api_with_a_reason(api_gm_client):
    response = api_gm_client.post(reverse("api-campaign-list"), {"name": "A form"})
    assert response.status_code == 415
    assert "multipart/form-data" in response.json()["detail"]


def test_a_form_body_over_the_upload_limit_is_a_400_not_a_500(gm_client, enemy_ship):
    big = "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
    response = gm_client.post(reverse("ships:edit", args=[enemy_ship.pk]), {"gm_notes": big})
    assert response.status_code == 400
    assert "larger than a page accepts" in response.content.decode()
    enemy_ship.refresh_from_db()
    assert enemy_ship.gm_notes == "enemy-secret"


def _ship_form(ship, **changes) -> dict:
    from ships.forms import ShipForm

    form = ShipForm(ship=ship)
    data = {name: form[name].value() for name in form.fields}
    data["traits"] = [t.pk for t in ship.traits.all()]
    data["overrides"] = json.dumps(ship.overrides)
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


@pytest.mark.parametrize(("overrides", "reason"), [
    ("[" * DEEP + "]" * DEEP, "nested too deep"),
    ('{"handling": ' + "[" * 40 + "]" * 40 + "}", "nested too deep"),
    (json.dumps({"gm": "x" * 70_000}), "too large"),
    ('{"handling": NaN}', "NaN is not a JSON value"),
    ("{not json", "Enter a valid JSON"),
])
def test_the_ship_forms_overrides_refuse_bad_json_with_a_reason(overrides, reason, gm_client,
                                                              enemy_ship):
    version = enemy_ship.version
    response = gm_client.post(reverse("ships:edit", args=[enemy_ship.pk]),
                              _ship_form(enemy_ship, overrides=overrides))
    assert response.status_code == 200
    assert reason in response.content.decode()
    enemy_ship.refresh_from_db()
    assert enemy_ship.version == version


def test_bounded_json_reads_what_is_within_bounds():
    nested = "[" * json_input.MAX_DEPTH + "]" * json_input.MAX_DEPTH
    assert json_input.nesting_depth(nested) == json_input.MAX_DEPTH
    assert json_input.loads(nested) is not None
    # Brackets inside strings, escaped quotes included, are text, not nesting.
    text = json.dumps({"notes": "[[[{{{ \" ]]] " * 100})
    assert json_input.nesting_depth(text) == 1
    assert json_input.loads(text.encode())["notes"].startswith("[[[{{{")
    with pytest.raises(json_input.JSONInputError, match="nested too deep"):
        json_input.loads("[" + nested + "]")
    with pytest.raises(json_input.JSONInputError, match="too large"):
        json_input.loads('"abc"', max_bytes=4)
    with pytest.raises(json_input.JSONInputError, match="not UTF-8"):
        json_input.loads(b'"\xff"')


def _add_pc(client, campaign, owner):
    return client.post(reverse("api-campaign-characters", args=[campaign.pk]),
                       {"name": "Jack Aubrey", "owner": owner},
                       content_type="application/json")


def test_one_answer_for_an_unknown_user_and_a_non_member(campaign, outsider, gm_client,
                                                          player_a):
    """A GM of any campaign must not learn which usernames exist."""
    not_member = _add_pc(gm_client, campaign, outsider.username)
    unknown = _add_pc(gm_client, campaign, "nobody-at-all")
    assert not_member.status_code == unknown.status_code == 400
    assert (not_member.json()["owner"][0].replace(outsider.username, "?")
            == unknown.json()["owner"][0].replace("nobody-at-all", "?")
            == "'?' is not a member of this campaign.")
    # Together with another bad field: still the same answer.
    bad_name = {"name": "", "owner": outsider.username}
    with_outsider = gm_client.post(reverse("api-campaign-characters", args=[campaign.pk]),
                                   bad_name, content_type="application/json").json()
    bad_name["owner"] = "nobody-at-all"
    with_unknown = gm_client.post(reverse("api-campaign-characters", args=[campaign.pk]),
                                  bad_name, content_type="application/json").json()
    assert set(with_outsider) == set(with_unknown)
    # Changing a PC's player answers the same, and a member is taken.
    pc = campaign.characters.get(owner=player_a)
    url = reverse("api-character-detail", args=[pc.pk])
    answers = [gm_client.patch(url, {"owner": name, "version": pc.version},
                               content_type="application/json")
               for name in (outsider.username, "nobody-at-all")]
    assert [a.status_code for a in answers] == [400, 400]
    assert answers[0].json()["owner"][0].replace(outsider.username, "?") == (
        answers[1].json()["owner"][0].replace("nobody-at-all", "?"))
    assert _add_pc(gm_client, campaign, player_a.username).status_code == 201


def test_the_character_form_answers_the_same_for_any_user_not_a_member(campaign, gm_client,
                                                                       outsider):
    unknown_pk = get_user_model().objects.order_by("-pk").first().pk + 100
    errors = [gm_client.post(reverse("characters:new", args=[campaign.pk]),
                             {"kind": "pc", "name": "Jack Aubrey", "owner": pk}
                             ).context["form"].errors["owner"]
              for pk in (outsider.pk, unknown_pk)]
    assert errors[0] == errors[1]
    assert "Select a valid choice" in errors[0][0]


def test_the_admin_refuses_json_nested_too_deep_with_a_reason(client, enemy_ship):
    client.force_login(get_user_model().objects.create_superuser("admiral", "a@b.c", "pw"))
    url = reverse("admin:ships_ship_change", args=[enemy_ship.pk])
    form = client.get(url).context["adminform"].form
    data = {name: form[name].value() for name in form.fields}
    data = {k: v for k, v in data.items() if v is not None}
    data.update(overrides="[" * DEEP + "]" * DEEP, crew=json.dumps(enemy_ship.crew),
                traits=[t.pk for t in enemy_ship.traits.all()], tracks=json.dumps({}))
    response = client.post(url, data)
    assert response.status_code == 200
    assert "nested too deep" in response.content.decode()


@pytest.mark.parametrize(("name", "args", "method", "body", "field", "reason"), [
    ("api-campaign-list", [], "post", {"name": 7758}, "name", "Must be a string."),
    ("api-campaign-detail", ["campaigns"], "patch", {"version": "1"}, "version",
     "Must be a whole number."),
    ("api-character-detail", ["characters"], "patch",
     {"version": 1, "skills": {"gunnery": "3"}}, "skills", {"gunnery": "Must be a whole number."}),
    ("api-character-detail", ["characters"], "patch", {"version": 1, "revealed": "yes"},
     "revealed", "Must be true or false."),
    ("api-ship-detail", ["ships"], "patch", {"version": 1, "traits": ["Heart of Oak", 3]},
     "traits", {"1": "Must be a string."}),
    ("api-campaign-characters", ["campaigns"], "post", {"name": "Jack", "kind": 1}, "kind",
     "Must be a string."),
])
def test_a_field_of_the_wrong_json_type_is_refused_not_coerced(name, args, method, body, field,
                                                               reason, api_world,
                                                               api_gm_client):
    """As the schema says: the name 7758 is not the text "7758", nor "1" the version 1."""
    url = reverse(name, args=[api_world[a] for a in args])
    response = getattr(api_gm_client, method)(url, body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()[field] == reason


@pytest.mark.parametrize("name, segment, body, field", [
    ("api-shipboard-scene", "characters",
     {"scene": "gun_deck", "topic": "t", "skill": "courtesy", "others": [2**64]}, "others"),
    ("api-mission-list", "campaigns", {"name": "M", "challenges_required": 1,
                                       "characters": [2**64]}, "characters"),
])
def test_an_id_too_large_for_the_database_is_refused_on_its_field(
        name, segment, body, field, api_world, api_gm_client):
    """A list of ids is checked as ids before any query: on SQLite such a number overflowed
    the driver (a 500)."""
    response = api_gm_client.post(reverse(name, args=[api_world[segment]]), body,
                                  content_type="application/json")
    assert response.status_code == 400, response.content
    assert field in response.json()
