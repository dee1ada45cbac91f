"""Use cases of card tests: call, propose, accept, decline, cancel, confirm (turn the cards)
and name a Joker (BtQ L1181-1286; ``rules/btq_characters.md`` §4; ``rules/DECISIONS.md``
D1-D6).

A card test is an encounter of the engine ``btq_test`` (``rules.btq.table``), stored, drawn,
shown and replayed by the same code as a battle (``combat.services``): its own secret seed,
whose hash is published when the test is called, revealed when it ends. The GM's call
creates the encounter and starts it at once; a player's proposal is an encounter in status
``setup`` until the GM accepts it (the setup rebuilt with any changes to the opposition,
then started) or declines it (cancelled, with the reason). The player's confirmation (the
cards are turned) and a Joker named are the engine's decisions, made through
``combat.services.encounter_act``; the end's damage is written back onto the sheets and
ships by :func:`card_test_write_back`. A test's decks are whole and shuffled before it
(BtQ L1247-1249).

The encounter's ``terms`` keep the setup in the campaign's ids (:data:`SETUP_FIELDS` and
``origin``, ``declined``); its ``setup`` is the engine's, built from the characters when
the test starts. A test moves ``proposed`` -> ``awaiting_confirmation`` -> ``done`` (or
``awaiting_joker`` and then ``done``); a proposal may be ``declined``, a test not yet drawn
``cancelled`` (``combat.card_tests.selectors.card_test_status``). Every step locks the
encounter, checks the version the user saw (``StaleVersion``), that the user may take it
(``PermissionDenied``) and that the status allows it (:class:`IllegalStep`), and changes
nothing if any check fails.
"""

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from campaigns.models import Campaign, Membership
from campaigns.selectors import membership_role
from campaigns.services import Conflict, check_version, log_append
from characters.models import SHIP_MORALE, Character, Reputation
from characters.services import character_damage_set, character_reveal
from combat import challenges
from combat.card_tests import table
from combat.card_tests.selectors import (
    ACTION_VERBS,
    card_test_allows,
    card_test_describe,
    card_test_may,
    card_test_names,
    card_test_outcome,
    card_test_status,
    log_rounds,
    sentence,
)
from combat.models import Encounter
from combat.selectors import PC_PREFIX
from combat.services import (
    encounter_act,
    encounter_begin,
    encounter_call_off,
    encounter_cancel,
    new_seed,
    seed_hash,
)
from rules.btq.characters import DAMAGE_AREAS, DamageState
from rules.btq.damage import scratch_restored, wound
from rules.btq.tests import Damage, TestError, TestRecord
from rules.cards import CardError, parse_card
from rules.engine import get_engine
from ships.models import Ship, ShipReputation
from ships.reputations import ship_reputation_wounded
from ships.services import ship_morale_set

SETUP_FIELDS = (
    "character", "skill", "reputations", "helpers", "modifiers", "opposition", "opponent",
    "opponent_skill", "opponent_modifiers", "difficulty", "intent", "stakes_win",
    "stakes_lose", "at_risk", "opponent_at_risk", "ship_reputation",
)
"""What a test is called with (see :func:`card_test_call`)."""

GM_SETUP_FIELDS = frozenset({"opponent_skill", "opponent_modifiers", "opponent_at_risk"})
"""What only a GM sets: the NPC's side is hidden from players."""

MAX_MODIFIER = 20
PLAIN_AREAS = tuple(DAMAGE_AREAS)

ACTION_REFUSALS = {
    "accept": "Only the GM accepts a proposed test",
    "decline": "Only the GM declines a proposed test",
    "cancel": "Only the GM cancels a test, and a player only their own proposal",
    "confirm": "Only the player of the character whose test it is confirms it",
    "joker": "Only the player of the character who turned the Joker (or the GM) names it",
}
"""Why a step is not the user's to take."""


class IllegalStep(Conflict):
    """A step the test's status does not allow now (confirming a test already drawn,
    accepting one that was cancelled, drawing while another test's cards are on the
    table). Nothing was changed."""


# --- The setup --------------------------------------------------------------------------


def _pk(value):
    if isinstance(value, Character | Reputation):
        return value.pk
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    return None


def _character(campaign: Campaign, value, what: str, kind: str, errors: dict,
               revealed_only: bool = False):
    """The ``kind`` character ``value`` (an id) of ``campaign``, or ``None`` with a message in
    ``errors[what]``. ``revealed_only``: a player knows only the NPCs revealed to him."""
    pk = _pk(value)
    found = None if pk is None else Character.objects.filter(
        pk=pk, campaign=campaign, kind=kind).select_related("owner").first()
    if found is not None and revealed_only and not found.revealed:
        found = None
    label = "player character" if kind == Character.Kind.PC else "NPC"
    if value in (None, ""):
        errors[what] = f"Choose the {label}."
    elif found is None:
        errors[what] = f"There is no such {label} in this campaign."
    return found


def _ids(value, what: str, errors: dict) -> list:
    if value in (None, ""):
        return []
    if not isinstance(value, list | tuple):
        errors[what] = "Give a list of ids."
        return []
    return list(value)


def _clean_modifiers(value, what: str, errors: dict) -> list[dict]:
    """``[{"source", "cards"}]``: a source's name and a whole number of cards, -20 to 20,
    not 0 (a trait, a curio, the weather: "Crusty Old Seadog" +1, "Storm" -2)."""
    if value in (None, ""):
        return []
    if not isinstance(value, list | tuple):
        errors[what] = "Modifiers are a list of a source and a number of cards."
        return []
    result = []
    for item in value:
        source = item.get("source") if isinstance(item, dict) else None
        cards = item.get("cards") if isinstance(item, dict) else None
        if not isinstance(source, str) or not source.strip() or len(source) > 100:
            errors[what] = "Each modifier needs a source: the trait, curio or effect it is."
            return []
        if isinstance(cards, bool) or not isinstance(cards, int) or not (
                -MAX_MODIFIER <= cards <= MAX_MODIFIER) or cards == 0:
            errors[what] = (f"“{source.strip()}” must add or take a whole number of cards, "
                            f"-{MAX_MODIFIER} to {MAX_MODIFIER}, not {cards!r}.")
            return []
        result.append({"source": source.strip(), "cards": cards})
    return result


def _text(data: dict, key: str, errors: dict) -> str:
    value = data.get(key) or ""
    if not isinstance(value, str):
        errors[key] = "Give a text."
        return ""
    return value.strip()


def _pool_key(value, what: str, errors: dict) -> str:
    if not isinstance(value, str) or value not in table.POOL_LABELS:
        errors[what] = (f"{value!r} is not a skill: choose one of the 22 skills, a Measure or "
                        "Wealth.")
        return ""
    return value


def clean_setup(*, campaign: Campaign, actor, data: dict, by_gm: bool
                 ) -> tuple[table.Setup, dict]:
    """The setup and the stakes of ``data`` (keys of :data:`SETUP_FIELDS`); raises
    ``ValidationError`` with a message per bad field, ``PermissionDenied`` for what the
    actor may not set."""
    unknown = set(data) - set(SETUP_FIELDS)
    if unknown:
        raise ValidationError(f"Unknown test fields: {', '.join(sorted(unknown))}.")
    if not by_gm:
        hidden = sorted(k for k in GM_SETUP_FIELDS if data.get(k))
        if hidden:
            raise PermissionDenied("Only the GM sets the opposing NPC's skill, modifiers and "
                                   f"area at risk ({', '.join(hidden)}).")
    errors: dict[str, str] = {}
    character = _character(campaign, data.get("character"), "character", Character.Kind.PC,
                           errors)
    if character is not None and not by_gm and character.owner_id != actor.pk:
        raise PermissionDenied("You may propose tests for your own characters only.")
    skill = _pool_key(data.get("skill"), "skill", errors)

    reputation = None
    reputations = _ids(data.get("reputations"), "reputations", errors)
    if len(reputations) > 1:
        errors["reputations"] = ("A pool takes at most one reputation: "
                                 "choose one.")
    elif reputations and character is not None:
        reputation = Reputation.objects.filter(pk=_pk(reputations[0]),
                                               character=character).first()
        if reputation is None:
            errors["reputations"] = (f"Reputation {reputations[0]!r} is not one of "
                                     f"{character.title}'s.")

    helpers = []
    for value in _ids(data.get("helpers"), "helpers", errors):
        helper = _character(campaign, value, "helpers", Character.Kind.PC, errors)
        if helper is None:
            break
        if helper == character or helper in helpers:
            errors["helpers"] = f"{helper.title} cannot help twice, nor help themselves."
            break
        helpers.append(helper)

    modifiers = _clean_modifiers(data.get("modifiers"), "modifiers", errors)
    opposition = data.get("opposition")
    if opposition not in table.Opposition.values:
        errors["opposition"] = ("Choose the opposition: an NPC (npc), a difficulty "
                                "(difficulty) or none (none, a simple test).")
    opponent, opponent_skill, opponent_modifiers, difficulty = None, "", [], ""
    if opposition == table.Opposition.NPC:
        opponent = _character(campaign, data.get("opponent"), "opponent", Character.Kind.NPC,
                              errors, revealed_only=not by_gm)
        if data.get("opponent_skill"):
            opponent_skill = _pool_key(data.get("opponent_skill"), "opponent_skill", errors)
        elif by_gm:
            errors["opponent_skill"] = "Choose the skill the NPC tests."
        opponent_modifiers = _clean_modifiers(data.get("opponent_modifiers"),
                                             "opponent_modifiers", errors)
    elif data.get("opponent") or data.get("opponent_skill") or data.get("opponent_modifiers"):
        errors["opponent"] = "Only a test against an NPC has an opponent."
    if opposition == table.Opposition.DIFFICULTY:
        value = data.get("difficulty")
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)  # a number of cards
        try:
            difficulty = str(table.parse_difficulty(value if isinstance(value, str) else ""))
        except TestError as exc:
            errors["difficulty"] = sentence(str(exc))

    intent = _text(data, "intent", errors)
    if not intent and "intent" not in errors:
        errors["intent"] = "State the intent: what the character tries to do."
    stakes = {"stakes_win": _text(data, "stakes_win", errors),
              "stakes_lose": _text(data, "stakes_lose", errors)}

    at_risk, at_risk_reputation = "", None
    value = data.get("at_risk") or ""
    if isinstance(value, str) and value.startswith("reputation:") and character is not None:
        at_risk = table.Area.REPUTATION
        at_risk_reputation = Reputation.objects.filter(
            pk=_pk(value.partition(":")[2]), character=character).first()
        if at_risk_reputation is None:
            errors["at_risk"] = f"{value!r} is not a reputation of {character.title}."
    elif value in PLAIN_AREAS:
        at_risk = value
    elif value:
        errors["at_risk"] = (f"{value!r} is not an area: health, ship_morale, wealth or "
                             "reputation:<id>.")
    opponent_at_risk = data.get("opponent_at_risk") or ""
    if opponent_at_risk and (opposition != table.Opposition.NPC
                             or opponent_at_risk not in PLAIN_AREAS):
        errors["opponent_at_risk"] = ("The NPC's area at risk is health, ship_morale or "
                                      "wealth, in a test against an NPC.")
    ships = table.serving_ships([character, opponent])
    ship_reputation = _ship_reputation(character, ships, data.get("ship_reputation"), errors)
    for who, area, field in ((character, at_risk, "at_risk"),
                             (opponent, opponent_at_risk, "opponent_at_risk")):
        ship = ships.get(who.pk) if who is not None else None
        if area == SHIP_MORALE and ship is not None and ship.is_hidden_from_players:
            errors[field] = (f"{who.title}'s Ship Morale is that of {ship}, which players may "
                             "not see: put another area at risk.")
    if errors:
        raise ValidationError(errors)
    setup = table.Setup(
        character=character, skill=skill, opposition=opposition, reputation=reputation,
        helpers=helpers, modifiers=modifiers, opponent=opponent, opponent_skill=opponent_skill,
        opponent_modifiers=opponent_modifiers, difficulty=difficulty, at_risk=at_risk,
        at_risk_reputation=at_risk_reputation, opponent_at_risk=opponent_at_risk,
        intent=intent, ships=ships, ship_reputation=ship_reputation,
    )
    try:
        table.build(setup)
    except table.OppositionError as exc:
        if by_gm or setup.opponent_skill:
            raise ValidationError(sentence(str(exc))) from None
    except TestError as exc:
        raise ValidationError(sentence(str(exc))) from None
    return setup, stakes


def _ship_reputation(character, ships: dict, value, errors: dict):
    """The reputation ``value`` (an id) of the ship ``character`` serves on, for the pool in
    place of a personal one (BtQ L770; ``rules/btq_characters.md`` A22), or ``None`` with a
    message in ``errors["ship_reputation"]``."""
    if value in (None, "") or character is None:
        return None
    ship = ships.get(character.pk)
    found = None if ship is None or ship.is_hidden_from_players else \
        ShipReputation.objects.filter(pk=_pk(value), ship=ship).first()
    if found is None:
        errors["ship_reputation"] = (f"{value!r} is not a reputation of the ship "
                                     f"{character.title} serves on.")
    return found


def setup_input(test: Encounter) -> dict:
    """The setup of ``test`` as :func:`card_test_call` takes it (ids, ``"reputation:<id>"``),
    to start an adjustment from."""
    return {key: test.terms.get(key, "") for key in SETUP_FIELDS}


def _terms(setup: table.Setup, stakes: dict, origin: str) -> dict:
    return {**setup.terms(), **stakes, "origin": origin}


def _engine_setup(campaign: Campaign, setup: table.Setup, stakes: dict, origin: str) -> dict:
    """The engine's setup of ``setup``, built from the characters now; ``ValidationError``
    with the rule's reason if the rules forbid the test."""
    try:
        built = table.build(setup)
    except TestError as exc:
        raise ValidationError(sentence(str(exc))) from None
    try:
        return get_engine(table.ENGINE).validate_setup(table.engine_setup(
            setup, built, origin=origin, stakes=stakes,
            settings=Campaign.objects.get(pk=campaign.pk).rules_settings()))
    except ValueError as exc:
        raise ValidationError(sentence(str(exc))) from None


def _reveal_opponent(setup: table.Setup) -> None:
    if setup.opponent is not None and not setup.opponent.revealed:
        character_reveal(character=setup.opponent)


# --- Calling, proposing, accepting ------------------------------------------------------


def _role(actor, campaign: Campaign) -> str:
    role = membership_role(actor, campaign)
    if role is None:
        raise PermissionDenied("You are not a member of this campaign.")
    return role


@transaction.atomic
def card_test_call(*, campaign: Campaign, actor, challenge=None, **setup) -> Encounter:
    """GM: call a test: its encounter is created and started at once (the seed's hash
    published), and it awaits its player's confirmation.

    ``setup``: ``character`` (a PC's id), ``skill`` (a skill, Measure or ``"wealth"``),
    ``reputations`` (a list of at most one reputation id of the PC), ``helpers`` (PC ids),
    ``modifiers`` (``[{"source", "cards"}]``), ``opposition`` (``"npc"``, ``"difficulty"``,
    ``"none"``), ``opponent`` (an NPC id), ``opponent_skill``, ``opponent_modifiers``,
    ``difficulty`` (``"challenging"`` or a number of cards), ``intent`` (required),
    ``stakes_win``, ``stakes_lose``, ``at_risk`` (``"health"``, ``"ship_morale"``,
    ``"wealth"``, ``"reputation:<id>"``) and ``opponent_at_risk``.

    ``challenge`` (a row or id) is the challenge of a mission the test is played for
    (``combat.challenges``).

    Raises ``PermissionDenied`` for a player, ``ValidationError`` naming each bad field or
    the rule a test breaks (two reputations, an unknown skill, a Dead area, a reputation in
    an unskilled test).
    """
    if _role(actor, campaign) != Membership.Role.GM:
        raise PermissionDenied("Only the GM calls a test; a player proposes one.")
    return card_test_open(campaign=campaign, actor=actor, origin=table.Origin.GM,
                          challenge=challenge, **setup)


def card_test_open(*, campaign: Campaign, actor, origin: str, extra_terms: dict | None = None,
                   challenge=None, **setup) -> Encounter:
    """Create and start a test the rules themselves call for, whoever ``actor`` is (the
    caller has checked who may ask for it: ``combat.shipboard`` for a purchase's Wealth
    test, a grog test or the Lieutenant's examination): as :func:`card_test_call`, with the
    GM's fields allowed, ``origin`` for the wording, and ``extra_terms`` kept in the
    encounter's ``terms`` beside the setup (what the test is for). Call inside a
    transaction."""
    built, stakes = clean_setup(campaign=campaign, actor=actor, data=setup, by_gm=True)
    challenge = challenges.challenge_for(campaign, challenge)
    test = _create(campaign, actor, built, stakes, origin,
                   _engine_setup(campaign, built, stakes, origin), extra_terms or {}, challenge)
    encounter_begin(encounter=test, user=actor)
    _log(test, "called", actor)
    return test


@transaction.atomic
def card_test_propose(*, campaign: Campaign, actor, **setup) -> Encounter:
    """Player: propose a test for one's own PC (a Wealth test, say) for the GM to accept or
    decline: an encounter in status ``setup``. As :func:`card_test_call`, without the GM's
    fields (the NPC's skill, modifiers and area at risk: ``PermissionDenied``)."""
    if _role(actor, campaign) != Membership.Role.PLAYER:
        raise PermissionDenied("A GM calls a test rather than proposing one.")
    built, stakes = clean_setup(campaign=campaign, actor=actor, data=setup, by_gm=False)
    test = _create(campaign, actor, built, stakes, table.Origin.PLAYER, {})
    _log(test, "proposed", actor)
    return test


def _create(campaign, actor, setup: table.Setup, stakes: dict, origin: str, engine_setup: dict,
            extra_terms: dict | None = None, challenge=None) -> Encounter:
    """A new card test's encounter, not started, with a fresh secret seed."""
    seed = new_seed()
    terms = {**(extra_terms or {}), **_terms(setup, stakes, origin)}
    test = Encounter.objects.create(
        campaign=campaign, engine=table.ENGINE, title=card_test_describe(campaign, terms)[:200],
        setup=engine_setup, terms=terms, seed=seed, seed_hash=seed_hash(seed),
        challenge=challenge, created_by=actor)
    _reveal_opponent(setup)
    return test


def _log(test: Encounter, verb: str, actor, why: str = "") -> None:
    log_append(campaign=test.campaign, kind=f"test.{verb}", actor=actor,
               text=f"{actor} {verb} a test: "
                    f"{card_test_describe(test.campaign, test.terms)}{why}.",
               data={"card_test": test.pk, "encounter": test.pk})


def _locked(test: Encounter) -> Encounter:
    try:
        return Encounter.objects.select_for_update().select_related("campaign").get(
            pk=test.pk, engine=table.ENGINE)
    except Encounter.DoesNotExist:
        raise ValidationError("No such test.") from None


def _step(test: Encounter, actor, version, action: str) -> Encounter:
    """Lock ``test`` and check that ``actor`` may take ``action`` (``PermissionDenied``), from
    the version they saw (``StaleVersion``), in its status now (:class:`IllegalStep`)."""
    test = _locked(test)
    role = _role(actor, test.campaign)
    if not card_test_may(actor, test, action, role):
        name = card_test_names(test.campaign, test.terms).get(
            PC_PREFIX + str(test.terms["character"]), "")
        raise PermissionDenied(f"{ACTION_REFUSALS[action]} ({name}'s test).")
    check_version(test, version)
    if not card_test_allows(actor, test, action, role):
        status = table.Status(card_test_status(test)).label.lower()
        raise IllegalStep(test, f"This test is {status}: it cannot be "
                                f"{ACTION_VERBS[action]} now.")
    return test


@transaction.atomic
def card_test_accept(*, test: Encounter, actor, version, **changes) -> Encounter:
    """GM: accept a player's proposal, adjusting any of its setup (``changes``, as
    :func:`card_test_call`; not its character): the setup is rebuilt and checked, then the
    test starts (the seed's hash published) and awaits the player's confirmation of the
    final stakes and odds."""
    test = _step(test, actor, version, "accept")
    if "character" in changes and _pk(changes["character"]) != test.terms["character"]:
        raise ValidationError({"character": "The proposal is for its own character: decline "
                                            "it and call a new test instead."})
    data = {**setup_input(test), **changes}
    built, stakes = clean_setup(campaign=test.campaign, actor=actor, data=data, by_gm=True)
    origin = test.terms.get("origin", table.Origin.PLAYER)
    test.setup = _engine_setup(test.campaign, built, stakes, origin)
    test.terms = _terms(built, stakes, origin)
    test.title = card_test_describe(test.campaign, test.terms)[:200]
    _reveal_opponent(built)
    encounter_begin(encounter=test, user=actor)
    _log(test, "accepted", actor)
    return test


def _close(test: Encounter, actor, verb: str, reason: str | None = None) -> Encounter:
    """End a test whose cards are not turned yet (``cancelled``, or ``declined`` with
    ``reason``), logged; a test already called reveals its seed
    (``combat.services.encounter_call_off``)."""
    encounter_call_off(test)
    if reason is not None:
        test.terms = {**test.terms, "declined": reason}
    test.save()
    _log(test, verb, actor, f" ({reason})" if reason else "")
    return test


@transaction.atomic
def card_test_decline(*, test: Encounter, actor, version, reason: str = "") -> Encounter:
    """GM: decline a player's proposal, saying why: its encounter is cancelled, with the
    reason kept and logged."""
    test = _step(test, actor, version, "decline")
    return _close(test, actor, "declined", (reason or "").strip())


@transaction.atomic
def card_test_cancel(*, test: Encounter, actor, version) -> Encounter:
    """Cancel a test before its cards are turned: the GM any, a player their own proposal.
    A started test is cancelled as any encounter (``combat.services.encounter_cancel``)."""
    test = _step(test, actor, version, "cancel")
    if test.status == Encounter.Status.SETUP:
        return _close(test, actor, "cancelled")
    return encounter_cancel(encounter=test, user=actor, expected_version=version)


# --- Turning the cards: the engine's decisions -----------------------------------------


def _table_error(exc: TestError, gm: bool) -> ValidationError:
    if isinstance(exc, table.OppositionError) and not gm:
        return ValidationError("The GM has still to settle the opposition: ask them.")
    return ValidationError(sentence(str(exc)))


def _decide(test: Encounter, actor, version, kind: str, choice: str) -> Encounter:
    """Make the test's pending decision ``kind`` (its acting PC's) with ``choice``, through
    the shared path of every encounter."""
    encounter_act(encounter=test, user=actor, actor=_actor(test),
                  decision_kind=kind, choice=choice, expected_version=version)
    test.refresh_from_db()
    if card_test_status(test) == table.Status.AWAITING_JOKER and not test.state["declared"]:
        names = card_test_names(test.campaign, test.terms)
        who = " and ".join(names.get(w, w) for w in test.state["pending"]["awaiting"])
        log_append(campaign=test.campaign, kind="test.joker", actor=actor,
                   text=f"In the test “{test.title}”, {who} turned the Joker and names the card "
                        "it counts as.",
                   data={"card_test": test.pk, "encounter": test.pk})
    return test


def _actor(test: Encounter) -> str:
    """The participant who decides in ``test``: its acting PC (``"pc:<id>"``)."""
    return PC_PREFIX + str(test.terms["character"])


@transaction.atomic
def card_test_confirm(*, test: Encounter, actor, version) -> Encounter:
    """The PC's player (the GM for a PC without one) confirms the test and the cards are
    turned (BtQ L1223-1249): the engine's ``test.confirm`` decision. The test is then
    ``done`` (the damage written back and the result in the log), or ``awaiting_joker`` if
    the PC turned their Joker.

    The pools were built when the test was called; refused with nothing changed
    (``ValidationError``) if the test has since become one the rules forbid (an area at risk
    died meanwhile) or a character's values changed (the odds shown would not be those
    drawn: the GM cancels it and calls it again)."""
    test = _step(test, actor, version, "confirm")
    gm = membership_role(actor, test.campaign) == Membership.Role.GM
    try:
        built = table.build(table.Setup.of(test.campaign, test.terms, lock=True))
    except Character.DoesNotExist:
        raise ValidationError("The character of this test was removed.") from None
    except TestError as exc:
        raise _table_error(exc, gm) from None
    if table.sides_changed(built, test.setup):
        raise ValidationError(table.CHANGED)
    return _decide(test, actor, version, "test.confirm", "draw")


@transaction.atomic
def card_test_declare_joker(*, test: Encounter, actor, version, card: str | None = None
                            ) -> Encounter:
    """Name the card the PC's Joker counts as (BtQ L1228): ``card`` one of the 52 (``"7D"``),
    or ``None`` for the default, the Card of Fate (D5): the engine's ``test.joker``
    decision. The test goes on: ``done``, or ``awaiting_joker`` again if a retest (D3)
    turns up the Joker anew. The PC's player or the GM (for a player who is away) names it.
    ``ValidationError`` for a card that is not one of the 52."""
    test = _step(test, actor, version, "joker")
    fate = (test.state.get("pending") or {}).get("current", {}).get("fate")
    if card in (None, ""):
        declared = parse_card(fate)
    else:
        try:
            declared = parse_card(card)
        except CardError as exc:
            raise ValidationError({"card": str(exc)}) from None
        if declared.is_joker:
            raise ValidationError({"card": "Name the Joker as one of the 52 cards."})
    return _decide(test, actor, version, "test.joker", str(declared))


# --- The end, written back ---------------------------------------------------------------


def card_test_write_back(*, encounter: Encounter, outcome, user) -> dict:
    """Deal a finished test's damage (the engine's ``outcome.data["damage"]``) to the
    characters, and Ship Morale damage to the ship the loser serves on (BtQ L1241-1242,
    L1309-1328; D1; ``rules/btq_characters.md`` A15), from their states now (the GM may have
    edited one while a Joker was being named). Called by ``combat.services`` when the test
    ends (its ``_AFTER_BATTLE`` for ``btq_test``). Returns the log entry's ``summary`` (the
    result and the damage, in words) and ``data`` (the turned cards, public once turned, who
    won and the damage; never a pool's make-up)."""
    record = TestRecord.from_dict(outcome.data["record"])
    campaign = encounter.campaign
    terms = encounter.terms
    names = card_test_names(campaign, terms)
    try:
        setup = table.Setup.of(campaign, terms, lock=True)
    except Character.DoesNotExist:
        setup = None
    applied = [] if setup is None else _apply_damage(
        encounter, setup, [Damage.from_dict(d) for d in outcome.data.get("damage", ())],
        names, user)
    damage = "".join(f" {d.get('ship', d['who'])}'s {d['area']}: {d['from']} → {d['to']}."
                     + (f" ({d['saved_by']})" if d.get("saved_by") else "") for d in applied)
    from combat.healing import heal_write_back  # healing calls tests through this module

    healed = heal_write_back(encounter=encounter, record=record, user=user)
    return {
        "summary": f"{card_test_outcome(record, names)}{damage}{healed}",
        "data": {
            "card_test": encounter.pk,
            "kind": record.kind,
            "outcome": record.outcome,
            "winner": names.get(record.winner),
            "result": record.result.name.lower() if record.result is not None else None,
            "rounds": log_rounds(record.as_dict(reveal=False)["rounds"], names),
            "damage": applied,
        },
    }


def _apply_damage(test: Encounter, setup: table.Setup, damages: list[Damage],
                  names: dict[str, str], actor) -> list[dict]:
    applied = []
    pc = table.who(setup.character)
    npc = table.who(setup.opponent) if setup.opponent is not None else None
    for damage in damages:
        rep = None
        if damage.who == pc:
            character = setup.character
            if damage.cause == "reputation" and setup.ship_reputation is not None:
                applied.append(_wound_ship_reputation(test, setup.ship_reputation, damage,
                                                      names, actor))
                continue
            if damage.cause == "reputation":
                area, rep = table.Area.REPUTATION, setup.reputation
            elif setup.at_risk == table.Area.REPUTATION:
                area, rep = table.Area.REPUTATION, setup.at_risk_reputation
            else:
                area = setup.at_risk
            if area == table.Area.REPUTATION and rep is None:
                continue  # the reputation was removed since
        elif damage.who == npc:
            character, area = setup.opponent, setup.opponent_at_risk
        else:
            continue
        ship = setup.ships.get(character.pk) if area == SHIP_MORALE else None
        if area == SHIP_MORALE and ship is None:
            continue  # no longer serves on a ship
        if ship is not None:
            ship = Ship.objects.select_for_update().get(pk=ship.pk)
        before = DamageState(rep.damage_state) if rep is not None else table.area_state(
            character, area, ship)
        # Is But A Scratch, Sir! changes a Health wound (D12); a card test is no combat, so
        # Cheat Death! and Jonah do not apply here (D11; the personal combat engines').
        hit = wound(before, damage.level, traits=character.trait_takes(),
                    health=area == "health" and rep is None, scratched=character.scratched,
                    lasting=not scratch_restored("heal", character.campaign.rules_settings()))
        after = hit.after
        entry = {"who": names[damage.who], "area": damage.area, "cause": damage.cause,
                 "level": damage.level.name.lower(), "from": before.label, "to": after.label}
        if hit.saved_by:
            entry["saved_by"] = hit.saved_by
        if ship is not None:
            entry["ship"] = ship.display_name
            ship_morale_set(ship=ship, state=after, actor=actor,
                            note=f"{ship}'s Ship Morale: {before.label} → {after.label} "
                                 f"(a test lost by {entry['who']}).")
        else:
            character_damage_set(character=character, area=area, state=after, reputation=rep,
                                 actor=actor, scratched=hit.scratched if area == "health"
                                 and rep is None else None)
        applied.append(entry)
    return applied


def _wound_ship_reputation(test: Encounter, reputation: ShipReputation, damage: Damage,
                           names: dict[str, str], actor) -> dict:
    """A ship reputation in the loser's pool takes the damage a personal one would (BtQ
    L1241-1242, D1); no trait of the character changes a wound of the ship's."""
    before = DamageState(reputation.damage_state)
    after = wound(before, damage.level).after
    who = names[damage.who]
    ship_reputation_wounded(
        reputation=reputation, state=after, actor=actor,
        note=f"{reputation.ship}'s reputation “{reputation}”: {before.label} → {after.label} "
             f"(a test lost by {who}).")
    return {"who": who, "area": damage.area, "cause": damage.cause,
            "level": damage.level.name.lower(), "from": before.label, "to": after.label,
            "ship": reputation.ship.display_name}


def refuse_removing_a_reputation_in_use(sender, instance: Reputation, origin=None, **kwargs
                                        ) -> None:
    """``pre_delete`` receiver of ``Reputation`` (``combat.apps``): removing a reputation
    itself (not with its character) is refused with a ``ValidationError`` while a card test
    that is not over uses it in its pool or at risk."""
    if origin is not instance:
        return
    at_risk = f"reputation:{instance.pk}"
    for test in Encounter.objects.filter(
            engine=table.ENGINE, status__in=Encounter.UNFINISHED,
            terms__character=instance.character_id).order_by("pk"):
        if instance.pk in test.terms.get("reputations", ()) or \
                test.terms.get("at_risk") == at_risk:
            raise ValidationError(f"“{instance}” is part of the test “{test.title}”, which is "
                                  "not over yet: cancel or finish the test first.")


def refuse_removing_a_ship_reputation_in_use(sender, instance: ShipReputation, origin=None,
                                             **kwargs) -> None:
    """``pre_delete`` receiver of ``ShipReputation`` (``combat.apps``): removing a ship's
    reputation itself (not with its ship) is refused with a ``ValidationError`` while a card
    test that is not over has it in its pool."""
    if origin is not instance:
        return
    test = Encounter.objects.filter(
        engine=table.ENGINE, status__in=Encounter.UNFINISHED,
        terms__ship_reputation=instance.pk).order_by("pk").first()
    if test is not None:
        raise ValidationError(f"“{instance}” is part of the test “{test.title}”, which is not "
                              "over yet: cancel or finish the test first.")
