"""Character pages with the four personas: who sees which fields, who edits what, stale
edits refused with nothing lost, bad input answered with a message."""

import re

import pytest
from django.urls import reverse

from characters.forms import CharacterForm
from characters.models import Character
from characters.services import character_update
from rules.btq.characters import SKILLS


def client_of(request, persona):
    return request.getfixturevalue(f"{persona}_client")


def edit_data(character, access="gm", **changes):
    data = {k: v for k, v in CharacterForm.initial_for(character).items() if v is not None}
    if access != "gm":
        for key in ("kind", "owner", "rank", "seniority", "health_state", "gm_notes"):
            data.pop(key)
    data.update(changes)
    return data


@pytest.mark.parametrize("persona,expected", [
    ("gm", 200), ("player_a", 200), ("player_b", 200), ("outsider", 404),
])
def test_a_pc_sheet_is_for_members(request, pc_a, persona, expected):
    response = client_of(request, persona).get(reverse("characters:detail", args=[pc_a.pk]))
    assert response.status_code == expected
    if expected == 200:
        html = response.content.decode()
        assert "Lieutenant Anne Able" in html and "Seamanship" in html
        assert ("secret-a" in html) == (persona == "gm")


@pytest.mark.parametrize("persona", ["player_a", "player_b"])
def test_players_see_an_npcs_name_but_not_its_stats_or_notes(request, npc, persona):
    html = client_of(request, persona).get(
        reverse("characters:detail", args=[npc.pk])).content.decode()
    assert "Captain Nemo Nobody" in html
    assert "npc-secret" not in html and "Command" not in html and "Discipline" not in html


def test_the_gm_sees_an_npcs_stats_and_notes(gm_client, npc):
    html = gm_client.get(reverse("characters:detail", args=[npc.pk])).content.decode()
    assert "npc-secret" in html and "Command" in html


@pytest.mark.parametrize("persona,expected", [
    ("gm", 200), ("player_a", 200), ("player_b", 403), ("outsider", 404),
])
def test_only_the_gm_and_the_player_edit_a_pc(request, pc_a, persona, expected):
    c = client_of(request, persona)
    url = reverse("characters:edit", args=[pc_a.pk])
    assert c.get(url).status_code == expected
    access = "gm" if persona == "gm" else "owner"
    response = c.post(url, edit_data(pc_a, access=access, name="Hijacked"))
    assert response.status_code in ((302,) if expected == 200 else (expected,))
    pc_a.refresh_from_db()
    assert (pc_a.name == "Hijacked") == (expected == 200)


@pytest.mark.parametrize("persona,expected", [("player_a", 403), ("outsider", 404)])
def test_players_cannot_edit_npcs(request, npc, persona, expected):
    url = reverse("characters:edit", args=[npc.pk])
    assert client_of(request, persona).get(url).status_code == expected
    assert client_of(request, persona).post(url, {"name": "x"}).status_code == expected


def test_the_player_form_offers_name_measures_and_skills_only(player_a_client, pc_a):
    html = player_a_client.get(reverse("characters:edit", args=[pc_a.pk])).content.decode()
    assert 'name="skill_seamanship"' in html and 'name="discipline"' in html
    for gm_field in ("gm_notes", "seniority", "owner", "rank", "health_state"):
        assert f'name="{gm_field}"' not in html
    assert "secret-a" not in html


@pytest.mark.parametrize("persona, told", [("player_a", True), ("gm", False)])
def test_the_player_is_told_the_gm_changes_what_is_greyed_out(request, pc_a, persona, told):
    html = client_of(request, persona).get(
        reverse("characters:edit", args=[pc_a.pk])).content.decode()
    note = ("Wealth, the Measures and the skills are greyed out because the GM changes "
            "them: as you advance, and as the story goes.")
    assert (note in html) is told
    assert ("<small class=\"muted\">(the GM changes them)</small>" in html) is told
    assert ("The GM changes it." in html) is told


def test_a_player_edits_name_and_notes_but_not_skills_or_measures(player_a_client, pc_a):
    form = player_a_client.get(reverse("characters:edit", args=[pc_a.pk])).content.decode()
    for name in ("skill_seamanship", "discipline", "wealth"):
        tag = re.search(rf'<input[^>]*name="{name}"[^>]*>', form).group(0)
        assert "disabled" in tag, tag
    assert "disabled" not in re.search(r'<input[^>]*name="name"[^>]*>', form).group(0)
    response = player_a_client.post(
        reverse("characters:edit", args=[pc_a.pk]),
        edit_data(pc_a, access="owner", skill_seamanship=20, wealth=10, discipline=9,
                  name="Anne Bold", notes="Hates the French."),
    )
    assert response.status_code == 302
    pc_a.refresh_from_db()
    assert pc_a.skills == {"gunnery": 2, "seamanship": 4}
    assert (pc_a.discipline, pc_a.wealth) == (3, 0)
    assert pc_a.name == "Anne Bold" and pc_a.notes == "Hates the French."
    assert pc_a.version == 2 and pc_a.gm_notes == "secret-a"


def test_the_gm_edits_skills_and_measures(gm_client, pc_a):
    response = gm_client.post(
        reverse("characters:edit", args=[pc_a.pk]),
        edit_data(pc_a, access="gm", skill_gunnery=3, skill_courtesy=1, charm=2),
    )
    assert response.status_code == 302
    pc_a.refresh_from_db()
    assert pc_a.skills == {"courtesy": 1, "gunnery": 3, "seamanship": 4}
    assert pc_a.charm == 2 and pc_a.version == 2


def test_a_player_cannot_slip_gm_fields_into_the_form(player_a_client, pc_a):
    player_a_client.post(reverse("characters:edit", args=[pc_a.pk]),
                         edit_data(pc_a, access="owner", gm_notes="mine now", seniority=99))
    pc_a.refresh_from_db()
    assert pc_a.gm_notes == "secret-a" and pc_a.seniority == 2


def test_bad_input_gets_messages_beside_the_fields(gm_client, pc_a):
    response = gm_client.post(
        reverse("characters:edit", args=[pc_a.pk]),
        edit_data(pc_a, access="gm", skill_gunnery=-1, discipline=0, name=""),
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count('aria-invalid="true"') == 3
    assert "greater than or equal to 0" in html and "greater than or equal to 1" in html
    pc_a.refresh_from_db()
    assert pc_a.skill("gunnery") == 2 and pc_a.version == 1


def test_a_stale_edit_is_refused_and_the_input_kept(player_a_client, pc_a, gm):
    data = edit_data(pc_a, access="owner", notes="My stale notes")
    character_update(character=pc_a, actor=gm, version=1, gm_notes="meanwhile")
    response = player_a_client.post(reverse("characters:edit", args=[pc_a.pk]), data)
    assert response.status_code == 200
    html = response.content.decode()
    assert "changed by someone else" in html
    assert "My stale notes" in html
    pc_a.refresh_from_db()
    assert pc_a.notes == "" and pc_a.gm_notes == "meanwhile" and pc_a.version == 2


def test_the_gm_creates_an_npc_and_a_pc(gm_client, campaign, player_b):
    url = reverse("characters:new", args=[campaign.pk])
    base = {"kind": "npc", "name": "Jack Higgins", "rank": "Gunner's Mate", "seniority": 0,
            "guts": 4, "discipline": 3, "influence": 4, "charm": 4, "health_state": 0,
            "gm_notes": "", **{f"skill_{k}": 0 for k in SKILLS}}
    base["skill_gunnery"] = 4
    response = gm_client.post(url, base)
    higgins = Character.objects.get(name="Jack Higgins")
    assert response.url == reverse("characters:detail", args=[higgins.pk])
    assert higgins.kind == "npc" and higgins.owner is None and higgins.skills == {"gunnery": 4}
    gm_client.post(url, {**base, "kind": "pc", "name": "Second PC", "owner": player_b.pk})
    assert Character.objects.get(name="Second PC").owner == player_b


def test_a_pc_needs_a_player_of_the_campaign(gm_client, campaign, outsider):
    url = reverse("characters:new", args=[campaign.pk])
    data = {"kind": "pc", "name": "Orphan", "seniority": 0, "guts": 1, "discipline": 1,
            "influence": 1, "charm": 1, "health_state": 0,
            **{f"skill_{k}": 0 for k in SKILLS}}
    response = gm_client.post(url, data)
    assert response.status_code == 200 and "needs a player" in response.content.decode()
    response = gm_client.post(url, {**data, "owner": outsider.pk})
    assert response.status_code == 200 and "Select a valid choice" in response.content.decode()
    assert not Character.objects.filter(name="Orphan").exists()


def test_a_new_character_above_the_books_scale_is_made_with_a_warning(gm_client, campaign,
                                                                    player_b):
    """Awareness 11: the book sets no maximum (BtQ L97, L171), so the sheet is saved, but the
    GM is warned that no character of the book starts above 6; 6 itself passes quietly."""
    url = reverse("characters:new", args=[campaign.pk])
    data = {"kind": "pc", "owner": player_b.pk, "name": "Eagle Eye", "seniority": 0,
            "guts": 7, "discipline": 1, "influence": 1, "charm": 6, "health_state": 0,
            **{f"skill_{k}": 0 for k in SKILLS}, "skill_awareness": 11, "skill_gunnery": 6}
    page = gm_client.post(url, data, follow=True).content.decode()
    assert Character.objects.get(name="Eagle Eye").skills == {"awareness": 11, "gunnery": 6}
    assert "Guts 7 is above 6, the top of the book&#x27;s scale" in page
    assert "Awareness 11 is above 6" in page
    assert "Charm 6 is" not in page and "Gunnery 6 is" not in page


@pytest.mark.parametrize("persona,expected", [("player_a", 403), ("outsider", 404)])
def test_only_gms_create_characters(request, campaign, persona, expected):
    url = reverse("characters:new", args=[campaign.pk])
    assert client_of(request, persona).get(url).status_code == expected
