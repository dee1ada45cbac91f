"""The odds' pages: ask (from the new-battle form, from a running battle, or of a pending
decision), watch the progress (pushed by the simulation's stream), read the results with
their charts, download them, cancel. Thin: access through ``combat.odds.selectors``,
changes through ``combat.odds.services``."""

from __future__ import annotations

import csv

from asgiref.sync import sync_to_async
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns.confirm import confirmation
from campaigns.once import once_per_token
from campaigns.selectors import campaign_for_user, membership_role, require_gm
from combat import selectors as combat_selectors
from combat import streams
from combat.forms import NavalEncounterForm
from combat.odds import charts, selectors, services
from combat.odds.forms import OddsForm


def _refused(request, exc: Exception) -> None:
    if isinstance(exc, ValidationError):
        messages.error(request, " ".join(exc.messages))
    else:
        messages.error(request, str(exc))


@login_required
@require_POST
@once_per_token
def odds_new(request, campaign_id):
    """"What are the odds?" on the new-battle page: the same form, played instead of
    prepared, every game drawing its stacked cards first; not the book's example, a replay
    with no odds. Invalid input shows the page again with the messages by its fields."""
    campaign = campaign_for_user(request.user, campaign_id)
    require_gm(request.user, campaign)
    form = NavalEncounterForm(request.POST, campaign=campaign)
    odds_form = OddsForm(request.POST)
    if form.is_valid() and form.cleaned_data["book_cards"]:
        form.add_error("book_cards", "The book's example replays one battle card for card: it "
                                     "has no odds. Leave it unticked to ask them.")
    if form.is_valid() and odds_form.is_valid():
        battle = form.new_battle()
        simulation = form.submit(lambda: services.simulation_create_from_setup(
            campaign=campaign, user=request.user, engine="btq_naval", title=battle.name(),
            setup=battle.setup(), games=odds_form.games(),
            until_precise=odds_form.cleaned_data["odds_precise"], ships=battle.ships,
            stacked_cards=form.cleaned_data["stacked_cards"],
        ))
        if simulation is not None:
            return redirect("combat:odds", pk=simulation.pk)
    return render(request, "combat/new.html", {"campaign": campaign, "form": form,
                                               "odds_form": odds_form})


@login_required
@require_POST
@once_per_token
def odds_ask(request, pk):
    """From a running battle's page: the odds from here, or (with ``actor`` and ``kind``)
    of each option of that pending decision. Back to the battle, where they show."""
    encounter = combat_selectors.encounter_for_user(request.user, pk)
    odds_form = OddsForm(request.POST)
    actor = request.POST.get("actor", "")[:100]
    kind = request.POST.get("kind", "")[:100]
    if not odds_form.is_valid():
        messages.error(request, " ".join(e for errs in odds_form.errors.values() for e in errs))
        return redirect("combat:detail", pk=encounter.pk)
    try:
        simulation = services.simulation_create_from_encounter(
            encounter=encounter, user=request.user, actor=actor, decision_kind=kind,
            games=odds_form.cleaned_data.get("odds_games"),
            until_precise=odds_form.cleaned_data["odds_precise"])
    except (ValidationError, PermissionDenied) as exc:
        _refused(request, exc)
        return redirect("combat:detail", pk=encounter.pk)
    if simulation.decision is None:
        return redirect("combat:odds", pk=simulation.pk)
    return redirect(f"{reverse('combat:detail', args=[encounter.pk])}#odds")


def odds_context(user, simulation, *, with_charts: bool = True) -> dict:
    """What the odds' templates show of ``simulation`` to ``user`` (who may see it): the
    results so far (the merge of the chunks done while it plays, the stored merge once
    done), the games planned, and the charts unless ``with_charts`` is off."""
    is_gm = membership_role(user, simulation.campaign) == "gm"
    summaries = ({k: services.Summary.from_dict(v) for k, v in simulation.results.items()}
                 if simulation.results is not None else services.merged_results(simulation))
    results = selectors.results_for(simulation, summaries)
    shown = [o for o in results["options"] if o["games"]]
    chart = rounds_chart = None
    if with_charts and simulation.decision is not None and results["side"] and shown:
        chart = charts.shares_chart(f"Won by {results['side_name']}, by option",
                                    [{"label": o["label"], **o["win"]} for o in shown])
    elif with_charts and shown:
        chart = charts.shares_chart("How the battle ends", shown[0]["outcomes"])
    if with_charts and results["rounds"]:
        rounds_chart = charts.rounds_chart(results["rounds"])
    return {
        "simulation": simulation, "campaign": simulation.campaign,
        "encounter": simulation.encounter, "is_gm": is_gm, "results": results,
        "planned": simulation.games_planned, "chart": chart, "rounds_chart": rounds_chart,
        "may_cancel": simulation.is_open and (is_gm or simulation.created_by_id == user.pk),
    }


@login_required
@require_GET
def odds_detail(request, pk):
    simulation = selectors.simulation_for_user(request.user, pk)
    return render(request, "combat/odds/detail.html", odds_context(request.user, simulation))


@login_required
@require_GET
def odds_panel(request, pk):
    """The live part of the odds (progress, then results), fetched on a push; ``compact``
    for the one beside a decision on the battle page."""
    simulation = selectors.simulation_for_user(request.user, pk)
    if request.GET.get("compact"):
        return render(request, "combat/odds/_beside.html",
                      odds_context(request.user, simulation, with_charts=False))
    return render(request, "combat/odds/_results.html", odds_context(request.user, simulation))


def _signature(simulation_id: int):
    from combat.models import Simulation

    return Simulation.objects.filter(pk=simulation_id).values_list(
        "status", "games_done").first()


async def _events(user, simulation_id: int):
    shown = {"token": None}

    def news() -> list[str]:
        simulation = selectors.simulation_for_user(user, simulation_id)
        token = f"{simulation.status}-{simulation.games_done}"
        sent = [] if token == shown["token"] else [streams.sse({"token": token}, event="state")]
        shown["token"] = token
        return sent

    async for message in streams._watch([selectors.simulation_channel(simulation_id)],
                                        lambda: _signature(simulation_id), news,
                                        streams.STREAM_SECONDS):
        yield message


@login_required
@require_GET
async def odds_stream(request, pk):
    """``event: state`` whenever the simulation moves on (games played, its end), to the
    viewers who may see it (``gone`` if one no longer may)."""
    user = await request.auser()
    await sync_to_async(selectors.simulation_for_user)(user, pk)
    return await streams.stream_response(_events(user, pk))


@login_required
@require_http_methods(["GET", "POST"])
def odds_cancel(request, pk):
    """GET: asked first; POST: the simulation stops."""
    simulation = selectors.simulation_for_user(request.user, pk)
    back = reverse("combat:odds", args=[simulation.pk])
    if request.method == "GET":
        if simulation.created_by_id != request.user.pk:
            require_gm(request.user, simulation.campaign)
        return confirmation(request, question=f"Stop “{simulation.title}”?",
                            consequence="The games not played yet are not played; those "
                                        "played so far are shown, as far as they go; the "
                                        "seed is revealed.",
                            button="Stop the simulation", back=back)
    try:
        services.simulation_cancel(simulation=simulation, user=request.user)
        messages.success(request, "The simulation is stopped.")
    except ValidationError as exc:
        _refused(request, exc)
    return redirect(back)


def results_json(user, simulation) -> dict:
    """The simulation as JSON for ``user`` (who may see it): its terms, progress and results
    so far, the seed once revealed (the download, and the API's answer)."""
    return {"id": simulation.pk, "title": simulation.title, "engine": simulation.engine,
            "status": simulation.status, "games_done": simulation.games_done,
            "games_planned": simulation.games_planned, "seed_hash": simulation.seed_hash,
            "seed": simulation.seed if simulation.seed_revealed else None,
            "decision": simulation.decision,
            **odds_context(user, simulation, with_charts=False)["results"]}


@login_required
@require_GET
def odds_download(request, pk, fmt):
    """The results as JSON (everything, with the seed once revealed) or CSV (one row per
    option and outcome: games, share, the 95 % interval)."""
    if fmt not in ("csv", "json"):
        raise Http404("The results download as .csv or .json.")
    simulation = selectors.simulation_for_user(request.user, pk)
    results = odds_context(request.user, simulation, with_charts=False)["results"]
    name = f"odds-{simulation.pk}"
    if fmt == "json":
        response = JsonResponse(results_json(request.user, simulation),
                                json_dumps_params={"indent": 1})
    else:
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        writer = csv.writer(response)
        writer.writerow(["option", "option_label", "outcome", "outcome_label", "games",
                         "of_games", "share", "low_95", "high_95"])
        for option in results["options"]:
            for row in option["outcomes"]:
                writer.writerow([option["key"], option["label"], row["key"], row["label"],
                                 row["games"], option["games"], f"{row['share']:.6f}",
                                 f"{row['low']:.6f}", f"{row['high']:.6f}"])
    response["Content-Disposition"] = f'attachment; filename="{name}.{fmt}"'
    return response

