"""The step-through replay page of a finished encounter and its JSON export (thin: access
and content come from ``combat.replay``)."""

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from combat import selectors
from combat.replay import replay_encounter_for_user, replay_export, replay_for
from combat.services import encounter_noun


def _step(request, count: int) -> int:
    try:
        number = int(request.GET.get("step", count))
    except ValueError:
        number = count
    return min(max(number, 1), count) if count else 0


@login_required
@require_GET
def encounter_replay_page(request, pk):
    """``?step=N``: the replay at its N-th event (default the last), with the state after it
    and links to step back and forward."""
    encounter = replay_encounter_for_user(request.user, pk)
    participants = selectors.participant_ids_for(request.user, encounter)
    context = {"encounter": encounter, "campaign": encounter.campaign,
               "noun": encounter_noun(encounter), "is_gm": "gm" in participants,
               # a card test's own pages show no state panel: its events say it all
               "engine_template": None if encounter.engine in selectors.OWN_PAGES else
               [f"combat/engines/{encounter.engine}.html", "combat/engines/generic.html"]}
    try:
        replay = replay_for(encounter, participants)
    except ValidationError as exc:
        return render(request, "combat/replay.html", {**context, "refused": " ".join(
            exc.messages)}, status=409)
    steps = replay["steps"]
    number = _step(request, len(steps))
    current = steps[number - 1] if steps else None
    return render(request, "combat/replay.html", {
        **context, "steps": steps, "current": current, "number": number,
        "count": len(steps), "matches": replay["matches"],
        "shown": list(reversed(steps[:number])),
        "previous": number - 1 if number > 1 else None,
        "next": number + 1 if number < len(steps) else None,
        "view": current["view"] if current else None,
    })


@login_required
@require_GET
def encounter_replay_json(request, pk):
    """The replay as a JSON download (``combat.replay.replay_export``); 409 with the reason
    while the seed is secret."""
    encounter = replay_encounter_for_user(request.user, pk)
    participants = selectors.participant_ids_for(request.user, encounter)
    try:
        data = replay_export(encounter, participants)
    except ValidationError as exc:
        return JsonResponse({"detail": " ".join(exc.messages)}, status=409)
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Content-Disposition"] = f'attachment; filename="encounter-{encounter.pk}.json"'
    return response
