"""Card test pages: the campaign's tests (live), calling or proposing one with its odds, a
test's page where the cards turn over live (pushed: ``combat.streams``), and its steps:
confirm, name a Joker, accept, decline, cancel. Thin: access and what each viewer sees through
``combat.card_tests.selectors``, changes through ``combat.card_tests.services``."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from campaigns.confirm import confirmation
from campaigns.forms import VersionedForm
from campaigns.models import Membership
from campaigns.once import once_per_token
from campaigns.selectors import campaign_for_user, membership_role, require_gm
from campaigns.services import Conflict
from characters.models import Character
from combat import selectors as combat_selectors
from combat.card_tests import selectors, services, table
from combat.card_tests.forms import CardTestForm, DeclineForm, JokerForm
from combat.models import Encounter
from rules.btq.tests import TestError

RECENT = 20
STAKES = ("intent", "stakes_win", "stakes_lose")


def _role(request, campaign) -> str:
    return membership_role(request.user, campaign)


def _list_context(request, campaign) -> dict:
    tests = selectors.card_tests_for_user(request.user, campaign)
    open_tests = list(tests.filter(status__in=Encounter.UNFINISHED))
    recent = list(tests.exclude(status__in=Encounter.UNFINISHED)[:RECENT])
    return {"campaign": campaign,
            "open_tests": [selectors.card_test_summary(t) for t in open_tests],
            "recent_tests": [selectors.card_test_summary(t) for t in recent],
            "token": _list_token(open_tests + recent)}


def _list_token(tests) -> str:
    return ",".join(f"{t.pk}.{t.version}" for t in tests)


@login_required
def card_tests(request, pk):
    """The tests of the campaign: open ones and recent ones. With ``?token=`` (fetched on a push)
    the list alone, or 204 if nothing changed since that token."""
    campaign = campaign_for_user(request.user, pk)
    role = _role(request, campaign)
    context = _list_context(request, campaign)
    if "token" in request.GET:
        if request.GET["token"] == context["token"]:
            return HttpResponse(status=204)
        return render(request, "combat/card_tests/_list.html", context)
    own = campaign.characters.filter(kind=Character.Kind.PC, owner=request.user)
    context.update(is_gm=role == Membership.Role.GM, can_propose=own.exists())
    return render(request, "combat/card_tests/list.html", context)


def _characters_for(request, campaign, gm: bool):
    pcs = campaign.characters.filter(kind=Character.Kind.PC).select_related("owner")
    return pcs if gm else pcs.filter(owner=request.user)


@login_required
@once_per_token
def card_test_new(request, pk):
    """GM: call a test; player: propose one. First the character (``?character=``), then
    the pool, the opposition and the stakes, with the odds shown as they are chosen."""
    campaign = campaign_for_user(request.user, pk)
    gm = _role(request, campaign) == Membership.Role.GM
    choices = _characters_for(request, campaign, gm)
    wanted = request.POST.get("character") or request.GET.get("character")
    number = wanted and wanted.isascii() and wanted.isdigit()
    character = choices.filter(pk=wanted).first() if number else None
    if character is None:
        if wanted:
            raise Http404("No such character of yours.")
        return render(request, "combat/card_tests/choose.html",
                      {"campaign": campaign, "characters": choices, "is_gm": gm})
    form = CardTestForm(request.POST or None, campaign=campaign, character=character, gm=gm,
                        challenge=request.GET.get("challenge"))
    if request.method == "POST" and form.is_valid():
        act = services.card_test_call if gm else services.card_test_propose
        extra = {"challenge": form.cleaned_data.get("challenge")} if gm else {}
        test = form.submit(lambda: act(campaign=campaign, actor=request.user, **form.setup(),
                                       **extra))
        if test is not None:
            messages.success(request, f"Test {'called' if gm else 'proposed'}.")
            return redirect("card_tests:detail", pk=campaign.pk, test_pk=test.pk)
    return render(request, "combat/card_tests/new.html", {
        "campaign": campaign, "character": character, "form": form, "is_gm": gm,
        "preview": _preview(request, campaign, form, gm) if form.is_bound else None,
    })


def _whose(user, owner_id: int | None, name: str | None) -> str | None:
    """How the odds name the acting character's pool: ``None`` to his own player (the
    pages then say "Your"), "Master Gregory O'Toole's" to anyone else."""
    if owner_id is not None and owner_id == user.pk:
        return None
    return f"{name}'s" if name else "the character's"


def _preview(request, campaign, form: CardTestForm, gm: bool) -> dict:
    """What the call form shows of the test being set up: the pools, the odds, or what is
    wrong. Players see only their own pool's odds against an NPC."""
    if set(form.errors) - set(STAKES):  # the odds do not depend on the words
        return {"problem": "Fill in the pool and the opposition to see the odds."}
    data = form.setup()
    data["intent"] = data["intent"] or "(the odds before the intent is stated)"
    try:
        setup, _ = services.clean_setup(campaign=campaign, actor=request.user, data=data,
                                        by_gm=gm)
        built = table.build(setup)
    except ValidationError as exc:
        return {"problem": " ".join(exc.messages)}
    except table.OppositionError:
        return {"problem": "The GM settles the opposition when accepting the proposal."}
    except TestError as exc:
        return {"problem": str(exc)}
    settings = campaign.rules_settings()
    floor = settings["personal_pool_floor"]
    public = setup.opposition != table.Opposition.NPC
    return {
        "gates": table.gates(setup),
        "pool": built.side.pool.as_dict(floor),
        "opposition_pool": built.opponent.pool.as_dict(floor) if gm and built.opponent
        else None,
        "odds": table.odds(built, settings) if gm or public else table.own_odds(built, settings),
        "odds_public": public,
        "whose": _whose(request.user, form.character.owner_id, form.character.title),
    }


@login_required
@require_POST
def card_test_preview(request, pk):
    """The odds panel of the call form, for htmx as the form changes."""
    campaign = campaign_for_user(request.user, pk)
    gm = _role(request, campaign) == Membership.Role.GM
    character = _characters_for(request, campaign, gm).filter(
        pk=request.POST.get("character") or 0).first()
    if character is None:
        raise Http404("No such character of yours.")
    form = CardTestForm(request.POST, campaign=campaign, character=character, gm=gm)
    return render(request, "combat/card_tests/_preview.html",
                  {"preview": _preview(request, campaign, form, gm), "is_gm": gm})


TURNS = {"confirm": "agree to the stakes and turn the cards",
         "joker": "name the Joker",
         "accept": "accept or decline the proposed test"}
"""The steps that wait for the viewer, as the "Your turn" banner names them (a GM's cancel
is always open: it waits for nobody)."""


def _your_turn(view: dict) -> str:
    waiting = [TURNS[action] for action in view["actions"] if action in TURNS]
    return f"{view['description']}: {', '.join(waiting)}." if waiting else ""


def _context(request, campaign, test, **extra) -> dict:
    role = _role(request, campaign)
    view = selectors.card_test_view(request.user, test, role)
    names = view["names"]
    source = view["record"] or view["pending"]
    rounds = list(source["rounds"]) if source else []
    if view["pending"]:
        rounds.append(view["pending"]["current"])
    for rnd in rounds:
        for hand in rnd["hands"]:
            hand["name"] = names.get(hand["who"], hand["who"])
    for damage in (view["record"] or {}).get("damage", []):
        damage["name"] = names.get(damage["who"], damage["who"])
    context = {"campaign": campaign, "test": test, "view": view, "rounds": rounds,
               "here": "Card test",
               "whose": _whose(request.user, selectors.card_test_owner_id(test),
                               (view["character"] or {}).get("name")),
               "is_gm": role == Membership.Role.GM,
               "live": selectors.card_test_is_open(test), "noun": "test",
               "encounter": test,
               "your_turn": _your_turn(view),
               "turn_live": selectors.card_test_is_open(test), "turn_anchor": "actions",
               "last_seq": combat_selectors.last_seq(test)}
    if "joker" in view["actions"]:
        context["joker_form"] = JokerForm(
            initial={"version": test.version}, fate=view["pending"]["current"]["fate"])
    if "decline" in view["actions"]:
        context["decline_form"] = DeclineForm(initial={"version": test.version})
    context.update(extra)
    return context


@login_required
def card_test_detail(request, pk, test_pk):
    campaign = campaign_for_user(request.user, pk)
    test = selectors.card_test_for_user(request.user, test_pk, campaign)
    return render(request, "combat/card_tests/detail.html",
                  _context(request, campaign, test))


@login_required
def card_test_live(request, pk, test_pk):
    """The live part of a test's page, fetched when its stream says it changed: 204 while
    the test is still at ``?version=``, else the part as it is now
    (the cards turned, the next step)."""
    campaign = campaign_for_user(request.user, pk)
    test = selectors.card_test_for_user(request.user, test_pk, campaign)
    if request.GET.get("version") == str(test.version):
        return HttpResponse(status=204)
    return render(request, "combat/card_tests/_live.html",
                  _context(request, campaign, test, oob=True))


STEP_FORMS = {"confirm": VersionedForm, "joker": JokerForm, "decline": DeclineForm,
              "cancel": VersionedForm}
DONE_MESSAGES = {"confirm": "The cards are turned.", "joker": "The Joker is named.",
                 "decline": "Proposal declined.", "cancel": "Test cancelled."}


def _take(action: str, test: Encounter, user, data: dict) -> Encounter:
    if action == "confirm":
        return services.card_test_confirm(test=test, actor=user, version=data["version"])
    if action == "joker":
        return services.card_test_declare_joker(test=test, actor=user,
                                                version=data["version"], card=data["card"])
    if action == "decline":
        return services.card_test_decline(test=test, actor=user, version=data["version"],
                                          reason=data["reason"])
    return services.card_test_cancel(test=test, actor=user, version=data["version"])


CONFIRM_STEPS = {
    "cancel": ("Cancel the test “{title}”?", "Cancel the test",
               "It ends now with no cards turned and nothing at stake is lost or won. This "
               "cannot be undone."),
    "decline": ("Decline the proposal of the test “{title}”?", "Decline",
                "The player's proposal ends here; they may propose it again. Say why if you "
                "like."),
}
"""The steps that end a test, asked first (GET) before they are taken (POST)."""


@login_required
@require_http_methods(["GET", "POST"])
def card_test_step(request, pk, test_pk, action):
    """Take one step of a test (``action``: confirm, joker, decline, cancel). A refused step
    shows the test again with the reason: 403 not yours to take, 409 stale or not possible
    now, 400 bad input; nothing is changed then. GET asks before a step that ends the test
    (:data:`CONFIRM_STEPS`); for any other step, or one not open to the user now, it goes
    back to the test."""
    campaign = campaign_for_user(request.user, pk)
    test = selectors.card_test_for_user(request.user, test_pk, campaign)
    if action not in STEP_FORMS:
        raise Http404("No such step.")
    if request.method == "GET":
        context = _context(request, campaign, test)
        if action not in CONFIRM_STEPS or action not in context["view"]["actions"]:
            return redirect("card_tests:detail", pk=campaign.pk, test_pk=test.pk)
        question, button, consequence = CONFIRM_STEPS[action]
        return confirmation(
            request, question=question.format(title=test.title), consequence=consequence,
            button=button, back=reverse("card_tests:detail", args=[campaign.pk, test.pk]),
            form=context.get("decline_form"),
            fields={} if action == "decline" else {"version": test.version})
    fate = ((test.state or {}).get("pending") or {}).get("current", {}).get("fate", "")
    form_class = STEP_FORMS[action]
    form = form_class(request.POST, **({"fate": fate} if form_class is JokerForm else {}))
    if not form.is_valid():
        errors = " ".join(str(e) for errs in form.errors.values() for e in errs)
        return _refused(request, campaign, test, f"Nothing was done: {errors}", 400)
    try:
        _take(action, test, request.user, form.cleaned_data)
    except PermissionDenied as exc:
        return _refused(request, campaign, test, str(exc), 403)
    except Conflict as exc:
        return _refused(request, campaign, test, str(exc), 409)
    except ValidationError as exc:
        return _refused(request, campaign, test, " ".join(exc.messages), 400)
    messages.success(request, DONE_MESSAGES[action])
    return redirect("card_tests:detail", pk=campaign.pk, test_pk=test.pk)


def _refused(request, campaign, test, error: str, status: int):
    test.refresh_from_db()
    return render(request, "combat/card_tests/detail.html",
                  _context(request, campaign, test, error=error), status=status)


@login_required
def card_test_accept(request, pk, test_pk):
    """GM: accept a player's proposal, adjusting its opposition, modifiers or stakes."""
    campaign = campaign_for_user(request.user, pk)
    require_gm(request.user, campaign)
    test = selectors.card_test_for_user(request.user, test_pk, campaign)
    character = campaign.characters.filter(pk=test.terms.get("character")).first()
    if character is None:
        raise Http404("No such character.")
    initial = CardTestForm.initial_from(services.setup_input(test))
    initial["version"] = test.version
    form = CardTestForm(request.POST or None, initial=initial, campaign=campaign,
                        character=character, gm=True, versioned=True)
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            services.card_test_accept(test=test, actor=request.user,
                                      version=form.cleaned_data["version"], **form.setup())
        except Conflict as exc:
            form.add_error(None, str(exc))
            status = 409
        except ValidationError as exc:
            form.add_service_error(exc)
            status = 400
        else:
            messages.success(request, "Test accepted: it awaits its player.")
            return redirect("card_tests:detail", pk=campaign.pk, test_pk=test.pk)
    return render(request, "combat/card_tests/new.html", {
        "campaign": campaign, "character": character, "form": form, "is_gm": True,
        "accepting": test,
        "preview": _preview(request, campaign, form, True) if form.is_bound else None,
    }, status=status)
