"""Who may see a ship, and how much of it (DESIGN.md, "Roles and trust").

Players see the players' own ships and the other ships the GM revealed (or that fought them:
:func:`ships.services.ship_reveal`); an unrevealed ship does not exist for them (404). Of the
players' own ship they see all but
the GM notes; of any other ship only its name, type and damage, never its crew skills,
traits, Ship Morale or notes. GMs see everything.
"""

from django.db.models import Prefetch, Q, QuerySet
from django.http import Http404

from campaigns.models import Campaign, Membership
from campaigns.selectors import known_to_user, membership_role
from ships.models import Ship, ShipPosting, ShipTrait, ShipType

REVEALED = Q(side=Ship.Side.PC) | Q(revealed=True)
"""The ships a player may know of."""


def ships_for_user(user, campaign: Campaign) -> QuerySet[Ship]:
    """The ships of ``campaign`` if ``user`` is a member (what a player sees of each is
    :func:`ship_access`), none otherwise."""
    role = membership_role(user, campaign)
    if role is None:
        return Ship.objects.none()
    ships = campaign.ships.select_related("ship_type")
    if role != Membership.Role.GM:
        ships = ships.filter(REVEALED)
    return ships


def ship_for_user(user, ship_id) -> Ship:
    """The ship ``ship_id`` if ``user`` is a GM of its campaign, or a member and the ship is
    the players' or revealed; ``Http404`` otherwise."""
    try:
        rows = Ship.objects.select_related("campaign", "ship_type")
        return known_to_user(user, rows, REVEALED).get(pk=ship_id)
    except (Ship.DoesNotExist, ValueError, TypeError):
        raise Http404("No such ship.") from None


def ship_access(user, ship: Ship, role: str | None = None) -> str:
    """``"gm"`` (everything), ``"crew"`` (a player and the players' ship: all but GM notes),
    ``"public"`` (a player and another ship: name, type, damage) or ``"none"``."""
    role = role if role is not None else membership_role(user, ship.campaign)
    if role == Membership.Role.GM:
        return "gm"
    if role is None:
        return "none"
    return "public" if ship.is_hidden_from_players else "crew"


def _postings_in_order():
    return ShipPosting.objects.select_related("character").order_by(
        "-character__seniority", "character__name")


WITH_CREW = ("traits", "reputations", "roster",
             Prefetch("postings", queryset=_postings_in_order(), to_attr="postings_in_order"))
"""For a list of ships shown in full (``ships.prefetch_related(*WITH_CREW)``): their
traits, reputations, roster and postings in four queries, not four per ship."""


def ship_postings(ship: Ship):
    """Who serves aboard ``ship``, most senior first: as fetched with :data:`WITH_CREW`,
    else from the database."""
    prefetched = getattr(ship, "postings_in_order", None)
    if prefetched is not None:
        return prefetched
    return _postings_in_order().filter(ship=ship)


def ship_types() -> QuerySet[ShipType]:
    return ShipType.objects.all()


def ship_traits() -> QuerySet[ShipTrait]:
    return ShipTrait.objects.all()


def campaign_panel(request, campaign: Campaign, role: str) -> dict:
    """The ships' section of the campaign page (``campaigns.panels``): ``ships`` as
    :func:`ships_for_user` lists them for the viewer."""
    return {"ships": ships_for_user(request.user, campaign)}
