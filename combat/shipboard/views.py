"""The shipboard page of a character: Wealth and purchases, prize shares, the Purser and
Scavenge, grog, the Captain's table and the gun deck, the service record and promotion, the
Lieutenant's examination, the Articles of War (a test in the weather is called from the card
tests' call form). Thin: what the viewer sees through ``combat.shipboard.selectors``, each
form a use case of
``combat.shipboard.services`` or ``characters.shipboard``. A use case that draws opens a card
test: the page goes on to that test, where the player turns the cards."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from campaigns.confirm import confirmation
from campaigns.once import once_per_token
from campaigns.selectors import campaign_for_user, require_gm
from campaigns.services import Conflict
from characters import shipboard as records
from characters.models import PrizeShare, SceneToken
from combat.shipboard import forms, selectors, services
from rules.cards import card_count
from ships import prizes
from ships.models import Prize

ACTIONS = {
    # action: (form, GM only, use case)
    "buy": (forms.BuyForm, False,
            lambda c, u, d: services.purchase_start(character=c, actor=u, **d)),
    "supply": (forms.SupplyForm, False,
               lambda c, u, d: services.supply_start(character=c, actor=u, **d)),
    "grog": (forms.GrogForm, False,
             lambda c, u, d: services.grog_start(character=c, actor=u, **d)),
    "scene": (forms.SceneForm, True,
              lambda c, u, d: services.scene_start(character=c, actor=u, **d)),
    "examination": (forms.ExaminationForm, True,
                    lambda c, u, d: services.examination_start(character=c, actor=u, **d)),
    "promote": (forms.PromoteForm, True,
                lambda c, u, d: records.character_promote(character=c, actor=u, **d)),
    "career": (forms.CareerForm, True,
               lambda c, u, d: records.career_update(character=c, actor=u, **d)),
    "charge": (forms.ChargeForm, True,
               lambda c, u, d: records.infraction_record(character=c, actor=u, **d)),
    "token": (forms.TokenForm, False, None),
}
"""Each form of the page: its class, whether only the GM sees it, and its use case
``(character, user, cleaned data)``."""

DONE = {
    "promote": "Promoted.", "career": "The service record is saved.",
    "charge": "The punishment is recorded.",
}


def _forms(character, gm: bool, bound: tuple[str, object] | None = None) -> dict:
    career = records.career_of(character)
    initial = {
        "promote": {"version": character.version},
        "career": {"version": career.version, "voyages_completed": career.voyages_completed,
                   "voyages_since_promotion": career.voyages_since_promotion,
                   "profession": career.profession,
                   "examination_barred": career.examination_barred},
    }
    built = {}
    for action, (form_class, gm_only, _) in ACTIONS.items():
        if gm_only and not gm:
            continue
        if bound is not None and bound[0] == action:
            built[action] = bound[1]
        else:
            built[action] = form_class(character=character, gm=gm, prefix=action,
                                       initial=initial.get(action))
    return built


def _page(request, character, access, bound=None, status=200):
    gm = access == "gm"
    view = selectors.shipboard_view(request.user, character, access)
    context = {"campaign": character.campaign, "character": character, "view": view,
               "forms": _forms(character, gm, bound) if view["can_act"] else {},
               "is_gm": gm}
    return render(request, "combat/shipboard/character.html", context, status=status)


@login_required
def shipboard_character(request, pk):
    """The character's shipboard page (any member; an NPC's, the GM's alone)."""
    character, access = selectors.shipboard_character(request.user, pk)
    return _page(request, character, access)


@login_required
@require_POST
@once_per_token
def shipboard_act(request, pk, action):
    """One form of the page, posted: the use case runs; a test it opens is where the page
    goes next, else back here with what was done; a refusal shows on the form's fields."""
    character, access = selectors.shipboard_character(request.user, pk)
    if action not in ACTIONS:
        raise Http404("No such action.")
    form_class, gm_only, use = ACTIONS[action]
    gm = access == "gm"
    if access not in ("gm", "owner") or (gm_only and not gm):
        raise PermissionDenied("That is not yours to do.")
    form = form_class(request.POST, character=character, gm=gm, prefix=action)
    if not form.is_valid():
        return _page(request, character, access, (action, form), status=400)
    data = form.arguments() if hasattr(form, "arguments") else dict(form.cleaned_data)
    if action == "token":
        token = SceneToken.objects.filter(pk=data["token"], campaign=character.campaign).first()
        if token is None:
            raise Http404("No such token.")
        result = form.submit(lambda: records.scene_token_spend(
            token=token, actor=request.user, challenge=data["challenge"]))
        if result is None:
            return _page(request, character, access, (action, form), status=400)
        added = card_count(result["cards"], signed=True)
        messages.success(request, f"{result['source']}: {added} on that challenge.")
        return redirect("shipboard:character", character.pk)
    result = form.submit(lambda: use(character, request.user, data))
    if result is None:
        return _page(request, character, access, (action, form), status=400)
    if isinstance(result, services.Started):
        messages.success(request, result.message)
        if result.test is not None and result.test.engine == "btq_test":
            return redirect("card_tests:detail", character.campaign_id, result.test.pk)
        if result.test is not None:
            return redirect("combat:detail", result.test.pk)
    else:
        messages.success(request, DONE.get(action, "Done."))
    return redirect("shipboard:character", character.pk)


@login_required
@require_POST
def shipboard_share_spent(request, pk):
    """GM: a prize share is spent (the ship has left port)."""
    share = PrizeShare.objects.select_related("character__campaign").filter(pk=pk).first()
    if share is None:
        raise Http404("No such share.")
    campaign = campaign_for_user(request.user, share.character.campaign_id)
    require_gm(request.user, campaign)
    records.prize_share_close(share=share, actor=request.user)
    messages.success(request, "The share is spent.")
    return redirect("shipboard:character", share.character_id)


PRIZE_QUESTIONS = {
    # status: (question, what follows, button)
    Prize.Status.ARRIVED: ("Has the prize {prize} reached port?",
                           "Her prize money is shared out now, by rank, to the men who took "
                           "her, and she is the players’ for good. This cannot be undone.",
                           "She reached port"),
    Prize.Status.LOST: ("Was the prize {prize} lost on her way to port?",
                        "Nothing is paid for her. This cannot be undone.", "She is lost"),
    Prize.Status.RECAPTURED: ("Was the prize {prize} recaptured by the enemy?",
                              "Nothing is paid for her, and she is an enemy again. This "
                              "cannot be undone.", "She is recaptured"),
}
"""The confirmation of each way a prize ends (``ships.prizes.RESOLUTIONS``)."""


@login_required
@require_http_methods(["GET", "POST"])
@once_per_token
def shipboard_prize_resolve(request, pk):
    """GM: a prize reached port (her prize money is shared out), or was lost or recaptured.
    GET (``?status=``) asks first, as every act that cannot be undone; POST does it, once
    per form (``campaigns.once``)."""
    prize = Prize.objects.filter(pk=pk).first()
    if prize is None:
        raise Http404("No such prize.")
    campaign = campaign_for_user(request.user, prize.campaign_id)
    back = reverse("campaigns:detail", args=[campaign.pk])
    if request.method == "GET":
        require_gm(request.user, campaign)
        status = request.GET.get("status", "")
        if status not in PRIZE_QUESTIONS:
            messages.error(request, "A prize reaches port, is lost or is recaptured.")
            return redirect(back)
        if prize.status != Prize.Status.HELD:
            messages.info(request, f"{prize} is no longer on her way to port: "
                                   f"{prize.get_status_display().lower()}.")
            return redirect(back)
        question, consequence, button = PRIZE_QUESTIONS[status]
        return confirmation(request, question=question.format(prize=prize),
                            consequence=consequence, button=button, back=back,
                            fields={"status": status, "version": prize.version}, once=True)
    try:
        prize = prizes.prize_resolve(prize=prize, actor=request.user,
                                     version=request.POST.get("version"),
                                     status=request.POST.get("status", ""))
    except Conflict as exc:
        messages.error(request, str(exc))
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, f"{prize}: {prize.get_status_display().lower()}.")
    return redirect(back)


@login_required
@require_POST
def shipboard_session_end(request, campaign_pk):
    """GM: the session ends and the social tokens expire."""
    campaign = campaign_for_user(request.user, campaign_pk)
    count = records.scene_tokens_expire(campaign=campaign, actor=request.user)
    messages.success(request, f"{count} token{'s' if count != 1 else ''} expired.")
    return redirect(reverse("campaigns:detail", args=[campaign.pk]))
