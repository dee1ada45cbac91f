"""Campaign pages: sign-up, the list, a campaign, its settings, log, members and invitation.
Thin: access through ``campaigns.selectors``, changes through ``campaigns.services``."""

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from campaigns import journal, selectors, services
from campaigns.confirm import confirmation
from campaigns.forms import CampaignForm, CampaignSettingsForm, JournalFilterForm, SignupForm
from campaigns.models import Membership
from campaigns.once import once_per_token
from campaigns.panels import panels_render


def signup(request):
    """Create an account with Django's ``UserCreationForm`` and log in; then go to ``next``
    (an invitation link, say) if it is a page of this site, else the campaign list."""
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = ""
    if request.user.is_authenticated:
        return redirect(next_url or "campaigns:list")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome aboard, {user.username}.")
        return redirect(next_url or "campaigns:list")
    return render(request, "registration/signup.html", {"form": form, "next": next_url})


@login_required
def campaign_list(request):
    return render(request, "campaigns/campaign_list.html",
                  {"memberships": selectors.memberships_for_user(request.user)})


@login_required
@once_per_token
def campaign_new(request):
    form = CampaignForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        campaign = form.submit(lambda: services.campaign_create(gm=request.user,
                                                                **form.cleaned_data))
        if campaign is not None:
            messages.success(request, f"You are the GM of “{campaign}”.")
            return redirect("campaigns:detail", pk=campaign.pk)
    return render(request, "campaigns/campaign_new.html", {"form": form})


@login_required
def campaign_detail(request, pk):
    """A campaign's page: what the other apps show of it (``campaigns.panels``: the table,
    the characters, the ships), then its members, invitation and log."""
    campaign = selectors.campaign_for_user(request.user, pk)
    role = selectors.membership_role(request.user, campaign)
    is_gm = role == Membership.Role.GM
    invite_url = (
        request.build_absolute_uri(reverse("campaigns:join", args=[campaign.invite_token]))
        if is_gm and campaign.invite_token else None
    )
    base = {"campaign": campaign, "role": role, "is_gm": is_gm}
    return render(request, "campaigns/campaign_detail.html", {
        **base,
        "panels": panels_render(request, campaign, role, base),
        "members": selectors.campaign_members(campaign),
        "log": journal.with_links(selectors.log_for_user(request.user, campaign)[:10]),
        "invite_url": invite_url,
    })


@login_required
def campaign_settings(request, pk):
    """The GM's page: name, description and the campaign settings."""
    campaign = selectors.campaign_for_user(request.user, pk)
    selectors.require_gm(request.user, campaign)
    initial = {"name": campaign.name, "description": campaign.description,
               "version": campaign.version}
    form = CampaignSettingsForm(
        request.POST or None, initial=initial, current=campaign.rules_settings()
    )
    if request.method == "POST" and form.is_valid():
        saved = form.submit(lambda: services.campaign_update(
            campaign=campaign, actor=request.user, version=form.cleaned_data["version"],
            name=form.cleaned_data["name"], description=form.cleaned_data["description"],
            settings=form.chosen_settings(),
        ))
        if saved is not None:
            messages.success(request, "Campaign settings saved.")
            return redirect("campaigns:detail", pk=campaign.pk)
    return render(request, "campaigns/campaign_settings.html",
                  {"campaign": campaign, "form": form})


@login_required
def campaign_log(request, pk):
    """The journal: every entry the viewer may see, newest first, 50 a page, filtered by
    kind, character, session and words (``campaigns.selectors.journal_for_user``), each
    linked to its record (``campaigns.journal``)."""
    campaign = selectors.campaign_for_user(request.user, pk)
    form = JournalFilterForm(request.GET or None, campaign=campaign)
    filters = form.filters() if form.is_valid() else {}
    page = Paginator(selectors.journal_for_user(request.user, campaign, **filters),
                     50).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(request, "campaigns/campaign_log.html", {
        "campaign": campaign, "page": page, "entries": journal.with_links(page.object_list),
        "is_gm": selectors.is_gm(request.user, campaign), "form": form,
        "query": query.urlencode(),
    })


INVITE_QUESTIONS = {
    "revoke": ("Revoke the invitation link?", "Revoke the link",
               "Nobody can join with it any more; members stay members."),
    "regenerate": ("Issue a new invitation link?", "Issue a new link",
                   "The link you sent so far stops working; send the new one instead."),
}


@login_required
@require_http_methods(["GET", "POST"])
def invite_manage(request, pk):
    """GM: ``action=regenerate`` issues a new invitation link, ``action=revoke`` ends it.
    GET (``?action=``) asks first when that ends a live link; POST does it."""
    campaign = selectors.campaign_for_user(request.user, pk)
    selectors.require_gm(request.user, campaign)
    if request.method == "GET":
        action = request.GET.get("action")
        if action not in INVITE_QUESTIONS:
            return redirect("campaigns:detail", pk=campaign.pk)
        question, button, consequence = INVITE_QUESTIONS[action]
        return confirmation(request, question=question, consequence=consequence,
                            button=button, back=reverse("campaigns:detail", args=[campaign.pk]),
                            fields={"action": action})
    action = request.POST.get("action")
    if action == "regenerate":
        services.campaign_invite_regenerate(campaign=campaign, actor=request.user)
        messages.success(request, "New invitation link issued; the previous one no longer works.")
    elif action == "revoke":
        services.campaign_invite_revoke(campaign=campaign, actor=request.user)
        messages.success(request, "Invitation link revoked.")
    else:
        messages.error(request, "Unknown action.")
    return redirect("campaigns:detail", pk=campaign.pk)


def join(request, token):
    """The invitation page: shows the campaign and lets a logged-in user join as a player."""
    campaign = selectors.campaign_for_invite(token)
    if campaign is None:
        return render(request, "campaigns/join_invalid.html", status=404)
    if not request.user.is_authenticated:
        return render(request, "campaigns/join.html", {"campaign": campaign, "token": token})
    if selectors.membership_role(request.user, campaign) is not None:
        messages.info(request, f"You are already a member of “{campaign}”.")
        return redirect("campaigns:detail", pk=campaign.pk)
    if request.method == "POST":
        try:
            membership, _ = services.campaign_join(token=token, user=request.user)
        except ValidationError:
            return render(request, "campaigns/join_invalid.html", status=404)
        messages.success(request, f"You joined “{membership.campaign}” as a player.")
        return redirect("campaigns:detail", pk=membership.campaign_id)
    return render(request, "campaigns/join.html", {"campaign": campaign, "token": token})


@login_required
@require_http_methods(["GET", "POST"])
def member_manage(request, pk, membership_pk):
    """GM: ``action=gm`` / ``action=player`` changes a member's role, ``action=remove``
    removes them. The last GM stays. GET asks before removing; POST does it."""
    campaign = selectors.campaign_for_user(request.user, pk)
    selectors.require_gm(request.user, campaign)
    membership = get_object_or_404(Membership, pk=membership_pk, campaign=campaign)
    if request.method == "GET":
        return confirmation(
            request, question=f"Remove {membership.user} from “{campaign}”?",
            consequence="They can no longer open the campaign; their characters stay in it. "
                        "They can only come back through an invitation link.",
            button="Remove", back=reverse("campaigns:detail", args=[campaign.pk]),
            fields={"action": "remove"})
    action = request.POST.get("action")
    try:
        if action in Membership.Role.values:
            changed = services.membership_set_role(
                membership=membership, role=action, actor=request.user
            )
            messages.success(request, f"{changed.user} is now {changed.get_role_display()}.")
        elif action == "remove":
            services.membership_remove(membership=membership, actor=request.user)
            messages.success(request, f"{membership.user} was removed from the campaign.")
        else:
            messages.error(request, "Unknown action.")
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    if not selectors.campaigns_for_user(request.user).filter(pk=campaign.pk).exists():
        return redirect("campaigns:list")
    return redirect("campaigns:detail", pk=campaign.pk)
