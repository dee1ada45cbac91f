"""In the browser: on the New battle page, a side's "More ships" checkboxes leave out the ship
chosen above as that side's main ship, and follow the choice when it changes (a ship ticked
there and then chosen above is unticked); without scripts the form refuses her instead
(tests/combat/test_squadron.py)."""

import pytest

from combat.demo import DEMO_PASSWORD, demo_load
from ships.models import Ship, ShipType
from ships.services import ship_create

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _box(page, field: str, ship) -> object:
    return page.locator(f"fieldset[data-field={field}] input[value='{ship.pk}']")


def test_the_main_ship_is_not_offered_among_her_sides_more_ships(new_context, login):
    campaign, _ = demo_load()
    gm_user = campaign.memberships.get(role="gm").user
    cutter = ShipType.objects.get(name="Cutter")
    hermes, corsair = campaign.ships.get(side="pc"), campaign.ships.get(side="enemy")
    sparrow = ship_create(campaign=campaign, actor=gm_user, name="HMS Sparrow", guns=10,
                          side=Ship.Side.PC, ship_type=cutter)
    falcon = ship_create(campaign=campaign, actor=gm_user, name="Falcon", guns=8,
                         side=Ship.Side.ENEMY, ship_type=cutter)
    gm = login(new_context(), "gm", DEMO_PASSWORD)
    gm.goto(f"/combat/campaign/{campaign.pk}/new/")
    gm.select_option("select[name=pc_ship]", str(hermes.pk))
    gm.select_option("select[name=enemy_ship]", str(corsair.pk))
    for field, main, other in (("allies", hermes, sparrow), ("more_enemies", corsair, falcon)):
        assert not _box(gm, field, main).is_visible()
        assert _box(gm, field, main).is_disabled()
        assert _box(gm, field, other).is_visible() and _box(gm, field, other).is_enabled()
    _box(gm, "allies", sparrow).check()
    gm.select_option("select[name=pc_ship]", str(sparrow.pk))  # she is the main ship now
    assert not _box(gm, "allies", sparrow).is_visible()
    assert not _box(gm, "allies", sparrow).is_checked()
    assert _box(gm, "allies", hermes).is_visible() and _box(gm, "allies", hermes).is_enabled()
    _box(gm, "allies", hermes).check()
    with gm.expect_navigation():
        gm.click("button:has-text('Prepare the battle')")
    encounter = campaign.encounters.get()
    assert [s["id"] for s in encounter.setup["ships"]][:2] == [str(sparrow.pk), str(hermes.pk)]
    gm.goto(f"/combat/campaign/{campaign.pk}/new/")
    gm.set_viewport_size({"width": 390, "height": 844})
    assert gm.evaluate("document.documentElement.scrollWidth") <= 390
