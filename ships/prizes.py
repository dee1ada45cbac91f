"""Use cases of prizes: an enemy ship taken in a battle is held until she reaches port, and
only then is her prize money shared out by rank ("When a British Ship captures an enemy
ship and returns it to a friendly port...", BtQ L1769-1835); lost on the way or recaptured,
she pays nothing.

Each function is one transaction that locks what it changes and logs it.
"""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from campaigns.models import Campaign
from campaigns.selectors import require_gm
from campaigns.services import Conflict, check_version, log_append
from characters.shipboard import prize_shares_pay
from ships.models import Prize, Ship


def held_prize(ship: Ship) -> Prize | None:
    """The prize ``ship`` is held as, on her way to port, or ``None``: until she arrives, is
    lost or is recaptured she is the victors' (BtQ L1769-1771), no enemy to fight again."""
    return Prize.objects.filter(ship=ship, status=Prize.Status.HELD).first()


def held_prize_ships(campaign: Campaign) -> set[int]:
    """The ids of ``campaign``'s ships held as prizes on their way to port
    (:func:`held_prize`), for a ship picker to say so."""
    return set(Prize.objects.filter(campaign=campaign, status=Prize.Status.HELD,
                                    ship__isnull=False).values_list("ship_id", flat=True))


def prize_hold(*, campaign: Campaign, battle: int, ship: Ship, crew, actor=None
               ) -> Prize | None:
    """``ship``, taken in encounter ``battle`` by ``crew`` (the PCs aboard the players'
    ships), held as a prize on her way to port. A prize is held once: the same ship of the
    same battle again, or a ship already held as a prize (:func:`held_prize`), taken in
    another battle, returns ``None``, so that her money is shared once. Part of the
    caller's transaction."""
    if held_prize(ship) is not None:
        return None
    prize, created = Prize.objects.get_or_create(
        battle=battle, captured=ship.display_name[:200],
        defaults={"campaign": campaign, "ship": ship, "rating": ship.ship_type.rating})
    if not created:
        return None
    prize.crew.set(crew)
    log_append(campaign=campaign, kind="prize.taken", actor=actor,
               text=f"{ship.display_name} is taken as a prize: her prize money is shared out "
                    "when she reaches port.",
               data={"prize": prize.pk, "ship": ship.pk, "encounter": battle})
    return prize


RESOLUTIONS = {
    Prize.Status.ARRIVED: "reaches port",
    Prize.Status.LOST: "is lost on her way to port",
    Prize.Status.RECAPTURED: "is recaptured by the enemy",
}
"""How a held prize may end, and the log's words for it."""


@transaction.atomic
def prize_resolve(*, prize: Prize, actor, version, status: str) -> Prize:
    """GM: a held prize ``arrived`` in port (each of her crew is paid their share by rank,
    once: ``characters.shipboard.prize_shares_pay``), ``lost`` or ``recaptured`` (nothing is
    paid). ``ValidationError`` for another status, ``Conflict`` if she is no longer held,
    ``StaleVersion`` if she was saved since ``version``."""
    prize = Prize.objects.select_for_update().select_related("campaign").get(pk=prize.pk)
    require_gm(actor, prize.campaign)
    check_version(prize, version)
    if status not in RESOLUTIONS:
        raise ValidationError({"status": "A prize reaches port, is lost or is recaptured."})
    if prize.status != Prize.Status.HELD:
        raise Conflict(prize, f"{prize} is no longer on her way to port: "
                              f"{prize.get_status_display().lower()}.")
    prize.status = status
    prize.resolved_at = timezone.now()
    prize.version += 1
    prize.save()
    log_append(campaign=prize.campaign, kind=f"prize.{status}", actor=actor,
               text=f"The prize {prize} {RESOLUTIONS[status]}.", data={"prize": prize.pk})
    if status == Prize.Status.ARRIVED:
        prize_shares_pay(battle=prize.battle, captured=prize.captured, rating=prize.rating,
                         crew=list(prize.crew.all()),
                         settings=prize.campaign.rules_settings(), actor=actor)
    return prize
