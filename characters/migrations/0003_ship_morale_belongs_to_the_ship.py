"""Ship Morale belongs to the ship (``rules/btq_characters.md`` A15, ``btq_naval.md`` N22):
remove ``Character.ship_morale_state``; the sheet now mirrors ``Ship.morale_state`` of the
ship the character serves on.

The data: each ship keeps the worst of its own Ship Morale and the per-character values of
the characters posted aboard. Damage is healed only by a Command test (BtQ L1385-1411), so
dropping a level someone took (a card test that damaged one officer's copy) would heal the
crew for free, while the worst value is what the book's one ship-wide track would show. A
ship whose Ship Morale worsens gets a new version, so an edit made from the old one is
refused. The value of a character posted nowhere is dropped: there is no ship to carry it.
Going back copies each ship's Ship Morale to every character posted aboard (0 for the
others).
"""

from django.db import migrations
from django.db.models import F, Max, OuterRef, Subquery


def ship_keeps_the_worst(apps, schema_editor):
    Ship = apps.get_model("ships", "Ship")
    ShipPosting = apps.get_model("ships", "ShipPosting")
    worst = (ShipPosting.objects.filter(ship=OuterRef("pk")).values("ship")
             .annotate(worst=Max("character__ship_morale_state")).values("worst"))
    for ship in Ship.objects.annotate(crew_worst=Subquery(worst)):
        if ship.crew_worst is not None and ship.crew_worst > ship.morale_state:
            Ship.objects.filter(pk=ship.pk).update(morale_state=ship.crew_worst,
                                                   version=F("version") + 1)


def crew_copies_the_ship(apps, schema_editor):
    ShipPosting = apps.get_model("ships", "ShipPosting")
    Character = apps.get_model("characters", "Character")
    for posting in ShipPosting.objects.select_related("ship"):
        Character.objects.filter(pk=posting.character_id).update(
            ship_morale_state=posting.ship.morale_state)


class Migration(migrations.Migration):

    dependencies = [
        ("characters", "0002_wealth_and_reputations"),
        ("ships", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(ship_keeps_the_worst, crew_copies_the_ship),
        migrations.RemoveField(model_name="character", name="ship_morale_state"),
    ]
