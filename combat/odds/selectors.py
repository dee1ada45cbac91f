"""Who may see which odds, and the odds as people read them.

The odds are GM-only by default: a simulation plays with everything the GM knows (the
enemy's crew and traits), so its numbers give hidden facts away. A player sees a
simulation only where the campaign's setting ``odds_for_players`` is on now and was on when
it was asked (``Simulation.players_see``), and only of a battle he may see. Everything else
is a 404, the same as for a simulation that does not exist.
"""

from __future__ import annotations

from django.http import Http404

from campaigns.selectors import campaign_for_user, membership_role
from combat import push, selectors
from combat.models import Simulation
from rules.engine import get_engine
from rules.montecarlo import NO_WINNER, Summary, best_option, side_of, wilson


def simulation_channel(simulation_id: int) -> str:
    """The push channel of one simulation's page and panels (``combat.push``)."""
    return f"{push.PREFIX}simulation:{simulation_id}"


def odds_for_players(campaign) -> bool:
    """Whether the campaign's setting offers the odds to its players too."""
    return bool(campaign.rules_settings().get("odds_for_players"))


def may_see(user, simulation: Simulation) -> bool:
    """Whether ``user`` may see ``simulation`` (module docstring)."""
    role = membership_role(user, simulation.campaign)
    if role == "gm":
        return True
    if role is None or not simulation.players_see or not odds_for_players(simulation.campaign):
        return False
    if simulation.encounter_id is None:
        return False
    try:
        selectors.encounter_for_user(user, simulation.encounter_id)
    except Http404:
        return False
    return True


def simulation_for_user(user, simulation_id) -> Simulation:
    """The simulation ``simulation_id`` if ``user`` may see it, else ``Http404`` (the same
    for one that does not exist)."""
    try:
        simulation = Simulation.objects.select_related("campaign", "encounter").get(
            pk=simulation_id)
        campaign_for_user(user, simulation.campaign_id)
    except (Simulation.DoesNotExist, ValueError, TypeError, OverflowError, Http404):
        raise Http404("No such simulation.") from None
    if not may_see(user, simulation):
        raise Http404("No such simulation.")
    return simulation


def simulations_for_encounter(user, encounter) -> list[Simulation]:
    """The simulations of ``encounter`` as it stands now (asked at its present step) that
    ``user`` may see, newest first."""
    found = Simulation.objects.filter(encounter=encounter, step=len(encounter.choices)
                                      ).select_related("campaign", "encounter")
    return [s for s in found.order_by("-created_at", "-id")[:10] if may_see(user, s)]


def _words(text: str) -> str:
    return text.replace("_", " ")


def outcome_label(simulation: Simulation, key: str) -> str:
    """``"pc/struck"`` as a person reads it: ``"Won by HMS Hermes: struck"`` (a winner's name
    may be plural, "HMS Hermes and HMS Sparrow", "The shore defenders", so no verb follows
    it); ``"none/escaped"`` as ``"No winner: escaped"``."""
    winner, _, result = key.partition("/")
    if winner == NO_WINNER:
        return f"No winner: {_words(result)}"
    name = simulation.labels.get("winners", {}).get(winner, _words(winner))
    return f"Won by {name}: {_words(result)}"


def _share(count: int, games: int) -> dict:
    low, high = wilson(count, games)
    return {"games": count, "share": count / games if games else 0.0, "low": low,
            "high": high}


def results_for(simulation: Simulation, summaries: dict[str, Summary]) -> dict:
    """The odds for a page or a download: ``{"options": [{"key", "label", "games",
    "outcomes": [{"key", "label", "games", "share", "low", "high"}], "win": share of the
    actor's side (or of the side it plays against) with its interval or None, "best": bool}],
    "side", "against", "too_close": the leading options' intervals overlap, so none is the
    best (``rules.montecarlo.best_option``), "rounds": [{"rounds",
    "games", "share"}], "mean_rounds", "damage": [{"ship", "name", "areas": [{"area",
    "mean", "boxes": [{"boxes", "games", "share"}]}]}]}``. Shares are fractions; the
    intervals are 95 % Wilson. Rounds and damage are those of the first option (all of
    them, without a decision)."""
    labels = {o["key"]: o["label"] for o in (simulation.decision or {}).get("options", [])}
    actor = (simulation.decision or {}).get("actor", "")
    side, against = (side_of(get_engine(simulation.engine), actor, summaries.values())
                     if actor else (None, False))
    best = best_option(summaries, side, against) if len(summaries) > 1 else None
    played = sum(1 for summary in summaries.values() if summary.games)
    options = []
    for key, summary in summaries.items():
        outcomes = [{"key": k, "label": outcome_label(simulation, k),
                     **_share(count, summary.games)}
                    for k, count in sorted(summary.outcomes.items(), key=lambda kv: -kv[1])]
        win = _share(summary.winners.get(side, 0), summary.games) if side else None
        options.append({"key": key, "label": labels.get(key, ""), "games": summary.games,
                        "outcomes": outcomes, "win": win, "best": key == best})
    first = next(iter(summaries.values()), Summary(simulation.engine))
    rounds = [{"rounds": int(r), **_share(g, first.timed)}
              for r, g in first.round_counts.items()]
    ships = simulation.labels.get("ships", {})
    damage = []
    for ship, areas in first.damage.items():
        rows = []
        for area, counts in areas.items():
            total = sum(counts.values())
            mean = sum(int(b) * g for b, g in counts.items()) / total if total else 0.0
            rows.append({"area": area, "mean": mean,
                         "boxes": [{"boxes": int(b), **_share(g, total)}
                                   for b, g in counts.items()]})
        damage.append({"ship": ship, "name": ships.get(ship, ship), "areas": rows})
    return {"options": options, "side": side, "against": against,
            "too_close": bool(side) and best is None and played > 1,
            "side_name": simulation.labels.get("winners", {}).get(side, side) if side else None,
            "rounds": rounds, "mean_rounds": first.mean_rounds, "damage": damage}
