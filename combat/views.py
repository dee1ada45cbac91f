"""Battle pages: server-rendered, with live parts fetched when their event stream
(``combat.streams``) says something changed. Views are thin: they check access through
``combat.selectors`` and change state through ``combat.services``."""

from contextlib import contextmanager

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns.confirm import confirmation
from campaigns.once import once_per_token
from campaigns.selectors import campaign_for_user, membership_role, require_gm
from campaigns.services import StaleVersion
from characters.selectors import character_for_user
from combat import healing, selectors, services
from combat.creation.services import ENGINES as DRAFT_ENGINES
from combat.forms import ActForm, NavalEncounterForm, VersionForm, typed_choice
from combat.models import Encounter
from combat.odds.forms import OddsForm
from rules.engine import get_engine
from ships.selectors import ship_for_user

STALE_MESSAGE = ("The {noun} moved on while you were deciding (someone else acted first). "
                 "Nothing was changed: here is the {noun} as it stands now.")
"""Said with the encounter's own word (``combat.services.encounter_noun``): a boarding's
page calls it a boarding, not a battle."""
ALREADY_MADE_MESSAGE = ("This decision was already made (in another tab or window, or by "
                        "someone else) and the game has moved on. Nothing was changed: here "
                        "is the game as it stands now.")
_NO_VERSION = "The page did not say which version of the {noun} it showed."
MOVED_ON_MESSAGE = ("The game moved on while you were deciding (another decision was made "
                    "first). Nothing was changed: your decision is still to make, below.")


@contextmanager
def _refusal_as_message(request, encounter, *shown: type[Exception]):
    """Show a service's refusal of a step as an error message on the page of ``encounter``
    the view redirects to (nothing was changed): a stale version (someone acted first), the
    rules' reason (``ValidationError``), and the text of any exception of the classes
    ``shown``."""
    try:
        yield
    except StaleVersion:
        messages.error(request, STALE_MESSAGE.format(noun=services.encounter_noun(encounter)))
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    except shown as exc:
        messages.error(request, str(exc))


@login_required
@require_GET
def encounter_list(request, campaign_id):
    campaign = campaign_for_user(request.user, campaign_id)
    is_gm = membership_role(request.user, campaign) == "gm"
    participants = ["gm"] if is_gm else []
    return render(request, "combat/list.html", {
        "campaign": campaign,
        "encounters": [(encounter, selectors.outcome_for(encounter, participants))
                       for encounter in selectors.encounters_for_user(request.user, campaign)],
        "is_gm": is_gm,
    })


@login_required
@require_http_methods(["GET", "POST"])
@once_per_token
def encounter_new(request, campaign_id):
    campaign = campaign_for_user(request.user, campaign_id)
    require_gm(request.user, campaign)
    form = NavalEncounterForm(request.POST or None, campaign=campaign,
                              challenge=request.GET.get("challenge"))
    if request.method == "POST" and form.is_valid():
        data, battle = form.cleaned_data, form.new_battle()
        encounter = form.submit(lambda: services.encounter_create(
            campaign=campaign, user=request.user, engine="btq_naval", title=battle.name(),
            setup=battle.setup(), stacked_cards=data["stacked_cards"],
            stacked_choices=data["stacked_choices"], ships=battle.ships,
            challenge=data.get("challenge"), decision_timeout=data["decision_timeout"],
        ))
        if encounter is not None:
            return redirect("combat:detail", pk=encounter.pk)
    return render(request, "combat/new.html", {"campaign": campaign, "form": form,
                                               "odds_form": OddsForm()})


def _battle_context(request, encounter) -> dict:
    participants = selectors.participant_ids_for(request.user, encounter)
    mine, waiting = selectors.decisions_for(encounter, participants)
    events = selectors.events_for(encounter, participants)
    is_gm = "gm" in participants
    job = selectors.latest_job(encounter)
    cancellable = is_gm and encounter.status in Encounter.UNFINISHED
    own = [d for d in mine if not d["for_player"]]
    # the players' decisions the GM may make for them sit apart, behind their own control
    # (_decisions.html), so that he does not take a player's turn by mistake
    theirs = [d for d in mine if d["for_player"]]
    return {
        "your_turn": "; ".join(f"{d['actor_name']}: {d['prompt']}" for d in own),
        "turn_live": encounter.status in Encounter.UNFINISHED,
        "encounter": encounter,
        "noun": services.encounter_noun(encounter),
        "campaign": encounter.campaign,
        "is_gm": is_gm,
        "view": selectors.view_for(encounter, participants),
        "outcome": selectors.outcome_for(encounter, participants),
        "decisions": own,
        "for_players": theirs,
        "waiting": waiting + [n for n in dict.fromkeys(d["actor_name"] for d in theirs)
                              if n not in waiting],
        "events": events,
        "last_seq": events[-1]["seq"] if events else 0,
        "job": job,
        "cancel_effect": services.encounter_cancel_effect(encounter) if cancellable else "",
        "poll_token": _poll_token(encounter, job),
        "engine_template": [f"combat/engines/{encounter.engine}.html",
                            "combat/engines/generic.html"],
        # a wargame rolls dice: the legend of the cards would mislead
        "turns_cards": not getattr(get_engine(encounter.engine), "wargame", False),
    }


def _poll_token(encounter, job) -> str:
    """Changes whenever the page's panels would look different."""
    job_part = f"{job.pk}-{job.status}-{job.steps}" if job else "none"
    return f"{encounter.version}-{job_part}"


@login_required
@require_GET
def encounter_open(request, pk):
    """The page of encounter ``pk`` whatever its engine (the journal's link): a card test's
    or a draft's own page, else the battle's. Reaches nothing the user may not see: each
    page checks access itself, and an unknown id is a 404."""
    found = Encounter.objects.filter(pk=pk).values_list("engine", "campaign_id").first()
    if found is None:
        raise Http404("No such battle.")
    engine, campaign_id = found
    if engine == "btq_test":
        return redirect("card_tests:detail", campaign_id, pk)
    if engine in DRAFT_ENGINES:
        return redirect("creation:detail", campaign_id, pk)
    return redirect("combat:detail", pk=pk)


@login_required
@require_GET
def encounter_detail(request, pk):
    """The battle's page; to a player, a battle still being prepared is a page that says so
    (and opens the battle once it begins), not a 404."""
    try:
        encounter = selectors.encounter_for_user(request.user, pk)
    except Http404:
        waiting = selectors.encounter_not_begun_for_user(request.user, pk)
        if waiting is None:
            raise
        return render(request, "combat/not_begun.html", {"campaign": waiting.campaign,
                                                         "encounter_id": waiting.pk})
    return render(request, "combat/detail.html", _battle_context(request, encounter))


@login_required
@require_GET
def encounter_poll(request, pk):
    """The live part of the battle page, fetched on a push (``static/js/live.js``): new
    events (appended to the log) and, when the battle changed, fresh state, decision and job
    panels. ``after`` is the last event the page shows, ``token`` the state it shows;
    204 when nothing is new."""
    encounter = selectors.encounter_for_user(request.user, pk)
    context = _battle_context(request, encounter)
    try:
        after = int(request.GET.get("after", 0))
    except ValueError:
        after = 0
    new_events = [e for e in context["events"] if e["seq"] > after]
    changed = request.GET.get("token") != context["poll_token"]
    if not new_events and not changed:
        return HttpResponse(status=204)
    return render(request, "combat/_poll.html",
                  {**context, "new_events": new_events, "changed": changed})


@login_required
@require_POST
def encounter_start(request, pk):
    encounter = selectors.encounter_for_user(request.user, pk)
    form = VersionForm(request.POST)
    with _refusal_as_message(request, encounter):
        if not form.is_valid():
            raise ValidationError(_NO_VERSION.format(noun=services.encounter_noun(encounter)))
        services.encounter_start(encounter=encounter, user=request.user,
                                 expected_version=form.cleaned_data["version"])
    return redirect("combat:detail", pk=encounter.pk)


@login_required
@require_http_methods(["GET", "POST"])
def encounter_cancel(request, pk):
    """GET: the GM is asked first; POST: the battle (boarding, fight...) is cancelled."""
    encounter = selectors.encounter_for_user(request.user, pk)
    noun = services.encounter_noun(encounter)
    if request.method == "GET":
        require_gm(request.user, encounter.campaign)
        if encounter.status not in Encounter.UNFINISHED:
            messages.info(request, f"This {noun} is already cancelled."
                          if encounter.status == Encounter.Status.CANCELLED
                          else f"This {noun} is over: it cannot be cancelled now.")
            return redirect("combat:detail", pk=encounter.pk)
        return confirmation(
            request, question=f"Cancel the {noun} “{encounter.title}”?",
            consequence=f"It ends at once. {services.encounter_cancel_effect(encounter)} "
                        "This cannot be undone.",
            button=f"Cancel the {noun}", back=reverse("combat:detail", args=[encounter.pk]),
            fields={"version": encounter.version})
    form = VersionForm(request.POST)
    with _refusal_as_message(request, encounter, PermissionDenied):
        if not form.is_valid():
            raise ValidationError(_NO_VERSION.format(noun=noun))
        services.encounter_cancel(encounter=encounter, user=request.user,
                                  expected_version=form.cleaned_data["version"])
        messages.success(request, f"The {noun} is cancelled. "
                                  f"{services.encounter_cancel_effect(encounter)}")
    return redirect("combat:detail", pk=encounter.pk)


@login_required
@require_POST
def encounter_act(request, pk):
    """One decision from the battle page. A form from an older version is taken if its
    decision has been pending unchanged since (the other side's orders came in first);
    otherwise it changes nothing and says which it was: the decision already made, in
    another tab say, or still to make after someone else's changed it."""
    encounter = selectors.encounter_for_user(request.user, pk)
    form = ActForm(request.POST)
    with _refusal_as_message(request, encounter, PermissionDenied):
        if not form.is_valid():
            raise ValidationError("Choose one of the options.")
        data = form.cleaned_data
        try:
            services.encounter_act(
                encounter=encounter, user=request.user, actor=data["actor"],
                decision_kind=data["kind"], choice=data["choice"] or typed_choice(request.POST),
                expected_version=data["version"],
            )
        except StaleVersion:
            messages.error(request, MOVED_ON_MESSAGE if selectors.decision_awaited(
                encounter, data["actor"], data["kind"]) else ALREADY_MADE_MESSAGE)
    return redirect("combat:detail", pk=encounter.pk)


@login_required
@require_POST
@once_per_token
def encounter_resolve_rest(request, pk):
    encounter = selectors.encounter_for_user(request.user, pk)
    with _refusal_as_message(request, encounter):
        services.encounter_resolve_rest(encounter=encounter, user=request.user)
        messages.success(request, f"The rest of the {services.encounter_noun(encounter)} is "
                                  "being resolved.")
    return redirect("combat:detail", pk=encounter.pk)


def _healing_step(request, call, back: str):
    """Call a heal or repair test (``combat.healing``) and open it, or go ``back`` with the
    refusal."""
    try:
        test = call()
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect(back)
    messages.success(request, "The test is called: its player turns the cards.")
    return redirect("card_tests:detail", pk=test.campaign_id, test_pk=test.pk)


@login_required
@require_POST
def heal_test(request, pk):
    """GM: call the simple test that heals a character's Injured area (``area``,
    ``reputation``, ``healer``, ``skill`` from the form)."""
    character = character_for_user(request.user, pk)
    reputation = healer = None
    if request.POST.get("reputation"):
        reputation = character.reputations.filter(pk=request.POST["reputation"]).first()
    if request.POST.get("healer", "").isdigit():
        healer = character.campaign.characters.filter(pk=request.POST["healer"]).first()
    return _healing_step(request, lambda: healing.heal_call(
        character=character, area=request.POST.get("area", ""), actor=request.user,
        reputation=reputation, healer=healer, skill=request.POST.get("skill", "")),
        reverse("characters:detail", args=[character.pk]))


@login_required
@require_POST
def scar_draw(request, pk):
    """The GM or the character's player turns the Scar card that is due (the optional Scar
    rule): its page opens, for the player to turn it."""
    character = character_for_user(request.user, pk)
    try:
        encounter = healing.scar_draw_start(character=character, actor=request.user)
    except (ValidationError, PermissionDenied) as exc:
        messages.error(request, " ".join(getattr(exc, "messages", [str(exc)])))
        return redirect("characters:detail", pk=character.pk)
    return redirect("combat:detail", pk=encounter.pk)


@login_required
@require_POST
@once_per_token
def repair_test(request, pk):
    """GM: between battles, call the repair test of one of a ship's areas."""
    ship = ship_for_user(request.user, pk)
    character = None
    if request.POST.get("character", "").isdigit():
        character = ship.campaign.characters.filter(pk=request.POST["character"]).first()
    return _healing_step(request, lambda: healing.ship_repair_call(
        ship=ship, area=request.POST.get("area", ""), character=character, actor=request.user,
        skill=request.POST.get("skill", "")), reverse("ships:detail", args=[ship.pk]))
