"""Who may see which missions, challenges, voyages and sessions, and the reads the pages
need (the single place that decides it, as ``campaigns.selectors`` does for a campaign).

GMs see everything. Players see every mission that is not ``hidden`` (the table shares its
missions, BtQ L3362-3367) and their own proposals; never a hidden mission, its challenges,
any GM notes, or a session's GM notes. Outsiders get a 404 from the campaign first.
"""

from __future__ import annotations

from django.db.models import Prefetch, Q, QuerySet
from django.http import Http404

from campaigns import directory
from campaigns.missions.models import Challenge, ChallengeResult, Mission, Session, Voyage
from campaigns.models import Campaign, Membership
from campaigns.selectors import campaign_for_user, is_gm, membership_role


def missions_for_user(user, campaign: Campaign) -> QuerySet[Mission]:
    """The missions of ``campaign`` that ``user`` may see, newest first, with their cast."""
    role = membership_role(user, campaign)
    missions = Mission.objects.filter(campaign=campaign).prefetch_related("cast")
    if role is None:
        return missions.none()
    if role != Membership.Role.GM:
        missions = missions.filter(hidden=False).filter(
            ~Q(status__in=(Mission.Status.PROPOSED, Mission.Status.DECLINED))
            | Q(proposed_by=user))
    return missions


def mission_for_user(user, campaign_id, mission_id) -> Mission:
    """The mission ``mission_id`` of campaign ``campaign_id`` if ``user`` may see it;
    ``Http404`` otherwise (a hidden mission does not exist for a player)."""
    campaign = campaign_for_user(user, campaign_id)
    try:
        return missions_for_user(user, campaign).select_related("campaign", "voyage").get(
            pk=mission_id)
    except (Mission.DoesNotExist, ValueError, TypeError):
        raise Http404("No such mission.") from None


def challenges_for_user(user, campaign: Campaign) -> QuerySet[Challenge]:
    """The challenges ``user`` may see: all for a GM; for a player those of a mission he
    sees, each with only those missions (``visible_missions``) and its result."""
    visible = missions_for_user(user, campaign)
    challenges = Challenge.objects.filter(campaign=campaign).select_related("result")
    if not is_gm(user, campaign):
        challenges = challenges.filter(missions__in=visible).distinct()
    return challenges.prefetch_related(
        Prefetch("missions", queryset=visible, to_attr="visible_missions"))


def open_challenges(campaign: Campaign) -> QuerySet[Challenge]:
    """The challenges still to be played (no result, a mission under way): what a new
    encounter may be played for (the GM's forms; DECISIONS D6)."""
    return (Challenge.objects.filter(campaign=campaign, result__isnull=True,
                                     status=Challenge.Status.CALLED,
                                     missions__status=Mission.Status.ACTIVE)
            .distinct().prefetch_related("missions").order_by("-created_at", "-id"))


def challenge_results(mission: Mission) -> list[ChallengeResult | None]:
    """The mission sheet's challenge slots (BtQ L3866-3876): its challenges in order, each
    with its result or ``None`` while it is to be played."""
    return list(mission.challenges.select_related("result").order_by("created_at", "id"))


def cast_of(mission: Mission, characters: dict | None = None) -> list[directory.CharacterRef]:
    """The characters on ``mission`` (``campaigns.directory``), by name."""
    ids = [c.character_id for c in mission.cast.all()]
    found = characters if characters is not None else directory.characters(
        mission.campaign, ids)
    return sorted((found[pk] for pk in ids if pk in found), key=lambda r: r.name)


def abandon_refusal(user, mission: Mission) -> str | None:
    """Why ``user`` may not abandon ``mission``, or ``None`` if he may. A GM abandons any
    mission under way; a player only his own Mission of Personal Importance, every
    character on it his (the characters abandon it, BtQ L1448, L1484; a Naval Mission is
    the whole table's, its end the GM's to say)."""
    if not mission.is_open:
        return "This mission is over."
    role = membership_role(user, mission.campaign)
    if role == Membership.Role.GM:
        return None
    if mission.kind != "personal" or mission.hidden:
        return "Only a GM abandons a mission the table shares."
    ids = list(mission.cast.values_list("character_id", flat=True))
    owners = {ref.owner_id for ref in directory.characters(mission.campaign, ids).values()}
    if not ids or owners != {user.pk}:
        return "Only the player of the character on it abandons a Mission of Personal " \
               "Importance."
    return None


def missions_of_character(user, campaign: Campaign, character_id: int) -> QuerySet[Mission]:
    """The missions ``user`` may see that ``character_id`` is on."""
    return missions_for_user(user, campaign).filter(cast__character_id=character_id)


def missing_initial_missions(campaign: Campaign) -> list[dict]:
    """Every PC who is not on an open Naval Mission or Mission of Personal Importance:
    each starts play with both (BtQ L1490-1498). ``[{"character", "missing": [kind
    labels]}]``, by name."""
    pcs = directory.player_characters(campaign)
    have: dict[int, set[str]] = {}
    for character_id, kind in Mission.objects.filter(
            campaign=campaign, status__in=(*Mission.OPEN, Mission.Status.PROPOSED),
            kind__in=("naval", "personal")).values_list("cast__character_id", "kind"):
        have.setdefault(character_id, set()).add(kind)
    labels = {"naval": "Naval Mission", "personal": "Mission of Personal Importance"}
    out = []
    for pk, ref in sorted(pcs.items(), key=lambda item: item[1].name):
        missing = [labels[k] for k in ("naval", "personal") if k not in have.get(pk, set())]
        if missing:
            out.append({"character": ref, "missing": missing})
    return out


def voyages_for_user(user, campaign: Campaign) -> QuerySet[Voyage]:
    if membership_role(user, campaign) is None:
        return Voyage.objects.none()
    return Voyage.objects.filter(campaign=campaign)


def sessions_for_user(user, campaign: Campaign) -> QuerySet[Session]:
    """The campaign's sessions, newest first (their GM notes are for GMs: the templates and
    the API leave them out for players)."""
    if membership_role(user, campaign) is None:
        return Session.objects.none()
    return Session.objects.filter(campaign=campaign).prefetch_related("attendance")


def gm_waiting(campaign: Campaign) -> dict:
    """What waits for the GM: proposed missions and challenges, missions whose challenges
    are met (to confirm), PCs without their initial missions, sessions whose date has passed
    but are not ended."""
    missions = Mission.objects.filter(campaign=campaign)
    return {
        "proposed": list(missions.filter(status=Mission.Status.PROPOSED)),
        "proposed_challenges": list(Challenge.objects.filter(
            campaign=campaign, status=Challenge.Status.PROPOSED).prefetch_related("missions")),
        "to_confirm": list(missions.filter(status=Mission.Status.REQUIREMENT_MET)),
        "missing": missing_initial_missions(campaign),
    }


def campaign_panel(request, campaign: Campaign, role: str) -> dict:
    """The campaign page's missions section: the open missions the viewer may see, with
    their counters (``campaigns.panels``)."""
    characters = directory.characters(campaign)
    missions = missions_for_user(request.user, campaign).filter(status__in=Mission.OPEN)
    return {"mission_rows": [{"mission": m, "cast": cast_of(m, characters)} for m in missions],
            "missing_missions": missing_initial_missions(campaign)}
