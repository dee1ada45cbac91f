"""Character creation in a campaign (``combat.creation``): a draft is an encounter of
``btq_creation``; the personas of ``tests/conftest.py`` for who sees and does what; stale
and double-submitted steps; the GM's approval creating exactly one character (and the ship
of the group's ship draft)."""

import io
import json

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.urls import reverse

from campaigns.services import StaleVersion
from characters.models import Character
from combat.creation import selectors, services
from combat.models import Encounter
from combat.services import encounter_replay
from rules.btq.traits import TRAITS
from rules.engine import get_engine
from ships.models import Ship

MARKER = "GM-ONLY-MARKER-7c1"
ENGINE = get_engine("btq_creation")


def book_choices():
    """O'Toole's choices (the scenario), the player's as a web client makes them."""
    return ENGINE.scenarios()["otoole"].choices


def stack(draft, cards):
    """Stack the book's cards for this draft (the GM's stacked deck of ``combat``)."""
    draft.stacked_cards = cards.split()
    draft.save(update_fields=["stacked_cards"])


def decide(draft, user, kind, choice):
    draft.refresh_from_db()
    return services.creation_decide(draft=draft, user=user, kind=kind, values=choice,
                                    version=draft.version)


def in_campaign(choice, draft):
    """A book choice as made in ``draft``'s campaign: the ship chosen among its ships."""
    if choice["kind"] == "creation.ship" and draft.setup["ships"]:
        return json.dumps({"ship": draft.setup["ships"][0]["key"]})
    return choice["choice"]


def play_book(draft, player, gm, *, until=None, since=None):
    """O'Toole's steps through the services (the GM's marked override included), serving on
    the campaign's ship; from the first of kind ``since`` if given (the earlier ones made)."""
    choices = book_choices()
    if since is None:
        stack(draft, ENGINE.scenarios()["otoole"].cards)
    else:
        choices = choices[next(i for i, c in enumerate(choices) if c["kind"] == since):]
    for c in choices:
        if c["kind"] == until:
            return
        decide(draft, gm if c["actor"] == "gm" else player, c["kind"], in_campaign(c, draft))


@pytest.fixture
def draft(campaign, player_a):
    return services.creation_start(campaign=campaign, user=player_a)


@pytest.mark.django_db
def test_a_draft_publishes_its_seed_hash_before_the_first_draw(draft, player_a):
    events = list(draft.events.order_by("seq"))
    assert events[0].kind == "encounter.start" and draft.seed_hash in events[0].text
    assert draft.seed not in " ".join(e.text for e in events)
    assert draft.setup["player"] == f"user:{player_a.pk}"
    assert draft.setup["experiences"] == 5  # the campaign setting's default


@pytest.mark.django_db
def test_the_book_build_through_the_services_and_the_gms_approval(draft, player_a, gm):
    play_book(draft, player_a, gm)
    draft.refresh_from_db()
    assert draft.status == Encounter.Status.FINISHED
    character = Character.objects.get(pk=draft.terms["character"])
    assert character.owner == player_a and character.name == "Gregory O'Toole"
    assert (character.guts, character.discipline, character.charm, character.influence) == (
        4, 3, 3, 4)
    assert character.wealth == 3 and character.rank == "Ship's Master"
    assert character.skills["seamanship"] == 4 and character.skills["profession"] == 2
    assert character.reputations.count() == 7
    # The traits and trades are the sheet's own, not words in the notes; what they grant
    # (the reputations above) is not granted twice.
    sheet = draft.outcome["data"]["character"]
    assert character.trait_takes() == {t["key"]: t["times"] for t in sheet["traits"]}
    assert "jack_tar" in character.trait_takes()
    assert sum(TRAITS[k].cost * n for k, n in character.trait_takes().items()) == 10  # TV-07
    assert character.professions == sheet["professions"] and character.professions
    assert "Jack Tar" not in character.notes and "Set by the GM: Charm +1" in character.notes
    # The booty curio is an item of the sheet, with its condition (TV-06), not notes.
    reef = character.items.get(name="Reef Map of the West Indies")
    assert (reef.kind, reef.skill, reef.condition) == (
        "curio", "seamanship", "navigating the West Indies")
    assert reef.applies_to == "+1 Seamanship" and "Reef Map" not in character.notes
    assert encounter_replay(encounter=draft)["matches"]
    assert draft.seed in draft.events.order_by("-seq").first().text


@pytest.mark.django_db
def test_the_ship_step_offers_the_campaigns_ships_and_the_character_serves_on_it(
        campaign, draft, player_a, gm):
    """Step 4 chooses among the campaign's own ships (the players' side; an enemy's is not
    offered); the approved character serves on the chosen one at the station their title
    names (the Ship's Master: master), and their [Your Ship] reputation names it."""
    testament = campaign.ships.get(name="HMS Testament")
    assert draft.setup["ships"] == [{"key": str(testament.pk), "name": "HMS Testament"}]
    play_book(draft, player_a, gm, until="creation.ship")
    draft.refresh_from_db()
    step = next(d for d in ENGINE.pending(draft.state) if d.kind == "creation.ship")
    assert [(o.key, o.label) for o in step.fields[0].options] == [
        (str(testament.pk), "HMS Testament")]
    secret = campaign.ships.get(name="Le Secret")
    with pytest.raises(ValidationError):
        decide(draft, player_a, "creation.ship", {"ship": str(secret.pk)})
    play_book(draft, player_a, gm, since="creation.ship")
    draft.refresh_from_db()
    character = Character.objects.get(pk=draft.terms["character"])
    assert character.ship == testament
    assert character.postings.get().station == "master"
    assert character.reputations.filter(subject="HMS Testament").exists()


@pytest.mark.django_db
def test_a_campaign_without_a_ship_has_its_name_typed_and_no_posting(campaign, player_a, gm):
    campaign.ships.filter(side=Ship.Side.PC).delete()
    draft = services.creation_start(campaign=campaign, user=player_a)
    assert draft.setup["ships"] == []
    play_book(draft, player_a, gm)  # the book's "Hermes", typed
    draft.refresh_from_db()
    character = Character.objects.get(pk=draft.terms["character"])
    assert character.ship is None
    assert character.reputations.filter(subject="the Hermes").exists()


def test_a_rank_typed_in_the_name_is_not_repeated_in_the_title():
    from characters.models import titled

    assert titled("Midshipman", "Midshipman Hale") == "Midshipman Hale"
    assert titled("Post Captain", "Captain Daniel Dodds") == "Post Captain Daniel Dodds"
    assert titled("Ship's Master", "Gregory O'Toole") == "Ship's Master Gregory O'Toole"
    assert titled("", "Anne Able") == "Anne Able"
    assert str(Character(rank="Lieutenant", name="lieutenant Bush")) == "Lieutenant Bush"


@pytest.mark.django_db
def test_the_cards_of_a_draw_are_shown_only_while_its_choices_are_made(
        draft, player_a, gm, player_a_client):
    url = reverse("creation:detail", args=[draft.campaign_id, draft.pk])
    play_book(draft, player_a, gm, until="creation.experience")
    assert 'id="cards"' in player_a_client.get(url).content.decode()
    decide(draft, player_a, "creation.experience", book_choices()[6]["choice"])
    page = player_a_client.get(url).content.decode()
    assert 'id="cards"' not in page and "K♦" in page  # still in the record


@pytest.mark.django_db
def test_approval_creates_exactly_one_character_and_a_second_approval_is_refused(
        draft, player_a, gm):
    play_book(draft, player_a, gm, until="creation.review")
    draft.refresh_from_db()
    version = draft.version
    services.creation_decide(draft=draft, user=gm, kind="creation.review",
                             values={"verdict": "approve"}, version=version)
    with pytest.raises((StaleVersion, ValidationError)):
        services.creation_decide(draft=draft, user=gm, kind="creation.review",
                                 values={"verdict": "approve"}, version=version)
    assert Character.objects.filter(campaign=draft.campaign, name="Gregory O'Toole").count() == 1


@pytest.mark.django_db
def test_a_stale_step_is_refused_and_a_double_submit_applied_once(draft, player_a):
    draft.refresh_from_db()
    version = draft.version
    concept = book_choices()[0]["choice"]
    services.creation_decide(draft=draft, user=player_a, kind="creation.concept",
                             values=concept, version=version)
    with pytest.raises(StaleVersion):
        services.creation_decide(draft=draft, user=player_a, kind="creation.concept",
                                 values=concept, version=version)
    draft.refresh_from_db()
    assert [c["kind"] for c in draft.choices] == ["creation.concept"]


@pytest.mark.django_db
def test_a_draw_is_recorded_once_and_cannot_be_taken_again(draft, player_a, gm):
    play_book(draft, player_a, gm, until="creation.experience")
    draft.refresh_from_db()
    draws = draft.events.filter(kind="creation.draw")
    assert [e.data["cards"] for e in draws] == [["KD", "10S"]]
    with pytest.raises(ValidationError, match="not awaited"):
        decide(draft, player_a, "creation.draw", "draw")


@pytest.mark.django_db
def test_player_b_and_the_outsider_neither_see_nor_act(draft, player_b, outsider, gm):
    for user in (player_b, outsider):
        with pytest.raises(Http404):
            selectors.draft_for_user(user, draft.pk)
    with pytest.raises(PermissionDenied):
        decide(draft, player_b, "creation.concept", book_choices()[0]["choice"])
    assert selectors.draft_for_user(gm, draft.pk) == draft


@pytest.mark.django_db
def test_only_a_player_starts_a_draft_and_only_one(campaign, gm, player_a, outsider, draft):
    with pytest.raises(ValidationError, match="already making"):
        services.creation_start(campaign=campaign, user=player_a)
    with pytest.raises(PermissionDenied):
        services.creation_start(campaign=campaign, user=gm)
    with pytest.raises(Http404):
        services.creation_start(campaign=campaign, user=outsider)


@pytest.mark.django_db
def test_gm_only_notes_and_the_seed_never_reach_the_player(draft, player_a, gm,
                                                           player_a_client):
    play_book(draft, player_a, gm, until="creation.review")
    decide(draft, gm, "creation.review", {"verdict": "return", "step": "details",
                                          "reason": "A name, please", "gm_notes": MARKER})
    draft.refresh_from_db()
    page = player_a_client.get(reverse("creation:detail", args=[draft.campaign_id, draft.pk]))
    live = player_a_client.get(reverse("creation:live", args=[draft.campaign_id, draft.pk]))
    api = player_a_client.get(f"/api/drafts/{draft.pk}/")
    for response in (page, live, api):
        assert response.status_code == 200
        body = response.content.decode()
        assert MARKER not in body and draft.seed not in body
    assert "A name, please" in page.content.decode()
    play = book_choices()[-2]
    decide(draft, player_a, play["kind"], play["choice"])
    decide(draft, gm, "creation.review", {"verdict": "approve"})
    draft.refresh_from_db()
    character = Character.objects.get(pk=draft.terms["character"])
    assert character.gm_notes == MARKER
    api = player_a_client.get(f"/api/drafts/{draft.pk}/").content.decode()
    assert MARKER not in api and draft.seed in api  # revealed once approved


@pytest.mark.django_db
def test_the_wizard_page_refuses_per_field_and_keeps_what_was_typed(draft, player_a_client):
    url = reverse("creation:act", args=[draft.campaign_id, draft.pk])
    draft.refresh_from_db()
    response = player_a_client.post(url, {"kind": "creation.concept", "version": draft.version,
                                          "f_concept": "", "f_position": "lieutenant",
                                          "f_title": "Second Lieutenant"})
    assert response.status_code == 400
    body = response.content.decode()
    assert "Concept: this is required." in body and 'value="Second Lieutenant"' in body
    response = player_a_client.post(url, {"kind": "creation.concept", "version": 1,
                                          "f_concept": "x", "f_position": "lieutenant"})
    assert response.status_code == 409 and "changed since you loaded it" in \
        response.content.decode()


@pytest.mark.django_db
def test_the_campaign_page_offers_create_your_character(campaign, player_b_client, gm_client,
                                                        draft, django_user_model, client):
    from campaigns.services import campaign_invite_regenerate, campaign_join

    newcomer = django_user_model.objects.create_user("newcomer", password="x")
    campaign_join(token=campaign_invite_regenerate(campaign=campaign, actor=campaign
                                                   .memberships.get(role="gm").user),
                  user=newcomer)
    client.force_login(newcomer)
    page = client.get(reverse("campaigns:detail", args=[campaign.pk])).content
    assert b"Create your character" in page
    page = player_b_client.get(reverse("campaigns:detail", args=[campaign.pk])).content
    assert b"Make another character" in page and b"Create your character" not in page
    gm_page = gm_client.get(reverse("campaigns:detail", args=[campaign.pk])).content
    assert b"Characters being made" in gm_page and b"create-character" not in gm_page


@pytest.mark.django_db
def test_the_api_starts_reads_and_decides(campaign, player_b, player_b_client,
                                          player_a_client):
    started = player_b_client.post(f"/api/campaigns/{campaign.pk}/drafts/")
    assert started.status_code == 201, started.content
    data = started.json()
    assert data["decisions"][0]["kind"] == "creation.concept"
    assert data["decisions"][0]["fields"][0]["name"] == "concept"
    url = f"/api/drafts/{data['id']}/decide/"
    bad = player_b_client.post(url, json.dumps({
        "kind": "creation.concept", "version": data["version"],
        "choice": {"position": "pope"}}), content_type="application/json")
    assert bad.status_code == 400
    assert {"concept", "position"} <= set(bad.json())
    good = player_b_client.post(url, json.dumps({
        "kind": "creation.concept", "version": data["version"],
        "choice": json.loads(book_choices()[0]["choice"])}), content_type="application/json")
    assert good.status_code == 200, good.content
    assert good.json()["step"] == "station"
    assert player_a_client.get(f"/api/drafts/{data['id']}/").status_code == 404


@pytest.mark.django_db
def test_the_groups_ship_is_made_by_the_players_and_approved_into_one_ship(
        campaign, gm, player_a, player_b):
    scenario = get_engine("btq_ship_creation").scenarios()["hermes"]
    draft = services.ship_creation_start(campaign=campaign, user=gm, ship_type="Brig Sloop")
    assert set(draft.setup["players"]) == {f"user:{player_a.pk}", f"user:{player_b.pk}"}
    lead = player_a if draft.setup["lead"] == f"user:{player_a.pk}" else player_b
    other = player_b if lead == player_a else player_a
    stack(draft, "5C 3C KH 8D 7C JD 3S AS JC 2H 9D 4S 5S")
    decide(draft, lead, "ship.origin", "draw")
    with pytest.raises(PermissionDenied):
        decide(draft, other, "ship.details", {"name": "Hermes", "guns": 22})
    decide(draft, lead, "ship.details", {"name": "Hermes", "guns": 22})
    decide(draft, lead, "ship.crew", "draw")
    draft.refresh_from_db()
    fields = [f.name for f in get_engine(draft.engine).pending(draft.state)[0].fields]
    decide(draft, lead, "ship.crew_features", {f: "A character" for f in fields})
    decide(draft, lead, "ship.reputations", json.loads(scenario.choices[4]["choice"]))
    decide(draft, lead, "ship.traits", {"trait_1": "Expertly Coppered Hull"})
    before = Ship.objects.count()
    decide(draft, gm, "ship.review", {"verdict": "approve"})
    assert Ship.objects.count() == before + 1
    ship = Ship.objects.get(pk=Encounter.objects.get(pk=draft.pk).terms["ship"])
    assert ship.side == Ship.Side.PC and ship.guns == 22
    assert [t.name for t in ship.traits.all()] == ["Expertly Coppered Hull"]
    # TV-04: her 5 points of reputations and the crew roster are records, not notes
    assert sorted((r.kind, r.label) for r in ship.reputations.all()) == [
        ("institution", "Feared by French Couriers +1"),
        ("institution", "Feared by Smugglers +2"),
        ("personal", "Sworn enemy of Black Bill Forsyth +2")]
    assert ship.roster.count() == len(draft.state["record"]["crew"]) > 0
    assert all(m.disposition and m.key for m in ship.roster.all())
    assert "Feared by" not in ship.gm_notes and ship.gm_notes.startswith("Origin: ")


@pytest.mark.django_db
def test_reference_characters_load_once_through_the_services(campaign, gm, player_a):
    made = services.reference_characters_load(campaign=campaign, actor=gm)
    names = sorted(c.name for c in made)
    assert names == ["Captain Archibald Hamilton", "Captain Daniel Dodds",
                     "Captain Simeon Templar", "Gregory O'Toole"]
    assert services.reference_characters_load(campaign=campaign, actor=gm) == []
    dodds = Character.objects.get(campaign=campaign, name="Captain Daniel Dodds")
    assert dodds.kind == Character.Kind.NPC and dodds.guts == 4 and dodds.wealth == 5
    assert dodds.reputations.filter(descriptor="Adored by", value=3).exists()
    assert {(i.name, i.skill, i.weapon) for i in dodds.items.all()} == {
        ("Perfectly-balanced Pistols", "", "Pistol"), ("Fighting Jacket", "command", ""),
        ("Expert Sextant", "seamanship", ""), ("Fine German fighting sword", "", "Sword")}
    with pytest.raises(PermissionDenied):
        services.reference_characters_load(campaign=campaign, actor=player_a)


@pytest.mark.django_db
def test_the_management_command_loads_the_book_characters(campaign, gm, player_a):
    from django.core.management import CommandError, call_command

    out = io.StringIO()
    call_command("load_reference_characters", campaign.pk, "--gm", gm.username, "--only",
                 "otoole", stdout=out)
    assert "Gregory O'Toole" in out.getvalue()
    otoole = Character.objects.get(campaign=campaign, name="Gregory O'Toole")
    assert (otoole.guts, otoole.discipline, otoole.charm, otoole.influence) == (4, 3, 3, 4)
    with pytest.raises(CommandError):
        call_command("load_reference_characters", campaign.pk, "--gm", player_a.username)


@pytest.mark.django_db
def test_the_gm_decides_a_step_for_the_player_marked(draft, gm, player_a_client):
    decide(draft, gm, "creation.concept", book_choices()[0]["choice"])
    draft.refresh_from_db()
    assert draft.choices[0]["by"] == "gm"
    page = player_a_client.get(reverse("creation:detail", args=[draft.campaign_id, draft.pk]))
    body = page.content.decode()
    assert "decided by the GM" in body
    assert "Set a value by hand" not in body and "creation.review" not in body


@pytest.mark.django_db
def test_the_ship_drafts_page_and_the_players_panel(campaign, gm, player_a, gm_client,
                                                    player_a_client, draft):
    ship = services.ship_creation_start(campaign=campaign, user=gm, ship_type="Cutter")
    for client in (gm_client, player_a_client):
        page = client.get(reverse("creation:detail", args=[campaign.pk, ship.pk]))
        assert page.status_code == 200 and b"The group&#x27;s Cutter" in page.content
    panel = player_a_client.get(reverse("campaigns:detail", args=[campaign.pk])).content
    assert b"Continue your character" in panel and b"Create your character" not in panel


@pytest.mark.django_db
def test_the_drafts_stream_keeps_the_gms_notes_and_the_seed_from_the_player(
        draft, player_a, player_b, outsider, gm):
    from tests.combat.test_streams import read, refused

    play_book(draft, player_a, gm, until="creation.review")
    decide(draft, gm, "creation.review", {"verdict": "return", "step": "details",
                                          "reason": "A name, please", "gm_notes": MARKER})
    url = reverse("creation:stream", args=[draft.campaign_id, draft.pk])
    status, mine, _ = read(player_a, url)
    assert status == 200 and "A name, please" in mine and '"KH"' in mine
    for secret in (MARKER, '"gm_data"', draft.seed):
        assert secret not in mine
    status, gms, _ = read(gm, url)
    assert MARKER in gms
    assert refused(player_b, url) and refused(outsider, url)


@pytest.mark.django_db
def test_a_nul_in_a_step_is_refused_with_a_reason_not_a_500(draft, player_a_client):
    url = reverse("creation:act", args=[draft.campaign_id, draft.pk])
    draft.refresh_from_db()
    response = player_a_client.post(url, {"kind": "creation.concept", "version": draft.version,
                                          "f_concept": "a\x00b", "f_position": "lieutenant"})
    assert response.status_code == 400 and "cannot be stored" in response.content.decode()
    draft.refresh_from_db()
    assert draft.choices == []


@pytest.mark.django_db
def test_the_campaign_stream_tells_the_gm_of_a_new_draft_and_not_player_b(
        campaign, gm, player_a, player_b):
    from tests.combat.test_streams import parse, read

    url = reverse("combat:campaign_stream", args=[campaign.pk])
    started = []
    _, text, _ = read(gm, url, until=lambda t: "event: campaign" in t, action=lambda: started
                      .append(services.creation_start(campaign=campaign, user=player_a)))
    events = parse(text)
    assert [d["id"] for d in events[0]["data"]["drafts"]] == [started[0].pk]
    _, text, _ = read(player_b, url, headers={"Last-Event-ID": "x"}, idle=0.3)
    assert all(e["data"]["drafts"] == [] for e in parse(text))


@pytest.mark.django_db(transaction=True)
def test_two_approvals_at_once_create_one_character(campaign, gm, player_a):
    """The GM approves from two devices at the same moment: one wins, the other is refused
    (the draft is over, or the version stale), and the character is written once (the row
    lock of ``encounter_act``)."""
    from django.db import connection

    from tests.concurrency import at_once

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL's row locks shared by threads: set DATABASE_URL")
    draft = services.creation_start(campaign=campaign, user=player_a)
    play_book(draft, player_a, gm, until="creation.review")
    draft.refresh_from_db()
    version = draft.version

    def approve():
        services.creation_decide(draft=draft, user=gm, kind="creation.review",
                                 values={"verdict": "approve"}, version=version)
        return "done"

    # stale, or the draft already approved
    results = at_once(approve, approve, refusals=(StaleVersion, ValidationError))
    assert sorted(r if r == "done" else "refused" for r in results) == ["done", "refused"]
    assert Character.objects.filter(campaign=campaign, owner=player_a,
                                    name="Gregory O'Toole").count() == 1


@pytest.mark.django_db
def test_an_approved_drafts_replay_and_journal_links_open_for_its_player(
        draft, player_a, gm, player_a_client, player_b_client):
    """The fair-draws box of a finished draft links to its step-through replay, and the
    journal's "Open" of a draft's entries to the draft's own page (``combat:open``)."""
    play_book(draft, player_a, gm)
    replay = player_a_client.get(reverse("combat:replay", args=[draft.pk]))
    assert replay.status_code == 200 and draft.seed in replay.content.decode()
    assert player_a_client.get(reverse("combat:replay_json", args=[draft.pk])).status_code == 200
    assert player_b_client.get(reverse("combat:replay", args=[draft.pk])).status_code == 404
    opened = player_a_client.get(reverse("combat:open", args=[draft.pk]))
    assert opened.status_code == 302
    assert opened["Location"] == reverse("creation:detail", args=[draft.campaign_id, draft.pk])
    assert player_a_client.get(opened["Location"]).status_code == 200
    journal = player_a_client.get(reverse("campaigns:log", args=[draft.campaign_id]))
    assert reverse("combat:open", args=[draft.pk]) in journal.content.decode()


@pytest.mark.django_db
def test_a_curio_is_offered_every_skill_and_weapon_it_may_name_in_any_case(
        draft, player_a, gm, player_a_client):
    """The third experience's booty is the Reef Map, a curio: its "adds to" offers the skills
    and the weapons (a datalist), refuses anything else naming them all, and takes a weapon
    written in capitals."""
    choices = book_choices()
    third = [i for i, c in enumerate(choices) if c["kind"] == "creation.experience"][2]
    stack(draft, ENGINE.scenarios()["otoole"].cards)
    for c in choices[:third]:
        decide(draft, gm if c["actor"] == "gm" else player_a, c["kind"], in_campaign(c, draft))
    page = player_a_client.get(reverse("creation:detail", args=[draft.campaign_id, draft.pk]))
    offered = page.content.decode().split('<datalist id="list_f_item_for">')[1]
    offered = offered.split("</datalist>")[0]
    for name in ("Seamanship", "The Arts", "Pistol", "Cutlass", "Boarding weapons"):
        assert f'<option value="{name}">' in offered
    url = reverse("creation:act", args=[draft.campaign_id, draft.pk])
    fields = {f"f_{k}": v for k, v in json.loads(choices[third]["choice"]).items()}
    draft.refresh_from_db()
    refused = player_a_client.post(url, {"kind": "creation.experience", "version": draft.version,
                                         **fields, "f_item_for": "navigation"})
    assert refused.status_code == 400
    assert "name one of Awareness, Command," in refused.content.decode()
    assert "Seamanship" in refused.content.decode().split("name one of")[1]
    taken = player_a_client.post(url, {"kind": "creation.experience", "version": draft.version,
                                       **fields, "f_item_for": "CUTLASS"})
    assert taken.status_code == 302
    draft.refresh_from_db()
    assert draft.state["sheet"]["items"][0]["for"] == "CUTLASS"
