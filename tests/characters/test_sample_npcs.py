"""The 21 sample characters of "Friends and Foes" (BtQ L2680-3086; ``rules/btq_naval.md``
§5.3) loaded into a campaign: once, as the GM's NPCs, hidden from the players, with their
traits, reputations and curios, and the book's corrections in the GM's notes only."""

import pytest
from django.core.exceptions import PermissionDenied
from django.core.management import call_command
from django.urls import reverse

from characters.models import Character
from characters.samples import sample_npcs_load
from rules.btq.npcs import sample_npcs

pytestmark = pytest.mark.django_db


def test_the_sample_characters_load_once_as_hidden_npcs(campaign, gm):
    added = sample_npcs_load(campaign=campaign, actor=gm)
    assert len(added) == 21 and [c.name for c in added] == [n.name for n in
                                                            sample_npcs().values()]
    assert sample_npcs_load(campaign=campaign, actor=gm) == []
    assert all(c.kind == Character.Kind.NPC and not c.revealed and c.owner is None
               for c in added)
    higgins = campaign.characters.get(name="Jack Higgins")
    # BtQ L2680-2695: Gunner's Mate Jack Higgins, Guts 4, Gunnery 4, Master Gunner (2)
    assert higgins.title == "Gunner's Mate Jack Higgins"
    assert (higgins.guts, higgins.discipline, higgins.influence, higgins.charm,
            higgins.wealth) == (4, 3, 4, 4, 0)
    assert higgins.skill("gunnery") == 4 and higgins.professions == {"Blacksmith": 2}
    assert higgins.trait_takes()["master_gunner"] == 2
    feared = higgins.reputations.get(descriptor="Feared by")
    assert (feared.kind, feared.subject, feared.value) == ("personal", "the Gunner", 3)
    assert [(i.kind, i.weapon) for i in higgins.items.all()] == [("special_weapon", "musket")]
    # a correction of the book goes to the GM's notes, in plain words
    wolsington = campaign.characters.get(name="Bartholemew Harburton-Wolsington")
    assert wolsington.skill("intrigue") == 1 and "Influence is a Measure" in wolsington.gm_notes
    tolani = campaign.characters.get(name="Tolani")
    assert sorted(t.parameter for t in tolani.traits.filter(trait="second_language")) == [
        "English", "French"]


def test_a_player_sees_none_of_them_until_revealed(campaign, gm, player_a_client):
    sample_npcs_load(campaign=campaign, actor=gm)
    fournier = campaign.characters.get(name="André Fournier")
    page = player_a_client.get(reverse("characters:detail", args=[fournier.pk]))
    assert page.status_code == 404
    listing = player_a_client.get(reverse("campaigns:detail", args=[campaign.pk]))
    assert listing.status_code == 200 and "Fournier" not in listing.content.decode()


def test_only_the_gm_loads_them_and_the_command_says_how_many(campaign, gm, player_a, capsys):
    with pytest.raises(PermissionDenied):
        sample_npcs_load(campaign=campaign, actor=player_a)
    call_command("load_sample_npcs", str(campaign.pk), "--as", gm.username)
    assert "Sample characters: 21 added" in capsys.readouterr().out
    call_command("load_sample_npcs", str(campaign.pk), "--as", gm.username)
    assert "Sample characters: 0 added" in capsys.readouterr().out
