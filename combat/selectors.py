"""Who may see what of an encounter: the single place that decides it.

Every page, partial and API response about an encounter is built from these functions.
A user takes part as the participants the engine names: a GM of the campaign as ``"gm"``
(sees everything), a player as the ``"pc:<character pk>"`` participants of the PCs he
owns. Outsiders get a 404 (``campaigns.selectors.campaign_for_user``).
"""

from __future__ import annotations

from django.db.models import Case, QuerySet, When
from django.http import Http404

from campaigns.selectors import campaign_for_user, membership_role
from characters.models import Character
from combat.models import Encounter, EncounterEvent, Job
from rules.engine import GM, get_engine

PC_PREFIX = "pc:"
USER_PREFIX = "user:"
"""The participant of a player as themselves, before they have a character: the player of
a character being made (``"user:<user pk>"``, ``combat.creation``)."""
COMPUTER = "the computer"
"""Who the battle waits for while a job resolves it."""
OBSERVER = "observer"
"""The participant id used for the view of a member who has no participant in the battle:
engines show such a viewer only what every participant sees."""


OWN_PAGES = {"btq_test": "combat.card_tests", "btq_creation": "combat.creation",
             "btq_ship_creation": "combat.creation"}
"""Engines whose encounters have pages and an API of their own (engine -> the package),
where their steps keep their own rules: they are neither listed nor opened as battles. What
a user sees of them is decided here all the same (:func:`view_for`, :func:`events_for`)."""


def encounters_for_user(user, campaign) -> QuerySet[Encounter]:
    """The campaign's battles ``user`` may see, running ones first, then newest first: all
    of them for a GM, the ones that have begun for a player (not one being prepared, nor one
    cancelled before it began). Encounters of :data:`OWN_PAGES` engines are left out."""
    encounters = campaign.encounters.exclude(engine__in=OWN_PAGES).order_by(
        Case(When(status=Encounter.Status.ACTIVE, then=0), default=1),
        "-created_at", "-id",
    )
    if membership_role(user, campaign) != "gm":
        encounters = encounters.filter(started_at__isnull=False)
    return encounters


def unfinished_encounter_for_ship(ship, *, exclude=None) -> Encounter | None:
    """The battle being prepared or running (``Encounter.UNFINISHED``) that ``ship`` (a
    ``ships.models.Ship``) fights in, other than ``exclude``; ``None`` if it is free. A ship
    is in at most one such battle, since its end is written back to the ship."""
    encounters = Encounter.objects.filter(ships=ship, status__in=Encounter.UNFINISHED)
    if exclude is not None:
        encounters = encounters.exclude(pk=exclude.pk)
    return encounters.order_by("created_at", "id").first()


def encounter_for_user(user, encounter_id) -> Encounter:
    """The encounter ``encounter_id`` if ``user`` may see it; ``Http404("No such battle.")``
    otherwise, the same for an outsider, an unknown id, or a player asking for a battle still
    being prepared, so that nobody learns which battles exist."""
    try:
        encounter = Encounter.objects.select_related("campaign").get(pk=encounter_id)
    except (Encounter.DoesNotExist, ValueError, TypeError, OverflowError):
        raise Http404("No such battle.") from None
    try:
        campaign = campaign_for_user(user, encounter.campaign_id)
    except Http404:  # the same answer as for an unknown id: outsiders learn nothing
        raise Http404("No such battle.") from None
    if not encounters_for_user(user, campaign).filter(pk=encounter.pk).exists():
        raise Http404("No such battle.")
    return encounter


def encounter_not_begun_for_user(user, encounter_id) -> Encounter | None:
    """The battle ``encounter_id`` if it is being prepared (not begun, not cancelled) in a
    campaign ``user`` is a member of, else ``None``: a player who opens it is told it has not
    begun (nothing more of it: not even its title), where anyone else gets a 404."""
    encounter = Encounter.objects.filter(
        pk=encounter_id, status=Encounter.Status.SETUP, started_at__isnull=True,
    ).exclude(engine__in=OWN_PAGES).select_related("campaign").first()
    if encounter is None or membership_role(user, encounter.campaign) is None:
        return None
    return encounter


def participant_ids_for(user, encounter: Encounter) -> list[str]:
    """The participants ``user`` plays in ``encounter``: ``["gm"]`` for a GM of its campaign,
    the ``"pc:<pk>"`` participants of the user's own characters for a player, and the
    player as themselves (``"user:<pk>"``) where the engine names them, ``[]`` for anyone
    else."""
    role = membership_role(user, encounter.campaign)
    if role == "gm":
        return [GM]
    if role is None or encounter.state is None:
        return []
    ids = [p for p in get_engine(encounter.engine).participants(encounter.state)
           if p.startswith(PC_PREFIX)]
    pks = [p[len(PC_PREFIX):] for p in ids]
    own = {
        str(pk) for pk in Character.objects.filter(
            pk__in=[pk for pk in pks if pk.isdigit()], owner=user
        ).values_list("pk", flat=True)
    }
    me = f"{USER_PREFIX}{user.pk}"
    himself = [me] if me in get_engine(encounter.engine).participants(encounter.state) else []
    return [p for p in ids if p[len(PC_PREFIX):] in own] + himself


def for_player(actor: str) -> bool:
    """Whether a decision's ``actor`` is a player's (one of his PCs, or himself while he
    makes a character): on the GM's page such a decision is "decided for a player", apart
    from the GM's own (his sides, his NPCs, his rulings)."""
    return actor.startswith((PC_PREFIX, USER_PREFIX))


def seated(encounter: Encounter, participants: list[str]) -> list[str]:
    """The participants whose eyes ``participants`` see the table with. The GM sees
    everything as the referee, but not while he is a player too: in a wargame (an engine
    with ``wargame = True``, whose sides give hidden orders) where a side he commands
    (``"side:<id>"``) has orders still to give, he sees what that side's commander sees, so
    the others' hidden orders stay hidden from him until his own are in; and in a wargame
    whose sides hold hidden hands all game long (``hidden_hands = True``: British vs
    Pirates, "hands are hidden from opponents") he sees as his sides whenever a player
    commands another (:func:`gm_sides`), and everything where he commands every side. Anyone
    else, and the GM at any other time, sees as ``participants``."""
    if GM not in participants or encounter.state is None \
            or encounter.status != Encounter.Status.ACTIVE:
        return participants
    engine = get_engine(encounter.engine)
    if not getattr(engine, "wargame", False):
        return participants
    if getattr(engine, "hidden_hands", False):
        return gm_sides(encounter) or participants
    seats = [d.actor for d in engine.pending(encounter.state)
             if d.actor != GM and not for_player(d.actor)]
    return list(dict.fromkeys(seats)) or participants


def gm_sides(encounter: Encounter) -> list[str]:
    """The sides (``"side:<id>"``) the GM plays as a party to a game whose hands stay hidden
    from opponents (an engine with ``hidden_hands = True``) while a player commands another
    side: then he must not see that player's hand. ``[]`` where he is the referee (players
    command every side) or commands every side himself, and for any other engine."""
    engine = get_engine(encounter.engine)
    if not getattr(engine, "hidden_hands", False) or encounter.state is None:
        return []
    commanders = list(engine.participants(encounter.state))
    own = [c for c in commanders if c != GM and not for_player(c)]
    return own if own and len(own) < len(commanders) else []


def viewer_id(participants: list[str]) -> str:
    """The participant whose view of the state a user is shown: the GM's, else his first PC's,
    else an observer's."""
    if GM in participants:
        return GM
    return participants[0] if participants else OBSERVER


def view_as(engine, state: dict, participants: list[str]) -> dict:
    """What ``participants``, played by one user, see of ``state``: the engine's view for
    :func:`viewer_id`, or, where he plays several participants whose views differ (the GM
    commanding two sides of a British vs Pirates game against a player's, each with its own
    hidden hand), the engine's ``joint_view(state, participants)`` (an optional method of
    the engines where that can happen), so that he sees what each of them sees, not the
    first one's only."""
    joint = getattr(engine, "joint_view", None)
    if joint is not None and len(participants) > 1 and GM not in participants:
        return joint(state, participants)
    return engine.view(state, viewer_id(participants))


def _visible(event: EncounterEvent, participants: list[str]) -> bool:
    return (
        GM in participants
        or event.visible_to is None
        or any(p in event.visible_to for p in participants)
    )


def events_for(encounter: Encounter, participants: list[str], *, after: int = 0
               ) -> list[dict]:
    """The events after sequence number ``after`` that ``participants`` may see, in order,
    as dicts ``{seq, kind, text, data, round, created_at}``; ``gm_data`` and ``visible_to``
    are included for the GM only, and not while he waits to give a side's orders
    (:func:`seated`)."""
    participants = seated(encounter, participants)
    gm = GM in participants
    rows = []
    for event in encounter.events.filter(seq__gt=after).order_by("seq"):
        if not _visible(event, participants):
            continue
        row = {"seq": event.seq, "kind": event.kind, "text": event.text, "data": event.data,
               "round": event.round, "created_at": event.created_at}
        if gm:
            row["gm_data"] = event.gm_data
            row["visible_to"] = event.visible_to
        rows.append(row)
    return rows


def last_seq(encounter: Encounter) -> int:
    """The sequence number of the encounter's latest event (0 if none)."""
    last = encounter.events.order_by("-seq").values_list("seq", flat=True).first()
    return last or 0


def decisions_for(encounter: Encounter, participants: list[str]) -> tuple[list[dict], list[str]]:
    """The pending decisions: ``(mine, waiting)``. ``mine`` are those ``participants`` may make
    (all of them for the GM), as ``Decision.as_dict()`` plus the actor's display name, the
    GM's ``default`` being the next stacked decision when it fits;
    ``waiting`` the display names of the others' actors, without their options. Each of the
    GM's has ``for_player``: a player's decision he may make for him (:func:`for_player`),
    which his page keeps apart from his own. While a job
    resolves the battle, nobody else decides: ``([], ["the computer"])``."""
    if encounter.status != Encounter.Status.ACTIVE:
        return [], []
    if encounter.jobs.filter(status__in=Job.OPEN).exists():
        return [], [COMPUTER]
    engine = get_engine(encounter.engine)
    names = {**engine.participants(encounter.state), GM: "the GM"}
    mine, waiting = [], []
    # a GM who plays sides against a player's hidden hand decides for his sides only: the
    # player's decisions would show him the player's cards
    party = gm_sides(encounter) if GM in participants else []
    for decision in engine.pending(encounter.state):
        if party and decision.actor not in (*party, GM):
            name = names.get(decision.actor, decision.actor)
            if name not in waiting:
                waiting.append(name)
        elif GM in participants:  # the stacked decisions are the GM's secret
            planned = encounter.stacked_choice_for(decision)
            mine.append({**decision.as_dict(), "default": planned or decision.default,
                         "actor_name": names.get(decision.actor, decision.actor),
                         "for_player": for_player(decision.actor),
                         "since": encounter.asked_since(decision.actor, decision.kind)})
        elif decision.actor in participants:
            mine.append({**decision.as_dict(), "for_player": False,
                         "actor_name": names.get(decision.actor, decision.actor),
                         "since": encounter.asked_since(decision.actor, decision.kind)})
        else:
            name = names.get(decision.actor, decision.actor)
            if name not in waiting:
                waiting.append(name)
    return mine, waiting


def decision_awaited(encounter: Encounter, actor: str, kind: str) -> bool:
    """Whether ``actor``'s decision ``kind`` is pending in the encounter as it stands (read
    afresh): a refused stale form tells its user whether his decision is still to be made
    or was made already (in another tab, say)."""
    encounter.refresh_from_db(fields=["state", "status"])
    if encounter.status != Encounter.Status.ACTIVE or encounter.state is None:
        return False
    return any(d.actor == actor and d.kind == kind
               for d in get_engine(encounter.engine).pending(encounter.state))


def view_for(encounter: Encounter, participants: list[str]) -> dict | None:
    """What the user may see of the state (:func:`view_as` the :func:`seated`
    participants), or ``None`` before the battle begins."""
    if encounter.state is None:
        return None
    return view_as(get_engine(encounter.engine), encounter.state,
                   seated(encounter, participants))


def outcome_for(encounter: Encounter, participants: list[str]) -> dict | None:
    """The outcome as ``participants`` may see it: all of it for the GM; for anyone else only
    ``winner``, ``result`` and ``summary`` (the engine's ``data`` may hold GM-only details,
    such as the enemy's Ship Morale). The one rule for every page, API answer and job that
    shows an outcome."""
    if encounter.outcome is None or GM in participants:
        return encounter.outcome
    return {k: encounter.outcome.get(k) for k in ("winner", "result", "summary")}


def shown_job_order() -> tuple:
    """The order in which an encounter's jobs are looked at for the one its pages show: the
    one still working (queued or running) first, then the newest. By time alone, a job that
    ended but was stamped later (two web servers' clocks a little apart) hid the open one,
    and a reload showed nothing of it while the decisions waited for the computer."""
    return (Case(When(status__in=Job.OPEN, then=0), default=1), "-created_at", "-id")


def latest_job(encounter: Encounter) -> Job | None:
    """The job the encounter's pages show (:func:`shown_job_order`): the one still working
    if any, else the most recent; ``None`` without jobs."""
    return encounter.jobs.order_by(*shown_job_order()).first()


def job_for_user(user, job_id) -> Job:
    """The job ``job_id`` if ``user`` may see its encounter; ``Http404("No such job.")``
    otherwise, the same whether the job exists or not."""
    try:
        job = Job.objects.select_related("encounter").get(pk=job_id)
    except (Job.DoesNotExist, ValueError, TypeError, OverflowError):
        raise Http404("No such job.") from None
    try:
        encounter_for_user(user, job.encounter_id)
    except Http404:  # the same answer as for an unknown id
        raise Http404("No such job.") from None
    return job


def unfinished_first(encounters: QuerySet[Encounter], limit: int = 10) -> list[Encounter]:
    """At most ``limit`` of ``encounters``: the unfinished ones first, then the newest."""
    return list(encounters.order_by(
        Case(When(status=Encounter.Status.FINISHED, then=1), default=0), "-pk")[:limit])


def campaign_panel(request, campaign, role: str) -> dict:
    """The battles' section of the campaign page (``campaigns.panels``): the ``battles`` the
    viewer may see, unfinished first."""
    return {"battles": unfinished_first(encounters_for_user(request.user, campaign))}
