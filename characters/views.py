"""Character pages: a character's sheet (as much as the viewer may see), creation by a GM,
editing by a GM or the PC's player."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from campaigns.confirm import confirmation
from campaigns.selectors import campaign_for_user, require_gm
from campaigns.services import Conflict
from characters import selectors, services
from characters.forms import CharacterForm, ReputationForm
from characters.sections import sections_render
from rules.btq.characters import MEASURES, SKILLS, DamageState


@login_required
def character_new(request, campaign_pk):
    campaign = campaign_for_user(request.user, campaign_pk)
    require_gm(request.user, campaign)
    form = CharacterForm(request.POST or None, access="gm", campaign=campaign)
    if request.method == "POST" and form.is_valid():
        character = form.submit(lambda: services.character_create(
            campaign=campaign, actor=request.user, **form.changes()))
        if character is not None:
            messages.success(request, f"{character} created.")
            return redirect("characters:detail", pk=character.pk)
    return render(request, "characters/character_form.html",
                  {"campaign": campaign, "form": form, "character": None})


@login_required
def character_detail(request, pk):
    character = selectors.character_for_user(request.user, pk)
    access = selectors.character_access(request.user, character)
    ship = character.ship
    base = {"campaign": character.campaign, "character": character, "access": access}
    return render(request, "characters/character_detail.html", {
        "sections": sections_render(request, character, access, base),
        "campaign": character.campaign,
        "character": character,
        "access": access,
        "can_edit": access in ("gm", "owner"),
        "is_gm": access == "gm",
        "measures": [(label, getattr(character, key)) for key, label in MEASURES.items()],
        "skills": [(SKILLS[k], v) for k, v in character.skill_values().items()],
        "postings": character.postings.select_related("ship"),
        "ship": ship,
        "ship_morale": None if ship is None or (ship.is_hidden_from_players and access != "gm")
        else DamageState(ship.morale_state).label,
        "reputations": character.reputations.all(),
    })


@login_required
def character_edit(request, pk):
    character = selectors.character_for_user(request.user, pk)
    access = selectors.require_character_edit(request.user, character)
    form = CharacterForm(request.POST or None, access=access, campaign=character.campaign,
                         character=character)
    if request.method == "POST" and form.is_valid():
        saved = form.submit(lambda: services.character_update(
            character=character, actor=request.user, version=form.cleaned_data["version"],
            **form.changes()))
        if saved is not None:
            messages.success(request, f"{character} saved.")
            return redirect("characters:detail", pk=character.pk)
    return render(request, "characters/character_form.html",
                  {"campaign": character.campaign, "form": form, "character": character})


@login_required
@require_POST
def character_reveal(request, pk):
    """GM: reveal the NPC to the players (``revealed=1``) or hide it again (``0``)."""
    character = selectors.character_for_user(request.user, pk)
    if selectors.character_access(request.user, character) != "gm":
        raise PermissionDenied("Only the campaign's GMs may reveal or hide a character.")
    revealed = request.POST.get("revealed") == "1"
    try:
        services.character_update(character=character, actor=request.user,
                                  version=request.POST.get("version"), revealed=revealed)
    except Conflict as exc:
        messages.error(request, str(exc))
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, f"{character} is now "
                                  f"{'shown to' if revealed else 'hidden from'} the players.")
    return redirect("characters:detail", pk=character.pk)


@login_required
def reputation_new(request, character_pk):
    character = selectors.character_for_user(request.user, character_pk)
    access = selectors.require_character_edit(request.user, character)
    if access != "gm":
        raise PermissionDenied("Only a GM adds a reputation: ask your GM.")
    form = ReputationForm(request.POST or None, access=access)
    if request.method == "POST" and form.is_valid():
        reputation = form.submit(lambda: services.reputation_create(
            character=character, actor=request.user, **form.changes()))
        if reputation is not None:
            messages.success(request, f"Reputation “{reputation}” added.")
            return redirect("characters:detail", pk=character.pk)
    return render(request, "characters/reputation_form.html",
                  {"campaign": character.campaign, "character": character, "form": form,
                   "reputation": None})


@login_required
def reputation_edit(request, pk):
    reputation = selectors.reputation_for_user(request.user, pk)
    character = reputation.character
    access = selectors.require_character_edit(request.user, character)
    form = ReputationForm(request.POST or None, access=access, reputation=reputation)
    if request.method == "POST" and form.is_valid():
        saved = form.submit(lambda: services.reputation_update(
            reputation=reputation, actor=request.user, version=form.cleaned_data["version"],
            **form.changes()))
        if saved is not None:
            messages.success(request, f"Reputation “{reputation.name}” saved.")
            return redirect("characters:detail", pk=character.pk)
    return render(request, "characters/reputation_form.html",
                  {"campaign": character.campaign, "character": character, "form": form,
                   "reputation": reputation,
                   "is_gm": access == "gm"})


@login_required
@require_http_methods(["GET", "POST"])
def reputation_delete(request, pk):
    """GET asks first; POST removes the reputation."""
    reputation = selectors.reputation_for_user(request.user, pk)
    character = reputation.character
    selectors.require_character_edit(request.user, character)
    if request.method == "GET":
        return confirmation(
            request, question=f"Remove the reputation “{reputation.name}”?",
            consequence=f"{character.title} loses it, with its value and damage. This cannot "
                        "be undone.",
            button="Remove", back=reverse("characters:detail", args=[character.pk]),
            fields={"version": reputation.version})
    try:
        services.reputation_delete(reputation=reputation, actor=request.user,
                                   version=request.POST.get("version"))
    except Conflict as exc:
        messages.error(request, str(exc))
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, f"Reputation “{reputation.name}” removed.")
    return redirect("characters:detail", pk=character.pk)
