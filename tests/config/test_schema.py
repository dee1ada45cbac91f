"""The OpenAPI schema documents the error answers of every operation (``config.schema``), and
every text it requires is a non-empty string."""

from tests.config.conftest import OPERATIONS, SCHEMA, WRITE_METHODS

COMPONENTS = SCHEMA["components"]["schemas"]


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def _body_component(operation: dict) -> dict | None:
    body = operation.get("requestBody", {}).get("content", {}).get("application/json")
    return COMPONENTS[body["schema"]["$ref"].rsplit("/", 1)[1]] if body else None


def test_every_operation_documents_its_error_answers():
    for method, path in OPERATIONS:
        operation = SCHEMA["paths"][path][method.lower()]
        responses = operation["responses"]
        locations = {p["in"] for p in operation.get("parameters", [])}
        errors = {code: responses[code]["content"]["application/json"]["schema"]
                  for code in responses if code >= "400"}
        assert errors["403"] == _ref("Error"), (method, path)
        assert ("404" in errors) == ("path" in locations), (method, path)
        assert ("400" in errors) == (method in WRITE_METHODS or "query" in locations)
        body = _body_component(operation)
        if body and "version" in body.get("required", []):
            assert errors["409"] == _ref("Conflict"), (method, path)
    assert COMPONENTS["Error"]["additionalProperties"]  # the reasons per field
    assert COMPONENTS["Conflict"]["required"] == ["detail", "version"]


def test_required_text_in_a_request_is_never_empty():
    checked = 0
    for name, component in COMPONENTS.items():
        if not name.endswith("Request"):
            continue
        for field in component.get("required", []):
            schema = component["properties"][field]
            if schema.get("type") == "string" and "enum" not in schema:
                assert schema.get("minLength", 0) >= 1, (name, field)
                checked += 1
    assert checked >= 8


def test_what_a_player_receives_of_a_ship_or_character_is_documented():
    for name, levels in [("ShipForViewer", ["ShipGM", "ShipCrew", "ShipPublic"]),
                         ("CharacterForViewer", ["CharacterGM", "CharacterSheet",
                                                 "CharacterPublic"])]:
        assert COMPONENTS[name] == {"anyOf": [_ref(level) for level in levels]}
    detail = SCHEMA["paths"]["/api/ships/{id}/"]["get"]["responses"]["200"]
    assert detail["content"]["application/json"]["schema"] == _ref("ShipForViewer")
