"""A challenge of a mission met or failed by an encounter of any engine (BtQ L1440-1441,
L1482-1484; ``rules/btq_missions.md`` §3.3; DECISIONS D6, D14).

An encounter names the challenge it is played for when it is created
(``Encounter.challenge``; the GM's new-encounter forms offer it with
:func:`add_challenge_field`, as D6 asks: whenever a test could be a challenge, offer to link
it). When it finishes, :func:`record` moves the missions' counters through
``campaigns.missions.services.challenge_record``, which counts one encounter once.

Who won, engine by engine (the one place this is decided, :func:`players_won`): the
challenge is met when the players' side wins, failed when the other side does, and counts
for nothing when nobody wins (a stalemate after ten retests, D3; a battle both sides break
off), so the GM may call another:

* ``btq_test`` (a card test): the tested PC (``pc:<id>``) wins the contest or passes the
  static or simple test (result ``"won"`` or ``"passed"``); ``"stalemate"`` counts for
  nobody;
* ``btq_naval`` (a ship battle): the winner is the side ``"pc"``, the PCs' ship; the enemy
  winning fails it;
* ``hfg`` (a land battle): the winning side (``Outcome.data["winner_side"]``; the outcome's
  winner is that side's name) is one a PC commands in the setup; the other side winning
  fails it, a draw counts for nobody;
* any other engine: the winner is a participant ``"pc:<id>"``, or a side (``"<id>"`` or
  ``"side:<id>"``) that a PC commands in the setup (``setup["sides"][<id>]["commander"]``,
  or the entry of that ``id`` in a list of sides, as the wargames give them), or the side
  called ``"pc"`` / ``"players"``; another winner fails it.
"""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError

from campaigns.missions.selectors import open_challenges
from campaigns.missions.services import challenge_open_for, challenge_record
from combat.models import Encounter
from combat.selectors import PC_PREFIX


def _commanded_by_a_pc(setup: dict, side: str) -> bool:
    sides = setup.get("sides")
    key = side.removeprefix("side:")
    if isinstance(sides, dict):
        entry = sides.get(key)
    elif isinstance(sides, list):
        entry = next((e for e in sides if isinstance(e, dict) and e.get("id") == key), None)
    else:
        return False
    return isinstance(entry, dict) and str(entry.get("commander", "")).startswith(PC_PREFIX)


def players_won(encounter: Encounter, outcome) -> bool | None:
    """``True`` if the players' side won ``outcome`` (a ``rules.engine.Outcome``), ``False``
    if the other side did, ``None`` if nobody did (module docstring: the rule per engine)."""
    winner = outcome.winner
    if encounter.engine == "btq_test":
        if outcome.result == "stalemate" or winner is None:
            return None
        return outcome.result in ("won", "passed") and str(winner).startswith(PC_PREFIX)
    if winner is None:
        return None
    winner = str(winner)
    if encounter.engine == "btq_naval":
        return winner == "pc"
    if encounter.engine == "hfg":
        # its winner is the side's name; its data names the side ("side:<id>" elsewhere)
        side = (outcome.data or {}).get("winner_side", winner)
        return _commanded_by_a_pc(encounter.setup or {}, str(side))
    return (winner.startswith(PC_PREFIX) or winner in ("pc", "players")
            or _commanded_by_a_pc(encounter.setup or {}, winner))


def record(encounter: Encounter, outcome, user):
    """The finished ``encounter`` meets or fails the challenge it was played for (if any);
    recorded once however often its finish is recorded. Returns the new
    ``ChallengeResult``, or ``None`` when nothing was recorded: no challenge, a finish that
    nobody won (the challenge is still to be played), or one recorded before."""
    if encounter.challenge_id is None:
        return None
    met = players_won(encounter, outcome)
    if met is None:
        return None
    return challenge_record(challenge=encounter.challenge, met=met, actor=user,
                            encounter_id=encounter.pk, summary=f"“{encounter.title}”")


class ChallengeChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj) -> str:
        missions = ", ".join(m.name for m in obj.missions.all())
        return f"{obj.description} ({missions})"


def add_challenge_field(form: forms.Form, campaign, initial=None) -> None:
    """Add the select "For a challenge" to a GM's new-encounter ``form``: the campaign's
    challenges still to be played (DECISIONS D6); ``initial`` a challenge id. Nothing is
    added when there is none. The chosen challenge is ``form.cleaned_data["challenge"]``,
    for the service that creates the encounter (``challenge=``)."""
    choices = open_challenges(campaign)
    if not choices.exists():
        return
    form.fields["challenge"] = ChallengeChoiceField(
        queryset=choices, required=False, label="For a challenge",
        empty_label="None: not a challenge",
        help_text="Its result meets or fails this challenge of a mission.")
    if initial and str(initial).isascii() and str(initial).isdigit():
        form.fields["challenge"].initial = int(initial)


def challenge_for(campaign, challenge) -> object | None:
    """The challenge a new encounter is played for: ``None``, or a challenge (row or id) of
    ``campaign`` still to be played; ``ValidationError`` naming ``challenge`` otherwise."""
    if challenge in (None, ""):
        return None
    pk = getattr(challenge, "pk", challenge)
    if isinstance(pk, bool) or not isinstance(pk, int):
        raise ValidationError({"challenge": "A challenge is named by its id."})
    return challenge_open_for(campaign, pk)
