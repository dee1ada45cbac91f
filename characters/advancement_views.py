"""The character's missions page: the missions it is on, the rewards to take and the
failure costs to pay (``characters.advancement``). Thin: access through
``characters.selectors``, changes through ``characters.advancement``."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from campaigns.missions.selectors import missions_of_character
from campaigns.once import once_per_token
from characters import advancement, selectors


@login_required
@require_http_methods(["GET", "POST"])
@once_per_token
def character_missions(request, pk):
    """GET: the missions of the character and what is due. POST (``mission``, ``side``,
    ``index``, ``option``; ``new_kind``, ``new_descriptor``, ``new_subject`` for a new
    reputation): take or pay one entry."""
    character = selectors.character_for_user(request.user, pk)
    access = selectors.character_access(request.user, character)
    if access == "public":
        return redirect("characters:detail", pk=character.pk)
    if request.method == "POST":
        try:
            _, warnings = advancement.mission_purchase(
                character=character, actor=request.user,
                mission_id=_number(request.POST.get("mission")),
                side=request.POST.get("side", ""), index=_number(request.POST.get("index")),
                option=request.POST.get("option", ""),
                new_kind=request.POST.get("new_kind", ""),
                new_descriptor=request.POST.get("new_descriptor", "")[:100],
                new_subject=request.POST.get("new_subject", "")[:200])
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
        else:
            messages.success(request, "Done: the sheet is changed.")
            for warning in warnings:
                messages.warning(request, warning)
        return redirect("characters:missions", pk=character.pk)
    gm = access == "gm"
    dues = [d for d in advancement.dues(character) if gm or not d.mission.hidden]
    return render(request, "characters/character_missions.html", {
        "campaign": character.campaign, "character": character, "access": access,
        "is_gm": gm, "can_take": access in ("gm", "owner"),
        "missions": missions_of_character(request.user, character.campaign, character.pk),
        "dues": dues, "purchases": advancement.purchases_for(character, access),
        "trait_points": advancement.trait_points(character),
    })


def _number(value) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ValidationError("That reward or cost is not due on this character.") from None
