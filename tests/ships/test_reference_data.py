"""load_reference_data copies rules.btq.ships into the database, and can run again."""

from django.core.management import call_command

from rules.btq.ships import SHIP_TRAITS, SHIP_TYPES
from ships.models import ShipTrait, ShipType


def test_the_rows_match_the_rules_module(db):
    call_command("load_reference_data")
    assert ShipType.objects.count() == len(SHIP_TYPES) == 9
    assert ShipTrait.objects.count() == len(SHIP_TRAITS) == 10
    for row in ShipType.objects.all():
        t = SHIP_TYPES[row.name]
        assert (row.command, row.rating, row.guns_min, row.guns_max, row.broadside, row.speed,
                row.handling, row.source) == (t.command, t.rating, t.guns_min, t.guns_max,
                                              t.broadside, t.speed, t.handling, t.source)
        assert row.boxes == {area: list(n) for area, n in t.boxes.items()}
    for row in ShipTrait.objects.all():
        t = SHIP_TRAITS[row.name]
        assert (row.description, row.speed, row.handling, row.broadside, row.boxes,
                row.source) == (t.description, t.speed, t.handling, t.broadside, t.boxes,
                                t.source)


def test_a_few_rows_against_the_book(db):
    call_command("load_reference_data")
    cutter = ShipType.objects.get(name="Cutter")  # BtQ L2322
    assert (cutter.rating, cutter.broadside, cutter.speed, cutter.handling) == (None, 0, 4, 4)
    assert cutter.boxes["hull"] == [1, 1, 1]
    sloop = ShipType.objects.get(name="Ship Sloop")  # Rigging 3/3/3, L2323
    assert sloop.boxes["rigging"] == [3, 3, 3] and sloop.boxes["hull"] == [2, 2, 2]
    assert ShipTrait.objects.get(name="Heart of Oak").boxes == {"hull": 1}


def test_running_it_again_changes_nothing_and_repairs_edits(db):
    call_command("load_reference_data")
    ShipType.objects.filter(name="Cutter").update(speed=9)
    ids = sorted(ShipType.objects.values_list("pk", flat=True))
    call_command("load_reference_data")
    assert sorted(ShipType.objects.values_list("pk", flat=True)) == ids
    assert ShipType.objects.get(name="Cutter").speed == 4
    assert ShipTrait.objects.count() == 10
