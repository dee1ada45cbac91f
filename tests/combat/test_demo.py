"""The demo campaign of ``make run`` (issue 2 item 9, issue 7 item 6): the book's own
characters with the book's values, in the book's example of ship-to-ship combat, HMS Hermes
against the Corsair (BtQ L2533-2543; rules/btq_naval.md TV-N06), and the NPCs of its
examples to test against."""

from pathlib import Path

import pytest
from django.contrib.auth import authenticate, get_user_model
from django.core.management import call_command
from django.urls import reverse

from campaigns.models import Campaign, CampaignLogEntry
from characters.models import Character, Reputation
from characters.selectors import characters_for_user
from combat.card_tests import services as card_tests
from combat.card_tests import table
from combat.card_tests.selectors import card_test_status
from combat.demo import DEMO_CAMPAIGN, DEMO_PASSWORD
from combat.forms import book_cards, book_choices
from combat.services import encounter_create, encounter_resolve_rest, encounter_start, job_run
from rules.btq.characters import SKILLS
from ships.models import Ship, ShipPosting
from ships.services import naval_setup, ship_stats_of


@pytest.fixture
def demo(db):
    call_command("load_demo")
    return Campaign.objects.get(name=DEMO_CAMPAIGN)


def _user(username):
    return get_user_model().objects.get(username=username)


def _pcs(demo) -> dict[str, Character]:
    return {c.owner.username: c for c in demo.characters.filter(kind="pc")}


def _npc(demo, name) -> Character:
    return demo.characters.get(kind="npc", name=name)


def test_the_demo_users_log_in_with_the_demo_password(demo):
    for username in ("gm", "otoole", "bosworth", "smith"):
        assert authenticate(username=username, password=DEMO_PASSWORD) is not None


def test_roles(demo):
    roles = {m.user.username: m.role for m in demo.memberships.select_related("user")}
    assert roles == {"gm": "gm", "otoole": "player", "bosworth": "player", "smith": "player"}


def test_the_hermes(demo):
    hermes = demo.ships.get(side="pc")
    assert hermes.display_name == "HMS Hermes (22)"
    assert hermes.ship_type.name == "Brig Sloop"
    assert [t.name for t in hermes.traits.all()] == ["Expertly Coppered Hull"]
    stats = ship_stats_of(hermes)  # Broadside +1, Speed 4, Handling +3 (BtQ L2535-2536)
    assert (stats.broadside, stats.speed, stats.handling) == (1, 4, 3)
    assert hermes.tracks == {area: "..|..|.." for area in ("hull", "guns", "crew", "rigging")}
    assert hermes.morale_state == 0


def test_the_corsair(demo):
    corsair = demo.ships.get(side="enemy")
    assert corsair.name == "Corsair" and corsair.ship_type.name == "Cutter"
    assert [t.name for t in corsair.traits.all()] == ["Heart of Oak"]
    stats = ship_stats_of(corsair)  # Broadside +0, Speed 4, Handling +4 (BtQ L2534-2535)
    assert (stats.broadside, stats.speed, stats.handling) == (0, 4, 4)
    assert corsair.tracks == {"hull": "..|..|..", "guns": ".|.|.", "crew": ".|.|.",
                              "rigging": ".|.|."}
    # Awareness 2, Seamanship 3, Gunnery 3 (BtQ L2535); the rest key - 2, at least 1 (L680).
    assert corsair.crew == {"awareness": 2, "seamanship": 3, "gunnery": 3, "command": 1,
                            "first_aid": 1, "maritime": 1}


def test_otoole_is_the_character_the_book_builds(demo):
    """His final sheet, BtQ L1138-1144 (rules/btq_characters.md TV-09): Guts 4, Discipline 3,
    Charm 3, Influence 4 (L1138-1139, printed in that order); Wealth 3, "a man of means"
    (L1126-1127, L1140); his skills (L1140; TV-06), Profession being his Profession
    (Fisherman) 2 (L444-448), and Seamanship 4 + 1 for Crusty Old Seadog as the book's own
    pool counts it (L1210-1212), the 5 of the naval example (L2540)."""
    otoole = _pcs(demo)["otoole"]
    assert otoole.title == "Master Gregory O'Toole"
    assert (otoole.guts, otoole.discipline, otoole.charm, otoole.influence) == (4, 3, 3, 4)
    assert otoole.wealth == 3
    assert otoole.skills == {
        "awareness": 2, "command": 2, "diplomacy": 1, "gambling": 1, "maritime": 4,
        "profession": 2, "purser": 2, "scavenge": 1, "seamanship": 4 + 1, "skullduggery": 3}
    # TV-06 counts 23 points on the sheet: less Crusty Old Seadog's card, plus his Profession
    # (Mapmaker) 1, kept in his notes.
    crusty, mapmaker = 1, 1
    assert sum(otoole.skills.values()) - crusty + mapmaker == 23
    for trait in ("Read & Write", "Second Language (French)", "Swimming", "Jack Tar",
                  "Knife Fighting (1)", "Crusty Old Seadog", "Mapmaker 1",
                  "Reef Map of the West Indies"):
        assert trait in otoole.notes


def test_otoole_has_the_books_seven_reputations_within_their_caps(demo):
    """BtQ L1140-1142 (TV-06, TV-07): two Personal, capped by Charm 3, and five Institution,
    capped by Influence 4 (L114-115, L134-135)."""
    otoole = _pcs(demo)["otoole"]
    reputations = {(r.kind, r.name, r.value) for r in otoole.reputations.all()}
    assert reputations == {
        ("personal", "Distrusted by Captain Jones", 1),
        ("personal", "Friend of Captain Turner", 2),
        ("institution", "Trusted by New Orleans Fisherman", 1),
        ("institution", "Respected by the Ward Room", 2),
        ("institution", "Trusted by the Hermes", 1),
        ("institution", "Always Welcome on The Silver Fin", 1),
        ("institution", "Distrusted by the HMS Achilles", 1),
    }
    assert not any(r.over_cap or r.damage_state for r in otoole.reputations.all())


def test_the_pcs_have_the_naval_examples_values(demo):
    """The battle's PCs (BtQ L2540; TV-N06): Master O'Toole Seamanship 5, Gunner Bosworth
    Gunnery 4, Midshipman Smith Maritime 3, "All other skills are at 2" for Bosworth and
    Smith; O'Toole's sheet agrees on what the battle draws of him: Awareness 2 (the Hermes'
    Awareness pool of 2 cards, L2542) and Discipline 3 (L2543)."""
    otoole, bosworth, smith = (_pcs(demo)[u] for u in ("otoole", "bosworth", "smith"))
    assert (bosworth.title, smith.title) == ("Gunner Bosworth", "Midshipman Smith")
    assert (otoole.skill("seamanship"), bosworth.skill("gunnery"), smith.skill("maritime")) \
        == (5, 4, 3)
    for pc, special in ((bosworth, "gunnery"), (smith, "maritime")):
        others = {k: v for k, v in pc.skill_values().items() if k != special}
        assert len(others) == len(SKILLS) - 1 and set(others.values()) == {2}
    assert otoole.skill("awareness") == 2
    assert max(pc.skill("awareness") for pc in (otoole, bosworth, smith)) == 2
    # O'Toole commands: the most senior, and his Discipline 3 gives Smith 2 and Bosworth 1;
    # each may receive no more than his own Discipline (BtQ L2406-2407, L2540-2541).
    assert otoole.seniority > max(bosworth.seniority, smith.seniority)
    assert otoole.discipline == 3 == 2 + 1
    assert smith.discipline >= 2 and bosworth.discipline >= 1


def test_bosworth_and_smith_have_their_ranks_wealth(demo):
    """A Warrant Officer adds +1 Wealth, an Officer +2 (BtQ L1125-1126), a Midshipman counting
    as an Officer (DECISIONS D8), over a class Wealth of 0 (the book gives no class)."""
    pcs = _pcs(demo)
    assert (pcs["bosworth"].wealth, pcs["smith"].wealth) == (1, 2)


def test_the_postings(demo):
    postings = {p.character.owner.username: (p.ship.name, p.station)
                for p in ShipPosting.objects.select_related("character__owner", "ship")}
    assert postings == {"otoole": ("HMS Hermes", "master"),
                        "bosworth": ("HMS Hermes", "gunner"),
                        "smith": ("HMS Hermes", "midshipman")}


def test_captain_jones_has_the_books_values_and_the_table_knows_him(demo, client):
    """"Captain Jones has a Seamanship of 4. He has no traits, equipment or reputations to
    aid him" (BtQ L1221-1222). Two of O'Toole's reputations name him and his ship (L1140-1142),
    so the players know him: revealed, his name and rank shown, his values never."""
    jones = _npc(demo, "Jones")
    assert jones.title == "Captain Jones" and jones.skills == {"seamanship": 4}
    assert not jones.reputations.exists() and jones.revealed
    client.force_login(_user("otoole"))
    assert jones in characters_for_user(_user("otoole"), demo)
    page = client.get(reverse("characters:detail", args=[jones.pk])).content.decode()
    assert "Captain Jones" in page
    for secret in ("Seamanship", "Achilles", "French"):
        assert secret not in page


def test_the_corsairs_captain_is_hidden_from_the_players_until_revealed(demo, client):
    """He opposes O'Toole's Seamanship with his 3 (BtQ L2535, L2552-2556), and stays the GM's,
    as his ship does, until the GM reveals him."""
    captain = _npc(demo, "The Corsair's Captain")
    assert captain.skill("seamanship") == 3 and not captain.revealed
    for username in ("otoole", "bosworth", "smith"):
        client.force_login(_user(username))
        assert captain not in characters_for_user(_user(username), demo)
        assert client.get(reverse("characters:detail", args=[captain.pk])).status_code == 404
        campaign_page = client.get(reverse("campaigns:detail", args=[demo.pk]))
        assert "Corsair&#x27;s Captain" not in campaign_page.content.decode()
        # Proposing a test, a player may name Jones as the opposition, never the captain.
        own = _pcs(demo)[username]
        proposal = client.get(reverse("card_tests:new", args=[demo.pk]),
                              {"character": own.pk}).content.decode()
        assert "Captain Jones" in proposal and "Corsair&#x27;s Captain" not in proposal
    client.force_login(_user("gm"))
    assert "Corsair&#x27;s Captain" in client.get(
        reverse("campaigns:detail", args=[demo.pk])).content.decode()


def _setup(demo, actor, **data):
    setup, _ = card_tests.clean_setup(campaign=demo, actor=_user(actor), by_gm=actor == "gm",
                                      data={"intent": "as the book", **data})
    return table.build(setup)


def test_the_books_contested_test_against_jones_has_the_books_pools(demo):
    """O'Toole's Seamanship with Distrusted by Captain Jones is the book's pool of 6, Jones's
    Seamanship the book's 4 (BtQ L1210-1212, L1221-1222; TV-10)."""
    otoole, jones = _pcs(demo)["otoole"], _npc(demo, "Jones")
    distrusted = otoole.reputations.get(subject="Captain Jones")
    built = _setup(demo, "gm", character=otoole.pk, skill="seamanship",
                   reputations=[distrusted.pk], opposition="npc", opponent=jones.pk,
                   opponent_skill="seamanship")
    floor = demo.rules_settings()["personal_pool_floor"]
    assert (built.side.pool.size(floor), built.opponent.pool.size(floor)) == (6, 4)


def test_the_readmes_wealth_test_is_a_real_test(demo, client):
    """The README's example of a player's own proposal, a Wealth test: O'Toole's Wealth 3
    against an opposition of 4 cards, as the GM sets it in the book's Wealth example (BtQ
    L1745-1753; TV-17), with Wealth at risk. His odds shown before the draw are neither 0 nor
    1, and he may propose it."""
    otoole = _pcs(demo)["otoole"]
    data = {"character": otoole.pk, "skill": "wealth", "opposition": "difficulty",
            "difficulty": "4", "at_risk": "wealth"}
    odds = table.odds(_setup(demo, "otoole", **data), demo.rules_settings())
    assert odds["pool"] == 3 and odds["opposition_pool"] == 4
    assert 0.1 < odds["final"]["win"] < 0.9 and 0 < odds["final"]["lose"] < 1
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    assert f"about {round(odds['final']['win'] * 100)} % to win" in readme
    client.force_login(_user("otoole"))
    preview = client.post(reverse("card_tests:preview", args=[demo.pk]), {
        **data, "difficulty": "cards", "difficulty_cards": "4", "intent": "a dress uniform"})
    assert "Wealth 3 = 3" in preview.content.decode()
    assert 'data-odds="win">0' not in preview.content.decode()
    test = card_tests.card_test_propose(campaign=demo, actor=_user("otoole"),
                                        intent="a new dress uniform", **data)
    assert card_test_status(test) == "proposed"


def test_loading_again_changes_nothing(demo):
    counts = (Campaign.objects.count(), Character.objects.count(), Ship.objects.count(),
              ShipPosting.objects.count(), Reputation.objects.count(),
              CampaignLogEntry.objects.count())
    call_command("load_demo")
    call_command("load_demo")
    assert (Campaign.objects.count(), Character.objects.count(), Ship.objects.count(),
            ShipPosting.objects.count(), Reputation.objects.count(),
            CampaignLogEntry.objects.count()) == counts
    assert counts[1:5] == (5, 2, 3, 7)  # 3 PCs and 2 NPCs; 7 reputations, all O'Toole's


def test_the_demo_battle_setup(demo):
    setup = naval_setup(pc_ship=demo.ships.get(side="pc"),
                        enemy_ship=demo.ships.get(side="enemy"), weather="good_wind")
    assert [s["name"] for s in setup["ships"]] == ["HMS Hermes (22)", "Corsair"]
    assert [p["name"] for p in setup["pcs"]] == [
        "Master Gregory O'Toole", "Gunner Bosworth", "Midshipman Smith"]
    assert [p["discipline"] for p in setup["pcs"]] == [3, 1, 2]


def test_the_setup_validates_with_the_naval_engine(demo, naval_engine):
    hermes, corsair = demo.ships.get(side="pc"), demo.ships.get(side="enemy")
    for start in (None, 3):
        setup = naval_setup(pc_ship=hermes, enemy_ship=corsair, weather="good_wind",
                            start_distance=start)
        normalised = naval_engine.validate_setup(setup)
        assert normalised["start_distance"] == start
        assert [s["id"] for s in normalised["ships"]] == [str(hermes.pk), str(corsair.pk)]
        assert len(normalised["pcs"]) == 3


def test_the_demo_replays_the_books_battle_to_its_end(demo, naval_engine):
    """With the book's cards and choices stacked, the demo's PCs fight the book's battle to
    TV-N09: the Corsair ends Hull x.|x.|.., Guns .|x|x, Crew x|x|x (BtQ L2588-2603), the
    Hermes' Hull repaired by Smith in round 2 (L2576-2580)."""
    gm = _user("gm")
    hermes, corsair = demo.ships.get(side="pc"), demo.ships.get(side="enemy")
    encounter = encounter_create(
        campaign=demo, user=gm, engine="btq_naval", title="The book's battle",
        setup=naval_setup(pc_ship=hermes, enemy_ship=corsair, weather="good_wind"),
        stacked_cards=book_cards(), stacked_choices=book_choices(hermes),
        ships=[hermes, corsair])
    encounter = encounter_start(encounter=encounter, user=gm, expected_version=1)
    job = job_run(job_id=encounter_resolve_rest(encounter=encounter, user=gm).pk)
    assert job.status == "done", job.error
    encounter.refresh_from_db()
    assert encounter.stacked_choices_position == len(encounter.stacked_choices)
    assert not encounter.events.filter(kind__endswith="set_aside").exists()
    assert encounter.outcome["winner"] == "pc"
    ships = encounter.outcome["data"]["ships"]
    assert ships[str(corsair.pk)]["tracks"] == {
        "hull": "x.|x.|..", "guns": ".|x|x", "crew": "x|x|x", "rigging": ".|.|."}
    assert ships[str(hermes.pk)]["tracks"]["hull"] == "..|..|.."


def test_the_corsair_is_hidden_from_the_players_until_the_battle(demo):
    assert not demo.ships.get(name="Corsair").revealed
    assert demo.ships.get(name="HMS Hermes").revealed
