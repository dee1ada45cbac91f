"""Campaign settings: the places where the book allows two readings.

Each setting's default is the reading decided in ``rules/DECISIONS.md`` (or, where that page
is silent, the digest's recommendation); a table may choose the other. Campaigns store only
the settings they change; :func:`resolve` fills in the rest and rejects unknown names and
values.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Setting:
    """One campaign setting: its ``choices`` (value -> label), ``default``, a one-line
    ``description``, the ``source`` of the decision, and ``used_by``: what in the app the
    setting affects (``"card tests"``, ``"ship-to-ship combat"``), empty while nothing in the
    app applies it (a rule of a part not built yet, or one the engines do not apply)."""

    name: str
    description: str
    choices: dict
    default: object
    source: str
    used_by: str = ""


SETTINGS: dict[str, Setting] = {
    s.name: s
    for s in (
        Setting(
            "reputation_loss_mode",
            "A reputation added to a losing pool drops",
            {"one_step": "one level, whatever the winner scored",
             "severity": "to the level of the winner's best success"},
            "one_step",
            "DECISIONS D1; BtQ L1241-1242",
            used_by="card tests",
        ),
        Setting(
            "personal_pool_floor",
            "Smallest card pool after penalties in a personal test",
            {0: "0 cards (the test cannot succeed)", 1: "1 card"},
            0,
            "DECISIONS D2; BtQ L2594-2595",
            used_by="card tests",
        ),
        Setting(
            "crusty_old_seadog_skill",
            "Crusty Old Seadog adds its card to",
            {"maritime": "Maritime tests (the trait's text)",
             "seamanship": "Seamanship tests (the book's example)"},
            "maritime",
            "btq_characters A4; BtQ L1080 vs L1210",
        ),
        Setting(
            "petty_officer_tier",
            "Petty Officers (Mates) count as",
            {"warrant": "Warrant Officers", "rating": "ratings"},
            "warrant",
            "DECISIONS D7; BtQ L275-280, L906-907",
        ),
        Setting(
            "midshipman_wealth",
            "A Midshipman's Wealth bonus is that of",
            {"officer": "an Officer (+2)", "warrant": "a Warrant Officer (+1)"},
            "officer",
            "DECISIONS D8; BtQ L266, L898-902",
        ),
        Setting(
            "general_weather_in_ship_combat",
            "General weather modifiers (wind, rain) in ship-to-ship combat",
            {False: "not applied: the ship-combat weather table governs",
             True: "applied as well"},
            False,
            "DECISIONS D15; BtQ L2365-2367",
        ),
        Setting(
            "repair_lockout",
            "A PC who repairs or fights a fire sits out How Will You Fight? in",
            {"same_round": "the same round", "next_round": "the next round"},
            "same_round",
            "DECISIONS D19; BtQ L2415, L2577, L2594",
            used_by="ship-to-ship combat",
        ),
        Setting(
            "double_shot_extra",
            "Double-shotting adds an extra Injured hit",
            {"per_area": "once to each of Crew and Hull that was hit",
             "per_hit": "for every hit on Crew or Hull"},
            "per_area",
            "btq_naval N14; BtQ L2653-2654",
            used_by="ship-to-ship combat",
        ),
        Setting(
            "great_hardship",
            "The optional rule Overcoming Great Hardship",
            {False: "not used", True: "used"},
            False,
            "DECISIONS D20; BtQ L1415-1426",
            used_by="ship-to-ship combat",
        ),
        Setting(
            "odds_for_players",
            "The odds of a battle and of each option of a decision (“What if”) are "
            "offered to",
            {False: "the GM only: the simulation knows what the players do not (the enemy's "
                    "crew, her traits, her shot), and its odds give it away",
             True: "the players too, for their own decisions and the battle as it stands "
                   "(the odds reveal what the simulation knows of the enemy)"},
            False,
            "Quarterdeck, not the book (issue 11): the simulation plays with hidden facts",
            used_by="odds",
        ),
    )
}


RETIRED = frozenset({"max_retests"})
"""Names that once were settings and are no longer: stored setups and records may still carry
them, and :func:`resolve` passes over them. (``max_retests`` is the bound of D3,
``rules.btq.tests.MAX_RETESTS``, not a table's choice.)"""


class SettingError(ValueError):
    """An unknown setting name, or a value the setting does not offer."""


def resolve(overrides: Mapping | None = None) -> dict:
    """The full settings: every default, with ``overrides`` applied.

    Raises :class:`SettingError` naming the setting for an unknown name or value.
    """
    values = {name: s.default for name, s in SETTINGS.items()}
    for name, value in (overrides or {}).items():
        if name in RETIRED:
            continue
        setting = SETTINGS.get(name)
        if setting is None:
            raise SettingError(f"unknown campaign setting {name!r}")
        if value not in setting.choices:
            allowed = ", ".join(repr(c) for c in setting.choices)
            raise SettingError(f"{name}: {value!r} is not one of {allowed}")
        values[name] = value
    return values
