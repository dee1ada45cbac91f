"""Use cases of card tests: call, propose, accept, decline, cancel, confirm (turn the cards)
and name a Joker (BtQ L1181-1286; ``rules/btq_characters.md`` §4; ``rules/DECISIONS.md``
D1-D6).

A test moves ``proposed`` (a player's) -> ``awaiting_confirmation`` (the GM called or
accepted it) -> ``done``, or ``awaiting_joker`` and then ``done``; a proposal may be
``declined``, a test not yet drawn ``cancelled``. Every step locks the test, checks the
version the user saw (``StaleVersion``), that the user may take it (``PermissionDenied``)
and that the status allows it (:class:`IllegalStep`), and changes nothing if any check
fails. The draw, the damage and the log entry are written in one transaction.

Cards come from the campaign's seeded source (its state saved after every draw) unless a
``source`` is given (tests stack the deck with ``rules.random.ScriptedSource``).
"""

import secrets

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from campaigns import table
from campaigns.models import Campaign, CardTest, Deck, DeckDraw, Membership
from campaigns.selectors import (
    ACTION_VERBS,
    card_test_allows,
    card_test_describe,
    card_test_may,
    card_test_names,
    card_test_open_elsewhere,
    card_test_outcome,
    membership_role,
    sentence,
)
from campaigns.services import Conflict, check_version, log_append
from characters.models import SHIP_MORALE, Character, Reputation
from characters.services import character_damage_set, character_reveal
from rules.btq.characters import DAMAGE_AREAS, DamageState
from rules.btq.tests import PendingTest, TestError, TestRecord, damage_after, resume
from rules.cards import GM_DECK, CardError, parse_card
from rules.random import RandomSource, SeededSource
from ships.models import Ship
from ships.services import ship_morale_set

SETUP_FIELDS = (
    "character", "skill", "reputations", "helpers", "modifiers", "opposition", "opponent",
    "opponent_skill", "opponent_modifiers", "difficulty", "intent", "stakes_win",
    "stakes_lose", "at_risk", "opponent_at_risk",
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
        errors["reputations"] = ("A pool takes at most one reputation (BtQ L1210-1212): "
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
    if opposition not in CardTest.Opposition.values:
        errors["opposition"] = ("Choose the opposition: an NPC (npc), a difficulty "
                                "(difficulty) or none (none, a simple test).")
    opponent, opponent_skill, opponent_modifiers, difficulty = None, "", [], ""
    if opposition == CardTest.Opposition.NPC:
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
    if opposition == CardTest.Opposition.DIFFICULTY:
        value = data.get("difficulty")
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)  # a number of cards
        try:
            difficulty = str(table.parse_difficulty(value if isinstance(value, str) else ""))
        except TestError as exc:
            errors["difficulty"] = sentence(str(exc))

    intent = _text(data, "intent", errors)
    if not intent and "intent" not in errors:
        errors["intent"] = "State the intent: what the character tries to do (BtQ L1195)."
    stakes = {"stakes_win": _text(data, "stakes_win", errors),
              "stakes_lose": _text(data, "stakes_lose", errors)}

    at_risk, at_risk_reputation = "", None
    value = data.get("at_risk") or ""
    if isinstance(value, str) and value.startswith("reputation:") and character is not None:
        at_risk = CardTest.Area.REPUTATION
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
    if opponent_at_risk and (opposition != CardTest.Opposition.NPC
                             or opponent_at_risk not in PLAIN_AREAS):
        errors["opponent_at_risk"] = ("The NPC's area at risk is health, ship_morale or "
                                      "wealth, in a test against an NPC.")
    ships = table.serving_ships([character, opponent])
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
        intent=intent, ships=ships,
    )
    try:
        table.build(setup)
    except table.OppositionError as exc:
        if by_gm or setup.opponent_skill:
            raise ValidationError(sentence(str(exc))) from None
    except TestError as exc:
        raise ValidationError(sentence(str(exc))) from None
    return setup, stakes


def setup_input(test: CardTest) -> dict:
    """The setup of ``test`` as :func:`card_test_call` takes it (ids, ``"reputation:<id>"``),
    to start an adjustment from."""
    at_risk = test.at_risk
    if at_risk == CardTest.Area.REPUTATION:
        at_risk = f"reputation:{test.at_risk_reputation_id}" if test.at_risk_reputation_id \
            else ""
    return {
        "character": test.character_id, "skill": test.skill,
        "reputations": [test.reputation_id] if test.reputation_id else [],
        "helpers": list(test.helpers.order_by("pk").values_list("pk", flat=True)),
        "modifiers": test.modifiers, "opposition": test.opposition,
        "opponent": test.opponent_id, "opponent_skill": test.opponent_skill,
        "opponent_modifiers": test.opponent_modifiers, "difficulty": test.difficulty,
        "intent": test.intent, "stakes_win": test.stakes_win, "stakes_lose": test.stakes_lose,
        "at_risk": at_risk, "opponent_at_risk": test.opponent_at_risk,
    }


def _write_setup(test: CardTest, setup: table.Setup, stakes: dict) -> None:
    for name in ("character", "skill", "opposition", "reputation", "modifiers", "opponent",
                 "opponent_skill", "opponent_modifiers", "difficulty", "at_risk",
                 "at_risk_reputation", "opponent_at_risk", "intent"):
        setattr(test, name, getattr(setup, name))
    test.stakes_win = stakes["stakes_win"]
    test.stakes_lose = stakes["stakes_lose"]
    test.save()
    test.helpers.set(setup.helpers)
    if test.opponent is not None and not test.opponent.revealed:
        character_reveal(character=test.opponent)


# --- Calling, proposing, accepting ------------------------------------------------------


def _role(actor, campaign: Campaign) -> str:
    role = membership_role(actor, campaign)
    if role is None:
        raise PermissionDenied("You are not a member of this campaign.")
    return role


@transaction.atomic
def card_test_call(*, campaign: Campaign, actor, **setup) -> CardTest:
    """GM: call a test, which then awaits its player's confirmation.

    ``setup``: ``character`` (a PC's id), ``skill`` (a skill, Measure or ``"wealth"``),
    ``reputations`` (a list of at most one reputation id of the PC), ``helpers`` (PC ids),
    ``modifiers`` (``[{"source", "cards"}]``), ``opposition`` (``"npc"``, ``"difficulty"``,
    ``"none"``), ``opponent`` (an NPC id), ``opponent_skill``, ``opponent_modifiers``,
    ``difficulty`` (``"challenging"`` or a number of cards), ``intent`` (required),
    ``stakes_win``, ``stakes_lose``, ``at_risk`` (``"health"``, ``"ship_morale"``,
    ``"wealth"``, ``"reputation:<id>"``) and ``opponent_at_risk``.

    Raises ``PermissionDenied`` for a player, ``ValidationError`` naming each bad field or
    the rule a test breaks (two reputations, an unknown skill, a Dead area, a reputation in
    an unskilled test).
    """
    if _role(actor, campaign) != Membership.Role.GM:
        raise PermissionDenied("Only the GM calls a test; a player proposes one.")
    return _open(campaign=campaign, actor=actor, setup=setup, origin=CardTest.Origin.GM)


@transaction.atomic
def card_test_propose(*, campaign: Campaign, actor, **setup) -> CardTest:
    """Player: propose a test for one's own PC (a Wealth test, say) for the GM to accept or
    decline. As :func:`card_test_call`, without the GM's fields (the NPC's skill, modifiers
    and area at risk: ``PermissionDenied``)."""
    if _role(actor, campaign) != Membership.Role.PLAYER:
        raise PermissionDenied("A GM calls a test rather than proposing one.")
    return _open(campaign=campaign, actor=actor, setup=setup, origin=CardTest.Origin.PLAYER)


_OPENED = {
    CardTest.Origin.GM: (CardTest.Status.AWAITING_CONFIRMATION, "called"),
    CardTest.Origin.PLAYER: (CardTest.Status.PROPOSED, "proposed"),
}
"""The status a new test starts in, by origin, and the log's verb."""


def _open(*, campaign: Campaign, actor, setup: dict, origin: str) -> CardTest:
    """A new test from ``setup``, checked with the GM's fields (``origin`` ``gm``) or without
    them (``player``), saved and logged."""
    built, stakes = clean_setup(campaign=campaign, actor=actor, data=setup,
                                by_gm=origin == CardTest.Origin.GM)
    status, verb = _OPENED[origin]
    test = CardTest(campaign=campaign, status=status, origin=origin, created_by=actor)
    _write_setup(test, built, stakes)
    log_append(campaign=campaign, kind=f"card_test.{verb}", actor=actor,
               text=f"{actor} {verb} test #{test.pk}: {card_test_describe(test)}.",
               data={"card_test": test.pk})
    return test


def _locked(test: CardTest) -> CardTest:
    return CardTest.objects.select_for_update().select_related("campaign").get(pk=test.pk)


def _step(test: CardTest, actor, version, action: str) -> CardTest:
    """Lock ``test`` and check that ``actor`` may take ``action`` (``PermissionDenied``), from
    the version they saw (``StaleVersion``), in its status now (:class:`IllegalStep`)."""
    test = _locked(test)
    role = _role(actor, test.campaign)
    if not card_test_may(actor, test, action, role):
        raise PermissionDenied(f"{ACTION_REFUSALS[action]} (test #{test.pk}, "
                               f"{test.character.title}'s).")
    check_version(test, version)
    if not card_test_allows(actor, test, action, role):
        raise IllegalStep(test, f"Test #{test.pk} is {test.get_status_display().lower()}: "
                                f"it cannot be {ACTION_VERBS[action]} now.")
    return test


def _bump(test: CardTest, status: str) -> None:
    test.status = status
    test.version += 1
    test.save()


@transaction.atomic
def card_test_accept(*, test: CardTest, actor, version, **changes) -> CardTest:
    """GM: accept a player's proposal, adjusting any of its setup (``changes``, as
    :func:`card_test_call`; not its character), which then awaits the player's confirmation
    of the final stakes and odds."""
    test = _step(test, actor, version, "accept")
    if "character" in changes and _pk(changes["character"]) != test.character_id:
        raise ValidationError({"character": "The proposal is for its own character: decline "
                                            "it and call a new test instead."})
    data = {**setup_input(test), **changes}
    built, stakes = clean_setup(campaign=test.campaign, actor=actor, data=data, by_gm=True)
    _write_setup(test, built, stakes)
    _bump(test, CardTest.Status.AWAITING_CONFIRMATION)
    log_append(campaign=test.campaign, kind="card_test.accepted", actor=actor,
               text=f"{actor} accepted test #{test.pk}: {card_test_describe(test)}.",
               data={"card_test": test.pk})
    return test


@transaction.atomic
def card_test_decline(*, test: CardTest, actor, version, reason: str = "") -> CardTest:
    """GM: decline a player's proposal, saying why."""
    test = _step(test, actor, version, "decline")
    test.decline_reason = (reason or "").strip()
    _bump(test, CardTest.Status.DECLINED)
    why = f" ({test.decline_reason})" if test.decline_reason else ""
    log_append(campaign=test.campaign, kind="card_test.declined", actor=actor,
               text=f"{actor} declined test #{test.pk}: {card_test_describe(test)}{why}.",
               data={"card_test": test.pk})
    return test


@transaction.atomic
def card_test_cancel(*, test: CardTest, actor, version) -> CardTest:
    """Cancel a test before its cards are turned: the GM any, a player their own proposal."""
    test = _step(test, actor, version, "cancel")
    _bump(test, CardTest.Status.CANCELLED)
    log_append(campaign=test.campaign, kind="card_test.cancelled", actor=actor,
               text=f"{actor} cancelled test #{test.pk}: {card_test_describe(test)}.",
               data={"card_test": test.pk})
    return test


# --- Turning the cards -----------------------------------------------------------------


def _locked_setup(test: CardTest) -> table.Setup:
    """The setup of ``test`` with its characters, its reputations and the ships whose Ship
    Morale is at risk locked, each kind in id order."""
    setup = table.Setup.of(test)
    ids = {setup.character.pk, *(h.pk for h in setup.helpers)}
    if setup.opponent is not None:
        ids.add(setup.opponent.pk)
    chars = {c.pk: c for c in Character.objects.select_for_update().filter(
        pk__in=ids).order_by("pk")}
    rep_ids = {r.pk for r in (setup.reputation, setup.at_risk_reputation) if r is not None}
    reps = {r.pk: r for r in Reputation.objects.select_for_update().filter(
        pk__in=rep_ids).order_by("pk")}
    for rep in reps.values():
        rep.character = chars[rep.character_id]
    setup.character = chars[setup.character.pk]
    setup.helpers = [chars[h.pk] for h in setup.helpers]
    if setup.opponent is not None:
        setup.opponent = chars[setup.opponent.pk]
    setup.reputation = reps.get(test.reputation_id)
    setup.at_risk_reputation = reps.get(test.at_risk_reputation_id)
    setup.ships = table.serving_ships([setup.character, setup.opponent])
    at_stake = {setup.ships[who.pk].pk
                for who, area in ((setup.character, setup.at_risk),
                                  (setup.opponent, setup.opponent_at_risk))
                if area == SHIP_MORALE and who is not None and who.pk in setup.ships}
    locked = {s.pk: s for s in Ship.objects.select_for_update().filter(pk__in=at_stake)
              .order_by("pk")}
    setup.ships = {pk: locked.get(ship.pk, ship) for pk, ship in setup.ships.items()}
    return setup


def _decks(campaign: Campaign, character: Character) -> dict[str, Deck]:
    """The GM deck and ``character``'s, created on first use, locked; by kernel name
    (``"gm"``, ``"pc:<id>"``). Called with the campaign locked, so no two create one."""
    gm, _ = Deck.objects.get_or_create(campaign=campaign, kind=Deck.Kind.GM)
    own, _ = Deck.objects.get_or_create(campaign=campaign, kind=Deck.Kind.PLAYER,
                                        character=character)
    locked = Deck.objects.select_for_update().filter(pk__in=[gm.pk, own.pk]).order_by("pk")
    return {deck.name: deck for deck in locked}


def _campaign_source(campaign: Campaign) -> SeededSource:
    """The campaign's seeded source where the last draw left it (a new secret seed on the
    first draw). ``campaign`` must be locked."""
    if not campaign.rng_seed:
        campaign.rng_seed = str(secrets.randbits(128))
        campaign.rng_state = None
    return SeededSource(int(campaign.rng_seed), campaign.rng_state)


def _table_error(exc: TestError, gm: bool) -> ValidationError:
    if isinstance(exc, table.OppositionError) and not gm:
        return ValidationError("The GM has still to settle the opposition: ask them.")
    return ValidationError(sentence(str(exc)))


@transaction.atomic
def card_test_confirm(*, test: CardTest, actor, version, source: RandomSource | None = None
                      ) -> CardTest:
    """The PC's player (the GM for a PC without one) confirms the test and the cards are
    turned (BtQ L1223-1249): the Card of Fate and any NPC or difficulty pool from the GM
    deck, the PC's pool from their own deck. The test is then ``done`` (the damage applied
    to the characters and the result in the log), or ``awaiting_joker`` if the PC turned
    their Joker.

    The pools are built from the characters as they are now. Refused, with nothing changed:
    ``IllegalStep`` while another test's cards lie on the table, ``ValidationError`` if the
    test has become one the rules forbid (an area at risk died meanwhile).
    """
    campaign = Campaign.objects.select_for_update().get(pk=test.campaign_id)
    test = _step(test, actor, version, "confirm")
    waiting = card_test_open_elsewhere(campaign, test)
    if waiting is not None:
        raise IllegalStep(test, f"Test #{waiting.pk} is waiting for its Joker to be named: "
                                "its cards are still on the table. Finish it first.")
    setup = _locked_setup(test)
    try:
        built = table.build(setup)
    except TestError as exc:
        raise _table_error(exc, membership_role(actor, campaign) == Membership.Role.GM
                           ) from None
    seeded = source is None
    if seeded:
        source = _campaign_source(campaign)
    result = table.start(built, source, campaign.rules_settings(), intent=test.intent)
    decks = _decks(campaign, setup.character)
    for deck in decks.values():
        deck.tests += 1
    _after_draw(test, setup, decks, result, recorded=0, actor=actor)
    if seeded:
        _save_source(campaign, source)
    return test


@transaction.atomic
def card_test_declare_joker(*, test: CardTest, actor, version, card: str | None = None,
                            source: RandomSource | None = None) -> CardTest:
    """Name the card the PC's Joker counts as (BtQ L1228): ``card`` one of the 52 (``"7D"``),
    or ``None`` for the default, the Card of Fate (D5). The test goes on: ``done``, or
    ``awaiting_joker`` again if a retest (D3) turns up the Joker anew. The PC's player or the
    GM (for a player who is away) names it. ``ValidationError`` for a card that is not one
    of the 52."""
    campaign = Campaign.objects.select_for_update().get(pk=test.campaign_id)
    test = _step(test, actor, version, "joker")
    declared = None
    if card not in (None, ""):
        try:
            declared = parse_card(card)
        except CardError as exc:
            raise ValidationError({"card": str(exc)}) from None
        if declared.is_joker:
            raise ValidationError({"card": "Name the Joker as one of the 52 cards."})
    pending = PendingTest.from_dict(test.pending)
    setup = _locked_setup(test)
    seeded = source is None
    if seeded:
        source = _campaign_source(campaign)
    try:
        result = resume(pending, {who: declared for who in pending.awaiting}, source)
    except (TestError, CardError) as exc:
        raise ValidationError({"card": sentence(str(exc))}) from None
    decks = _decks(campaign, setup.character)
    _after_draw(test, setup, decks, result, recorded=len(pending.rounds) + 1, actor=actor)
    if seeded:
        _save_source(campaign, source)
    return test


def _save_source(campaign: Campaign, source: SeededSource) -> None:
    campaign.rng_state = source.state()
    campaign.save(update_fields=["rng_seed", "rng_state"])


def _after_draw(test: CardTest, setup: table.Setup, decks: dict[str, Deck],
                result: TestRecord | PendingTest, *, recorded: int, actor) -> None:
    """Record the rounds drawn after round ``recorded`` in the decks' draws, put the cards
    of a waiting round on the table (``Deck.out``), and finish or pause the test."""
    pending = isinstance(result, PendingTest)
    rounds = list(result.rounds) + ([result.current] if pending else [])
    for rnd in rounds:
        if rnd.number <= recorded:
            continue
        DeckDraw.objects.create(deck=decks[GM_DECK], card_test=test, round=rnd.number,
                                purpose="card of fate", cards=[str(rnd.fate)])
        for hand in rnd.hands:
            DeckDraw.objects.create(deck=decks[hand.deck], card_test=test, round=rnd.number,
                                    purpose=f"{hand.who} pool",
                                    cards=[str(c.base()) for c in hand.cards])
    out = {name: [] for name in decks}
    if pending:
        out[GM_DECK].append(str(result.current.fate))
        for hand in result.current.hands:
            out[hand.deck] += [str(c.base()) for c in hand.cards]
    for name, deck in decks.items():
        deck.out = out[name]
        deck.save()
    names = card_test_names(test)
    if pending:
        test.pending = result.as_dict()
        _bump(test, CardTest.Status.AWAITING_JOKER)
        log_append(campaign=test.campaign, kind="card_test.joker", actor=actor,
                   text=f"Test #{test.pk}: {names[result.awaiting[0]]} turned the Joker "
                        "and names the card it counts as.",
                   data={"card_test": test.pk})
        return
    test.pending = None
    test.record = result.as_dict()
    test.decided_at = timezone.now()
    applied = _apply_damage(test, setup, result, names, actor)
    _bump(test, CardTest.Status.DONE)
    damage = "".join(f" {d.get('ship', d['who'])}'s {d['area']}: {d['from']} → {d['to']}."
                     for d in applied)
    log_append(campaign=test.campaign, kind="card_test.done", actor=actor,
               text=f"Test #{test.pk}, {card_test_describe(test)}: "
                    f"{card_test_outcome(result, names)}{damage}",
               data=_log_data(test, result, names, applied))


def _apply_damage(test: CardTest, setup: table.Setup, record: TestRecord,
                  names: dict[str, str], actor) -> list[dict]:
    """Deal the record's damage to the characters, and Ship Morale damage to the ship the
    loser serves on (BtQ L1241-1242, L1309-1328; D1; ``rules/btq_characters.md`` A15), from
    their states now (the GM may have edited one while a Joker was being named)."""
    applied = []
    pc = table.who(setup.character)
    npc = table.who(setup.opponent) if setup.opponent is not None else None
    for damage in record.damage:
        rep = None
        if damage.who == pc:
            character = setup.character
            if damage.cause == "reputation":
                area, rep = CardTest.Area.REPUTATION, setup.reputation
            elif setup.at_risk == CardTest.Area.REPUTATION:
                area, rep = CardTest.Area.REPUTATION, setup.at_risk_reputation
            else:
                area = setup.at_risk
        elif damage.who == npc:
            character, area = setup.opponent, setup.opponent_at_risk
        else:
            continue
        ship = setup.ships.get(character.pk) if area == SHIP_MORALE else None
        if rep is not None:
            before = DamageState(rep.damage_state)
        else:
            before = table.area_state(character, area, ship)
        after = damage_after(before, damage.level)
        entry = {"who": names[damage.who], "area": damage.area, "cause": damage.cause,
                 "level": damage.level.name.lower(), "from": before.label, "to": after.label}
        if ship is not None:
            entry["ship"] = ship.display_name
            ship_morale_set(ship=ship, state=after, actor=actor,
                            note=f"{ship}'s Ship Morale: {before.label} → {after.label} "
                                 f"(test #{test.pk}, lost by {entry['who']}).")
        else:
            character_damage_set(character=character, area=area, state=after, reputation=rep)
        applied.append(entry)
    return applied


def _log_data(test: CardTest, record: TestRecord, names: dict[str, str],
              applied: list[dict]) -> dict:
    """What the log keeps of a finished test: the turned cards (public once turned), who won
    and the damage; never a pool's make-up."""
    return {
        "card_test": test.pk,
        "kind": record.kind,
        "outcome": record.outcome,
        "winner": names.get(record.winner),
        "result": record.result.name.lower() if record.result is not None else None,
        "rounds": [{
            "number": rnd.number,
            "fate": str(rnd.fate),
            "hands": [{"who": names.get(hand.who, hand.who),
                       "cards": [str(c) for c in hand.cards],
                       "levels": [lv.name.lower() if lv is not None else None
                                  for lv in hand.levels]} for hand in rnd.hands],
            "comparison": rnd.comparison.as_dict() if rnd.comparison else None,
        } for rnd in record.rounds],
        "damage": applied,
    }
