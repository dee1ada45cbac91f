"""Character pages: a character's sheet (as much as the viewer may see), creation by a GM,
editing by a GM or the PC's player."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render

from campaigns.selectors import campaign_for_user, require_gm
from campaigns.services import StaleVersion
from characters import selectors, services
from characters.forms import CharacterForm
from rules.btq.characters import MEASURES, SKILLS


@login_required
def character_new(request, campaign_pk):
    campaign = campaign_for_user(request.user, campaign_pk)
    require_gm(request.user, campaign)
    form = CharacterForm(request.POST or None, access="gm", campaign=campaign)
    if request.method == "POST" and form.is_valid():
        try:
            character = services.character_create(
                campaign=campaign, actor=request.user, **form.changes()
            )
        except ValidationError as exc:
            form.add_service_error(exc)
        else:
            messages.success(request, f"{character} created.")
            return redirect("characters:detail", pk=character.pk)
    return render(request, "characters/character_form.html",
                  {"campaign": campaign, "form": form, "character": None})


@login_required
def character_detail(request, pk):
    character = selectors.character_for_user(request.user, pk)
    access = selectors.character_access(request.user, character)
    return render(request, "characters/character_detail.html", {
        "campaign": character.campaign,
        "character": character,
        "access": access,
        "can_edit": access in ("gm", "owner"),
        "measures": [(label, getattr(character, key)) for key, label in MEASURES.items()],
        "skills": [(SKILLS[k], v) for k, v in character.skill_values().items()],
        "postings": character.postings.select_related("ship"),
    })


@login_required
def character_edit(request, pk):
    character = selectors.character_for_user(request.user, pk)
    access = selectors.require_character_edit(request.user, character)
    form = CharacterForm(request.POST or None, access=access, campaign=character.campaign,
                         character=character)
    if request.method == "POST" and form.is_valid():
        try:
            services.character_update(
                character=character, actor=request.user,
                version=form.cleaned_data["version"], **form.changes(),
            )
        except StaleVersion as exc:
            form.add_error(None, str(exc))
        except ValidationError as exc:
            form.add_service_error(exc)
        else:
            messages.success(request, f"{character} saved.")
            return redirect("characters:detail", pk=character.pk)
    return render(request, "characters/character_form.html",
                  {"campaign": character.campaign, "form": form, "character": character})
