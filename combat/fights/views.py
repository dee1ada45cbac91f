"""The pages that prepare a fight of men (thin: forms check, ``combat.fights.services``
writes). The fight itself is played on the battle page (``combat.views``)."""

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from campaigns.once import once_per_token
from campaigns.selectors import campaign_for_user, require_gm
from combat.fights import services
from combat.fights.forms import KINDS


@login_required
@require_http_methods(["GET", "POST"])
@once_per_token
def fight_new(request, campaign_id, kind):
    """Prepare a skirmish, a duel or a boarding (GMs only); it begins from its battle page."""
    if kind not in KINDS:
        raise Http404("No such kind of fight.")
    campaign = campaign_for_user(request.user, campaign_id)
    require_gm(request.user, campaign)
    engine, form_class, heading, intro = KINDS[kind]
    # GET parameters preselect fields (a boarding from the battle that led to it)
    form = form_class(request.POST or None, campaign=campaign,
                      initial={k: v for k, v in request.GET.items()})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        encounter = form.submit(lambda: services.fight_create(
            campaign=campaign, user=request.user, engine=engine, setup=data["setup"],
            title=data["title"], characters=data["characters"], ships=data.get("ships", ()),
            challenge=data.get("challenge")))
        if encounter is not None:
            return redirect("combat:detail", pk=encounter.pk)
    return render(request, "combat/fights/new.html", {
        "campaign": campaign, "form": form, "heading": heading, "intro": intro})
