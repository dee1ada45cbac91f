"""The admin pages of our models open for a superuser."""

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.urls import reverse


@pytest.mark.parametrize("label", [
    "campaigns.Campaign", "campaigns.Membership", "campaigns.CampaignLogEntry",
    "characters.Character", "ships.ShipType", "ships.ShipTrait", "ships.Ship",
])
def test_the_admin_lists_and_opens_each_model(client, campaign, label):
    client.force_login(get_user_model().objects.create_superuser("admiral", "a@b.c", "pw"))
    model = apps.get_model(label)
    prefix = f"admin:{model._meta.app_label}_{model._meta.model_name}"
    assert client.get(reverse(f"{prefix}_changelist")).status_code == 200
    first = model.objects.first()
    assert client.get(reverse(f"{prefix}_change", args=[first.pk])).status_code == 200


def test_the_admin_opens_card_tests_their_events_and_reputations(client, race, turn, player_a,
                                                                  distrusted):
    test = turn(race(), player_a, "4S  4C KD KS QH JH 2C  4H AH 2D 7S")
    client.force_login(get_user_model().objects.create_superuser("admiral", "a@b.c", "pw"))
    for label, pk in [("combat.Encounter", test.pk),
                      ("characters.Character", distrusted.character_id)]:
        model = apps.get_model(label)
        prefix = f"admin:{model._meta.app_label}_{model._meta.model_name}"
        assert client.get(reverse(f"{prefix}_changelist")).status_code == 200
        page = client.get(reverse(f"{prefix}_change", args=[pk]))
        assert page.status_code == 200
    assert "Distrusted by" in page.content.decode()
