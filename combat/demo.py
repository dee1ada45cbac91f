"""The demo campaign of ``make run``: the book's example of ship-to-ship combat, HMS Hermes
against the smuggling cutter Corsair (BtQ L2533-2543; ``rules/btq_naval.md`` TV-N06)."""

from django.contrib.auth import get_user_model
from django.db import transaction

from campaigns.models import Campaign, Membership
from campaigns.services import campaign_create
from characters.models import Character
from characters.services import character_create
from rules.btq.characters import SKILLS
from ships.models import Ship, ShipType
from ships.services import posting_set, reference_data_load, ship_create

DEMO_PASSWORD = "quarterdeck-demo"
DEMO_CAMPAIGN = "The Cruise of the Hermes"


def _skills(**special) -> dict[str, int]:
    # "All other skills are at 2" (BtQ L2537).
    return {key: special.get(key, 2) for key in SKILLS}


DEMO_PCS = (
    # username, rank, name, seniority, Discipline, skills, station
    # O'Toole is "in command" and hands out his 3 Discipline: 2 to Smith, 1 to Bosworth
    # (BtQ L2540-2541); each PC receives at most his own Discipline (L2406-2407).
    ("otoole", "Master", "Gregory O'Toole", 3, 3, _skills(seamanship=5), "master"),
    ("bosworth", "Gunner", "Bosworth", 2, 1, _skills(gunnery=4), "gunner"),
    ("smith", "Midshipman", "Smith", 1, 2, _skills(maritime=3), "midshipman"),
)

CORSAIR_CREW = {
    # Given by the book (BtQ L2535): Awareness 2, Seamanship 3, Gunnery 3. The others
    # follow the NPC crew rule (BtQ L679-680; btq_naval.md N23): off-key skills at the key
    # value - 2, at least 1, so 3 - 2 = 1.
    "awareness": 2, "seamanship": 3, "gunnery": 3, "command": 1, "first_aid": 1, "maritime": 1,
}


@transaction.atomic
def demo_load() -> tuple[Campaign, bool]:
    """Create the demo users, campaign, ships and PCs unless the campaign exists already.
    Returns ``(campaign, created)``; running it again changes nothing."""
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
        "contraband through the blockade. The book's example of ship-to-ship combat "
        "(BtQ L2533-2603).",
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
        gm_notes="Smuggling contraband to the enemy through the blockade (BtQ L2533-2534). "
        "Her Captain wants to flee the more powerful Hermes.",
    )
    for username, rank, name, seniority, discipline, skills, station in DEMO_PCS:
        pc = character_create(
            campaign=campaign, actor=gm, kind=Character.Kind.PC, owner=users[username],
            name=name, rank=rank, seniority=seniority, discipline=discipline, skills=skills,
        )
        posting_set(ship=hermes, character=pc, station=station, actor=gm)
    return campaign, True
