"""Ship pages: a ship (as much as the viewer may see), creation and editing by a GM, and
who serves aboard."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from campaigns.confirm import confirmation
from campaigns.forms import NOTHING_TO_SAVE
from campaigns.once import once_per_token
from campaigns.selectors import campaign_for_user, require_gm
from campaigns.services import Conflict
from rules.btq.characters import SKILLS
from ships import reputations, selectors, services
from ships.forms import PostingForm, RenownedNameForm, ShipForm, ShipReputationForm
from ships.models import ShipPosting, ShipReputation


@login_required
@once_per_token
def ship_new(request, campaign_pk):
    campaign = campaign_for_user(request.user, campaign_pk)
    require_gm(request.user, campaign)
    form = ShipForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        ship = form.submit(lambda: services.ship_create(
            campaign=campaign, actor=request.user, **form.changes()))
        if ship is not None:
            messages.success(request, f"{ship} added.")
            return redirect("ships:detail", pk=ship.pk)
    return render(request, "ships/ship_form.html",
                  {"campaign": campaign, "form": form, "ship": None})


@login_required
def ship_detail(request, pk):
    ship = selectors.ship_for_user(request.user, pk)
    access = selectors.ship_access(request.user, ship)
    context = {"campaign": ship.campaign, "ship": ship, "access": access}
    if access != "public":
        context.update({
            "stats": services.ship_stats_of(ship),
            "crew": [(SKILLS[k], v) for k, v in services.clean_crew({}, base=ship.crew).items()],
            "postings": selectors.ship_postings(ship),
            "reputations": list(ship.reputations.all()),
            "roster": list(ship.roster.all()),
        })
    if access == "gm":
        context["posting_form"] = PostingForm(campaign=ship.campaign)
        context["repair_areas"] = [area for area, track, _ in ship.damage if "x" in track]
        context["reputation_forms"] = [(r, ShipReputationForm(reputation=r))
                                       for r in context["reputations"]]
        context["reputation_form"] = ShipReputationForm(prefix="new")
        if reputations.renowned_name_due(ship):
            context["renowned_form"] = RenownedNameForm(ship=ship, prefix="renowned")
    return render(request, "ships/ship_detail.html", context)


def _saved(request, ship, form, save, done):
    """A GM's reputation form posted: ``save()`` (the service call) if ``form`` is valid,
    then the ship's page with ``done(saved)`` or each reason it was refused."""
    saved = form.submit(save) if form.is_valid() else None
    if saved is None:
        messages.error(request, " ".join(
            f"{form.fields[f].label}: {' '.join(e)}" if f in form.fields else " ".join(e)
            for f, e in form.errors.items()))
    else:
        messages.success(request, done(saved))
    return redirect("ships:detail", pk=ship.pk)


@login_required
@require_POST
@once_per_token
def reputation_add(request, pk):
    """GM: a new reputation of the ship."""
    ship = _gm_ship(request, pk)
    form = ShipReputationForm(request.POST, prefix="new")
    return _saved(request, ship, form, lambda: reputations.ship_reputation_create(
        ship=ship, actor=request.user, **form.changes()),
        lambda made: f"{ship} has the reputation “{made.label}”.")


def _ship_reputation(request, pk, reputation_pk):
    ship = _gm_ship(request, pk)
    return ship, get_object_or_404(ShipReputation, pk=reputation_pk, ship=ship)


@login_required
@require_POST
def reputation_edit(request, pk, reputation_pk):
    """GM: change a ship reputation (its value, its damage...), from the version seen."""
    ship, reputation = _ship_reputation(request, pk, reputation_pk)
    form = ShipReputationForm(request.POST, reputation=reputation)
    return _saved(request, ship, form, lambda: reputations.ship_reputation_update(
        reputation=reputation, actor=request.user, version=form.cleaned_data["version"],
        **form.changes()), lambda saved: f"Saved: “{saved.label}”.")


@login_required
@require_http_methods(["GET", "POST"])
def reputation_remove(request, pk, reputation_pk):
    """GM: GET asks first; POST removes the ship reputation."""
    ship, reputation = _ship_reputation(request, pk, reputation_pk)
    if request.method == "GET":
        return confirmation(
            request, question=f"Remove {ship}'s reputation “{reputation.label}”?",
            consequence="It no longer adds cards in her battles.", button="Remove",
            back=reverse("ships:detail", args=[ship.pk]),
            fields={"version": reputation.version})
    try:
        reputations.ship_reputation_delete(reputation=reputation, actor=request.user,
                                           version=request.POST.get("version"))
    except (Conflict, ValidationError) as exc:
        messages.error(request, " ".join(getattr(exc, "messages", [str(exc)])))
    else:
        messages.success(request, f"“{reputation.label}” removed.")
    return redirect("ships:detail", pk=ship.pk)


@login_required
@require_POST
@once_per_token
def renowned_name(request, pk):
    """GM: the trait Renowned Name's +1, to a reputation of the ship or a new one."""
    ship = _gm_ship(request, pk)
    form = RenownedNameForm(request.POST, ship=ship, prefix="renowned")
    return _saved(request, ship, form, lambda: reputations.renowned_name_apply(
        ship=ship, actor=request.user, **form.changes()),
        lambda made: f"Renowned Name: “{made.label}”.")


def _gm_ship(request, pk):
    ship = selectors.ship_for_user(request.user, pk)
    if selectors.ship_access(request.user, ship) != "gm":
        raise PermissionDenied("Only the campaign's GMs may change ships.")
    return ship


@login_required
def ship_edit(request, pk):
    ship = _gm_ship(request, pk)
    form = ShipForm(request.POST or None, ship=ship)
    if request.method == "POST" and form.is_valid():
        if not form.changes():
            messages.info(request, NOTHING_TO_SAVE)
            return redirect("ships:detail", pk=ship.pk)
        saved = form.submit(lambda: services.ship_update(
            ship=ship, actor=request.user, version=form.cleaned_data["version"],
            **form.changes()))
        if saved is not None:
            messages.success(request, f"{ship} saved.")
            return redirect("ships:detail", pk=ship.pk)
    return render(request, "ships/ship_form.html",
                  {"campaign": ship.campaign, "form": form, "ship": ship})


@login_required
@require_POST
def ship_reveal(request, pk):
    """GM: reveal the ship to the players (``revealed=1``) or hide it again (``0``)."""
    ship = _gm_ship(request, pk)
    revealed = request.POST.get("revealed") == "1"
    try:
        services.ship_update(ship=ship, actor=request.user, version=request.POST.get("version"),
                             revealed=revealed)
    except Conflict as exc:
        messages.error(request, str(exc))
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, f"{ship} is now {'shown to' if revealed else 'hidden from'} "
                                  "the players.")
    return redirect("ships:detail", pk=ship.pk)


@login_required
@require_POST
def posting_add(request, pk):
    ship = _gm_ship(request, pk)
    form = PostingForm(request.POST, campaign=ship.campaign)
    if form.is_valid():
        try:
            services.posting_set(ship=ship, actor=request.user, **form.cleaned_data)
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
        else:
            messages.success(request, f"{form.cleaned_data['character']} posted aboard {ship}.")
    else:
        messages.error(request, "Choose a character of this campaign and a station.")
    return redirect("ships:detail", pk=ship.pk)


@login_required
@require_http_methods(["GET", "POST"])
def posting_remove(request, pk, posting_pk):
    """GET asks first; POST takes the character off the ship."""
    ship = _gm_ship(request, pk)
    posting = get_object_or_404(ShipPosting, pk=posting_pk, ship=ship)
    if request.method == "GET":
        return confirmation(
            request, question=f"Take {posting.character} off {ship}?",
            consequence=f"They no longer serve aboard as {posting.get_station_display()}.",
            button="Remove", back=reverse("ships:detail", args=[ship.pk]))
    services.posting_remove(posting=posting, actor=request.user)
    messages.success(request, f"{posting.character} no longer serves aboard {ship}.")
    return redirect("ships:detail", pk=ship.pk)


@login_required
@require_http_methods(["GET", "POST"])
def ship_refit(request, pk):
    """GM: GET asks first; POST refits the ship in port (every damage box clean)."""
    ship = _gm_ship(request, pk)
    if request.method == "GET":
        return confirmation(
            request, question=f"Refit {ship} in port?",
            consequence="Every box of her Hull, Guns, Crew and Rigging is cleared; the log "
                        "records it.", button="Refit",
            back=reverse("ships:detail", args=[ship.pk]), fields={"version": ship.version})
    try:
        services.ship_refit(ship=ship, actor=request.user, version=request.POST.get("version"))
    except Conflict as exc:
        messages.error(request, str(exc))
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, f"{ship} is refitted.")
    return redirect("ships:detail", pk=ship.pk)
