"""Mission pages: the missions, one mission with its challenges, new and edited missions,
challenges, voyages and sessions, and the GM's dashboard. Thin: access through
``campaigns.selectors`` and ``campaigns.missions.selectors``, changes through
``campaigns.missions.services``."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from campaigns import directory
from campaigns.confirm import confirmation
from campaigns.missions import selectors, services
from campaigns.missions.forms import (
    ChallengeAcceptForm,
    ChallengeDeclineForm,
    ChallengeForm,
    EndForm,
    MissionEditForm,
    MissionForm,
    ResultForm,
    SampleForm,
    SessionEndForm,
    SessionForm,
    VoyageForm,
    entries_of,
    entry_formset,
    resolve_targets,
)
from campaigns.missions.models import Challenge, Mission, Session, Voyage
from campaigns.missions.targets import target_choices
from campaigns.once import once_per_token
from campaigns.panels import dashboard_render
from campaigns.selectors import campaign_for_user, is_gm, require_gm
from campaigns.services import Conflict
from rules.btq import missions as kernel


def _characters_for_form(request, campaign, gm: bool) -> dict:
    pcs = directory.player_characters(campaign)
    if gm:
        return pcs
    return {pk: ref for pk, ref in pcs.items() if ref.owner_id == request.user.pk}


def _mission_context(request, campaign, mission) -> dict:
    gm = is_gm(request.user, campaign)
    terms = mission.terms()
    tables = services.purchase_tables(campaign)
    characters = directory.characters(campaign)
    return {
        "campaign": campaign, "mission": mission, "is_gm": gm,
        "cast": selectors.cast_of(mission, characters),
        "challenges": selectors.challenges_for_user(request.user, campaign).filter(
            missions=mission).select_related("created_by").order_by("created_at", "id"),
        "challenge_kinds": list(Challenge.KINDS.items()),
        "budget": kernel.budget(terms, tables),
        "rewards": _described(mission.rewards, kernel.REWARD, tables, characters),
        "failures": _described(mission.failures, kernel.FAILURE, tables, characters),
        "may_abandon": selectors.abandon_refusal(request.user, mission) is None,
    }


def _described(entries: list[dict], side: str, tables: dict, characters: dict) -> list[dict]:
    """Each entry with the words a person reads: its table row, cost and for whom."""
    out = []
    for entry in entries:
        row = tables[side].get(entry["kind"])
        scope = kernel.SCOPES.get(entry["scope"], "")
        if entry["scope"] == "character" and entry["character"] in characters:
            scope = characters[entry["character"]].name
        label = row.label if row else entry["kind"]
        words = kernel.entry_words(kernel.Entry.from_dict(entry), label)
        out.append({**entry, "label": label, "words": words,
                    "cost": kernel.entry_cost(kernel.Entry.from_dict(entry), side, tables)
                    if row else 0, "for": scope})
    return out


@login_required
def mission_list(request, pk):
    campaign = campaign_for_user(request.user, pk)
    gm = is_gm(request.user, campaign)
    missions = selectors.missions_for_user(request.user, campaign)
    characters = directory.characters(campaign)
    rows = [{"mission": m, "cast": selectors.cast_of(m, characters)} for m in missions]
    return render(request, "campaigns/missions/mission_list.html", {
        "campaign": campaign, "is_gm": gm, "rows": rows,
        "missing": selectors.missing_initial_missions(campaign),
        "sample_form": SampleForm(characters=directory.player_characters(campaign))
        if gm else None,
    })


def _mission_form_page(request, campaign, *, mission=None):
    gm = is_gm(request.user, campaign)
    if mission is not None and not gm:
        raise PermissionDenied("Only the campaign's GMs change a mission.")
    tables = services.purchase_tables(campaign)
    characters = _characters_for_form(request, campaign, gm)
    every = directory.player_characters(campaign)
    data = request.POST if request.method == "POST" else None
    if mission is None:
        initial = {"characters": [int(c) for c in request.GET.getlist("character")
                                  if c.isascii() and c.isdigit()],
                   "kind": request.GET.get("kind") or ("naval" if gm else "personal")}
        form = MissionForm(data, initial=initial, campaign=campaign, characters=characters,
                           gm=gm)
    else:
        initial = {f: getattr(mission, f) for f in (*services.EDITABLE, "voyage")
                   if f not in ("rewards", "failures")}
        initial.update(version=mission.version,
                       characters=list(mission.cast.values_list("character_id", flat=True)))
        form = MissionEditForm(data, initial=initial, campaign=campaign,
                               characters=characters, gm=gm)
    rewards = entry_formset(kernel.REWARD, data=data, tables=tables, characters=every,
                            initial=mission.rewards if mission else ())
    failures = entry_formset(kernel.FAILURE, data=data, tables=tables, characters=every,
                             initial=mission.failures if mission else ())
    if request.method == "POST" and all(
            [form.is_valid(), rewards.is_valid(), failures.is_valid()]):
        cast = {pk: every[pk] for pk in form.cleaned_data["characters"] if pk in every}
        found = all([resolve_targets(rewards, kernel.REWARD, cast, every),
                     resolve_targets(failures, kernel.FAILURE, cast, every)])
        values = form.values()
        values.update(rewards=entries_of(rewards), failures=entries_of(failures))
        saved = None
        if not found:
            _rules_errors(form, values, tables)
        elif mission is None:
            saved = form.submit(lambda: services.mission_create(
                campaign=campaign, actor=request.user, **values))
        else:
            values.pop("voyage", None)
            saved = form.submit(lambda: services.mission_update(
                mission=mission, actor=request.user, version=form.cleaned_data["version"],
                **values))
        if saved is not None:
            saved_mission, warnings = saved
            for warning in warnings:
                messages.warning(request, warning)
            messages.success(request, f"Mission “{saved_mission}” saved." if gm else
                             f"Mission “{saved_mission}” proposed: the GM will approve it.")
            return redirect("missions:detail", pk=campaign.pk, mission_pk=saved_mission.pk)
    return render(request, "campaigns/missions/mission_form.html", {
        "campaign": campaign, "form": form, "rewards": rewards, "failures": failures,
        "mission": mission, "is_gm": gm, "tables": tables,
        "targets": target_choices(characters),
    })


def _rules_errors(form, values: dict, tables: dict) -> None:
    """The kernel's refusals of ``values`` (a mission form's, whose targets were not all
    found) on ``form``, so that every error shows on the same answer."""
    deadline = values.get("deadline_failures") or values["challenges_required"]
    try:
        terms = kernel.terms_from_dict({**values, "deadline_failures": deadline})
    except kernel.MissionError:
        return
    errors, _ = kernel.validate(terms, tables)
    if errors:
        form.add_service_error(ValidationError(errors))


@login_required
@once_per_token
def mission_new(request, pk):
    """A GM opens a mission; a player proposes one for his own characters."""
    return _mission_form_page(request, campaign_for_user(request.user, pk))


@login_required
def mission_edit(request, pk, mission_pk):
    mission = selectors.mission_for_user(request.user, pk, mission_pk)
    return _mission_form_page(request, mission.campaign, mission=mission)


@login_required
@require_POST
@once_per_token
def mission_sample(request, pk):
    campaign = campaign_for_user(request.user, pk)
    require_gm(request.user, campaign)
    form = SampleForm(request.POST, characters=directory.player_characters(campaign))
    if form.is_valid():
        try:
            mission = services.mission_load_sample(
                campaign=campaign, actor=request.user, key=form.cleaned_data["sample"],
                characters=form.cleaned_data["characters"],
                hidden=form.cleaned_data["hidden"])
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
        else:
            messages.success(request, f"The book's mission “{mission}” is open.")
            return redirect("missions:detail", pk=campaign.pk, mission_pk=mission.pk)
    else:
        messages.error(request, "Choose one of the book's missions.")
    return redirect("missions:list", pk=campaign.pk)


@login_required
def mission_detail(request, pk, mission_pk):
    mission = selectors.mission_for_user(request.user, pk, mission_pk)
    return render(request, "campaigns/missions/mission_detail.html",
                  _mission_context(request, mission.campaign, mission))


STEPS = {
    "approve": ("Approve", services.mission_approve),
    "decline": ("Decline", services.mission_decline),
    "complete": ("Confirm the mission completed", services.mission_complete),
    "fail": ("The deadline passed: the mission fails", services.mission_fail),
    "abandon": ("Abandon the mission", services.mission_fail),
}
QUESTIONS = {
    "decline": ("Decline this proposed mission?", "The player's proposal is set aside."),
    "fail": ("Declare the mission failed?",
             "Its failure cost falls due on every character on it; this cannot be undone."),
    "abandon": ("Abandon the mission?",
                "Abandoning it is failing it: its failure cost falls due; this cannot be "
                "undone."),
}


@login_required
@require_http_methods(["GET", "POST"])
def mission_step(request, pk, mission_pk, action):
    """approve, decline, complete, fail (the narrative deadline passed), abandon. GET asks
    first for the steps that cannot be undone; POST takes them."""
    mission = selectors.mission_for_user(request.user, pk, mission_pk)
    if action not in STEPS:
        raise Http404("No such step.")
    button, service = STEPS[action]
    back = reverse("missions:detail", args=[pk, mission.pk])
    if action == "abandon":
        refusal = selectors.abandon_refusal(request.user, mission)
        if refusal is not None:
            raise PermissionDenied(refusal)
    elif not is_gm(request.user, mission.campaign):
        raise PermissionDenied("Only a GM approves, declines, completes or fails a mission.")
    if request.method == "GET":
        question, consequence = QUESTIONS.get(action, (f"{button}?", ""))
        return confirmation(request, question=question, consequence=consequence,
                            button=button, back=back, form=EndForm(
                                initial={"version": mission.version}))
    form = EndForm(request.POST)
    if not form.is_valid():
        messages.error(request, "The page was out of date: reload it and try again.")
        return redirect(back)
    kwargs = {"mission": mission, "actor": request.user, "version": form.cleaned_data["version"]}
    if action in ("fail", "abandon"):
        kwargs.update(abandoned=action == "abandon", reason=form.cleaned_data["reason"])
    elif action == "decline":
        kwargs["reason"] = form.cleaned_data["reason"]
    try:
        service(**kwargs)
    except (ValidationError, Conflict) as exc:
        messages.error(request, " ".join(getattr(exc, "messages", [str(exc)])))
    else:
        messages.success(request, f"{button}: done.")
    return redirect(back)


@login_required
@once_per_token
def challenge_new(request, pk):
    """The GM calls a challenge for one or more missions, then plays it as a card test or a
    battle (the links on the mission's page) or records its result; a player proposes one
    for the GM to accept or decline."""
    campaign = campaign_for_user(request.user, pk)
    gm = is_gm(request.user, campaign)
    initial = {"missions": [int(m) for m in request.GET.getlist("mission")
                            if m.isascii() and m.isdigit()]}
    form = ChallengeForm(request.POST or None, initial=initial, campaign=campaign,
                         user=request.user)
    if request.method == "POST" and form.is_valid():
        challenge = form.submit(lambda: services.challenge_create(
            campaign=campaign, actor=request.user, **form.cleaned_data))
        if challenge is not None:
            messages.success(request, f"Challenge {'called' if gm else 'proposed'}: "
                                      f"{challenge}.")
            # Back to the mission whose page called it (?mission= of its link), if it counts.
            ids = list(challenge.missions.order_by("pk").values_list("pk", flat=True))
            back = next((m for m in initial["missions"] if m in ids), ids[0])
            return redirect("missions:detail", pk=campaign.pk, mission_pk=back)
    return render(request, "campaigns/missions/challenge_form.html",
                  {"campaign": campaign, "form": form, "is_gm": gm})


@login_required
@require_POST
def challenge_proposal(request, pk, challenge_pk, step):
    """GM: accept (``step`` "accept", with the posted description, kind and GM notes) or
    decline (with a reason) a player's proposed challenge."""
    campaign = campaign_for_user(request.user, pk)
    require_gm(request.user, campaign)
    challenge = get_object_or_404(Challenge, pk=challenge_pk, campaign=campaign)
    form = (ChallengeAcceptForm if step == "accept" else ChallengeDeclineForm)(request.POST)
    if form.is_valid():
        service = services.challenge_accept if step == "accept" else services.challenge_decline
        if form.submit(lambda: service(challenge=challenge, actor=request.user,
                                       **form.cleaned_data)) is not None:
            messages.success(request, "Accepted: the challenge is called." if step == "accept"
                             else "The proposed challenge is declined.")
    if form.errors:
        messages.error(request, " ".join(e for errors in form.errors.values() for e in errors))
    first = challenge.missions.order_by("pk").first()
    return redirect("missions:detail", pk=campaign.pk, mission_pk=first.pk)


@login_required
@require_POST
def challenge_result(request, pk, challenge_pk):
    """The GM's word on a challenge played without an encounter (BtQ L3369-3374: the table
    still turned cards for it, on paper)."""
    campaign = campaign_for_user(request.user, pk)
    require_gm(request.user, campaign)
    challenge = get_object_or_404(Challenge, pk=challenge_pk, campaign=campaign)
    form = ResultForm(request.POST)
    if form.is_valid():
        recorded = services.challenge_record(challenge=challenge, actor=request.user,
                                             met=form.cleaned_data["met"],
                                             summary=form.cleaned_data["summary"])
        if recorded is None:
            messages.info(request, "That challenge already has its result.")
        else:
            messages.success(request, "Result recorded.")
    else:
        messages.error(request, "Say whether the challenge was met or failed.")
    first = challenge.missions.order_by("pk").first()
    if first is None:
        return redirect("missions:list", pk=campaign.pk)
    return redirect("missions:detail", pk=campaign.pk, mission_pk=first.pk)


@login_required
@once_per_token
def sessions(request, pk):
    """Voyages and sessions; a GM plans a session, starts a voyage, ends either."""
    campaign = campaign_for_user(request.user, pk)
    gm = is_gm(request.user, campaign)
    session_form = SessionForm(request.POST if "session" in request.POST else None,
                               campaign=campaign) if gm else None
    voyage_form = VoyageForm(request.POST if "voyage" in request.POST else None) if gm else None
    if request.method == "POST":
        require_gm(request.user, campaign)
        if session_form is not None and session_form.is_bound and session_form.is_valid():
            if session_form.submit(lambda: services.session_create(
                    campaign=campaign, actor=request.user, **session_form.cleaned_data)):
                messages.success(request, "Session planned.")
                return redirect("missions:sessions", pk=campaign.pk)
        if voyage_form is not None and voyage_form.is_bound and voyage_form.is_valid():
            if voyage_form.submit(lambda: services.voyage_create(
                    campaign=campaign, actor=request.user, **voyage_form.cleaned_data)):
                messages.success(request, "The voyage begins.")
                return redirect("missions:sessions", pk=campaign.pk)
    return render(request, "campaigns/missions/sessions.html", {
        "campaign": campaign, "is_gm": gm,
        "voyages": selectors.voyages_for_user(request.user, campaign),
        "sessions": selectors.sessions_for_user(request.user, campaign),
        "session_form": session_form, "voyage_form": voyage_form,
    })


@login_required
@require_http_methods(["GET", "POST"])
def session_end(request, pk, session_pk):
    campaign = campaign_for_user(request.user, pk)
    require_gm(request.user, campaign)
    session = get_object_or_404(Session, pk=session_pk, campaign=campaign)
    form = SessionEndForm(request.POST or None, initial={"version": session.version})
    if request.method == "POST" and form.is_valid():
        if form.submit(lambda: services.session_end(
                session=session, actor=request.user, version=form.cleaned_data["version"],
                denouement=form.cleaned_data["denouement"])):
            messages.success(request, "The session is over. Three cheers for the King! Does "
                                      "anyone want a new mission?")
            return redirect(reverse("missions:new", args=[campaign.pk]) + "?after_session=1")
    return render(request, "campaigns/missions/session_end.html",
                  {"campaign": campaign, "session": session, "form": form})


@login_required
@require_POST
def voyage_recall(request, pk, voyage_pk):
    campaign = campaign_for_user(request.user, pk)
    require_gm(request.user, campaign)
    voyage = get_object_or_404(Voyage, pk=voyage_pk, campaign=campaign)
    try:
        services.voyage_recall(voyage=voyage, actor=request.user,
                               version=request.POST.get("version"))
    except (ValidationError, Conflict) as exc:
        messages.error(request, " ".join(getattr(exc, "messages", [str(exc)])))
    else:
        messages.success(request, f"{voyage} is over: the ship is recalled to Britain.")
    return redirect("missions:sessions", pk=campaign.pk)


@login_required
def dashboard(request, pk):
    """The GM's view of the campaign at a glance: open missions with their counters and
    deadlines, what waits for the GM, and the other apps' sections (the characters' damage
    states, Wealth and reputations: ``campaigns.panels.register_dashboard``)."""
    campaign = campaign_for_user(request.user, pk)
    require_gm(request.user, campaign)
    open_missions = Mission.objects.filter(campaign=campaign, status__in=Mission.OPEN)
    characters = directory.characters(campaign)
    base = {"campaign": campaign, "is_gm": True, "role": "gm"}
    return render(request, "campaigns/missions/dashboard.html", {
        **base,
        "rows": [{"mission": m, "cast": selectors.cast_of(m, characters)}
                 for m in open_missions.prefetch_related("cast")],
        "waiting": selectors.gm_waiting(campaign),
        "panels": dashboard_render(request, campaign, "gm", base),
    })
