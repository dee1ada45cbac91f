"""Use cases of voyages, sessions, missions and challenges (``rules/btq_missions.md`` §2,
§3; DECISIONS D6, D13, D14).

Each function runs in one transaction, locks what it changes (``select_for_update``),
checks the version the person saw for an edit, calls the kernel (``rules.btq.missions``)
and writes a journal entry (``campaigns.services.log_append``; GM-only for a hidden
mission). Access: views check membership first (``campaigns.selectors``); these functions
check the role a step needs (``PermissionDenied``).

A challenge's result (:func:`challenge_record`) is a :class:`ChallengeResult` row: the
database allows one per challenge and one per encounter, so the same finish counts once
however often it is recorded, even by two connections at once (the second waits for the
first's row and then finds it there).
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from campaigns import directory
from campaigns.missions.models import (
    STATIONS,
    Challenge,
    ChallengeResult,
    Mission,
    MissionCharacter,
    Session,
    Voyage,
)
from campaigns.missions.selectors import abandon_refusal
from campaigns.models import Campaign, Membership
from campaigns.selectors import membership_role
from campaigns.services import Conflict, check_version, log_append
from campaigns.signals import session_ended, voyage_recalled
from rules.btq import missions as kernel


def purchase_tables(campaign: Campaign) -> dict:
    """The reward and failure tables as this campaign prices them (setting
    ``mission_injured_cost``, D13)."""
    return kernel.purchase_tables(
        injured_cost=campaign.rules_settings()["mission_injured_cost"])


def _role(actor, campaign: Campaign) -> str:
    role = membership_role(actor, campaign)
    if role is None:
        raise PermissionDenied("You are not a member of this campaign.")
    return role


def _require_gm(actor, campaign: Campaign) -> None:
    if _role(actor, campaign) != Membership.Role.GM:
        raise PermissionDenied("Only the campaign's GMs may do that.")


def _entries(value, field: str) -> list[dict]:
    if value in (None, ""):
        return []
    if not isinstance(value, list):
        raise ValidationError({field: "A list of entries, each with its kind."})
    try:
        return [kernel.Entry.from_dict(e).as_dict() for e in value]
    except kernel.MissionError as exc:
        raise ValidationError({field: str(exc)}) from None


def _int(value, field: str, what: str) -> int:
    if isinstance(value, bool):
        raise ValidationError({field: f"{what} is a whole number."})
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise ValidationError({field: f"{what} is a whole number."}) from None
    if not 0 <= number <= 1000:
        raise ValidationError({field: f"{what} is a whole number from 0 to 1000."})
    return number


def _id(value, field: str, what: str) -> int:
    """A record's id from input: a positive whole number (``ValidationError`` otherwise)."""
    if isinstance(value, bool):
        raise ValidationError({field: f"{what} is named by its id."})
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise ValidationError({field: f"{what} is named by its id."}) from None
    if not 0 < number < 2**31:
        raise ValidationError({field: f"{what} is named by its id."})
    return number


def _check_terms(campaign: Campaign, mission: Mission) -> list[str]:
    """The kernel's checks of §3.6 on ``mission``'s six parts: ``ValidationError`` by field,
    else the warnings."""
    errors, warnings = kernel.validate(mission.terms(), purchase_tables(campaign))
    characters = directory.characters(campaign)
    for field, entries in (("rewards", mission.rewards), ("failures", mission.failures)):
        for entry in entries:
            if entry["scope"] == "character" and entry["character"] not in characters:
                errors.setdefault(field, []).append(
                    "An entry for one character must name a character of this campaign.")
    if errors:
        raise ValidationError(errors)
    return warnings


def _cast(campaign: Campaign, character_ids, actor, role: str) -> list[int]:
    """The characters of a new mission: PCs of the campaign; a player names only his own."""
    if character_ids in (None, ""):
        character_ids = []
    if not isinstance(character_ids, list | tuple):
        raise ValidationError({"characters": "A list of characters."})
    ids = []
    for value in character_ids:
        ids.append(_id(value, "characters", "A character"))
    pcs = directory.player_characters(campaign)
    for pk in ids:
        if pk not in pcs:
            raise ValidationError({"characters": "Only the campaign's player characters go "
                                                 "on a mission."})
        if role != Membership.Role.GM and pcs[pk].owner_id != actor.pk:
            raise ValidationError({"characters": "A player proposes a mission for his own "
                                                 "characters only."})
    return sorted(set(ids))


def _log(mission: Mission, kind: str, text: str, actor, **data) -> None:
    cast = list(mission.cast.values_list("character_id", flat=True))
    extra = {"character": cast[0]} if len(cast) == 1 else {}
    log_append(campaign=mission.campaign, kind=kind, text=text, actor=actor,
               gm_only=mission.hidden or mission.status in (Mission.Status.PROPOSED,
                                                            Mission.Status.DECLINED),
               record=("mission", mission.pk),
               data={"mission": mission.pk, **extra, **data})


@transaction.atomic
def mission_create(
    *, campaign: Campaign, actor, name: str, challenges_required, deadline_failures=None,
    kind: str = "naval", intent: str = "", deadline_narrative: str = "", rewards=None,
    failures=None, characters=None, hidden: bool = False, gm_notes: str = "",
    planning_notes: str = "", voyage: Voyage | None = None, template: str = "",
) -> tuple[Mission, list[str]]:
    """A new mission (BtQ L1510-1534): by a GM it is under way at once; by a player it is a
    proposal for his own characters that waits for a GM (:func:`mission_approve`), and may
    carry neither ``hidden`` nor ``gm_notes`` (``PermissionDenied``). ``deadline_failures``
    defaults to ``challenges_required`` (BtQ L1455). ``rewards``, ``failures``: lists of
    :class:`rules.btq.missions.Entry` JSON. Returns ``(mission, warnings)``;
    ``ValidationError`` by field for a mission §3.6 refuses."""
    role = _role(actor, campaign)
    gm = role == Membership.Role.GM
    if not gm and (hidden or gm_notes.strip()):
        raise PermissionDenied("Only a GM hides a mission or writes its GM notes.")
    if voyage is not None and voyage.campaign_id != campaign.pk:
        raise ValidationError({"voyage": "The voyage must be one of this campaign's."})
    required = _int(challenges_required, "challenges_required", "The number of challenges")
    deadline = required if deadline_failures in (None, "") else _int(
        deadline_failures, "deadline_failures", "The failed-challenge deadline")
    mission = Mission(
        campaign=campaign, kind=kind, name=(name or "").strip()[:200],
        intent=(intent or "").strip(), challenges_required=required,
        deadline_failures=deadline, deadline_narrative=(deadline_narrative or "").strip()[:300],
        rewards=_entries(rewards, "rewards"), failures=_entries(failures, "failures"),
        hidden=bool(hidden) and gm, gm_notes=(gm_notes or "").strip() if gm else "",
        planning_notes=(planning_notes or "").strip(), voyage=voyage, template=template,
        status=Mission.Status.ACTIVE if gm else Mission.Status.PROPOSED,
        proposed_by=None if gm else actor,
    )
    warnings = _check_terms(campaign, mission)
    cast = _cast(campaign, characters, actor, role)
    mission.save()
    MissionCharacter.objects.bulk_create(
        MissionCharacter(mission=mission, character_id=pk) for pk in cast)
    verb = "opened" if gm else "proposed"
    _log(mission, f"mission.{verb}", f"{actor} {verb} the mission “{mission}” "
         f"({mission.challenges_required} challenges).", actor)
    return mission, warnings


@transaction.atomic
def mission_load_sample(*, campaign: Campaign, actor, key: str, characters=None,
                        hidden: bool = False) -> Mission:
    """One of the book's missions (``rules.btq.missions.sample_missions``) opened in the
    campaign for ``characters`` (GMs only)."""
    _require_gm(actor, campaign)
    terms = kernel.sample_missions().get(key)
    if terms is None:
        raise ValidationError({"sample": "There is no such mission in the book."})
    mission, _ = mission_create(
        campaign=campaign, actor=actor, name=terms.name, kind=terms.kind,
        challenges_required=terms.challenges_required,
        deadline_failures=terms.deadline_failures,
        deadline_narrative=terms.deadline_narrative,
        rewards=[e.as_dict() for e in terms.rewards],
        failures=[e.as_dict() for e in terms.failures], characters=characters,
        hidden=hidden, template=key)
    return mission


def _locked(mission: Mission) -> Mission:
    return Mission.objects.select_for_update().select_related("campaign").get(pk=mission.pk)


EDITABLE = ("name", "kind", "intent", "challenges_required", "deadline_failures",
            "deadline_narrative", "rewards", "failures", "hidden", "gm_notes",
            "planning_notes")


@transaction.atomic
def mission_update(*, mission: Mission, actor, version, characters=None, **changes
                   ) -> tuple[Mission, list[str]]:
    """Change the fields given of a mission not over (GMs only; :data:`EDITABLE`, and
    ``characters``), from ``version`` (``StaleVersion`` if it moved on). The counters stay:
    a mission whose new numbers are already met or failed moves on at once. Returns
    ``(mission, warnings)``; ``ValidationError`` by field as :func:`mission_create`."""
    mission = _locked(mission)
    _require_gm(actor, mission.campaign)
    check_version(mission, version)
    if mission.status in Mission.ENDED or mission.status == Mission.Status.DECLINED:
        raise ValidationError("This mission is over: it can no longer be changed.")
    unknown = sorted(set(changes) - set(EDITABLE))
    if unknown:
        raise ValidationError({unknown[0]: "This field cannot be changed."})
    changed = []
    for field, value in changes.items():
        if field in ("rewards", "failures"):
            value = _entries(value, field)
        elif field in ("challenges_required", "deadline_failures"):
            value = _int(value, field, "This number")
        elif field == "hidden":
            value = bool(value)
        else:
            value = (value or "").strip()
        if getattr(mission, field) != value:
            setattr(mission, field, value)
            changed.append(field)
    warnings = _check_terms(mission.campaign, mission)
    if characters is not None:
        cast = _cast(mission.campaign, characters, actor, Membership.Role.GM)
        if cast != sorted(mission.cast.values_list("character_id", flat=True)):
            mission.cast.all().delete()
            MissionCharacter.objects.bulk_create(
                MissionCharacter(mission=mission, character_id=pk) for pk in cast)
            changed.append("characters")
    if not changed:
        return mission, warnings
    if mission.status in Mission.OPEN:
        mission.status = _status_for(mission)
    mission.version += 1
    mission.save()
    _log(mission, "mission.updated", f"{actor} changed the mission “{mission}” "
         f"({', '.join(f.replace('_', ' ') for f in changed)}).", actor, fields=changed)
    return mission, warnings


def _status_for(mission: Mission) -> str:
    """An open mission's status from its counters (BtQ L1482-1484)."""
    if mission.failed >= mission.deadline_failures:
        return Mission.Status.FAILED
    if mission.successes >= mission.challenges_required:
        return Mission.Status.REQUIREMENT_MET
    return Mission.Status.ACTIVE


@transaction.atomic
def mission_approve(*, mission: Mission, actor, version) -> Mission:
    """A GM accepts a player's proposed mission: it is under way."""
    mission = _locked(mission)
    _require_gm(actor, mission.campaign)
    check_version(mission, version)
    if mission.status != Mission.Status.PROPOSED:
        raise ValidationError("Only a proposed mission can be approved.")
    mission.status = Mission.Status.ACTIVE
    mission.version += 1
    mission.save()
    _log(mission, "mission.approved", f"{actor} approved the mission “{mission}”.", actor)
    return mission


@transaction.atomic
def mission_decline(*, mission: Mission, actor, version, reason: str = "") -> Mission:
    """A GM turns a player's proposal down, saying why."""
    mission = _locked(mission)
    _require_gm(actor, mission.campaign)
    check_version(mission, version)
    if mission.status != Mission.Status.PROPOSED:
        raise ValidationError("Only a proposed mission can be declined.")
    mission.status = Mission.Status.DECLINED
    mission.version += 1
    mission.save()
    why = f": {reason.strip()}" if reason and reason.strip() else ""
    log_append(campaign=mission.campaign, kind="mission.declined", actor=actor,
               record=("mission", mission.pk), data={"mission": mission.pk},
               text=f"{actor} declined the proposed mission “{mission}”{why}.")
    return mission


@transaction.atomic
def mission_complete(*, mission: Mission, actor, version) -> Mission:
    """A GM confirms that the story of a mission whose challenges are met has come to its
    end (BtQ L1482): it is completed, and its rewards are there to take on each character's
    page (``characters.advancement``)."""
    mission = _locked(mission)
    _require_gm(actor, mission.campaign)
    check_version(mission, version)
    try:
        kernel.confirm_complete(mission.progress())
    except kernel.MissionError as exc:
        raise ValidationError(str(exc)) from None
    return _end(mission, Mission.Status.COMPLETED, actor,
                f"The mission “{mission}” is completed: its rewards are to be taken.")


@transaction.atomic
def mission_fail(*, mission: Mission, actor, version, abandoned: bool = False,
                 reason: str = "") -> Mission:
    """The narrative deadline passed (a GM says so) or the characters abandon the mission
    (a GM, or the player of a Mission of Personal Importance:
    :func:`campaigns.missions.selectors.abandon_refusal`): it fails, and its failure cost is
    to be paid (BtQ L1449, L1484). ``PermissionDenied`` with the reason for anyone else."""
    mission = _locked(mission)
    role = _role(actor, mission.campaign)
    if role != Membership.Role.GM:
        if not abandoned:
            raise PermissionDenied("Only a GM says a mission's deadline passed.")
        refusal = abandon_refusal(actor, mission)
        if refusal is not None:
            raise PermissionDenied(refusal)
    check_version(mission, version)
    try:
        kernel.fail(mission.progress(), abandoned=abandoned)
    except kernel.MissionError as exc:
        raise ValidationError(str(exc)) from None
    why = f" ({reason.strip()})" if reason and reason.strip() else ""
    if abandoned:
        return _end(mission, Mission.Status.ABANDONED, actor,
                    f"{actor} abandoned the mission “{mission}”{why}: its failure cost is due.")
    return _end(mission, Mission.Status.FAILED, actor,
                f"The mission “{mission}” failed: its deadline passed{why}. Its failure "
                "cost is due.")


def _end(mission: Mission, status: str, actor, text: str) -> Mission:
    mission.status = status
    mission.ended_at = timezone.now()
    mission.version += 1
    mission.save()
    _log(mission, f"mission.{status}", text, actor)
    return mission


# --- Challenges ----------------------------------------------------------------------------


@transaction.atomic
def challenge_create(*, campaign: Campaign, actor, missions, description: str,
                     kind: str = "test", gm_notes: str = "",
                     session: Session | None = None) -> Challenge:
    """A challenge for one or more of the campaign's missions under way (BtQ L1440-1441,
    L3362-3367): called by a GM, or proposed by a player for missions he sees (``status``
    ``proposed``, played once the GM accepts it: :func:`challenge_accept`; a player gives no
    GM notes). ``missions``: Mission rows or ids. ``ValidationError`` naming the field."""
    gm = _role(actor, campaign) == Membership.Role.GM
    description = (description or "").strip()
    if not description:
        raise ValidationError({"description": "Say what the challenge is."})
    if kind not in Challenge.KINDS:
        raise ValidationError({"kind": "Choose what kind of challenge it is."})
    if not gm and (gm_notes or "").strip():
        raise PermissionDenied("Only the GM writes GM notes.")
    ids = [getattr(m, "pk", m) for m in (missions or ())]
    pool = Mission.objects.filter(campaign=campaign)
    if not gm:
        pool = pool.filter(hidden=False)
    chosen = list(pool.filter(pk__in=[_id(pk, "missions", "A mission") for pk in ids]))
    if not chosen or len(chosen) != len(set(ids)):
        raise ValidationError({"missions": "Choose the missions, of this campaign, the "
                                           "challenge is for."})
    closed = [str(m) for m in chosen if m.status != Mission.Status.ACTIVE]
    if closed:
        raise ValidationError({"missions": f"“{closed[0]}” takes no more challenges: only a "
                                           "mission under way does."})
    if session is not None and session.campaign_id != campaign.pk:
        raise ValidationError({"session": "The session must be one of this campaign's."})
    challenge = Challenge.objects.create(
        campaign=campaign, kind=kind, description=description[:300],
        status=Challenge.Status.CALLED if gm else Challenge.Status.PROPOSED,
        gm_notes=(gm_notes or "").strip(), session=session, created_by=actor)
    challenge.missions.set(chosen)
    if gm:
        _log_challenge(challenge, chosen, "challenge.called", actor,
                       lambda names: f"{actor} called a challenge for {names}: "
                                     f"{challenge.description}.")
    else:
        _log_challenge(challenge, chosen, "challenge.proposed", actor,
                       lambda names: f"{actor} proposed a challenge for {names}: "
                                     f"{challenge.description}. The GM accepts or declines it.")
    return challenge


def _proposed(challenge: Challenge, actor) -> Challenge:
    _require_gm(actor, challenge.campaign)
    challenge = Challenge.objects.select_for_update().select_related("campaign").get(
        pk=challenge.pk)
    if challenge.status != Challenge.Status.PROPOSED:
        raise Conflict(challenge, f"“{challenge}” is no longer waiting for the GM: it is "
                                  f"{challenge.get_status_display().lower()}.")
    return challenge


@transaction.atomic
def challenge_accept(*, challenge: Challenge, actor, description: str | None = None,
                     kind: str | None = None, gm_notes: str = "") -> Challenge:
    """GM: accept a player's proposed challenge, as proposed or with a new ``description``
    and ``kind`` (and the GM's own notes); it is then called, to be played like any other.
    ``Conflict`` if it is no longer proposed (accepted or declined already)."""
    challenge = _proposed(challenge, actor)
    if description is not None:
        if not description.strip():
            raise ValidationError({"description": "Say what the challenge is."})
        challenge.description = description.strip()[:300]
    if kind is not None:
        if kind not in Challenge.KINDS:
            raise ValidationError({"kind": "Choose what kind of challenge it is."})
        challenge.kind = kind
    if not challenge.missions.filter(status=Mission.Status.ACTIVE).exists():
        raise ValidationError({"missions": "None of its missions is under way any more."})
    challenge.status = Challenge.Status.CALLED
    challenge.gm_notes = (gm_notes or "").strip()
    challenge.version += 1
    challenge.save()
    _log_challenge(challenge, list(challenge.missions.all()), "challenge.called", actor,
                   lambda names: f"{actor} accepted the challenge proposed for {names}: "
                                 f"{challenge.description}.")
    return challenge


@transaction.atomic
def challenge_decline(*, challenge: Challenge, actor, reason: str = "") -> Challenge:
    """GM: decline a player's proposed challenge (with a ``reason`` the players read); it
    stays on record, never played. ``Conflict`` if it is no longer proposed."""
    challenge = _proposed(challenge, actor)
    challenge.status = Challenge.Status.DECLINED
    challenge.version += 1
    challenge.save()
    why = f": {reason.strip()[:200]}" if (reason or "").strip() else ""
    _log_challenge(challenge, list(challenge.missions.all()), "challenge.declined", actor,
                   lambda names: f"{actor} declined the challenge proposed for {names} "
                                 f"({challenge.description}){why}.")
    return challenge


def _log_challenge(challenge: Challenge, missions: list[Mission], kind: str, actor, text,
                   **data) -> None:
    """The journal entry of a challenge, linked to the (first) mission it is for: GM-only if
    all its missions are hidden; else it names, in ``text(names)`` and its data, only the
    missions the players may see."""
    shown = [m for m in missions if not m.hidden] or missions
    names = ", ".join(f"“{m}”" for m in shown)
    log_append(campaign=challenge.campaign, kind=kind, actor=actor,
               gm_only=all(m.hidden for m in missions), record=("mission", shown[0].pk),
               data={"challenge": challenge.pk, "missions": [m.pk for m in shown], **data},
               text=text(names))


def challenge_open_for(campaign: Campaign, challenge_id) -> Challenge:
    """The campaign's challenge ``challenge_id`` if it is still to be played (no result, one
    of its missions under way), for an encounter about to be created for it;
    ``ValidationError`` naming the field ``challenge`` otherwise."""
    challenge = Challenge.objects.filter(campaign=campaign, pk=challenge_id,
                                         status=Challenge.Status.CALLED).first()
    if challenge is None or ChallengeResult.objects.filter(challenge=challenge).exists():
        raise ValidationError({"challenge": "That challenge is no longer to be played."})
    if not challenge.missions.filter(status=Mission.Status.ACTIVE).exists():
        raise ValidationError({"challenge": "None of that challenge's missions is under way."})
    return challenge


@transaction.atomic
def challenge_record(*, challenge: Challenge, met: bool, actor=None,
                     encounter_id: int | None = None, summary: str = "") -> ChallengeResult | None:
    """Record that ``challenge`` was met (``met``) or failed, by the encounter
    ``encounter_id`` (its finish, ``combat.challenges``) or a GM's word (``actor`` a GM,
    ``encounter_id`` ``None``). Each of its missions still under way counts it
    (``rules.btq.missions.record_result``): its requirement met is flagged for the GM, its
    deadline reached fails it (D14).

    Idempotent: a challenge has one result and an encounter gives one, by the database's
    unique constraints; a second call (the same finish recorded again, two browsers at once)
    changes nothing and returns ``None``."""
    if encounter_id is None:
        _require_gm(actor, challenge.campaign)
    if challenge.status != Challenge.Status.CALLED:
        if encounter_id is not None:
            return None
        raise ValidationError("A proposed or declined challenge has no result: the GM "
                              "accepts it first.")
    try:
        with transaction.atomic():
            result = ChallengeResult.objects.create(
                challenge=challenge, encounter_id=encounter_id, met=bool(met),
                summary=(summary or "")[:300], recorded_by=actor)
    except IntegrityError:
        return None
    missions = list(Mission.objects.select_for_update().filter(challenges=challenge)
                    .order_by("pk"))
    counted = []
    for mission in missions:
        if mission.status != Mission.Status.ACTIVE:
            continue
        now = kernel.record_result(mission.terms(), mission.progress(), bool(met))
        mission.successes, mission.failed, mission.status = now.successes, now.failures, now.status
        if now.status == Mission.Status.FAILED:
            mission.ended_at = timezone.now()
        mission.version += 1
        mission.save()
        counted.append(mission)
    word = "met" if met else "failed"
    by = f" ({summary})" if summary else ""
    _log_challenge(challenge, missions, f"challenge.{word}", actor,
                   lambda names: f"Challenge {word}: {challenge.description}{by}.",
                   encounter=encounter_id, met=bool(met))
    for mission in counted:
        if mission.status == Mission.Status.REQUIREMENT_MET:
            _log(mission, "mission.requirement_met",
                 f"Every challenge of “{mission}” is met ({mission.successes} of "
                 f"{mission.challenges_required}): the GM confirms when its story ends.", actor)
        elif mission.status == Mission.Status.FAILED:
            _log(mission, "mission.failed",
                 f"The mission “{mission}” failed: {mission.failed} challenges failed, its "
                 "deadline. Its failure cost is due.", actor)
    return result


# --- Voyages and sessions -----------------------------------------------------------------


@transaction.atomic
def voyage_create(*, campaign: Campaign, actor, name: str, station: str = "channel",
                  naval_missions_planned=3, started_on=None) -> Voyage:
    """A voyage of 3 to 6 Naval Missions on a station (BtQ L1430-1433; GMs only)."""
    _require_gm(actor, campaign)
    planned = _int(naval_missions_planned, "naval_missions_planned", "The Naval Missions")
    if not Voyage.MIN_MISSIONS <= planned <= Voyage.MAX_MISSIONS:
        raise ValidationError({"naval_missions_planned": "A voyage lasts 3 to 6 Naval "
                                                         "Missions."})
    if station not in STATIONS:
        raise ValidationError({"station": "Choose one of the naval stations."})
    if not (name or "").strip():
        raise ValidationError({"name": "A voyage needs a name."})
    voyage = Voyage.objects.create(campaign=campaign, name=name.strip()[:200], station=station,
                                   naval_missions_planned=planned,
                                   started_on=started_on or timezone.localdate())
    log_append(campaign=campaign, kind="voyage.begun", actor=actor,
               record=("voyage", voyage.pk), data={"voyage": voyage.pk},
               text=f"The voyage “{voyage}” begins on the {voyage.get_station_display()} "
                    f"station ({planned} Naval Missions).")
    return voyage


@transaction.atomic
def voyage_recall(*, voyage: Voyage, actor, version) -> Voyage:
    """The voyage ends: the ship is recalled to Britain (BtQ L1432; GMs only)."""
    voyage = Voyage.objects.select_for_update().get(pk=voyage.pk)
    _require_gm(actor, voyage.campaign)
    check_version(voyage, version)
    if voyage.status == Voyage.Status.RECALLED:
        raise ValidationError("This voyage is already over.")
    voyage.status = Voyage.Status.RECALLED
    voyage.recalled_on = timezone.localdate()
    voyage.version += 1
    voyage.save()
    log_append(campaign=voyage.campaign, kind="voyage.recalled", actor=actor,
               record=("voyage", voyage.pk), data={"voyage": voyage.pk},
               text=f"The voyage “{voyage}” is over: the ship is recalled to Britain.")
    voyage_recalled.send(sender=Voyage, voyage=voyage, actor=actor)
    return voyage


def _attendance(campaign: Campaign, users) -> list:
    members = {m.user_id: m.user for m in campaign.memberships.select_related("user")}
    chosen = []
    for user in users or ():
        pk = getattr(user, "pk", user)
        pk = _id(pk, "attendance", "A member")
        if pk not in members:
            raise ValidationError({"attendance": "Only the campaign's members attend."})
        chosen.append(members[pk])
    return chosen


@transaction.atomic
def session_create(*, campaign: Campaign, actor, played_on=None, title: str = "",
                   attendance=(), voyage: Voyage | None = None, gm_notes: str = "") -> Session:
    """A session of play on ``played_on`` with the members who attend (GMs only). Journal
    entries written while it is being played belong to it."""
    _require_gm(actor, campaign)
    if voyage is not None and voyage.campaign_id != campaign.pk:
        raise ValidationError({"voyage": "The voyage must be one of this campaign's."})
    people = _attendance(campaign, attendance)
    session = Session.objects.create(
        campaign=campaign, played_on=played_on or timezone.localdate(),
        title=(title or "").strip()[:200], voyage=voyage, gm_notes=(gm_notes or "").strip())
    session.attendance.set(people)
    log_append(campaign=campaign, kind="session.planned", actor=actor,
               record=("session", session.pk), data={"session": session.pk},
               text=f"{session} ({', '.join(str(u) for u in people) or 'nobody yet'}).")
    return session


@transaction.atomic
def session_end(*, session: Session, actor, version, denouement: str = "",
                attendance=None) -> Session:
    """The GM ends the session with its denouement (BtQ L3381-3388). The page then asks
    whether anyone wants a new mission (BtQ L3386-3388)."""
    session = Session.objects.select_for_update().get(pk=session.pk)
    _require_gm(actor, session.campaign)
    check_version(session, version)
    if session.ended_at is not None:
        raise ValidationError("This session is already over.")
    if attendance is not None:
        session.attendance.set(_attendance(session.campaign, attendance))
    session.denouement = (denouement or "").strip()
    session.ended_at = timezone.now()
    session.version += 1
    session.save()
    log_append(campaign=session.campaign, kind="session.ended", actor=actor,
               record=("session", session.pk), data={"session": session.pk},
               text=f"{session} is over." + (f" {session.denouement}" if session.denouement
                                             else ""))
    session_ended.send(sender=Session, session=session, actor=actor)
    return session


# --- Hooks of traits and optional rules -------------------------------------------------
# For the parts that apply them (the Jonah trait, the optional Scar rule of the sheet).


@transaction.atomic
def mission_jonah(*, campaign: Campaign, character_id: int, actor) -> list[Mission]:
    """The trait Jonah was used (BtQ L1081-1082): the character's current Naval Mission (each
    Naval Mission under way he is on) counts one lost challenge, besides the result of the
    challenge that hurt him: a failed challenge of its own, in the journal. Returns the
    missions it counted for. GMs only."""
    _require_gm(actor, campaign)
    ref = directory.characters(campaign, [character_id]).get(character_id)
    if ref is None:
        raise ValidationError({"character": "No such character in this campaign."})
    naval = list(Mission.objects.filter(campaign=campaign, kind="naval",
                                        status=Mission.Status.ACTIVE,
                                        cast__character_id=character_id))
    if not naval:
        return []
    challenge = Challenge.objects.create(
        campaign=campaign, kind="other", created_by=actor,
        description=f"Jonah: {ref.name}'s ill fortune costs the Naval Mission a challenge")
    challenge.missions.set(naval)
    challenge_record(challenge=challenge, met=False, actor=actor)
    return naval


@transaction.atomic
def mission_scar(*, mission: Mission, actor, version) -> Mission:
    """The optional Scar rule's black number card (BtQ L1318-1319): the mission chosen has
    its failed-challenge deadline reduced by 1 (never below 1), which may fail it at once.
    GMs only; ``StaleVersion`` from an old ``version``."""
    mission = _locked(mission)
    _require_gm(actor, mission.campaign)
    check_version(mission, version)
    if mission.status != Mission.Status.ACTIVE:
        raise ValidationError("Only a mission under way has a deadline to reduce.")
    terms, progress = kernel.reduce_deadline(mission.terms(), mission.progress())
    mission.deadline_failures = terms.deadline_failures
    mission.status = progress.status
    if progress.status == Mission.Status.FAILED:
        mission.ended_at = timezone.now()
    mission.version += 1
    mission.save()
    _log(mission, "mission.scar", f"An infection: the deadline of “{mission}” is now "
         f"{mission.deadline_failures} failed challenges.", actor)
    if mission.status == Mission.Status.FAILED:
        _log(mission, "mission.failed", f"The mission “{mission}” failed: its deadline is "
             "reached. Its failure cost is due.", actor)
    return mission
