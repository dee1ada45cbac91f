"""A boarding's and a duel's pages call them by their own word, not "battle" (a tester read
"Cancel the battle" and "The battle moved on..." on a boarding's page)."""

import re

import pytest
from django.urls import reverse

from combat.models import Encounter

from .test_fights import begin

pytestmark = pytest.mark.django_db


def _text(page: str) -> str:
    """What a reader sees of the page's main part: no tags, scripts or attribute values."""
    main = page.split("<main", 1)[1].split("</main>", 1)[0]
    main = re.sub(r"<(script|style)\b.*?</\1>", " ", main, flags=re.S)
    return re.sub(r"<[^>]+>", " ", main)


def _boarding(gm_client, campaign, pc_a, pc_ship, enemy_ship):
    response = gm_client.post(reverse("combat:fight_new", args=[campaign.pk, "boarding"]), {
        "attacker": pc_ship.pk, "defender": enemy_ship.pk, "pcs": [pc_a.pk],
        "pc_weapons": ["cutlass"], "officer_weapon": "cutlass", "attacker_crew_pool": 4,
        "defender_crew_pool": 3})
    assert response.status_code == 302, response.content.decode()[:2000]
    return Encounter.objects.get(engine="btq_boarding")


def _duel(gm_client, campaign, pc_a, pc_b):
    response = gm_client.post(reverse("combat:fight_new", args=[campaign.pk, "duel"]), {
        "attacker": pc_a.pk, "attacker_weapons": ["sword"], "defender": pc_b.pk,
        "defender_weapons": ["knife"], "mode": "melee", "band": "melee", "wind": "light",
        "precipitation": "none"})
    assert response.status_code == 302, response.content.decode()[:2000]
    return Encounter.objects.get(engine="btq_personal_combat")


@pytest.mark.parametrize(("kind", "noun"), [("boarding", "boarding"), ("duel", "fight")])
def test_the_page_names_the_encounter_by_its_own_word(kind, noun, gm_client, campaign, pc_a,
                                                      pc_b, pc_ship, enemy_ship):
    encounter = (_boarding(gm_client, campaign, pc_a, pc_ship, enemy_ship) if kind == "boarding"
                 else _duel(gm_client, campaign, pc_a, pc_b))
    detail = reverse("combat:detail", args=[encounter.pk])
    prepared = _text(gm_client.get(detail).content.decode())
    assert f"The {noun} is prepared" in prepared and f"Begin the {noun}" in prepared
    begin(gm_client, encounter)
    page = _text(gm_client.get(detail).content.decode())
    assert f"Cancel the {noun}" in page and f"The {noun} begins." in page
    assert not re.search(r"\bbattles?\b", page.replace("free for another battle", ""))
    stale = gm_client.post(reverse("combat:cancel", args=[encounter.pk]),
                           {"version": encounter.version - 1}, follow=True)
    assert f"The {noun} moved on while you were deciding" in stale.content.decode()
    asked = gm_client.get(reverse("combat:cancel", args=[encounter.pk])).content.decode()
    assert f"Cancel the {noun} “{encounter.title}”?" in asked
