"""Hidden stays hidden on the living sheet: a marker in every GM-only field (the GM notes,
their history) never reaches a player, by page, API, export, history or pushed event; a
player changes no one else's sheet, by page or API (DESIGN.md, "Roles and trust")."""

import json

import pytest
from django.urls import reverse

from characters.services import character_update, item_create, trait_add
from tests.combat.test_streams import read

pytestmark = pytest.mark.django_db

MARKER = "GM-ONLY-MARKER-7c1f"


@pytest.fixture
def marked(campaign, gm, pc_a, pc_b):
    """Both PCs with the marker in their GM notes, set by the GM's edit (so the history has
    it too), and a trait and a curio on A's sheet."""
    for pc in (pc_a, pc_b):
        pc.refresh_from_db()
        character_update(character=pc, actor=gm, version=pc.version,
                         gm_notes=f"{MARKER} about {pc.name}", guts=2)
    trait_add(character=pc_a, actor=gm, trait="jack_tar")
    item_create(character=pc_a, actor=gm, kind="curio", name="Sextant", skill="seamanship")
    pc_a.refresh_from_db()
    pc_b.refresh_from_db()
    return pc_a, pc_b


def _everything(client, campaign, pcs) -> list[tuple[str, int, str]]:
    """What ``client`` receives from every page and endpoint of the sheets: ``(url, status,
    body)`` each."""
    urls = [reverse("campaigns:detail", args=[campaign.pk]),
            reverse("api-campaign-characters", args=[campaign.pk])]
    for pc in pcs:
        urls += [reverse(name, args=[pc.pk]) for name in (
            "characters:detail", "characters:print", "characters:history",
            "characters:export", "api-character-detail", "api-character-history",
            "api-character-export", "api-character-traits", "api-character-items")]
    return [(url, r.status_code, r.content.decode()) for url in urls
            for r in [client.get(url)]]


def test_the_marker_never_reaches_a_player(marked, campaign, gm_client, player_a_client,
                                           player_b_client):
    pcs = list(marked)
    for client in (player_a_client, player_b_client):
        for url, status, body in _everything(client, campaign, pcs):
            assert MARKER not in body, url
            assert status in (200, 403), url
    gm_seen = _everything(gm_client, campaign, pcs)
    assert all(status == 200 for _, status, _ in gm_seen)
    # the sheet, print, history, export pages; the API's list, detail, history, export
    assert sum(MARKER in body for _, _, body in gm_seen) >= 12


def test_the_owner_reads_the_history_and_the_export_without_the_gm_s_fields(
        marked, player_a_client):
    pc_a, _ = marked
    history = player_a_client.get(reverse("api-character-history", args=[pc_a.pk])).json()
    assert {"guts": [1, 2]} in [e["changes"] for e in history]
    assert all("gm_notes" not in e["changes"] for e in history)
    export = player_a_client.get(reverse("characters:export", args=[pc_a.pk]))
    assert export["Content-Disposition"].startswith("attachment")
    sheet = json.loads(export.content)["character"]
    assert "gm_notes" not in sheet and sheet["traits"] == [
        {"trait": "jack_tar", "times": 1, "parameter": ""}]


def test_another_player_reads_neither_history_nor_export(marked, player_b_client):
    pc_a, _ = marked
    for name in ("characters:history", "characters:export", "api-character-history",
                 "api-character-export"):
        assert player_b_client.get(reverse(name, args=[pc_a.pk])).status_code == 403


def test_player_b_changes_nothing_of_a_s_sheet(marked, player_b_client, gm_client):
    pc_a, _ = marked
    trait = pc_a.traits.get()
    item = pc_a.items.get()
    attempts = [
        ("post", reverse("characters:edit", args=[pc_a.pk]), {"version": pc_a.version,
                                                             "name": "Pirate"}),
        ("post", reverse("characters:trait_add", args=[pc_a.pk]), {"trait": "swimming",
                                                                  "times": 1}),
        ("post", reverse("characters:trait_remove", args=[trait.pk]), {}),
        ("post", reverse("characters:item_add", args=[pc_a.pk]), {"kind": "other",
                                                                 "name": "Hat"}),
        ("post", reverse("characters:item_remove", args=[item.pk]), {"version": item.version}),
        ("post", reverse("characters:hardship", args=[pc_a.pk]), {"measure": "guts"}),
        ("post", reverse("characters:heal_record", args=[pc_a.pk]), {"area": "health",
                                                                    "how": "challenge"}),
        ("post", reverse("characters:challenge_done", args=[pc_a.pk]), {}),
        ("post", reverse("combat:heal_test", args=[pc_a.pk]), {"area": "health"}),
    ]
    api = [
        ("patch", reverse("api-character-detail", args=[pc_a.pk]), {"version": pc_a.version,
                                                                   "notes": "mine"}),
        ("post", reverse("api-character-traits", args=[pc_a.pk]), {"trait": "swimming"}),
        ("delete", reverse("api-character-trait-detail", args=[trait.pk]), {}),
        ("post", reverse("api-character-items", args=[pc_a.pk]), {"name": "Hat",
                                                                 "kind": "other"}),
        ("patch", reverse("api-item-detail", args=[item.pk]), {"version": item.version,
                                                              "name": "Hat"}),
        ("delete", reverse("api-item-detail", args=[item.pk]), {"version": item.version}),
        ("post", reverse("api-character-hardship", args=[pc_a.pk]), {"measure": "guts"}),
        ("post", reverse("api-character-heal-record", args=[pc_a.pk]), {
            "area": "health", "how": "challenge"}),
        ("post", reverse("api-character-challenge-done", args=[pc_a.pk]), {}),
        ("post", reverse("api-heal-test", args=[pc_a.pk]), {"area": "health"}),
    ]
    before = gm_client.get(reverse("api-character-export", args=[pc_a.pk])).json()
    for method, url, data in attempts:
        response = getattr(player_b_client, method)(url, data)
        assert response.status_code in (302, 403), url
    for method, url, data in api:
        response = getattr(player_b_client, method)(url, data, content_type="application/json")
        assert response.status_code in (400, 403), url
    assert gm_client.get(reverse("api-character-export", args=[pc_a.pk])).json() == before


def test_the_campaign_stream_pushes_no_marker_to_a_player(campaign, gm, pc_a, player_a):
    def edit():
        pc_a.refresh_from_db()
        character_update(character=pc_a, actor=gm, version=pc_a.version,
                         gm_notes=MARKER, notes="the player's own")
        trait_add(character=pc_a, actor=gm, trait="swimming")

    url = reverse("combat:campaign_stream", args=[campaign.pk])
    status, text, _ = read(player_a, url, action=edit)
    assert status == 200 and text
    assert MARKER not in text
