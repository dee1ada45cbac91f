"""The sections of a character's page that other apps contribute, as the campaign page's
panels (``campaigns.panels``): an app above ``characters`` registers a
:class:`campaigns.panels.Panel` here in its ``ready()``, whose ``context(request,
character, access)`` decides what the viewer may see (``access`` as
``characters.selectors.character_access`` gives it)."""

from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from campaigns.panels import Panel

_SECTIONS: dict[str, Panel] = {}


def register(section: Panel) -> Panel:
    """Add ``section`` to every character's page (called from an app's ``ready()``)."""
    _SECTIONS[section.name] = section
    return section


def sections_render(request, character, access: str, base: dict) -> list[SafeString]:
    """The registered sections rendered for this viewer, in order."""
    return [
        render_to_string(s.template, {**base, **s.context(request, character, access)},
                         request)
        for s in sorted(_SECTIONS.values(), key=lambda s: (s.order, s.name))
    ]
