"""Character pages: a character's sheet (as much as the viewer may see), creation by a GM,
editing by a GM or the PC's player."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.views.decorators.http import require_http_methods, require_POST

from campaigns.confirm import confirmation
from campaigns.forms import NOTHING_TO_SAVE
from campaigns.once import once_per_token
from campaigns.selectors import campaign_for_user, require_gm
from campaigns.services import Conflict
from characters import selectors, services
from characters.forms import CharacterForm, ImportForm, ItemForm, ReputationForm, TraitForm
from characters.models import Character, CharacterTrait, Item
from characters.sections import sections_render
from rules.btq.characters import DAMAGE_AREAS, MEASURES, SKILLS, DamageState
from rules.btq.creation import rating_warnings
from rules.btq.traits import application


@login_required
@once_per_token
def character_new(request, campaign_pk):
    campaign = campaign_for_user(request.user, campaign_pk)
    require_gm(request.user, campaign)
    form = CharacterForm(request.POST or None, access="gm", campaign=campaign)
    if request.method == "POST" and form.is_valid():
        character = form.submit(lambda: services.character_create(
            campaign=campaign, actor=request.user, **form.changes()))
        if character is not None:
            messages.success(request, f"{character} created.")
            for warning in rating_warnings(
                    {key: getattr(character, key) for key in MEASURES}, character.skills):
                messages.warning(request, warning)
            return redirect("characters:detail", pk=character.pk)
    return render(request, "characters/character_form.html",
                  {"campaign": campaign, "form": form, "character": None})


def _sheet_context(request, character) -> dict:
    access = selectors.character_access(request.user, character)
    ship = character.ship
    hidden_ship = ship is None or (ship.is_hidden_from_players and access != "gm")
    reputations = list(character.reputations.all())
    locks = set(character.heal_locks)
    areas = [("health", "Health", character.health_state, None),
             ("wealth", "Wealth", character.wealth_state, None)]
    areas += [("reputation", r.name, r.damage_state, r) for r in reputations]
    return {
        "campaign": character.campaign,
        "character": character,
        "access": access,
        "can_edit": access in ("gm", "owner"),
        "is_gm": access == "gm",
        "measures": [(key, label, getattr(character, key), character.current_measure(key))
                     for key, label in MEASURES.items()],
        "great_hardship": character.campaign.rules_settings()["great_hardship"],
        "overcoming": [DAMAGE_AREAS[a] for a in character.overcoming if a in DAMAGE_AREAS],
        "skills": [(SKILLS[k], v) for k, v in character.skill_values().items()],
        "professions": sorted(character.professions.items()),
        "postings": character.postings.select_related("ship"),
        "ship": ship,
        "ship_morale": None if hidden_ship else DamageState(ship.morale_state).label,
        "ship_morale_state": None if hidden_ship else ship.morale_state,
        "reputations": reputations,
        "traits": [{"row": t, "application": application(t.trait)[0]}
                   for t in character.traits.all()],
        "trait_uses": services.trait_uses(character),
        "scar_due": character.scar_due and character.health_state == DamageState.HEALTHY
        and character.campaign.rules_settings()["scar_rule"],
        "items": character.items.select_related("reputation"),
        "healing": [{"area": area, "label": label, "state": DamageState(state),
                     "reputation": rep,
                     "locked": (f"reputation:{rep.pk}" if rep else area) in locks}
                    for area, label, state, rep in areas if state],
    }


@login_required
def character_detail(request, pk):
    character = selectors.character_for_user(request.user, pk)
    context = _sheet_context(request, character)
    context["sections"] = sections_render(request, character, context["access"], {
        "campaign": character.campaign, "character": character, "access": context["access"]})
    if context["is_gm"]:
        context["healers"] = character.campaign.characters.filter(kind=Character.Kind.PC)
        context["trait_form"] = TraitForm()
        context["item_form"] = ItemForm(character=character)
    return render(request, "characters/character_detail.html", context)


@login_required
def character_print(request, pk):
    """The sheet laid out as the book's (BtQ L3783-3876), for printing."""
    character = selectors.character_for_user(request.user, pk)
    context = _sheet_context(request, character)
    if context["access"] == "public":
        raise Http404("No such character.")
    reps = context["reputations"]
    context["personal"] = [r for r in reps if r.kind == "personal"]
    context["institution"] = [r for r in reps if r.kind == "institution"]
    context["blank_personal"] = range(max(0, 6 - len(context["personal"])))
    context["blank_institution"] = range(max(0, 6 - len(context["institution"])))
    context["weapons"] = ("Musket", "Pistol", "Sword", "Brawl", "Knife", "")
    return render(request, "characters/character_print.html", context)


@login_required
def character_history(request, pk):
    character = selectors.character_for_user(request.user, pk)
    history = selectors.character_history(request.user, character)
    return render(request, "characters/character_history.html", {
        "campaign": character.campaign, "character": character, "history": history})


@login_required
def character_export(request, pk):
    """The sheet as a JSON file (schema version 2), for the PC's player and the GM."""
    character = selectors.character_for_user(request.user, pk)
    data = selectors.character_export(request.user, character)
    response = JsonResponse(data, json_dumps_params={"indent": 1, "ensure_ascii": False})
    name = slugify(character.name) or f"character-{character.pk}"
    response["Content-Disposition"] = f'attachment; filename="{name}.json"'
    return response


@login_required
@once_per_token
def character_import(request, campaign_pk):
    campaign = campaign_for_user(request.user, campaign_pk)
    require_gm(request.user, campaign)
    form = ImportForm(request.POST or None, campaign=campaign)
    if request.method == "POST" and form.is_valid():
        character = form.submit(lambda: services.character_import(
            campaign=campaign, actor=request.user, data=form.cleaned_data["data"],
            owner=form.cleaned_data["owner"]))
        if character is not None:
            messages.success(request, f"{character} imported.")
            return redirect("characters:detail", pk=character.pk)
    return render(request, "characters/character_import.html",
                  {"campaign": campaign, "form": form})


def _sheet_step(request, character, step, done: str):
    """Run ``step`` (a service call), with its refusal or ``done`` as the message, and go
    back to the sheet."""
    try:
        step()
    except Conflict as exc:
        messages.error(request, str(exc))
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, done)
    return redirect("characters:detail", pk=character.pk)


@login_required
@require_POST
@once_per_token
def trait_add(request, pk):
    character = selectors.character_for_user(request.user, pk)
    form = TraitForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(e for errs in form.errors.values() for e in errs))
        return redirect("characters:detail", pk=character.pk)
    return _sheet_step(request, character, lambda: services.trait_add(
        character=character, actor=request.user, **form.changes()), "Trait added.")


@login_required
@require_POST
def trait_use(request, pk):
    """The player of the PC, or the GM, uses a trait of limited use (Jonah: the GM)."""
    character = selectors.character_for_user(request.user, pk)
    selectors.require_character_edit(request.user, character)
    trait = request.POST.get("trait", "")
    try:
        return _sheet_step(request, character, lambda: services.trait_use(
            character=character, actor=request.user, trait=trait,
            version=request.POST.get("version")), "Use recorded.")
    except PermissionDenied as exc:
        messages.error(request, str(exc))
        return redirect("characters:detail", pk=character.pk)


@login_required
@require_http_methods(["GET", "POST"])
def trait_remove(request, pk):
    row = get_object_or_404(CharacterTrait.objects.select_related("character"), pk=pk)
    character = selectors.character_for_user(request.user, row.character_id)
    selectors.require_character_edit(request.user, character)
    if request.method == "GET":
        return confirmation(
            request, question=f"Remove the trait {row}?",
            consequence="What it granted (reputations, Wealth) stays: change it by hand.",
            button="Remove", back=reverse("characters:detail", args=[character.pk]))
    return _sheet_step(request, character, lambda: services.trait_remove(
        character_trait=row, actor=request.user), f"Trait {row} removed.")


@login_required
@require_POST
@once_per_token
def item_add(request, pk):
    character = selectors.character_for_user(request.user, pk)
    form = ItemForm(request.POST, character=character)
    if not form.is_valid():
        messages.error(request, " ".join(e for errs in form.errors.values() for e in errs))
        return redirect("characters:detail", pk=character.pk)
    return _sheet_step(request, character, lambda: services.item_create(
        character=character, actor=request.user, **form.cleaned_data), "Item added.")


@login_required
@require_http_methods(["GET", "POST"])
def item_remove(request, pk):
    item = get_object_or_404(Item.objects.select_related("character"), pk=pk)
    character = selectors.character_for_user(request.user, item.character_id)
    selectors.require_character_edit(request.user, character)
    if request.method == "GET":
        return confirmation(
            request, question=f"Remove “{item}”?", consequence="This cannot be undone.",
            button="Remove", back=reverse("characters:detail", args=[character.pk]),
            fields={"version": item.version})
    return _sheet_step(request, character, lambda: services.item_delete(
        item=item, actor=request.user, version=request.POST.get("version")),
        f"“{item}” removed.")


@login_required
@require_POST
def heal_record(request, pk):
    """GM: a challenge (Maimed) or a Mission (Dead) healed an area one step."""
    character = selectors.character_for_user(request.user, pk)
    reputation = None
    if request.POST.get("reputation"):
        reputation = character.reputations.filter(pk=request.POST["reputation"]).first()
    return _sheet_step(request, character, lambda: services.character_heal(
        character=character, area=request.POST.get("area", ""), actor=request.user,
        how=request.POST.get("how", ""), reputation=reputation), "Healed one step.")


@login_required
@require_POST
def challenge_done(request, pk):
    character = selectors.character_for_user(request.user, pk)
    return _sheet_step(request, character, lambda: services.character_heal_unlock(
        character=character, actor=request.user), "Failed heals may be tried again.")


@login_required
@require_POST
def hardship(request, pk):
    """Spend a Measure point under Overcoming Great Hardship, or (GM) end it."""
    character = selectors.character_for_user(request.user, pk)
    if request.POST.get("end"):
        return _sheet_step(request, character, lambda: services.character_hardship_end(
            character=character, actor=request.user), "Every Measure is back to full.")
    return _sheet_step(request, character, lambda: services.character_hardship_spend(
        character=character, measure=request.POST.get("measure", ""), actor=request.user),
        "A point spent: its penalties are ignored for this challenge.")


@login_required
def character_edit(request, pk):
    character = selectors.character_for_user(request.user, pk)
    access = selectors.require_character_edit(request.user, character)
    form = CharacterForm(request.POST or None, access=access, campaign=character.campaign,
                         character=character)
    if request.method == "POST" and form.is_valid():
        if not form.changes():
            messages.info(request, NOTHING_TO_SAVE)
            return redirect("characters:detail", pk=character.pk)
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
@once_per_token
def reputation_new(request, character_pk):
    character = selectors.character_for_user(request.user, character_pk)
    if selectors.require_character_edit(request.user, character) != "gm":
        raise PermissionDenied("Only a GM adds a reputation: ask your GM.")
    form = ReputationForm(request.POST or None)
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
    if selectors.require_character_edit(request.user, character) != "gm":
        raise PermissionDenied(services.REPUTATIONS_ARE_THE_GMS)
    form = ReputationForm(request.POST or None, reputation=reputation)
    if request.method == "POST" and form.is_valid():
        if not form.changes():
            messages.info(request, NOTHING_TO_SAVE)
            return redirect("characters:detail", pk=character.pk)
        saved = form.submit(lambda: services.reputation_update(
            reputation=reputation, actor=request.user, version=form.cleaned_data["version"],
            **form.changes()))
        if saved is not None:
            messages.success(request, f"Reputation “{reputation.name}” saved.")
            return redirect("characters:detail", pk=character.pk)
    return render(request, "characters/reputation_form.html",
                  {"campaign": character.campaign, "character": character, "form": form,
                   "reputation": reputation})


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
