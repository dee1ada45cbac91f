"""Template tags of the fights of men's pages: the kernel's keys in the book's words."""

from django import template

from rules.btq.characters import SKILLS
from rules.btq.personal_combat import (
    BAND_LABELS,
    MODES,
    WEAPONS,
    weather_modifier,
    weather_words,
)
from rules.cards import card_count

register = template.Library()

_PHASES = {"tactics": "the commanding officer gives his orders",
           "opposition": "the GM sets the opposition",
           "discipline": "Discipline cards are handed out", "perform": "the actions",
           "done": "over"}


@register.filter
def fight_mode(key) -> str:
    return MODES.get(key, key)


@register.filter
def band_name(key) -> str:
    return BAND_LABELS.get(key, key)


@register.filter
def weapon_name(key) -> str:
    weapon = WEAPONS.get(key)
    return weapon.label if weapon else key


@register.filter
def weapon_names(keys) -> str:
    return ", ".join(weapon_name(k) for k in keys or ())


@register.filter
def trait_names(traits) -> str:
    return ", ".join(name if times == 1 else f"{name} ({times})"
                     for name, times in (traits or {}).items())


@register.filter
def skirmish_phase(key) -> str:
    return _PHASES.get(key, key)


@register.simple_tag
def weather_note(weather) -> str:
    """" · Storm winds, Storm/Snow (-4 to every pool)", or nothing in fair weather."""
    mod = weather_modifier(weather) if weather else 0
    return f" · {weather_words(weather)} ({mod} to every pool)" if mod else ""


@register.simple_tag
def action_words(view, pid) -> str:
    """A skirmish PC's orders in words: "fights a French soldier", "a Skullduggery test"."""
    action = (view.get("actions") or {}).get(pid)
    if not action:
        return "—"
    if action["kind"] == "fight":
        foe = next((f["name"] for f in view.get("opposition", ()) if f["id"] == action["target"]),
                   "a foe")
        words = f"fights {foe}"
    else:
        words = f"a {SKILLS.get(action['target'], action['target'])} test"
    cards = (view.get("cards") or {}).get(pid)
    return words + (f", {card_count(cards, 'Discipline', signed=True)}" if cards else "")
