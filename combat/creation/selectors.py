"""Who may see which draft (a character being made, the group's ship) and what of it: the
one place pages, API and streams ask. A draft is its player's and the GMs'; the group's ship
is every player's of the campaign and the GMs'. Anyone else gets a 404, the same as for a
draft that does not exist. What the viewer sees of the state, its events and its decisions
comes from ``combat.selectors`` (the engine's view for the viewer's participant: GM notes
and the seed before approval never reach a player).
"""

from __future__ import annotations

from django.http import Http404

from campaigns.models import Membership
from campaigns.selectors import campaign_for_user, membership_role
from combat import selectors as combat_selectors
from combat.creation.services import ENGINES, open_drafts, participant_of
from combat.models import Encounter
from rules.btq import creation, ship_creation

STATUS_LABELS = {"drafting": "Being made", "submitted": "Waiting for the GM's approval",
                 "approved": "Approved"}


def drafts_for_user(user, campaign):
    """The drafts of ``campaign`` that ``user`` may see: every one for a GM; a player's own
    and the group's ships for a player; newest first."""
    drafts = campaign.encounters.filter(engine__in=ENGINES).order_by("-pk")
    if membership_role(user, campaign) == Membership.Role.GM:
        return drafts
    own = drafts.filter(engine=creation.ENGINE_NAME, terms__player=user.pk)
    ships = drafts.filter(engine=ship_creation.ENGINE_NAME)
    return own | ships


def draft_for_user(user, draft_id, campaign=None) -> Encounter:
    """The draft ``draft_id`` if ``user`` may see it (of ``campaign`` if given), else
    ``Http404("No such draft.")`` whatever the reason."""
    try:
        draft = Encounter.objects.select_related("campaign").get(pk=draft_id,
                                                                 engine__in=ENGINES)
        if campaign is not None and draft.campaign_id != campaign.pk:
            raise Http404
        campaign = campaign_for_user(user, draft.campaign_id)
    except (Encounter.DoesNotExist, ValueError, TypeError, OverflowError, Http404):
        raise Http404("No such draft.") from None
    if not drafts_for_user(user, campaign).filter(pk=draft.pk).exists():
        raise Http404("No such draft.")
    return draft


def _status(draft: Encounter) -> str:
    if draft.status == Encounter.Status.CANCELLED:
        return "cancelled"
    return (draft.state or {}).get("status", "drafting")


def draft_summary(draft: Encounter) -> dict:
    """A line of a list: the draft, what it is, its status."""
    state = draft.state or {}
    if draft.engine == ship_creation.ENGINE_NAME:
        name = f"The group's {state.get('setup', {}).get('ship_type', 'ship')}"
    else:
        name = (state.get("sheet") or {}).get("name") or draft.title
    status = _status(draft)
    return {"draft": draft, "name": name, "status": status,
            "status_label": STATUS_LABELS.get(status, status.capitalize()),
            "ship": draft.engine == ship_creation.ENGINE_NAME}


def progress(state: dict) -> list[dict]:
    """The progress line of a character draft: the nine steps, each ``done``, ``current``
    or to come (BtQ L224-245)."""
    current = creation.current_step(state)
    index = creation.STEP_KEYS.index(current) if current else len(creation.STEPS)
    return [{"key": key, "label": label, "number": i + 1,
             "state": "done" if i < index else ("current" if i == index else "todo")}
            for i, (key, label) in enumerate(creation.STEPS)]


DRAWS = ("creation.draw", "ship_creation.draw")
STEPS = ("creation.step", "ship_creation.step")
JOKER_STEPS = ("booty_joker", "crew_joker")
"""Steps that name a Joker's row: the cards stay shown for the choices still to make."""


def latest_draws(events: list[dict]) -> list[dict]:
    """The cards of the last draw among ``events`` (the viewer's), as ``{"text", "cards"}``
    rows: what the wizard shows as cards after a draw, while the choices on it are made.
    Once a step follows it (the experience's choices made, the ship named), the cards are
    no longer shown: they stay in the record."""
    last_step = max((i for i, e in enumerate(events) if e["kind"] in STEPS
                     and e["data"].get("step") not in JOKER_STEPS), default=-1)
    draws = [e for e in events if e["kind"] in DRAWS]
    if not draws or events.index(draws[-1]) < last_step:
        return []
    last = draws[-1]
    if last["kind"] == "ship_creation.draw" and "position" in last["data"]:
        crew = [e for e in draws if "position" in e["data"]]
        return [{"text": e["text"], "cards": [e["data"]["card"]]} for e in crew[-12:]]
    cards = last["data"].get("cards") or [last["data"]["card"]]
    return [{"text": last["text"], "cards": cards}]


def draft_view(user, draft: Encounter) -> dict:
    """What ``user`` sees of ``draft``: the engine's view (``state``), the decisions that
    are the viewer's (``mine``) and those waited for (``waiting``), the events, the cards of
    the last draw, the progress line, whether the viewer is a GM."""
    participants = combat_selectors.participant_ids_for(user, draft)
    mine, waiting = combat_selectors.decisions_for(draft, participants)
    events = combat_selectors.events_for(draft, participants)
    state = combat_selectors.view_for(draft, participants) or {}
    is_gm = combat_selectors.GM in participants
    return {"state": state, "mine": mine, "waiting": waiting, "events": events,
            "draws": latest_draws(events), "is_gm": is_gm, "participants": participants,
            "progress": progress(draft.state) if draft.engine == creation.ENGINE_NAME and
            draft.state else [], "summary": draft_summary(draft),
            "outcome": combat_selectors.outcome_for(draft, participants)}


def campaign_panel(request, campaign, role: str) -> dict:
    """The characters-in-the-making section of the campaign page (``campaigns.panels``):
    a player's own open draft or the button to start one; for a GM, the drafts (those
    waiting for approval first), the reference characters and the group's ship."""
    user = request.user
    drafts = [draft_summary(d) for d in drafts_for_user(user, campaign)
              .exclude(status=Encounter.Status.CANCELLED)[:20]]
    waiting = [d for d in drafts if d["status"] == "submitted"]
    is_gm = role == Membership.Role.GM
    mine = open_drafts(campaign, user).first() if not is_gm else None
    turn = [d for d in drafts if d["status"] != "approved" and _is_my_turn(user, d["draft"])]
    has_pc = campaign.characters.filter(owner=user, kind="pc").exists()
    return {"drafts": drafts, "waiting_drafts": waiting, "my_draft": mine,
            "my_turn_drafts": turn, "is_gm": is_gm, "can_create": role == "player" and
            mine is None, "has_character": has_pc, "me": participant_of(user),
            "ship_types": list(ship_creation.SHIP_TYPES)}


def _is_my_turn(user, draft: Encounter) -> bool:
    participants = combat_selectors.participant_ids_for(user, draft)
    mine, _ = combat_selectors.decisions_for(draft, participants)
    return any(d["actor"] != combat_selectors.GM or d["kind"].endswith("review")
               for d in mine)
