"""The book's example battle, Hermes vs Corsair (BtQ L2533-2603; ``rules/btq_naval.md``
TV-N06..TV-N09), played through the services and through the battle page with the book's
cards stacked."""

import hashlib

import pytest
from django.core.management import call_command
from django.urls import reverse

from campaigns.models import CampaignLogEntry
from combat.models import Encounter
from combat.services import encounter_replay
from rules.engine import get_engine

from .conftest import ROUND_1, ROUNDS_2_3

pytestmark = pytest.mark.django_db


def tracks(encounter, ship):
    return encounter.state["ships"][str(ship.pk)]["tracks"]


def test_round_1_through_the_services(book_battle, play, hermes, corsair):
    encounter = play(book_battle, ROUND_1)
    # TV-N06: Awareness 4C beats 3C, the Hermes chose Distance 3; TV-N07: closed to 1.
    [pair] = encounter.state["pairs"].values()
    assert pair["distance"] == 1
    assert encounter.state["round"] == 2
    assert tracks(encounter, corsair) == {"hull": "xx|..|..", "guns": ".|x|.", "crew": ".|.|.",
                                          "rigging": ".|.|."}
    assert tracks(encounter, hermes) == {"hull": "x.|..|..", "guns": "..|..|..",
                                         "crew": "..|..|..", "rigging": "..|..|.."}
    assert encounter.status == Encounter.Status.ACTIVE
    assert encounter.version == 2 + len(ROUND_1)  # created 1, begun 2, then one per step
    kinds = list(encounter.events.values_list("kind", flat=True))
    assert kinds[:3] == ["encounter.start", "battle.start", "awareness.test"]
    rounds = dict(encounter.events.filter(kind__in=["continue.orders", "round.start"])
                  .values_list("kind", "round"))
    assert rounds == {"continue.orders": 1, "round.start": 2}  # round 1 ends, round 2 begins
    fire = encounter.events.filter(kind="broadside.fire").order_by("seq")
    assert [e.data["card_of_fate"] for e in fire] == ["AS", "AS"]
    assert [c for c, _ in fire[0].data["cards"]] == "KS 2S 10D 2C AD QH 8D".split()


def test_the_whole_battle_ends_as_in_the_book_and_is_written_back(
        book_battle, play, hermes, corsair, smith, campaign):
    encounter = play(book_battle, ROUND_1 + [c.format(smith=smith.pk) for c in ROUNDS_2_3])
    assert encounter.status == Encounter.Status.FINISHED
    assert encounter.outcome["winner"] == "pc"
    # TV-N09: the final Corsair.
    final = {"hull": "x.|x.|..", "guns": ".|x|x", "crew": "x|x|x", "rigging": ".|.|."}
    assert tracks(encounter, corsair) == final
    corsair.refresh_from_db()
    hermes.refresh_from_db()
    assert corsair.tracks == final
    assert corsair.morale_state == 1  # the loser's Ship Morale is Injured (L2602-2603)
    assert hermes.tracks == tracks(encounter, hermes)
    assert hermes.morale_state == 0
    assert CampaignLogEntry.objects.filter(campaign=campaign, kind="battle.finished",
                                           data__encounter=encounter.pk).exists()
    end = encounter.events.get(kind="encounter.end")
    assert end.data["seed"] == encounter.seed
    assert hashlib.sha256(encounter.seed.encode()).hexdigest() == encounter.seed_hash
    assert encounter.stacked_position == len(encounter.stacked_cards)
    assert encounter_replay(encounter=encounter)["matches"]
    call_command("combat_replay", str(encounter.pk))


def test_the_loser_s_ship_morale_shows_on_the_sheets_of_its_crew(
        book_battle, play, corsair, smith, npc, gm, gm_client):
    # Ship Morale is one track per ship, mirrored on each sheet (btq_characters.md A15, N22).
    from ships.services import posting_set

    posting_set(ship=corsair, character=npc, station="captain", actor=gm)
    play(book_battle, ROUND_1 + [c.format(smith=smith.pk) for c in ROUNDS_2_3])
    sheet = gm_client.get(reverse("api-character-detail", args=[npc.pk])).json()
    assert sheet["ship_morale_state"] == 1  # the Corsair lost: Injured (L2602-2603)
    page = gm_client.get(reverse("characters:detail", args=[npc.pk])).content.decode()
    assert ('Injured <small class="muted">(the ship\'s: <span class="name">Corsair</span>)'
            in page)
    hermes_crew = gm_client.get(reverse("api-character-detail", args=[smith.pk])).json()
    assert hermes_crew["ship_morale_state"] == 0


def test_before_the_first_round_the_counter_says_so(book_battle, play, gm_client):
    """Steps One and Two come before the battle counts its first round (the engine's round
    is 0): the page's counter says "Before the first round", not "Round —"."""
    url = reverse("combat:detail", args=[book_battle.pk])
    assert book_battle.state["round"] == 0
    html = gm_client.get(url).content.decode()
    assert ("<strong>Before the first round</strong> · Step One: Establish the Conditions"
            in html)
    assert "Round —" not in html
    encounter = play(book_battle, ROUND_1)
    assert encounter.state["round"] >= 1
    html = gm_client.get(url).content.decode()
    assert f"<strong>Round {encounter.state['round']}</strong>" in html
    assert "Before the first round" not in html


def test_round_1_through_the_battle_page(book_battle, gm_client, hermes, corsair):
    url = reverse("combat:detail", args=[book_battle.pk])
    engine = get_engine("btq_naval")
    for choice in ROUND_1:
        page = gm_client.get(url)
        assert page.status_code == 200
        book_battle.refresh_from_db()
        decision = engine.pending(book_battle.state)[0]
        html = page.content.decode()
        assert f'name="kind" value="{decision.kind}"' in html
        assert f'value="{choice}"' in html
        assert f'name="version" value="{book_battle.version}"' in html
        response = gm_client.post(reverse("combat:act", args=[book_battle.pk]), {
            "actor": decision.actor, "kind": decision.kind, "choice": choice,
            "version": book_battle.version,
        })
        assert response.status_code == 302
    book_battle.refresh_from_db()
    assert tracks(book_battle, corsair)["hull"] == "xx|..|.."
    html = gm_client.get(url).content.decode()
    assert 'data-track="xx|..|.."' in html
    assert 'data-track=".|x|."' in html
    assert 'data-track="x.|..|.."' in html
    assert "Maimed" in html  # the Corsair's Guns
    assert 'class="card-face red fate"' in html  # the Card of Fate 7D
    assert 'data-card="JK=7D"' in html or 'data-card="JK"' in html
    assert "success-3" in html  # the Joker played as the Card of Fate: a Perfect
    assert "Distance 1 (Broadside!)" in html
    assert book_battle.seed_hash in html
