"""The demo campaign of ``make run``: the book's own characters with the book's values, in
its example of ship-to-ship combat, HMS Hermes against the smuggling cutter Corsair
(BtQ L2533-2543; ``rules/btq_naval.md`` TV-N06), and two NPCs to test against.

* Master Gregory O'Toole is the character the book builds in its creation example: the final
  sheet (BtQ L1138-1144; ``rules/btq_characters.md`` TV-09) gives his Measures, Wealth 3,
  skills, seven reputations, traits and curio. His Seamanship is stored as 5: the sheet's 4
  plus the +1 of his trait Crusty Old Seadog, as the book counts it in his own test (L1210-1212)
  and as the naval example gives it (L2540). The sheet has no traits yet, so the card stands in
  the skill; his traits and curio are written in his notes.
* Gunner Bosworth and Midshipman Smith are known from the naval example alone: Gunnery 4 and
  Maritime 3, "All other skills are at 2" (L2540). Their Discipline is what O'Toole may hand
  them (L2543; each receives at most his own, L2406-2407); their Wealth is their rank's bonus
  over a class Wealth of 0 (a Warrant Officer +1, an Officer +2, L1125-1126; a Midshipman counts
  as an Officer, DECISIONS D8).
* Captain Jones, O'Toole's rival in the book's contested Seamanship test (L1198-1241):
  Seamanship 4, "no traits, equipment or reputations" (L1221-1222). The table knows him (two of
  O'Toole's reputations name him and his ship), so he is revealed: players see his name and
  rank, never his values.
* The Corsair's Captain, who opposes O'Toole's Seamanship with his own 3 in the battle
  (L2535, L2552-2556): hidden from the players, like his ship, until the GM reveals him.
"""

from django.contrib.auth import get_user_model
from django.db import transaction

from campaigns.models import Campaign, Membership
from campaigns.services import campaign_create
from characters.models import Character, Reputation
from characters.services import character_create, reputation_create
from rules.btq.characters import SKILLS
from ships.models import Ship, ShipType
from ships.services import posting_set, reference_data_load, ship_create

DEMO_PASSWORD = "quarterdeck-demo"
DEMO_CAMPAIGN = "The Cruise of the Hermes"


def _skills(**special) -> dict[str, int]:
    # "All other skills are at 2" (BtQ L2540).
    return {key: special.get(key, 2) for key in SKILLS}


OTOOLE_SKILLS = {
    # His final sheet (BtQ L1140; TV-06, TV-09). Profession is one skill here: his
    # Profession (Fisherman) 2 (L444-448, blank on L1140), the higher of his two; Seamanship
    # 4 + 1 for Crusty Old Seadog (L1210-1212), the 5 of the naval example (L2540).
    "awareness": 2, "command": 2, "diplomacy": 1, "gambling": 1, "maritime": 4,
    "profession": 2, "purser": 2, "scavenge": 1, "seamanship": 5, "skullduggery": 3,
}

OTOOLE_NOTES = (
    "American, Protestant, son of a New Orleans fisherman; once a blockade runner, now the "
    "Ship's Master of the Hermes.\n"
    "Traits: Read & Write, Second Language (French), Swimming, Jack Tar, Knife Fighting (1), "
    "Crusty Old Seadog (its +1 card is counted in his Seamanship 5: Seamanship 4 on his "
    "sheet).\n"
    "Professions: Fisherman 2 (the Profession skill on this sheet), Mapmaker 1.\n"
    "Curio: Reef Map of the West Indies (+1 Seamanship in those waters)."
)

DEMO_PCS = (
    # username, rank, name, Measures and Wealth, skills, station, notes
    ("otoole", "Master", "Gregory O'Toole",
     # Guts 4, Discipline 3, Charm 3, Influence 4, Wealth 3 (BtQ L1138-1140; TV-08, TV-09).
     # The most senior: "in command" (L2543), he hands out his 3 Discipline (L2540-2541).
     {"seniority": 3, "guts": 4, "discipline": 3, "charm": 3, "influence": 4, "wealth": 3},
     OTOOLE_SKILLS, "master", OTOOLE_NOTES),
    ("bosworth", "Gunner", "Bosworth",
     # Receives 1 of O'Toole's Discipline cards (L2541); a Warrant Officer's +1 Wealth (L1126).
     {"seniority": 2, "discipline": 1, "wealth": 1},
     _skills(gunnery=4), "gunner", "The Gunner of the Hermes."),
    ("smith", "Midshipman", "Smith",
     # Receives 2 (L2541); an Officer's +2 Wealth (L1126; a Midshipman counts as one, D8).
     {"seniority": 1, "discipline": 2, "wealth": 2},
     _skills(maritime=3), "midshipman", "The Midshipman of the Hermes: \"the Middie\"."),
)

OTOOLE_REPUTATIONS = (
    # kind, descriptor, subject, value (BtQ L1140-1142; TV-06, TV-07: 2 Personal, 5
    # Institution, each within its cap, Charm 3 and Influence 4).
    (Reputation.Kind.PERSONAL, "Distrusted by", "Captain Jones", 1),
    (Reputation.Kind.PERSONAL, "Friend of", "Captain Turner", 2),
    (Reputation.Kind.INSTITUTION, "Trusted by", "New Orleans Fisherman", 1),
    (Reputation.Kind.INSTITUTION, "Respected by", "the Ward Room", 2),
    (Reputation.Kind.INSTITUTION, "Trusted by", "the Hermes", 1),
    (Reputation.Kind.INSTITUTION, "Always Welcome on", "The Silver Fin", 1),
    (Reputation.Kind.INSTITUTION, "Distrusted by", "the HMS Achilles", 1),
)

CORSAIR_CREW = {
    # Given by the book (BtQ L2535): Awareness 2, Seamanship 3, Gunnery 3. The others
    # follow the NPC crew rule (BtQ L679-680; btq_naval.md N23): off-key skills at the key
    # value - 2, at least 1, so 3 - 2 = 1.
    "awareness": 2, "seamanship": 3, "gunnery": 3, "command": 1, "first_aid": 1, "maritime": 1,
}

DEMO_NPCS = (
    # rank, name, revealed, skills, GM notes
    ("Captain", "Jones", True, {"seamanship": 4},
     "Captain of HMS Achilles. He accused O'Toole of collaboration with the enemy while he "
     "himself works with the French; both race back to Portsmouth to testify before the "
     "Admiral of the Port. The book's contested test: O'Toole's Seamanship 4 "
     "+ Crusty Old Seadog + Distrusted by Captain Jones = 6 cards against his Seamanship 4, "
     "with no traits, equipment or reputations."),
    ("", "The Corsair's Captain", False, CORSAIR_CREW,
     "Master of the smuggling cutter Corsair, running contraband through the blockade; he "
     "wants to flee the more powerful Hermes. Opposes O'Toole's Seamanship with his own 3."),
)


@transaction.atomic
def demo_load() -> tuple[Campaign, bool]:
    """Create the demo users, campaign, ships, PCs (with O'Toole's reputations) and NPCs
    unless the campaign exists already. Returns ``(campaign, created)``; running it again
    changes nothing."""
    reference_data_load()
    users = {}
    for username in ("gm", *(pc[0] for pc in DEMO_PCS)):
        user, created = get_user_model().objects.get_or_create(username=username)
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        users[username] = user
    existing = Campaign.objects.filter(name=DEMO_CAMPAIGN).first()
    if existing is not None:
        return existing, False
    gm = users["gm"]
    campaign = campaign_create(
        name=DEMO_CAMPAIGN, gm=gm,
        description="The Brig Sloop Hermes (22) has orders to apprehend the smugglers running "
        "contraband through the blockade: the book's example of ship-to-ship combat. Her "
        "Master, Gregory O'Toole, is the character the book builds; Captain Jones, his rival, "
        "is the book's opponent in a contested test.",
    )
    for username, *_ in DEMO_PCS:
        Membership.objects.create(campaign=campaign, user=users[username],
                                  role=Membership.Role.PLAYER)
    hermes = ship_create(
        campaign=campaign, actor=gm, name="HMS Hermes", guns=22, side=Ship.Side.PC,
        ship_type=ShipType.objects.get(name="Brig Sloop"),
        traits=["Expertly Coppered Hull"],  # "Expertly Coppered Bottom", BtQ L2535
    )
    ship_create(  # an enemy: hidden from the players until the battle reveals her
        campaign=campaign, actor=gm, name="Corsair", side=Ship.Side.ENEMY,
        ship_type=ShipType.objects.get(name="Cutter"), traits=["Heart of Oak"],
        crew=CORSAIR_CREW,
        gm_notes="Smuggling contraband to the enemy through the blockade. "
        "Her Captain wants to flee the more powerful Hermes.",
    )
    for username, rank, name, values, skills, station, notes in DEMO_PCS:
        pc = character_create(
            campaign=campaign, actor=gm, kind=Character.Kind.PC, owner=users[username],
            name=name, rank=rank, skills=skills, notes=notes, **values,
        )
        posting_set(ship=hermes, character=pc, station=station, actor=gm)
        if username == "otoole":
            for kind, descriptor, subject, value in OTOOLE_REPUTATIONS:
                reputation_create(character=pc, actor=gm, kind=kind, descriptor=descriptor,
                                  subject=subject, value=value)
    for rank, name, revealed, skills, gm_notes in DEMO_NPCS:
        character_create(campaign=campaign, actor=gm, kind=Character.Kind.NPC, name=name,
                         rank=rank, skills=skills, revealed=revealed, gm_notes=gm_notes)
    return campaign, True
