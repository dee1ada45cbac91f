"""Starting a wargame from a campaign, for every engine that offers it (Brethren of the
Coast now; Horse Foot and Guns, the Viking game and British vs Pirates follow the same way).

A *wargame engine* is a registered engine with ``wargame = True`` whose scenarios' setups
list their sides as ``"sides": [{"id", "name", "commander", ...}]``: the page offers each of
its scenarios, and the GM gives each side a commander, one of the campaign's PCs
(``"pc:<pk>"``, his player gives its orders) or himself (``"side:<id>"``). The encounter is
then created and begun through :mod:`combat.services` like any battle (fair seed, events,
pushes, replay, "Resolve the rest" on a worker), with the campaign's rule settings in its
setup, and its end is written to the campaign log by the same code.
"""

from __future__ import annotations

import copy

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import transaction
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from campaigns.forms import Form
from campaigns.once import once_per_token
from campaigns.selectors import campaign_for_user, require_gm
from characters.models import Character
from combat import services
from combat.challenges import add_challenge_field
from rules.engine import engines

GM_COMMANDS = "gm"
"""The commander choice for a side the GM runs himself."""


def wargame_engines() -> dict:
    """The registered wargame engines (``wargame = True``) by name."""
    return {name: e for name, e in sorted(engines().items()) if getattr(e, "wargame", False)}


def wargame_scenarios() -> dict[str, tuple]:
    """``"<engine>/<scenario>"`` -> ``(engine, scenario)`` for every scenario of every
    wargame engine."""
    out = {}
    for name, engine in wargame_engines().items():
        for key, scenario in engine.scenarios().items():
            out[f"{name}/{key}"] = (engine, scenario)
    return out


def _pcs(campaign):
    return list(campaign.characters.filter(kind=Character.Kind.PC).order_by("name", "pk"))


class ScenarioForm(Form):
    """The first step: which engine and scenario, offered by rule book."""

    scenario = forms.ChoiceField(label="Scenario", widget=forms.RadioSelect)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        groups: dict[str, list] = {}
        for key, (engine, scenario) in wargame_scenarios().items():
            groups.setdefault(engine.title, []).append((key, scenario.title))
        self.fields["scenario"].choices = list(groups.items())

    def books(self) -> list[tuple[str, list]]:
        """``(rule book's title, [the scenario's radio button])`` for each wargame engine, so
        that the page shows every scenario under its book (a closed select shows no book)."""
        boxes = {box.data["value"]: box for box in self["scenario"]}
        return [(book, [boxes[key] for key, _ in scenarios])
                for book, scenarios in self.fields["scenario"].choices]


class CommandersForm(Form):
    """The second step: a title and, for each side of the scenario, who commands it."""

    title = forms.CharField(max_length=200, required=False,
                            help_text="Leave empty for the scenario's title.")

    def __init__(self, *args, campaign, sides, **kwargs):
        super().__init__(*args, **kwargs)
        add_challenge_field(self, campaign)
        choices = [(GM_COMMANDS, "The GM")] + [(f"pc:{pc.pk}", pc.title) for pc in _pcs(campaign)]
        self.sides = sides
        for side in sides:
            self.fields[f"side_{side['id']}"] = forms.ChoiceField(
                choices=choices, initial=GM_COMMANDS, label=f"{side['name']}: commanded by")


def _commanded(scenario_setup: dict, commanders: dict[str, str], names: dict[str, str]) -> dict:
    setup = copy.deepcopy(scenario_setup)
    for side in setup["sides"]:
        who = commanders.get(side["id"], GM_COMMANDS)
        if side.get("npc"):
            continue
        if who == GM_COMMANDS:
            side["commander"] = f"side:{side['id']}"
        else:
            side["commander"] = who
            side["name"] = f"{side['name']} ({names[who]})"
    return setup


def commanded_sides(scenario) -> list[dict]:
    """The sides of ``scenario`` that are given a commander (its ``npc`` sides follow a
    script and have none)."""
    return [s for s in scenario.setup["sides"] if not s.get("npc")]


def _check_commanders(campaign, scenario, commanders: dict[str, str]) -> None:
    """``ValidationError`` naming the field (``side_<id>``) for a side the scenario does not
    give a commander, a commander who is neither the GM nor one of the campaign's PCs, or a
    character named for two sides."""
    sides = {s["id"]: s["name"] for s in commanded_sides(scenario)}
    pcs = {f"pc:{pc.pk}" for pc in _pcs(campaign)}
    errors: dict[str, str] = {}
    taken: dict[str, str] = {}
    for side_id, who in commanders.items():
        field = f"side_{side_id}"
        if side_id not in sides:
            errors[field] = ("This scenario has no such side to command; its sides are "
                             f"{', '.join(sides)}.")
        elif not isinstance(who, str) or (who != GM_COMMANDS and who not in pcs):
            errors[field] = "Choose the GM or one of the campaign's player characters."
        elif who != GM_COMMANDS and who in taken:
            errors[field] = ("A character commands one side only: this one already commands "
                             f"{taken[who]}.")
        elif who != GM_COMMANDS:
            taken[who] = sides[side_id]
    if errors:
        raise ValidationError(errors)


@transaction.atomic
def wargame_create(*, campaign, user, scenario_key: str, commanders: dict[str, str],
                   title: str = "", challenge=None):
    """Create and begin an encounter of the wargame scenario ``scenario_key``
    (``"<engine>/<scenario>"``) in ``campaign`` (GMs only), each side commanded as
    ``commanders`` says (side id -> ``"gm"`` or ``"pc:<pk>"`` of one of the campaign's PCs;
    a side not named is the GM's), with the campaign's rule settings, played for
    ``challenge`` (a mission's, ``combat.challenges``) if given. Returns the begun
    encounter. ``ValidationError`` naming the field (``scenario``, ``side_<id>``) for an
    unknown scenario, a side it does not have, a commander who is neither the GM nor a PC of
    the campaign, or a PC named for two sides; the engine's refusal of the setup as well;
    ``PermissionDenied`` for anyone but a GM of the campaign."""
    require_gm(user, campaign)
    found = wargame_scenarios().get(scenario_key)
    if found is None:
        raise ValidationError({"scenario": "Choose one of the scenarios offered."})
    engine, scenario = found
    _check_commanders(campaign, scenario, commanders)
    pcs = {f"pc:{pc.pk}": pc.title for pc in _pcs(campaign)}
    setup = _commanded(scenario.setup, commanders, pcs)
    setup["settings"] = campaign.rules_settings()
    encounter = services.encounter_create(campaign=campaign, user=user, engine=engine.name,
                                          setup=setup, title=title or scenario.title,
                                          challenge=challenge)
    return services.encounter_start(encounter=encounter, user=user,
                                    expected_version=encounter.version)


@login_required
@require_http_methods(["GET", "POST"])
@once_per_token
def wargame_new(request, campaign_id):
    """GET without a scenario: choose one; GET with one: its sides' commanders; POST: the
    wargame begins and its page opens."""
    campaign = campaign_for_user(request.user, campaign_id)
    require_gm(request.user, campaign)
    picked = ScenarioForm(request.GET or None)
    if not picked.is_valid():
        return render(request, "combat/wargame_new.html",
                      {"campaign": campaign, "picked": picked, "form": None})
    key = picked.cleaned_data["scenario"]
    engine, scenario = wargame_scenarios()[key]
    sides = commanded_sides(scenario)
    form = CommandersForm(request.POST or None, campaign=campaign, sides=sides)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        encounter = form.submit(lambda: wargame_create(
            campaign=campaign, user=request.user, scenario_key=key,
            commanders={s["id"]: data[f"side_{s['id']}"] for s in sides},
            title=data["title"], challenge=data.get("challenge")))
        if encounter is not None:
            return redirect("combat:detail", pk=encounter.pk)
    return render(request, "combat/wargame_new.html", {
        "campaign": campaign, "picked": picked, "form": form, "engine": engine,
        "scenario": scenario, "scenario_key": key,
    })
