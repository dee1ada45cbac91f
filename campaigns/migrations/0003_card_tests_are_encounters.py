"""The old card table goes: its tests and draws were moved into encounters of the engine
``btq_test`` by ``combat`` 0005, and each test now has its own seed, so the campaign's
shared random source goes too."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('campaigns', '0002_card_tests_and_decks'),
        ('characters', '0005_player_notes'),
        ('combat', '0006_card_tests_into_encounters'),
    ]

    operations = [
        migrations.DeleteModel(name='DeckDraw'),
        migrations.DeleteModel(name='Deck'),
        migrations.DeleteModel(name='CardTest'),
        migrations.RemoveField(model_name='campaign', name='rng_seed'),
        migrations.RemoveField(model_name='campaign', name='rng_state'),
    ]
