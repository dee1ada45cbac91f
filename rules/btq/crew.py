"""A ship's origin and NPC crew, as ship creation draws them (BtQ L606-622, L640-752;
``rules/btq_characters.md`` §2 Step 4.2, 4.5-4.6, TV-03): one card for the origin (its suit),
one card for each essential position no PC fills (its rank the NPC's competence, its suit
his disposition). The compact crew block the naval engine's setup takes (``crew``:
Awareness, Command, First Aid, Gunnery, Maritime, Seamanship) follows from the crew
(:func:`crew_skills`). Every card comes from the GM's deck through the random source.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.btq.characters import NPC_CREW_SKILLS
from rules.cards import GM_DECK, Card, Deck
from rules.random import RandomSource

ORIGINS = {
    "D": "a modern ship, built in the last few years",
    "H": "an old ship, long in service, with strong traditions",
    "C": "a captured French or Spanish prize, refitted (she keeps her former name)",
    "S": "brand new: her maiden voyage, with a new crew and a new Captain",
}
"""The ship's origin by the suit of the card turned (BtQ L606-620)."""

POSITIONS: dict[str, tuple[str, ...]] = {
    "lieutenant": ("command", "seamanship", "gunnery"),
    "midshipman": ("command", "seamanship", "courtesy"),
    "sailing_master": ("maritime", "seamanship", "scavenge"),
    "purser": ("purser", "haggle", "intrigue"),
    "surgeon": ("first_aid", "the_arts", "courtesy"),
    "marine": ("command", "intimidate", "scavenge"),
    "boatswain": ("profession", "seamanship", "maritime"),
    "gunner": ("awareness", "gunnery", "engineering"),
    "rating": ("skullduggery", "scavenge", "maritime"),
}
"""The essential crew and their key skills (BtQ L640-675); the Boatswain's Profession is
Sailmaker."""

ESSENTIAL = ("lieutenant", "lieutenant", "midshipman", "midshipman", "sailing_master",
             "purser", "surgeon", "marine", "boatswain", "gunner", "rating", "rating")
"""The positions a ship is created with: at least two Lieutenants, two Midshipmen and two
ratings (BtQ L640-675); the GM may leave some out on a small ship (the Hermes has no extra
Lieutenants or Midshipmen, BtQ L760)."""

DISPOSITIONS = {
    "D": "favourably inclined towards the PCs",
    "H": "an exceptional feature (heroic, well connected, decorated...)",
    "C": "disinclined towards the PCs",
    "S": "a detrimental feature (cowardly, a traitor, a drunk, a bully...)",
}
"""An NPC's disposition by the suit of his card (BtQ L679-752; btq_characters §2 4.6: Clubs
are Disinclined for every rank, as TV-03's 3C shows)."""


@dataclass(frozen=True)
class CrewMember:
    """One NPC of the crew: ``position`` (a key of :data:`POSITIONS`), the ``card`` drawn,
    ``competence`` ("Moderate", "Incompetent", "Exceptional"), ``key`` his key skills'
    value (4, 2, 6), ``disposition`` (the suit's, :data:`DISPOSITIONS`)."""

    position: str
    card: str
    competence: str
    key: int
    disposition: str

    @property
    def other(self) -> int:
        """Any other skill: the key less 2, at least 1 (BtQ L679-680)."""
        return max(1, self.key - 2)

    def skill(self, skill: str) -> int:
        """His value in ``skill``: the key value for one of his key skills, else
        :attr:`other`."""
        return self.key if skill in POSITIONS[self.position] else self.other

    def as_dict(self) -> dict:
        return {"position": self.position, "card": self.card, "competence": self.competence,
                "key": self.key, "other": self.other, "disposition": self.disposition}


def competence(card: Card) -> tuple[str, int]:
    """``(competence, key skill value)`` of the card an NPC is drawn with: a Number is
    Moderate (4), a Face Incompetent (2), an Ace Exceptional (6) (BtQ L679-752). A Joker,
    which only a player's deck holds, is "any": Exceptional here, the best row."""
    if card.rank in (0, 14):
        return "Exceptional", 6
    if card.rank >= 11:
        return "Incompetent", 2
    return "Moderate", 4


def draw_origin(source: RandomSource) -> tuple[str, str]:
    """Turn one card from the GM's deck for the ship's origin: ``(card, origin)``."""
    card = source.draw(Deck(GM_DECK), 1, purpose="ship origin")[0]
    return str(card), ORIGINS[card.suit]


def draw_crew(source: RandomSource, positions=ESSENTIAL) -> list[CrewMember]:
    """One NPC for each of ``positions`` (keys of :data:`POSITIONS`, those no PC fills), in
    order, each with one card of a freshly gathered GM deck (BtQ L679-680). Raises
    ``ValueError`` for an unknown position."""
    unknown = [p for p in positions if p not in POSITIONS]
    if unknown:
        raise ValueError(f"unknown crew position {unknown[0]!r}; known: {', '.join(POSITIONS)}")
    crew = []
    for position in positions:
        card = source.draw(Deck(GM_DECK), 1, purpose=f"crew {position}")[0]
        rank, key = competence(card)
        crew.append(CrewMember(position, str(card), rank, key, DISPOSITIONS[card.suit]))
    return crew


def crew_skills(crew: list[CrewMember]) -> dict[str, int]:
    """The ship's compact crew block (``NPC_CREW_SKILLS``, the naval setup's ``crew``): for
    each skill the best any NPC of the crew has in it, his key value if it is one of his key
    skills, else his other (BtQ L2360-2361: the crew's own skill serves where no PC has it);
    0 with no crew."""
    return {skill: max((m.skill(skill) for m in crew), default=0) for skill in NPC_CREW_SKILLS}
