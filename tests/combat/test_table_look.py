"""The table as the book draws it (issue 7, points 4 and 5): cards in one notation with the
Card of Fate labelled and a legend of the success marks on every page that shows cards;
damage tracks drawn as boxes in their segments with the state named; destructive actions
asked first (GET asks, only the POST changes anything); decisions the GM took for a player
marked; and no source reference on any page a player can reach."""

import re
from html import unescape

import pytest
from django.template import Context, Template
from django.urls import reverse

from campaigns.models import Membership
from combat.card_tests.services import card_test_call, card_test_propose
from combat.models import Encounter
from combat.services import encounter_replay
from rules.engine import get_engine
from tests.combat.conftest import ROUND_1, ROUNDS_2_3

PLAIN_CARD = re.compile(r"(?<![\w=\"'])(10|[2-9JQKA])[SHDC](?![\w\"'])")
"""A card in the data's notation ("8H") standing in a text a person reads."""


def html(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


@pytest.fixture
def round_1(book_battle, play, player_a):
    """The book battle through round 1: O'Toole (player_a) picks the starting distance
    himself, the GM makes every other decision, for the players' PCs too."""
    play(book_battle, ROUND_1[:1], user=player_a)
    play(book_battle, ROUND_1[1:])
    book_battle.refresh_from_db()
    return book_battle


@pytest.fixture
def otoole(campaign, hermes):
    return campaign.characters.get(name="Gregory O'Toole")


@pytest.fixture
def finished_test(campaign, gm, otoole, npc, turn, player_a):
    """A test of O'Toole's (player_a) against the NPC, its cards turned."""
    test = card_test_call(campaign=campaign, actor=gm, character=otoole.pk, skill="seamanship",
                          opposition="npc", opponent=npc.pk, opponent_skill="command",
                          intent="slip past the Nobody's frigate", at_risk="health",
                          opponent_at_risk="health")
    return turn(test, player_a, "4S  4C KD KS QH  4H AH 2D 7S 9D 10C 2C")


# --- cards ----------------------------------------------------------------------------------

def test_the_naval_log_writes_cards_with_their_suit_symbols(round_1):
    texts = list(round_1.events.values_list("text", flat=True))
    assert not [t for t in texts if PLAIN_CARD.search(t)]
    broadside = round_1.events.filter(kind="broadside.fire").first().text
    assert re.search(r"against (10|[2-9JQKA])[♠♥♦♣]", broadside), broadside
    # The data keeps the plain texts.
    assert re.fullmatch(r"(10|[2-9JQKA])[SHDC]",
                        round_1.events.filter(kind="broadside.fire").first().data["card_of_fate"])


def test_card_faces_are_red_or_black_and_marked_with_their_level():
    rendered = Template("{% load cards %}{% fate '7D' %} {% hand cards fate='7D' %}").render(
        Context({"cards": ["7D", "7H", "8D", "2C", "JK=9H"]}))
    assert '<small class="fate-label">Card of Fate</small>' in rendered
    assert 'class="card-face red fate"' in rendered
    assert re.search(r'class="card-face red success-3"[^>]*>7♦<abbr class="level-mark" '
                     r'title="Perfect success">P</abbr>', rendered)
    assert re.search(r'success-2"[^>]*>7♥<abbr[^>]*>C</abbr>', rendered)
    assert re.search(r'success-1"[^>]*>8♦<abbr[^>]*>O</abbr>', rendered)
    assert re.search(r'class="card-face black"[^>]*>2♣</span>', rendered)  # no success
    assert "Joker named 9♥" in rendered
    coloured = Template("{% load cards %}{{ text|suits }}").render(
        Context({"text": "O'Toole turns 4♥ 10♠ <b>"}))
    assert coloured == ('O&#x27;Toole turns <span class="suit red">4♥</span> '
                        '<span class="suit black">10♠</span> &lt;b&gt;')


def test_every_page_with_cards_has_the_legend_once(round_1, finished_test, campaign, gm_client,
                                                   player_a_client):
    pages = [reverse("combat:detail", args=[round_1.pk]),
             reverse("card_tests:detail", args=[campaign.pk, finished_test.pk]),
             reverse("campaigns:log", args=[campaign.pk]),
             reverse("campaigns:detail", args=[campaign.pk])]
    for client in (gm_client, player_a_client):
        for url in pages:
            page = html(client.get(url))
            assert 'class="card-face' in page, url
            assert page.count('class="card-legend"') == 1, url
            legend = page[page.index('class="card-legend"'):]
            legend = legend[:legend.index("</p>")]
            for name in ("Card of Fate", "Ordinary success", "Critical success",
                         "Perfect success"):
                assert name in legend, (url, name)


# --- damage tracks --------------------------------------------------------------------------

def test_a_track_is_boxes_in_three_segments_with_its_state_named():
    rendered = Template("{% load tracks %}{% damage_track 'xx|x.|..' 'Hull' %}").render(
        Context())
    assert 'data-state="injured"' in rendered and 'data-track="xx|x.|.."' in rendered
    segments = re.findall(r'<span class="segment" data-segment="(\w+)" aria-hidden="true">'
                          r'((?:<span class="box(?: crossed)?"></span>)+)</span>', rendered)
    assert [name for name, _ in segments] == ["injured", "maimed", "dead"]
    assert [(boxes.count("box"), boxes.count("crossed")) for _, boxes in segments] == [
        (2, 2), (2, 1), (2, 0)]
    assert '<span class="track-state" aria-hidden="true">Injured</span>' in rendered
    assert ('<span class="visually-hidden">Hull: Injured, 3 of 6 boxes crossed: Injured 2 of 2, '
            'Maimed 1 of 2</span>') in rendered
    maimed = Template("{% load tracks %}{% damage_track 2 'Health' %}").render(Context())
    assert maimed.count('class="box crossed"') == 2 and maimed.count('class="box"') == 1
    assert ">Maimed</span>" in maimed


def test_tracks_are_drawn_on_sheets_battle_pages_and_the_log(round_1, corsair, otoole,
                                                             gm_client, player_a_client):
    battle = html(gm_client.get(reverse("combat:detail", args=[round_1.pk])))
    row = re.search(r'<section class="ship" data-ship="[^"]+" data-side="enemy">.*?'
                    r'<tr data-area="hull">(.*?)</tr>', battle, re.S)[1]
    assert 'data-track="xx|..|.."' in row and ">Injured</span>" in row
    log = battle[battle.index('id="event-log"'):]
    assert 'class="event-tracks"' in log and 'data-track="xx|..|.."' in log
    # The battle writes its tracks back when it ends; here the GM's records say so at once.
    type(corsair).objects.filter(pk=corsair.pk).update(hull_track="xx|..|..")
    ship = html(gm_client.get(reverse("ships:detail", args=[corsair.pk])))
    assert 'data-track="xx|..|.."' in ship and "Hull: Injured, 2 of 6 boxes crossed" in ship
    assert "xx|..|..</td>" not in ship  # no ASCII track
    sheet = html(player_a_client.get(reverse("characters:detail", args=[otoole.pk])))
    health = re.search(r'<tr data-area="health">(.*?)</tr>', sheet, re.S)[1]
    assert health.count('class="segment"') == 3 and ">Healthy</span>" in health


# --- confirm before destroying --------------------------------------------------------------

def asks(client, url, question):
    """GET ``url``: a page asking ``question`` whose form posts back to ``url``."""
    page = html(client.get(url))
    assert question in unescape(page), question
    form = re.search(r'<form method="post">(.*?)</form>', page, re.S)[1]
    assert 'type="submit"' in form
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))


def test_cancelling_a_battle_asks_first(round_1, gm_client, player_a_client):
    url = reverse("combat:cancel", args=[round_1.pk])
    battle = html(gm_client.get(reverse("combat:detail", args=[round_1.pk])))
    assert f'href="{url}"' in battle
    fields = asks(gm_client, url, "Cancel the battle “Hermes vs Corsair”?")
    assert player_a_client.get(url).status_code == 403
    round_1.refresh_from_db()
    assert round_1.status == Encounter.Status.ACTIVE
    assert gm_client.post(url, fields).status_code == 302
    round_1.refresh_from_db()
    assert round_1.status == Encounter.Status.CANCELLED


def test_removing_a_member_and_revoking_the_link_ask_first(campaign, gm_client, player_b,
                                                           player_a_client):
    from campaigns.services import campaign_invite_regenerate

    member = Membership.objects.get(campaign=campaign, user=player_b)
    url = reverse("campaigns:member", args=[campaign.pk, member.pk])
    fields = asks(gm_client, url, f"Remove {player_b} from “{campaign}”?")
    assert fields.get("action") == "remove"
    assert player_a_client.get(url).status_code in (403, 404)
    assert Membership.objects.filter(pk=member.pk).exists()
    gm_client.post(url, fields)
    assert not Membership.objects.filter(pk=member.pk).exists()

    campaign_invite_regenerate(campaign=campaign, actor=campaign.memberships.get(role="gm").user)
    campaign.refresh_from_db()
    token = campaign.invite_token
    url = reverse("campaigns:invite", args=[campaign.pk])
    page = html(gm_client.get(reverse("campaigns:detail", args=[campaign.pk])))
    assert f'href="{url}?action=revoke"' in page
    fields = asks(gm_client, f"{url}?action=revoke", "Revoke the invitation link?")
    campaign.refresh_from_db()
    assert campaign.invite_token == token
    gm_client.post(url, fields)
    campaign.refresh_from_db()
    assert not campaign.invite_token


def test_cancelling_and_declining_a_test_ask_first(campaign, gm, gm_client, player_b,
                                                   player_b_client, pc_b):
    called = card_test_call(campaign=campaign, actor=gm, character=pc_b.pk, skill="seamanship",
                            opposition="difficulty", difficulty="challenging", intent="sail")
    cancel = reverse("card_tests:step", args=[campaign.pk, called.pk, "cancel"])
    fields = asks(gm_client, cancel, f"Cancel the test “{called.title}”?")
    called.refresh_from_db()
    assert called.status != Encounter.Status.CANCELLED
    gm_client.post(cancel, fields)
    called.refresh_from_db()
    assert called.status == Encounter.Status.CANCELLED

    proposed = card_test_propose(campaign=campaign, actor=player_b, character=pc_b.pk,
                                 skill="wealth", opposition="difficulty",
                                 difficulty="challenging", intent="buy a new coat")
    decline = reverse("card_tests:step", args=[campaign.pk, proposed.pk, "decline"])
    detail = html(gm_client.get(reverse("card_tests:detail", args=[campaign.pk, proposed.pk])))
    assert f'href="{decline}"' in detail and 'name="reason"' not in detail
    page = html(gm_client.get(decline))
    assert "Decline the proposal of the test" in page and 'name="reason"' in page
    version = re.search(r'name="version" value="(\d+)"', page)[1]
    # Not the player's step to take: back to the test, nothing asked.
    assert player_b_client.get(decline).status_code == 302
    proposed.refresh_from_db()
    assert proposed.status == Encounter.Status.SETUP
    gm_client.post(decline, {"version": version, "reason": "not today"})
    proposed.refresh_from_db()
    assert proposed.status == Encounter.Status.CANCELLED


def test_removing_a_posting_or_a_reputation_asks_first(campaign, gm, gm_client, pc_ship, pc_a):
    from characters.models import Reputation
    from characters.services import reputation_create
    from ships.services import posting_set

    posting = posting_set(ship=pc_ship, character=pc_a, station="rating", actor=gm)
    url = reverse("ships:posting_remove", args=[pc_ship.pk, posting.pk])
    asks(gm_client, url, f"Take {pc_a} off {pc_ship}?")
    assert pc_ship.postings.filter(pk=posting.pk).exists()
    gm_client.post(url)
    assert not pc_ship.postings.filter(pk=posting.pk).exists()

    rep = reputation_create(character=pc_a, actor=gm, kind="personal",
                            descriptor="Admired by", subject="the crew", value=1)
    url = reverse("characters:reputation_delete", args=[rep.pk])
    fields = asks(gm_client, url, "Remove the reputation “Admired by the crew”?")
    assert Reputation.objects.filter(pk=rep.pk).exists()
    gm_client.post(url, fields)
    assert not Reputation.objects.filter(pk=rep.pk).exists()


# --- decided by the GM ----------------------------------------------------------------------

def test_decisions_the_gm_took_for_a_player_are_marked(round_1, play, smith, gm_client,
                                                       player_a_client):
    engine = get_engine("btq_naval")
    by_gm = [step for step in round_1.choices if step.get("by") == "gm"]
    assert by_gm and all(step["actor"].startswith("pc:") for step in by_gm)
    first = round_1.choices[0]
    assert first["actor"].startswith("pc:") and "by" not in first  # O'Toole's own
    marked = list(round_1.events.filter(data__decided_by="gm"))
    assert len(marked) == len(by_gm)  # one mark per decision, with its event or its own
    handed = [e for e in marked if e.kind == "decision.by_gm"]
    assert handed and handed[0].text == "Master Gregory O'Toole has decided."
    own = round_1.events.filter(kind="start.distance").get()
    assert "decided_by" not in own.data
    for client in (gm_client, player_a_client):
        page = html(client.get(reverse("combat:detail", args=[round_1.pk])))
        for event in marked:
            item = re.search(rf'<li class="event" data-seq="{event.seq}".*?</li>', page, re.S)[0]
            assert '<mark class="decided-by-gm">decided by the GM</mark>' in item
        item = re.search(rf'<li class="event" data-seq="{own.seq}".*?</li>', page, re.S)[0]
        assert "decided by the GM" not in item
    # The mark is recorded with the choice: a replay of the finished battle makes it again.
    play(round_1, [c.format(smith=smith.pk) for c in ROUNDS_2_3])
    round_1.refresh_from_db()
    assert engine.outcome(round_1.state) is not None
    assert encounter_replay(encounter=round_1)["matches"]


# --- no source references -------------------------------------------------------------------

SOURCE_REFERENCE = re.compile(r"\bL\d{3,4}\b|\b[DAN]\d{1,2}\b|btq_\w+ [A-Z]\d+|\w\.md\b|"
                              r"DECISIONS|\bBtQ L")
HREF = re.compile(r'href="(/[^"#]*)"')
SECRETS = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"|"X-CSRFToken": "[^"]*"')
SKIP = ("/accounts/logout", "/static/", "/admin/", "/api/")


def crawl(client, start: list[str], limit: int = 150) -> dict[str, str]:
    """Every page reachable by links from ``start`` (GET only, this site's pages), as the
    client sees them: url -> HTML."""
    seen, queue, pages = set(start), list(start), {}
    while queue and len(pages) < limit:
        url = queue.pop(0)
        response = client.get(url)
        if response.status_code != 200 or "text/html" not in response["Content-Type"]:
            continue
        pages[url] = text = response.content.decode()
        for link in map(unescape, HREF.findall(text)):
            if link not in seen and not link.startswith(SKIP):
                seen.add(link)
                queue.append(link)
    return pages


@pytest.mark.parametrize("persona", ["player_a", "player_b"])
def test_no_page_a_player_reaches_shows_a_source_reference(request, persona, round_1,
                                                           finished_test, campaign, hermes,
                                                           corsair, smith):
    from characters.services import reputation_create

    reputation_create(character=smith, actor=campaign.memberships.get(role="gm").user,
                      kind="personal", descriptor="Feared by", subject="the French",
                      value=9)  # over its cap: the page says so
    client = request.getfixturevalue(f"{persona}_client")
    start = ["/", reverse("campaigns:detail", args=[campaign.pk]),
             reverse("campaigns:settings", args=[campaign.pk]),
             reverse("combat:detail", args=[round_1.pk]),
             reverse("card_tests:detail", args=[campaign.pk, finished_test.pk]),
             reverse("card_tests:new", args=[campaign.pk]),
             *(f'{reverse("card_tests:new", args=[campaign.pk])}?character={pc.pk}'
               for pc in campaign.characters.filter(kind="pc"))]
    pages = crawl(client, start)
    kinds = {re.sub(r"\d+", "N", url) for url in pages}
    for expected in ("/campaigns/N/", "/campaigns/N/log/", "/combat/N/", "/characters/N/",
                     "/ships/N/", "/campaigns/N/tests/N/"):
        assert any(k.endswith(expected) for k in kinds), (expected, sorted(kinds))
    found = {url: SOURCE_REFERENCE.findall(SECRETS.sub("", text))
             for url, text in pages.items()}
    assert not {url: refs for url, refs in found.items() if refs}
