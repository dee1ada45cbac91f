"""A sheet saved as it was writes nothing and keeps its version, so nobody else's open form
goes stale; a stale save is refused with the typed values kept beside the saved ones of
the fields that differ, and carries the new version, so that saving again deliberately
puts them in place. The GM and a player editing one sheet."""

from html import unescape

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaigns.models import CampaignLogEntry
from characters.services import character_update
from tests.conftest import form_as_sent

pytestmark = pytest.mark.django_db


def opened(client, character) -> dict:
    """The edit form of ``character`` as ``client`` opens it, ready to send."""
    page = client.get(reverse("characters:edit", args=[character.pk]))
    assert page.status_code == 200
    return form_as_sent(page.content.decode())


def saved(client, character, data):
    return client.post(reverse("characters:edit", args=[character.pk]), data, follow=True)


@pytest.mark.parametrize("persona,which", [
    ("player_a", "pc_a"), ("gm", "pc_a"), ("gm", "npc"),
])
def test_a_save_that_changes_nothing_writes_nothing(request, gm, persona, which):
    client = request.getfixturevalue(f"{persona}_client")
    character = request.getfixturevalue(which)
    # notes of several lines: the browser sends their line breaks as CR LF
    character = character_update(character=character, actor=gm, version=1,
                                 notes="Born in Cork.\nHates the French.",
                                 gm_notes="A spy?\nWatch him.")
    logged = CampaignLogEntry.objects.count()
    history = character.history.count()
    response = saved(client, character, opened(client, character))
    assert "Nothing to save: no field changed." in response.content.decode()
    assert response.redirect_chain[-1][0] == reverse("characters:detail", args=[character.pk])
    character.refresh_from_db()
    assert character.version == 2 and character.notes == "Born in Cork.\nHates the French."
    assert CampaignLogEntry.objects.count() == logged
    assert character.history.count() == history


def test_a_players_idle_save_leaves_the_gms_open_form_good(gm_client, player_a_client, pc_a):
    gm_form = opened(gm_client, pc_a)
    saved(player_a_client, pc_a, opened(player_a_client, pc_a))
    response = saved(gm_client, pc_a, {**gm_form, "skill_gunnery": "3"})
    assert f"{pc_a} saved." in response.content.decode()
    pc_a.refresh_from_db()
    assert pc_a.skill("gunnery") == 3 and pc_a.version == 2


def test_a_stale_save_shows_both_values_and_a_second_save_applies_the_typed_ones(
        gm_client, player_a_client, pc_a):
    gm_form = opened(gm_client, pc_a)
    saved(player_a_client, pc_a, {**opened(player_a_client, pc_a), "notes": "Hates the French."})
    pc_a.refresh_from_db()
    assert pc_a.version == 2

    response = gm_client.post(reverse("characters:edit", args=[pc_a.pk]),
                              {**gm_form, "name": "Anne Bold"})
    assert response.status_code == 200
    page = unescape(response.content.decode())
    assert "changed by someone else" in page and "nothing of yours was saved" in page
    assert "<tr><th scope=\"row\">Name</th><td>Anne Bold</td><td>Anne Able</td></tr>" in page
    assert ("<tr><th scope=\"row\">Notes</th><td>(empty)</td><td>Hates the French.</td></tr>"
            in page)
    assert "Seamanship</th>" not in page  # the same on both sides: not listed
    again = form_as_sent(response.content.decode())
    assert again["version"] == "2" and again["name"] == "Anne Bold"
    pc_a.refresh_from_db()
    assert (pc_a.name, pc_a.notes, pc_a.version) == ("Anne Able", "Hates the French.", 2)

    response = saved(gm_client, pc_a, again)
    assert response.redirect_chain[-1][0] == reverse("characters:detail", args=[pc_a.pk])
    pc_a.refresh_from_db()
    assert (pc_a.name, pc_a.notes, pc_a.version) == ("Anne Bold", "", 3)


def test_a_players_stale_save_lists_what_the_gm_changed(gm_client, player_a_client, pc_a):
    player_form = opened(player_a_client, pc_a)
    saved(gm_client, pc_a, {**opened(gm_client, pc_a), "name": "Anne Able-Seaman"})
    response = player_a_client.post(reverse("characters:edit", args=[pc_a.pk]),
                                    {**player_form, "notes": "Mine."})
    page = unescape(response.content.decode())
    assert "<th scope=\"row\">Name</th><td>Anne Able</td><td>Anne Able-Seaman</td>" in page
    assert "<th scope=\"row\">Notes</th><td>Mine.</td><td>(empty)</td>" in page
    assert "GM notes" not in page and "secret-a" not in page  # not his to see
    assert form_as_sent(response.content.decode())["version"] == "2"


def test_the_service_keeps_the_version_of_a_change_to_the_same_values(pc_a, gm):
    same = character_update(character=pc_a, actor=gm, version=1, name=" Anne Able ",
                            skills={"seamanship": 4}, notes="")
    assert same.version == 1
    pc_a.refresh_from_db()
    assert pc_a.version == 1


def test_a_reputation_saved_as_it_was_writes_nothing_and_a_stale_one_shows_both(
        gm_client, distrusted):
    url = reverse("characters:reputation_edit", args=[distrusted.pk])
    first = form_as_sent(gm_client.get(url).content.decode())
    response = gm_client.post(url, first, follow=True)
    assert "Nothing to save: no field changed." in response.content.decode()
    distrusted.refresh_from_db()
    assert distrusted.version == 1
    gm_client.post(url, {**first, "value": "2"})
    response = gm_client.post(url, {**first, "subject": "Admiral Jones"})
    page = unescape(response.content.decode())
    assert "<th scope=\"row\">Subject</th><td>Admiral Jones</td><td>Captain Jones</td>" in page
    assert "<th scope=\"row\">Value</th><td>1</td><td>2</td>" in page
    assert form_as_sent(response.content.decode())["version"] == "2"


def test_values_sent_as_text_that_are_the_saved_ones_write_nothing(gm, pc_a):
    """A Measure sent as "3" where 3 is saved (a form or an API client sends text) is no
    change: nothing written, the version kept; a value that is no number is refused on its
    field."""
    pc_a.refresh_from_db()
    saved_wealth, version = pc_a.wealth, pc_a.version
    character = character_update(character=pc_a, actor=gm, version=version,
                                 wealth=str(saved_wealth))
    assert character.version == version and character.history.count() == 0
    with pytest.raises(ValidationError) as refused:
        character_update(character=pc_a, actor=gm, version=version, wealth="lots")
    assert "wealth" in refused.value.message_dict
    pc_a.refresh_from_db()
    assert (pc_a.wealth, pc_a.version) == (saved_wealth, version)
