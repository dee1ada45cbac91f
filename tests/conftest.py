"""Shared personas and a ready-made campaign for every test (STYLE.md, healthchecks personas).

Users (password :data:`PASSWORD`):

* ``gm``: the GM of ``campaign``;
* ``player_a``, ``player_b``: players of ``campaign``, each with a PC;
* ``outsider``: a user in no campaign.

Campaign ``campaign`` ("The Test Cruise"), built through the services with the ship
reference data loaded (fixture ``reference_data``):

* ``pc_a``: player_a's PC, "Lieutenant Anne Able", seniority 2, Discipline 3,
  Seamanship 4, Gunnery 2, GM notes "secret-a";
* ``pc_b``: player_b's PC, "Midshipman Ben Baker", seniority 1, Discipline 2, Gunnery 3;
* ``npc``: an NPC, "Captain Nemo Nobody", Command 5, GM notes "npc-secret", revealed to the
  players (they have met him);
* ``pc_ship``: the players' ship "HMS Testament (22)", Brig Sloop with Expertly Coppered
  Hull; pc_a posted as lieutenant, pc_b as midshipman;
* ``enemy_ship``: "Le Secret (14)", Cutter with Heart of Oak, crew skills
  awareness 2, command 3, first_aid 1, gunnery 4, maritime 2, seamanship 3,
  GM notes "enemy-secret", revealed to the players (they have sighted her).

``hidden_npc`` ("Don Oculto", Intrigue 4) and ``hidden_ship`` ("La Sombra (10)", Cutter):
the GM's preparation, never revealed; players must not learn they exist.

Logged-in clients: ``gm_client``, ``player_a_client``, ``player_b_client``,
``outsider_client`` (pytest-django's ``client`` stays anonymous).

``naval_engine``: the registered ``btq_naval`` engine (the test is skipped, saying why, if
it is not registered).
"""

import pytest
from django.contrib.auth import get_user_model
from hypothesis import settings

# No deadline on a property test's examples: speed is the benchmarks' to measure, and a
# loaded machine (CI's two cores, a browser test beside it) is no failure of the rules.
settings.register_profile("quarterdeck", deadline=None)
settings.load_profile("quarterdeck")

PASSWORD = "pw-quarterdeck-test"

ENEMY_CREW = {"awareness": 2, "command": 3, "first_aid": 1, "gunnery": 4, "maritime": 2,
              "seamanship": 3}


@pytest.fixture(scope="session", autouse=True)
def _flush_by_delete():
    """Empty PostgreSQL's tables after a transactional test (browser and worker tests) with
    ``DELETE`` in one transaction, foreign keys deferred, instead of Django's ``TRUNCATE``:
    the same empty tables, with sequences kept as ``TRUNCATE`` without ``RESTART IDENTITY``
    keeps them, in 0.05 s rather than 3 s (truncating ~50 tables makes and syncs new files
    for each; deleting a few rows from each does not), and with no table lock to wait for
    behind a live server's or a worker's open connection. A flush that resets sequences is
    left to Django."""
    from django.db.backends.postgresql.operations import DatabaseOperations

    truncate = DatabaseOperations.sql_flush

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or not tables:
            return truncate(self, style, tables, reset_sequences=reset_sequences,
                            allow_cascade=allow_cascade)
        return ["SET CONSTRAINTS ALL DEFERRED",
                *(f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(t))}"
                  for t in tables)]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(DatabaseOperations, "sql_flush", sql_flush)
        yield


FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
"""Real hashing is slow on purpose; the tests create many users."""


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = FAST_HASHERS


def make_user(username: str):
    return get_user_model().objects.create_user(username=username, password=PASSWORD)


@pytest.fixture
def gm(db):
    return make_user("gm")


@pytest.fixture
def player_a(db):
    return make_user("player_a")


@pytest.fixture
def player_b(db):
    return make_user("player_b")


@pytest.fixture
def outsider(db):
    return make_user("outsider")


@pytest.fixture
def reference_data(db):
    from ships.services import reference_data_load

    reference_data_load()


def make_campaign(gm, player_a, player_b):
    """The campaign of the fixture ``campaign`` (the module's docstring), with ``gm`` its GM
    and ``player_a``/``player_b`` its players; the ship reference data must be loaded."""
    from campaigns.models import Membership
    from campaigns.services import campaign_create
    from characters.models import Character
    from characters.services import character_create
    from ships.models import Ship, ShipType
    from ships.services import posting_set, ship_create, ship_reveal

    c = campaign_create(name="The Test Cruise", gm=gm, description="For the tests.")
    Membership.objects.create(campaign=c, user=player_a, role=Membership.Role.PLAYER)
    Membership.objects.create(campaign=c, user=player_b, role=Membership.Role.PLAYER)
    a = character_create(
        campaign=c, actor=gm, owner=player_a, name="Anne Able", rank="Lieutenant", seniority=2,
        discipline=3, skills={"seamanship": 4, "gunnery": 2}, gm_notes="secret-a",
    )
    b = character_create(
        campaign=c, actor=gm, owner=player_b, name="Ben Baker", rank="Midshipman", seniority=1,
        discipline=2, skills={"gunnery": 3},
    )
    character_create(
        campaign=c, actor=gm, kind=Character.Kind.NPC, name="Nemo Nobody", rank="Captain",
        skills={"command": 5}, gm_notes="npc-secret", revealed=True,
    )
    ours = ship_create(
        campaign=c, actor=gm, name="HMS Testament", guns=22, side=Ship.Side.PC,
        ship_type=ShipType.objects.get(name="Brig Sloop"), traits=["Expertly Coppered Hull"],
    )
    secret = ship_create(
        campaign=c, actor=gm, name="Le Secret", guns=14, side=Ship.Side.ENEMY,
        ship_type=ShipType.objects.get(name="Cutter"), traits=["Heart of Oak"],
        crew=ENEMY_CREW, gm_notes="enemy-secret",
    )
    ship_reveal(ship=secret, actor=gm)
    posting_set(ship=ours, character=a, station="lieutenant", actor=gm)
    posting_set(ship=ours, character=b, station="midshipman", actor=gm)
    return c


@pytest.fixture
def campaign(gm, player_a, player_b, reference_data):
    return make_campaign(gm, player_a, player_b)


@pytest.fixture
def pc_a(campaign, player_a):
    return campaign.characters.get(owner=player_a)


@pytest.fixture
def pc_b(campaign, player_b):
    return campaign.characters.get(owner=player_b)


@pytest.fixture
def npc(campaign):
    return campaign.characters.get(kind="npc")


@pytest.fixture
def pc_ship(campaign):
    return campaign.ships.get(side="pc")


@pytest.fixture
def enemy_ship(campaign):
    return campaign.ships.get(side="enemy")


@pytest.fixture
def hidden_npc(campaign, gm):
    from characters.models import Character
    from characters.services import character_create

    return character_create(campaign=campaign, actor=gm, kind=Character.Kind.NPC,
                            name="Don Oculto", skills={"intrigue": 4})


def make_hidden_ship(campaign, gm):
    """The fixture ``hidden_ship`` of ``campaign``: the GM's, never revealed."""
    from ships.models import ShipType
    from ships.services import ship_create

    return ship_create(campaign=campaign, actor=gm, name="La Sombra", guns=10,
                       ship_type=ShipType.objects.get(name="Cutter"), traits=["Heart of Oak"])


@pytest.fixture
def hidden_ship(campaign, gm):
    return make_hidden_ship(campaign, gm)


@pytest.fixture
def naval_engine():
    from rules.engine import get_engine

    try:
        return get_engine("btq_naval")
    except (KeyError, ImportError) as exc:
        pytest.skip(f"the btq_naval engine is not registered yet: {exc}")


def client_for(user):
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def gm_client(gm):
    return client_for(gm)


@pytest.fixture
def player_a_client(player_a):
    return client_for(player_a)


@pytest.fixture
def player_b_client(player_b):
    return client_for(player_b)


@pytest.fixture
def outsider_client(outsider):
    return client_for(outsider)


# --- Card tests: the book's contested test (BtQ L1195-1241) played by Anne Able (as
# O'Toole: Seamanship 4, Crusty Old Seadog +1, "Distrusted by Captain Jones" 1) against the
# NPC Captain Jones (Seamanship 4).


@pytest.fixture
def jones(campaign, gm):
    from characters.models import Character
    from characters.services import character_create

    return character_create(campaign=campaign, actor=gm, kind=Character.Kind.NPC,
                            name="Jones", rank="Captain", skills={"seamanship": 4},
                            gm_notes="jones-secret", revealed=True)


@pytest.fixture
def distrusted(pc_a, gm):
    from characters.services import reputation_create

    return reputation_create(character=pc_a, actor=gm, kind="personal",
                             descriptor="Distrusted by", subject="Captain Jones", value=1)


@pytest.fixture
def race(campaign, gm, pc_a, jones, distrusted):
    """A factory of the book's race to Portsmouth, called by the GM: ``race(**changes)``."""
    from combat.card_tests.services import card_test_call

    def make(**changes):
        setup = {
            "character": pc_a.pk, "skill": "seamanship", "reputations": [distrusted.pk],
            "modifiers": [{"source": "Crusty Old Seadog", "cards": 1}],
            "opposition": "npc", "opponent": jones.pk, "opponent_skill": "seamanship",
            "intent": "bring the Hermes into Portsmouth before Jones docks the Achilles",
            "stakes_win": "O'Toole testifies first", "stakes_lose": "Jones testifies first",
        }
        setup.update(changes)
        return card_test_call(campaign=campaign, actor=gm, **setup)
    return make


def stack(test, cards: str):
    """Stack the deck of a called ``test`` (its encounter): ``cards`` are turned next, in
    the kernel's draw order, before its seeded source takes over."""
    from combat.models import Encounter
    from rules.cards import parse_cards

    Encounter.objects.filter(pk=test.pk).update(
        stacked_cards=[str(c) for c in parse_cards(cards)], stacked_position=0)


@pytest.fixture
def turn():
    """``turn(test, user, cards)``: confirm ``test`` as ``user`` with the cards stacked
    (Card of Fate, the PC's pool, then the NPC's or the difficulty's)."""
    from combat.card_tests.services import card_test_confirm

    def confirm(test, user, cards: str):
        stack(test, cards)
        return card_test_confirm(test=test, actor=user, version=test.version)
    return confirm


def form_as_sent(page: str, index: int = -1) -> dict:
    """What a browser sends for the ``index``-th ``<form method="post">`` of ``page`` when
    its button is pressed as it stands: each enabled field's value (a checked box's, the
    selected options', a text area's text with CR LF line breaks), lists for repeated
    names."""
    from html.parser import HTMLParser

    class Fields(HTMLParser):
        def __init__(self):
            super().__init__(convert_charrefs=True)
            self.forms, self.select, self.textarea = [], None, None

        def add(self, name, value):
            self.forms[-1].setdefault(name, []).append(value)

        def handle_starttag(self, tag, attrs):
            a = dict(attrs)
            if tag == "form" and (a.get("method") or "").lower() == "post":
                self.forms.append({})
            elif not self.forms or "disabled" in a:
                return
            elif tag == "input" and a.get("name"):
                if a.get("type") in ("checkbox", "radio") and "checked" not in a:
                    return
                if a.get("type") not in ("submit", "button"):
                    self.add(a["name"], a.get("value", "on" if a.get("type") == "checkbox"
                                              else ""))
            elif tag == "select":
                self.select = a.get("name")
            elif tag == "option" and self.select and "selected" in a:
                self.add(self.select, a.get("value", ""))
            elif tag == "textarea":
                self.textarea = a.get("name")
                self.add(self.textarea, "")

        def handle_data(self, data):
            if self.textarea:
                self.forms[-1][self.textarea][-1] += data

        def handle_endtag(self, tag):
            if tag == "select":
                self.select = None
            elif tag == "textarea":
                if self.textarea:  # the newline after the tag is not the text's, and a
                    # browser sends each line break of the text as CR LF
                    text = self.forms[-1][self.textarea][-1].removeprefix("\n")
                    self.forms[-1][self.textarea][-1] = text.replace("\n", "\r\n")
                self.textarea = None

    parser = Fields()
    parser.feed(page)
    return {name: values if len(values) > 1 else values[0]
            for name, values in parser.forms[index].items()}
