"""The character's parameters as the book names them (BtQ L57-204; ``rules/btq_characters.md`` §1).

Keys are the stable identifiers used in setups, JSON and the database; labels are the book's.
"""

from __future__ import annotations

from enum import IntEnum

MEASURES: dict[str, str] = {
    "guts": "Guts",
    "discipline": "Discipline",
    "influence": "Influence",
    "charm": "Charm",
}
"""The four Measures; each starts at 1 (BtQ L82-103)."""

SKILLS: dict[str, str] = {
    "awareness": "Awareness",
    "command": "Command",
    "courtesy": "Courtesy",
    "diplomacy": "Diplomacy",
    "engineering": "Engineering",
    "first_aid": "First Aid",
    "gambling": "Gambling",
    "gunnery": "Gunnery",
    "haggle": "Haggle",
    "intimidate": "Intimidate",
    "intrigue": "Intrigue",
    "maritime": "Maritime",
    "music": "Music",
    "profession": "Profession",
    "purser": "Purser",
    "riding": "Riding",
    "romance": "Romance",
    "scavenge": "Scavenge",
    "seamanship": "Seamanship",
    "skullduggery": "Skullduggery",
    "soldiering": "Soldiering",
    "the_arts": "The Arts",
}
"""The 22 skills; each starts at 0 (BtQ L164-204)."""

NPC_CREW_SKILLS: tuple[str, ...] = (
    "awareness", "command", "first_aid", "gunnery", "maritime", "seamanship",
)
"""The compact block of ship's-officer skills the book gives an NPC ship (BtQ L2831-2857;
``rules/btq_naval.md`` §5.1, N23)."""


class DamageState(IntEnum):
    """The damage state of a character's area, a reputation or a ship's area (BtQ L1297-1329)."""

    HEALTHY = 0
    INJURED = 1
    MAIMED = 2
    DEAD = 3

    @property
    def label(self) -> str:
        return self.name.capitalize()

    @property
    def penalty(self) -> int:
        """Cards taken from a pool by this state: Injured -1, Maimed -3 (BtQ L1305-1329)."""
        return (0, 1, 3, 0)[self]


DAMAGE_AREAS: dict[str, str] = {
    "health": "Health",
    "ship_morale": "Ship Morale",
    "wealth": "Wealth",
}
"""A character's damage areas besides one per reputation (BtQ L1297-1301)."""
