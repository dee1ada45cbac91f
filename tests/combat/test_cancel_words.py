"""Calling an encounter off says, for its kind, what is not written back: the ships' damage
for a battle, the sheets for a duel, the sheets and the ships for a boarding, nothing but
the log for a wargame, whose forces are its own (a tester read "nothing is written back to
the ships, which are then free for another battle" on a duel's page and a wargame's)."""

import re

import pytest
from django.urls import reverse

from combat.models import Encounter
from combat.wargames import wargame_create
from tests.combat.fights.test_fight_words import _boarding, _duel, _text
from tests.combat.fights.test_fights import begin, prepare_skirmish

pytestmark = pytest.mark.django_db

FREED = "Its ships are then free to fight again."
SHOWN = "What it brought into the open stays known: "
WARGAME = "its forces are the game's own, not the campaign's ships or characters"
KINDS = {
    # kind: (noun, what the texts say, what they must not)
    "battle": ("battle", ["the ships' damage and Ship Morale", "nor a prize taken",
                          f"{SHOWN}its ships.", FREED], [WARGAME, "NPCs"]),
    "boarding": ("boarding", ["the wounds on the sheets", "Crew and Ship Morale",
                              f"{SHOWN}its ships.", FREED], ["battle", WARGAME]),
    "duel": ("fight", ["the wounds on the fighters' sheets"],
             ["ship", "battle", WARGAME, "into the open"]),  # the players' own PCs
    "skirmish": ("skirmish", ["the wounds on the sheets", "Ship Morale a lost skirmish",
                              f"{SHOWN}its NPCs' names and ranks."],
                 ["battle", "free to fight", WARGAME]),
    **{engine: ("battle", [WARGAME], ["free to fight", "sheets"])
       for engine in ("brethren", "hfg", "viking", "bvp")},
}
SCENARIOS = {"brethren": "brethren/first_broadside", "hfg": "hfg/first_manassas",
             "viking": "viking/single_combat", "bvp": "bvp/first_broadside"}


@pytest.fixture
def soldier(campaign, gm):
    from characters.models import Character
    from characters.services import character_create

    return character_create(campaign=campaign, actor=gm, kind=Character.Kind.NPC,
                            name="Soldat", rank="Corporal", skills={"command": 2})


def _make(kind, request, gm_client, campaign, gm, pc_a, pc_b, npc, soldier):
    if kind == "battle":
        return request.getfixturevalue("book_battle")
    if kind in SCENARIOS:
        return wargame_create(campaign=campaign, user=gm, scenario_key=SCENARIOS[kind],
                              commanders={})
    encounter = {"boarding": lambda: _boarding(gm_client, campaign, pc_a,
                                               request.getfixturevalue("pc_ship"),
                                               request.getfixturevalue("enemy_ship")),
                 "duel": lambda: _duel(gm_client, campaign, pc_a, pc_b),
                 "skirmish": lambda: prepare_skirmish(gm_client, campaign, pc_a, pc_b, npc,
                                                      soldier)}[kind]()
    begin(gm_client, encounter)
    return encounter


def _says(text: str, noun: str, said: list[str], unsaid: list[str]) -> None:
    text = re.sub(r"\s+", " ", text).replace("&#x27;", "'")
    for words in said:
        assert words in text, words
    for words in unsaid:
        assert not re.search(rf"\b{words}", text.replace(f"Cancel the {noun}", "")), words


@pytest.mark.parametrize("kind", KINDS)
def test_the_cancel_texts_say_what_is_not_written_back_for_the_kind(
        kind, request, gm_client, player_a_client, campaign, gm, pc_a, pc_b, npc, soldier):
    encounter = _make(kind, request, gm_client, campaign, gm, pc_a, pc_b, npc, soldier)
    noun, said, unsaid = KINDS[kind]
    detail = reverse("combat:detail", args=[encounter.pk])
    page = gm_client.get(detail).content.decode()
    note = page.split('class="cancel-battle"')[1].split("</p>")[0]
    assert f"Cancel the {noun}…" in note
    _says(_text(f"<main>{note}</main>"), noun, ["Ends it at once.", *said], unsaid)
    assert 'class="cancel-battle"' not in player_a_client.get(detail).content.decode()
    url = reverse("combat:cancel", args=[encounter.pk])
    asked = _text(gm_client.get(url).content.decode())
    assert f"Cancel the {noun} “{encounter.title}”?" in asked
    _says(asked.split("?", 1)[1], noun, ["It ends at once.", *said, "This cannot be undone."],
          unsaid)
    done = gm_client.post(url, {"version": encounter.version}, follow=True).content.decode()
    encounter.refresh_from_db()
    assert encounter.status == Encounter.Status.CANCELLED
    _says(_text(done), noun, [f"The {noun} is cancelled.", *said,
                              "Called off by the GM: nothing of it was written back."], unsaid)


def test_a_battle_called_off_before_it_began_says_nothing_was_played(campaign, gm_client,
                                                                      hermes, corsair):
    gm_client.post(reverse("combat:new", args=[campaign.pk]), {
        "pc_ship": hermes.pk, "enemy_ship": corsair.pk, "weather": "good_wind"})
    encounter = Encounter.objects.get()
    url = reverse("combat:cancel", args=[encounter.pk])
    asked = _text(gm_client.get(url).content.decode())
    _says(asked.split("?", 1)[1], "battle", ["It ends at once. It has not begun: nothing of it "
                                             "has been played.", FREED],
          ["prize", "written back", "into the open"])
    done = gm_client.post(url, {"version": encounter.version}, follow=True).content.decode()
    _says(_text(done), "battle", ["The battle is cancelled. It has not begun: nothing of it "
                                  "has been played."], ["prize", "into the open"])
