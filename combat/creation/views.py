"""Character creation pages: the wizard a player uses on a phone (one step per screen, the
draw shown as cards, the progress line of the nine steps), the GM's review and marked
overrides on the same page, the group's ship, the reference characters. Thin: access and
what each viewer sees through ``combat.creation.selectors``, changes through
``combat.creation.services``. The page follows the draft live (``combat.streams``)."""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import NON_FIELD_ERRORS, PermissionDenied, ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from campaigns.once import once_per_token
from campaigns.selectors import campaign_for_user
from campaigns.services import Conflict
from combat import selectors as combat_selectors
from combat import streams
from combat.creation import selectors, services
from combat.forms import FIELD_PREFIX, decision_fields, typed_choice
from rules.btq import creation

STALE = ("This draft changed since you loaded it (on another device, or the GM acted): "
         "nothing was done. Here it is as it is now; make the step again.")


def _context(request, campaign, draft, *, posted=None, errors=None, error=""):
    view = selectors.draft_view(request.user, draft)
    decisions = []
    for d in view["mine"]:
        mine = posted is not None and posted.get("kind") == d["kind"]
        decisions.append({**d, "form_fields": decision_fields(
            d, posted["values"] if mine else None, errors if mine else None),
            "errors": (errors or {}).get(NON_FIELD_ERRORS, []) if mine else []})
    player = [d for d in decisions if d["actor"] != combat_selectors.GM]
    gm = [d for d in decisions if d["actor"] == combat_selectors.GM]
    state = view["state"]
    return {
        "campaign": campaign, "draft": draft, "encounter": draft, "view": view,
        "state": state, "sheet": state.get("sheet", {}), "player_decisions": player,
        "gm_decisions": gm, "is_gm": view["is_gm"], "noun": "draft", "error": error,
        "here": view["summary"]["name"], "last_seq": combat_selectors.last_seq(draft),
        "live": draft.status == draft.Status.ACTIVE,
        "wealth_text": creation.wealth_text(state["sheet"]) if state.get("sheet") else "",
        "measures": [(label, state.get("sheet", {}).get("measures", {}).get(key))
                     for key, label in creation.MEASURES.items()] if state.get("sheet")
        else [],
        "skills": [(label, state["sheet"]["skills"][k]) for k, label in creation.SKILLS.items()
                   if state.get("sheet", {}).get("skills", {}).get(k)],
        "your_turn": _your_turn(view, player, gm),
        "overridden": [(creation.override_targets(state["sheet"]).get(target, target), mark)
                       for target, mark in state.get("sheet", {}).get("overridden", {})
                       .items()],
        "returned_step": dict(creation.STEPS).get((state.get("returned") or {})
                                                  .get("step"), ""),
        "turn_live": True, "turn_anchor": "step",
    }


def _your_turn(view: dict, player: list, gm: list) -> str:
    """The "Your turn" line: a player's step, or the GM's review of a finished draft (the
    GM's standing override waits for nobody)."""
    name = view["summary"]["name"]
    if player and not view["is_gm"]:
        return f"{name}: your step."
    if any(d["kind"].endswith(".review") for d in gm):
        return f"{name} waits for your approval."
    return ""


@login_required
@require_POST
@once_per_token
def draft_start(request, pk):
    """A player starts making their character."""
    campaign = campaign_for_user(request.user, pk)
    try:
        draft = services.creation_start(campaign=campaign, user=request.user)
    except (ValidationError, PermissionDenied) as exc:
        messages.error(request, " ".join(getattr(exc, "messages", [str(exc)])))
        return redirect("campaigns:detail", pk=campaign.pk)
    return redirect("creation:detail", pk=campaign.pk, draft_pk=draft.pk)


@login_required
def draft_detail(request, pk, draft_pk):
    """The wizard: the step waiting, the cards of the last draw, the sheet so far."""
    campaign = campaign_for_user(request.user, pk)
    draft = selectors.draft_for_user(request.user, draft_pk, campaign)
    return render(request, "combat/creation/detail.html", _context(request, campaign, draft))


@login_required
def draft_live(request, pk, draft_pk):
    """The live part of a draft's page, fetched when its stream says it changed: 204 while
    the draft is still at ``?version=``."""
    campaign = campaign_for_user(request.user, pk)
    draft = selectors.draft_for_user(request.user, draft_pk, campaign)
    if request.GET.get("version") == str(draft.version):
        return HttpResponse(status=204)
    return render(request, "combat/creation/_live.html",
                  {**_context(request, campaign, draft), "oob": True})


@login_required
@require_POST
def draft_act(request, pk, draft_pk):
    """One step: ``kind``, ``version`` and the step's inputs (``choice`` for an option,
    ``f_<field>`` for a typed step). A refused step shows the page again with the reason
    beside each field and what was typed kept: 403 not yours, 409 stale, 400 bad input."""
    campaign = campaign_for_user(request.user, pk)
    draft = selectors.draft_for_user(request.user, draft_pk, campaign)
    kind = request.POST.get("kind", "")
    values = {k[len(FIELD_PREFIX):]: v for k, v in request.POST.items()
              if k.startswith(FIELD_PREFIX)}
    choice = request.POST.get("choice") or typed_choice(request.POST)
    posted = {"kind": kind, "values": values}
    try:
        version = int(request.POST.get("version", ""))
    except ValueError:
        return _again(request, campaign, draft, posted, {}, "Nothing was done: the page "
                      "sent no version. Reload it.", 400)
    try:
        services.creation_decide(draft=draft, user=request.user, kind=kind,
                                 values=choice, version=version)
    except PermissionDenied as exc:
        return _again(request, campaign, draft, posted, {}, str(exc), 403)
    except Conflict:
        return _again(request, campaign, draft, None, {}, STALE, 409)
    except ValidationError as exc:
        errors = exc.message_dict if hasattr(exc, "error_dict") else {
            NON_FIELD_ERRORS: exc.messages}
        known = {f["name"] for d in selectors.draft_view(request.user, draft)["mine"]
                 if d["kind"] == kind for f in d.get("fields", ())}
        general = [m for name, msgs in errors.items() if name not in known for m in msgs]
        errors = {**{k: v for k, v in errors.items() if k in known},
                  NON_FIELD_ERRORS: general}
        return _again(request, campaign, draft, posted, errors,
                      "Nothing was done: see the reasons below.", 400)
    return redirect("creation:detail", pk=campaign.pk, draft_pk=draft.pk)


def _again(request, campaign, draft, posted, errors, error: str, status: int):
    draft.refresh_from_db()
    return render(request, "combat/creation/detail.html",
                  _context(request, campaign, draft, posted=posted, errors=errors,
                           error=error), status=status)


@login_required
@require_POST
@once_per_token
def ship_start(request, pk):
    """GM: the group makes its ship, of the type the GM names."""
    campaign = campaign_for_user(request.user, pk)
    try:
        draft = services.ship_creation_start(campaign=campaign, user=request.user,
                                             ship_type=request.POST.get("ship_type", ""))
    except (ValidationError, PermissionDenied) as exc:
        messages.error(request, " ".join(getattr(exc, "messages", [str(exc)])))
        return redirect("campaigns:detail", pk=campaign.pk)
    return redirect("creation:detail", pk=campaign.pk, draft_pk=draft.pk)


@login_required
@require_POST
@once_per_token
def reference_load(request, pk):
    """GM: the book's characters (O'Toole, the template Captains) as NPCs."""
    campaign = campaign_for_user(request.user, pk)
    try:
        made = services.reference_characters_load(campaign=campaign, actor=request.user)
    except (ValidationError, PermissionDenied) as exc:
        messages.error(request, " ".join(getattr(exc, "messages", [str(exc)])))
    else:
        messages.success(request, ("Loaded: " + ", ".join(c.name for c in made) + ".")
                         if made else "The book's characters are already in the campaign.")
    return redirect("campaigns:detail", pk=campaign.pk)


@login_required
@require_GET
async def draft_stream(request, pk, draft_pk):
    """The draft's events as they are written (``combat.streams.encounter_events``)."""
    user = await request.auser()

    def access(viewer, draft_id):
        campaign = campaign_for_user(viewer, pk)
        return selectors.draft_for_user(viewer, draft_id, campaign)

    await sync_to_async(access)(user, draft_pk)
    return await streams.stream_response(streams.encounter_events(user, draft_pk, access,
                                                      streams.last_event_id(request)))

