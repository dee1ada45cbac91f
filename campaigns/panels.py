"""The sections of a campaign's page that other apps contribute (DESIGN.md, "Layers").

``campaigns`` imports no other app, yet its page shows the characters, the ships and the
table. Each app above it registers a :class:`Panel` in its ``AppConfig.ready()``; the
campaign page renders every registered panel in ``order``, each from its own template with
the context its ``context`` function returns. The function decides what the viewer may see
(through that app's own selectors), so hidden things stay hidden without ``campaigns``
knowing what they are.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.template.loader import render_to_string
from django.utils.safestring import SafeString


@dataclass(frozen=True, slots=True)
class Panel:
    """One section of the campaign page.

    ``name`` is unique (registering it again replaces it); ``template`` is rendered with the
    page's context plus ``context(request, campaign, role)``, a dict (``role``: the viewer's
    ``Membership.Role`` value); ``order`` sorts the sections, lowest first.
    """

    name: str
    template: str
    context: Callable[..., dict]
    order: int = 100


_PANELS: dict[str, Panel] = {}
_DASHBOARD: dict[str, Panel] = {}


def register(panel: Panel) -> Panel:
    """Add ``panel`` to the campaign page (called from an app's ``ready()``)."""
    _PANELS[panel.name] = panel
    return panel


def panels_render(request, campaign, role: str, base: dict) -> list[SafeString]:
    """The registered panels rendered as HTML for this viewer, in order; each template gets
    ``base`` (the page's own context) and its panel's context."""
    return [
        render_to_string(p.template, {**base, **p.context(request, campaign, role)}, request)
        for p in sorted(_PANELS.values(), key=lambda p: (p.order, p.name))
    ]


def register_dashboard(panel: Panel) -> Panel:
    """Add ``panel`` to the GM's dashboard (``campaigns.missions.views.dashboard``), as
    :func:`register` adds one to the campaign page."""
    _DASHBOARD[panel.name] = panel
    return panel


def dashboard_render(request, campaign, role: str, base: dict) -> list[SafeString]:
    """The dashboard's registered panels rendered as HTML, in order."""
    return [
        render_to_string(p.template, {**base, **p.context(request, campaign, role)}, request)
        for p in sorted(_DASHBOARD.values(), key=lambda p: (p.order, p.name))
    ]
