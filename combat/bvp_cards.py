"""A campaign's own British vs Pirates card data (``combat.models.BvpCardSet``): the page
where a GM with the physical cards enters their values, and what a new game takes.

The rulebook prints none of the ship, captain and skill cards (``rules.bvp.data``), so the
engine ships a provisional set. A GM replaces it for the campaign here: the card data as
JSON, checked field by field by ``rules.bvp.data.validate_card_data``. While the set is in
use, every new ``bvp`` encounter of the campaign takes it into its setup
(:func:`setup_with_card_set`, called by ``combat.services.encounter_create``), and its page
says which set it plays with.
"""

from __future__ import annotations

import json

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import transaction
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from campaigns.forms import Form, JSONField
from campaigns.selectors import campaign_for_user, require_gm
from campaigns.services import Conflict
from combat.models import BvpCardSet
from rules.bvp.data import provisional, validate_card_data


def setup_with_card_set(campaign, setup: dict) -> dict:
    """``setup`` of a ``bvp`` game in ``campaign`` with the campaign's card set in use as
    its ``card_data``; unchanged if the setup brings its own or the campaign uses the
    provisional set."""
    if setup.get("card_data"):
        return setup
    card_set = BvpCardSet.objects.filter(campaign=campaign, in_use=True).first()
    return {**setup, "card_data": card_set.data} if card_set else setup


@transaction.atomic
def card_set_save(*, campaign, user, data, in_use: bool, expected_version: int | None
                  ) -> BvpCardSet:
    """Save ``campaign``'s card data (GMs only; ``Http404``/``PermissionDenied``
    otherwise). ``data`` is checked (``ValidationError`` on ``data`` with the reason of the
    first bad field, nothing saved); ``expected_version`` is the version the GM saw
    (``None`` for a campaign without a set yet): another GM's save since is a
    :class:`campaigns.services.Conflict`."""
    require_gm(user, campaign)
    try:
        clean = validate_card_data(data)
    except ValueError as exc:
        raise ValidationError({"data": str(exc)}) from None
    card_set = BvpCardSet.objects.select_for_update().filter(campaign=campaign).first()
    if card_set is None:
        if expected_version is not None:
            raise Conflict(None, "The card data was removed since you opened the page.")
        return BvpCardSet.objects.create(campaign=campaign, data=clean, in_use=in_use,
                                         updated_by=user)
    if expected_version != card_set.version:
        raise Conflict(card_set, "Another GM saved the card data since you opened the page: "
                       "reload it to see theirs.")
    card_set.data, card_set.in_use, card_set.updated_by = clean, in_use, user
    card_set.version += 1
    card_set.save()
    return card_set


class CardSetForm(Form):
    """The card data as JSON, whether new games use it, and the version the GM saw."""

    data = JSONField(label="Card data (JSON)", widget=forms.Textarea(attrs={"rows": 24}),
                     help_text="Start from the provisional set and type in your cards' values.")
    in_use = forms.BooleanField(label="Use these cards in new British vs Pirates games",
                                required=False, initial=True)
    version = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1,
                                 max_value=2**31 - 1)

    def clean_data(self):
        data = self.cleaned_data["data"]
        try:
            return validate_card_data(data)
        except ValueError as exc:
            raise ValidationError(str(exc)) from None


@login_required
@require_http_methods(["GET", "POST"])
def card_set_page(request, campaign_id):
    """GET: the campaign's card data (the provisional set if it has none); POST: save."""
    campaign = campaign_for_user(request.user, campaign_id)
    require_gm(request.user, campaign)
    card_set = BvpCardSet.objects.filter(campaign=campaign).first()
    initial = {"data": json.dumps(card_set.data if card_set else provisional(), indent=1),
               "in_use": card_set.in_use if card_set else True,
               "version": card_set.version if card_set else None}
    form = CardSetForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        saved = form.submit(lambda: card_set_save(
            campaign=campaign, user=request.user, data=form.cleaned_data["data"],
            in_use=form.cleaned_data["in_use"], expected_version=form.cleaned_data["version"]))
        if saved is not None:
            return redirect("combat:bvp_cards", campaign_id=campaign.pk)
    return render(request, "combat/bvp_cards.html", {
        "campaign": campaign, "form": form, "card_set": card_set})
