"""Who may see a campaign: the single place that decides it (STYLE.md, Zulip access helpers).

Every page and API view reaches a campaign through :func:`campaign_for_user`; outsiders get
a 404, so they cannot learn that a campaign exists. The same goes for its card tests, and
:func:`card_test_view` is the one place that decides what a viewer sees of a test.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.core.exceptions import PermissionDenied
from django.db import models
from django.db.models import QuerySet
from django.http import Http404

from campaigns import table
from campaigns.models import Campaign, CampaignLogEntry, CardTest, Membership
from rules.btq.tests import DIFFICULTY, PendingTest, TestError, TestRecord


def campaigns_for_user(user) -> QuerySet[Campaign]:
    """The campaigns ``user`` is a member of (none for an anonymous user)."""
    if not user.is_authenticated:
        return Campaign.objects.none()
    return Campaign.objects.filter(memberships__user=user).distinct()


def memberships_for_user(user) -> QuerySet[Membership]:
    """The user's memberships with their campaigns, by campaign name."""
    if not user.is_authenticated:
        return Membership.objects.none()
    return Membership.objects.filter(user=user).select_related("campaign").order_by(
        "campaign__name", "campaign_id"
    )


def gm_campaigns(user) -> QuerySet[Campaign]:
    """The campaigns ``user`` is a GM of (none for an anonymous user)."""
    if not user.is_authenticated:
        return Campaign.objects.none()
    return Campaign.objects.filter(memberships__user=user,
                                   memberships__role=Membership.Role.GM)


def known_to_user(user, queryset: QuerySet, revealed: models.Q) -> QuerySet:
    """The rows of ``queryset`` (things that belong to a campaign: NPCs, ships) that ``user``
    may know of: every one in the campaigns they run, those matching ``revealed`` in the
    campaigns they play in, none elsewhere. The one rule behind every "does this exist for
    you?" of the apps."""
    return queryset.filter(models.Q(campaign__in=gm_campaigns(user)) | revealed,
                           campaign__in=campaigns_for_user(user))


def campaign_for_user(user, campaign_id) -> Campaign:
    """The campaign ``campaign_id`` if ``user`` is a member; ``Http404`` otherwise."""
    try:
        return campaigns_for_user(user).get(pk=campaign_id)
    except (Campaign.DoesNotExist, ValueError, TypeError):
        raise Http404("No such campaign.") from None


_roles: ContextVar[dict | None] = ContextVar("membership_roles", default=None)
"""The roles looked up so far in this request, by ``(user id, campaign id)``; ``None``
outside a request (a worker, a shell): then every call asks the database."""


@contextmanager
def roles_remembered() -> Iterator[None]:
    """Within it, :func:`membership_role` asks the database once per user and campaign
    (``campaigns.middleware``: one request). A service that changes a role calls
    :func:`roles_forget`."""
    token = _roles.set({})
    try:
        yield
    finally:
        _roles.reset(token)


def roles_forget() -> None:
    """Forget the roles remembered (a membership was created, changed or removed)."""
    remembered = _roles.get()
    if remembered is not None:
        remembered.clear()


def membership_role(user, campaign: Campaign) -> str | None:
    """``"gm"``, ``"player"`` or ``None`` (not a member, or anonymous)."""
    if not user.is_authenticated:
        return None
    remembered = _roles.get()
    key = (user.pk, campaign.pk)
    if remembered is not None and key in remembered:
        return remembered[key]
    role = (
        Membership.objects.filter(campaign=campaign, user=user)
        .values_list("role", flat=True)
        .first()
    )
    if remembered is not None:
        remembered[key] = role
    return role


def is_gm(user, campaign: Campaign) -> bool:
    return membership_role(user, campaign) == Membership.Role.GM


def require_gm(user, campaign: Campaign) -> None:
    """Returns if ``user`` is a GM of ``campaign``; ``Http404`` for a non-member,
    ``PermissionDenied`` (403) for a player."""
    role = membership_role(user, campaign)
    if role is None:
        raise Http404("No such campaign.")
    if role != Membership.Role.GM:
        raise PermissionDenied("Only the campaign's GMs may do that.")


def campaign_members(campaign: Campaign) -> QuerySet[Membership]:
    """The campaign's memberships, GMs first, with their users."""
    return campaign.memberships.select_related("user").order_by("role", "user__username")


def log_for_user(user, campaign: Campaign) -> QuerySet[CampaignLogEntry]:
    """The campaign log newest first, without GM-only entries unless ``user`` is a GM."""
    entries = campaign.log_entries.select_related("actor").order_by("-created_at", "-id")
    if not is_gm(user, campaign):
        entries = entries.filter(gm_only=False)
    return entries


def unfinished_first(encounters, limit: int = 10) -> list:
    """At most ``limit`` of ``encounters`` (a queryset of ``combat.Encounter``): the
    unfinished ones first, then the newest."""
    return list(encounters.order_by(
        models.Case(models.When(status="finished", then=1), default=0), "-pk")[:limit])


def card_tests_awaiting(user, campaign: Campaign) -> list[CardTest]:
    """The open card tests of ``campaign`` that wait for ``user``: his PCs' tests awaiting
    confirmation or a Joker, and for a GM also the proposed ones and those of PCs without a
    player."""
    role = membership_role(user, campaign)
    if role is None:
        return []
    mine = models.Q(character__owner=user, status__in=(_S.AWAITING_CONFIRMATION,
                                                      _S.AWAITING_JOKER))
    if role == Membership.Role.GM:
        mine |= models.Q(status=_S.PROPOSED) | models.Q(
            character__owner__isnull=True, status__in=(_S.AWAITING_CONFIRMATION,
                                                      _S.AWAITING_JOKER))
    return list(card_tests_for_user(user, campaign).filter(mine).order_by("pk"))


def campaign_for_invite(token: str) -> Campaign | None:
    """The campaign whose live invitation link has ``token``; ``None`` if there is none
    (revoked, regenerated or never issued)."""
    if not token:
        return None
    return Campaign.objects.filter(invite_token=token).first()


# --- Card tests -------------------------------------------------------------------------

_S = CardTest.Status
ACTION_STATUSES = {
    "accept": {"gm": (_S.PROPOSED,)},
    "decline": {"gm": (_S.PROPOSED,)},
    "cancel": {"gm": (_S.PROPOSED, _S.AWAITING_CONFIRMATION), "proposer": (_S.PROPOSED,)},
    "confirm": {"player": (_S.AWAITING_CONFIRMATION,)},
    "joker": {"player": (_S.AWAITING_JOKER,), "gm": (_S.AWAITING_JOKER,)},
}
"""Who may take each step of a card test, and in which statuses. ``"player"`` is the acting
PC's player (the GM confirms for a PC without one), ``"proposer"`` the player who proposed
the test. The GM may name a Joker for a player who is away: its default is the Card of
Fate (D5)."""

ACTION_VERBS = {"accept": "accepted", "decline": "declined", "cancel": "cancelled",
                "confirm": "confirmed", "joker": "given a Joker's card"}


def card_tests_for_user(user, campaign: Campaign) -> QuerySet[CardTest]:
    """The card tests of ``campaign``, newest first, for a member (all of them: the cards are
    turned in front of the whole table); none for anyone else."""
    if membership_role(user, campaign) is None:
        return CardTest.objects.none()
    return campaign.card_tests.select_related(
        "character", "character__owner", "opponent", "reputation", "at_risk_reputation",
        "created_by",
    )


def card_test_for_user(user, pk, campaign: Campaign | None = None) -> CardTest:
    """The card test ``pk`` (of ``campaign``, if given) if ``user`` is a member of its
    campaign; ``Http404`` otherwise."""
    tests = CardTest.objects.filter(campaign__in=campaigns_for_user(user))
    if campaign is not None:
        tests = tests.filter(campaign=campaign)
    try:
        return tests.select_related("campaign", "character", "character__owner", "opponent",
                                    "reputation", "at_risk_reputation", "created_by").get(pk=pk)
    except (CardTest.DoesNotExist, ValueError, TypeError):
        raise Http404("No such test.") from None


def _capacities(user, test: CardTest, role: str | None) -> set[str]:
    if role is None:
        return set()
    found = set()
    if role == Membership.Role.GM:
        found.add("gm")
    owner = test.character.owner_id
    if (owner is not None and owner == user.pk) or (owner is None and "gm" in found):
        found.add("player")
    if test.origin == CardTest.Origin.PLAYER and test.created_by_id == user.pk:
        found.add("proposer")
    return found


def card_test_may(user, test: CardTest, action: str, role: str | None = None) -> bool:
    """Whether ``user`` may take ``action`` (a key of :data:`ACTION_STATUSES`) on ``test``
    in some status, whatever its status now."""
    role = role if role is not None else membership_role(user, test.campaign)
    return bool(_capacities(user, test, role) & set(ACTION_STATUSES[action]))


def card_test_allows(user, test: CardTest, action: str, role: str | None = None) -> bool:
    """Whether ``user`` may take ``action`` on ``test`` in its status now."""
    role = role if role is not None else membership_role(user, test.campaign)
    rules = ACTION_STATUSES[action]
    return any(test.status in rules[c] for c in _capacities(user, test, role) if c in rules)


def card_test_actions(user, test: CardTest, role: str | None = None) -> list[str]:
    """The steps ``user`` may take on ``test`` now, in :data:`ACTION_STATUSES` order."""
    role = role if role is not None else membership_role(user, test.campaign)
    return [a for a in ACTION_STATUSES if card_test_allows(user, test, a, role)]


def card_test_open_elsewhere(campaign: Campaign, test: CardTest | None = None
                             ) -> CardTest | None:
    """A test of ``campaign`` other than ``test`` whose cards lie on the table, waiting for a
    Joker: no other test may be drawn until it is over (its cards are out of the decks)."""
    waiting = campaign.card_tests.filter(status=CardTest.Status.AWAITING_JOKER)
    if test is not None:
        waiting = waiting.exclude(pk=test.pk)
    return waiting.order_by("pk").first()


def _person(character) -> dict | None:
    return None if character is None else {"id": character.pk, "name": character.title}


def card_test_names(test: CardTest) -> dict[str, str]:
    """The kernel's side names of ``test`` and what to call them: ``"pc:3"`` -> "Lieutenant
    Anne Able", ``"difficulty"`` -> "Challenging (5 cards)"."""
    names = {table.who(test.character): test.character.title}
    if test.opponent is not None:
        names[table.who(test.opponent)] = test.opponent.title
    if test.opposition == CardTest.Opposition.DIFFICULTY:
        try:
            names[DIFFICULTY] = table.difficulty_label(test.difficulty)
        except TestError:
            names[DIFFICULTY] = test.difficulty
    return names


def card_test_odds_public(test: CardTest) -> bool:
    """Whether players see the full odds of ``test``: when the opposition is public (a
    difficulty, or none). Against an NPC the odds would betray its pool, so players see
    only those of their own pool (the chance of each success level); the GM sees all."""
    return test.opposition != CardTest.Opposition.NPC


def _opposition(test: CardTest, gm: bool) -> dict:
    kind = test.opposition
    if kind == CardTest.Opposition.NPC:
        data = {"kind": kind, "label": test.opponent.title if test.opponent else "an NPC",
                "opponent": _person(test.opponent)}
        if gm:
            data.update(skill=test.opponent_skill,
                        skill_label=table.POOL_LABELS.get(test.opponent_skill, ""),
                        modifiers=test.opponent_modifiers)
        return data
    if kind == CardTest.Opposition.DIFFICULTY:
        return {"kind": kind, "label": card_test_names(test).get(DIFFICULTY),
                "difficulty": test.difficulty}
    return {"kind": kind, "label": "No opposition: a simple test against the Card of Fate"}


def card_test_view(user, test: CardTest, role: str | None = None,
                   settings: dict | None = None) -> dict:
    """What ``user`` sees of ``test``, as JSON-ready data, for the pages and the API.

    Everyone in the campaign sees the acting PC's pool, the stakes and, once turned, every
    card. The GM alone sees the NPC's skill, its modifiers and its pool before the draw, and
    its pool's make-up after it (players get the kernel's ``as_dict(reveal=False)``: its size,
    which the turned cards show anyway); the odds as :func:`card_test_odds_public` says.
    ``settings``: the campaign's, if already resolved.
    """
    role = role if role is not None else membership_role(user, test.campaign)
    gm = role == Membership.Role.GM
    settings = settings if settings is not None else test.campaign.rules_settings()
    view = {
        "id": test.pk,
        "campaign": test.campaign_id,
        "status": test.status,
        "status_label": test.get_status_display(),
        "version": test.version,
        "origin": test.origin,
        "created_by": test.created_by.username if test.created_by else None,
        "created_at": test.created_at.isoformat(),
        "decided_at": test.decided_at.isoformat() if test.decided_at else None,
        "character": _person(test.character),
        "skill": test.skill,
        "skill_label": table.POOL_LABELS.get(test.skill, test.skill),
        "reputation": None if test.reputation is None else {
            "id": test.reputation.pk, "name": test.reputation.name},
        "helpers": [_person(h) for h in test.helpers.order_by("pk")],
        "modifiers": test.modifiers,
        "opposition": _opposition(test, gm),
        "intent": test.intent,
        "stakes_win": test.stakes_win,
        "stakes_lose": test.stakes_lose,
        "at_risk": _at_risk_label(test),
        "opponent_at_risk": CardTest.Area(test.opponent_at_risk).label
        if test.opponent_at_risk else None,
        "decline_reason": test.decline_reason,
        "names": card_test_names(test),
        "actions": card_test_actions(user, test, role),
        "pool": None,
        "opposition_pool": None,
        "odds": None,
        "odds_public": card_test_odds_public(test),
        "problem": None,
        "pending": None,
        "record": None,
        "outcome": None,
        "description": card_test_describe(test),
        "gates": [],
    }
    floor = settings["personal_pool_floor"]
    if test.status in (_S.PROPOSED, _S.AWAITING_CONFIRMATION):
        setup = table.Setup.of(test)
        view["gates"] = table.gates(setup)
        try:
            built = table.build(setup)
        except table.OppositionError as exc:
            view["problem"] = sentence(str(exc)) if gm else (
                "The GM has still to settle the opposition.")
        except TestError as exc:
            view["problem"] = sentence(str(exc))
        else:
            view["pool"] = built.side.pool.as_dict(floor)
            if gm and built.opponent is not None:
                view["opposition_pool"] = built.opponent.pool.as_dict(floor)
            elif built.opponent is None:
                view["opposition_pool"] = {"size": built.opposition_size(floor)}
            if gm or view["odds_public"]:
                view["odds"] = table.odds(built, settings)
            else:
                view["odds"] = table.own_odds(built, settings)
    elif test.status == _S.AWAITING_JOKER and test.pending:
        pending = PendingTest.from_dict(test.pending).as_dict(reveal=gm)
        view["pending"] = pending
        view["pool"] = pending["sides"][0]["pool"]
    elif test.status == _S.DONE and test.record:
        record = TestRecord.from_dict(test.record).as_dict(reveal=gm)
        view["record"] = record
        view["pool"] = record["sides"][0]["pool"]
        view["outcome"] = card_test_outcome(TestRecord.from_dict(test.record), view["names"])
    return view


def sentence(text: str) -> str:
    """A kernel's message ("a Dead area cannot be at risk") as a sentence for people."""
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", ")")) else ".")


def _at_risk_label(test: CardTest) -> str | None:
    if test.at_risk == CardTest.Area.REPUTATION:
        rep = test.at_risk_reputation
        return f"the reputation “{rep.name}”" if rep else "a reputation (since removed)"
    return CardTest.Area(test.at_risk).label if test.at_risk else None


def card_test_describe(test: CardTest) -> str:
    """One line for the log and the lists: "Lieutenant Anne Able's Seamanship against
    Captain Nemo Nobody: “to reach Portsmouth first”". Nothing GM-only (no NPC skill)."""
    if test.opposition == CardTest.Opposition.NPC:
        against = f" against {test.opponent.title}" if test.opponent else ""
    elif test.opposition == CardTest.Opposition.DIFFICULTY:
        against = f" against {card_test_names(test).get(DIFFICULTY)}"
    else:
        against = " (a simple test)"
    skill = table.POOL_LABELS.get(test.skill, test.skill)
    return f"{test.character.title}'s {skill}{against}: “{test.intent}”"


def card_test_outcome(record: TestRecord, names: dict[str, str]) -> str:
    """The result of a finished test in a sentence (BtQ L1238-1241; D3, D4)."""
    plural = "s" if record.retests > 1 else ""
    retests = f" after {record.retests} retest{plural}" if record.retests else ""
    best = record.result.name.capitalize() if record.result is not None else ""
    article = "an" if best == "Ordinary" else "a"
    if record.outcome == "won":
        return f"{names[record.winner]} won with {article} {best} success{retests}."
    if record.outcome == "passed":
        return f"{names[record.winner]} passed with {article} {best} success."
    if record.outcome == "failed":
        return f"{names[record.sides[0].who]} failed: no success."
    return f"A stalemate{retests}: nobody wins, nothing changes (D3)."


def card_test_summary(test: CardTest) -> dict:
    """A row of the list of tests: the test, its description and its result if over."""
    result = ""
    if test.status == CardTest.Status.DONE and test.record:
        result = card_test_outcome(TestRecord.from_dict(test.record), card_test_names(test))
    elif test.status == CardTest.Status.DECLINED:
        result = test.decline_reason
    return {"test": test, "description": card_test_describe(test), "result": result}
