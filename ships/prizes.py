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


PRIZE_WORDS = {Prize.Status.HELD: "the players’ prize, on her way to port",
               Prize.Status.ARRIVED: "the players’ prize, in port"}
"""What a ship picker says of a prize held (:func:`held_prize`) or arrived in port."""


def prize_words(campaign: Campaign) -> dict[int, str]:
    """``campaign``'s ships that are the players' prizes, on their way to port or arrived
    there (:data:`PRIZE_WORDS`), by id -> the words a ship picker adds to her name, so that
    the GM sees why she is refused (:func:`prize_refusal`) before he chooses her."""
    rows = Prize.objects.filter(campaign=campaign, status__in=list(PRIZE_WORDS),
                                ship__isnull=False).order_by("created_at", "id")
    return {ship: PRIZE_WORDS[status] for ship, status in rows.values_list("ship_id", "status")}


def prize_refusal(ship: Ship) -> str | None:
    """Why ``ship`` may not fight in a battle, a boarding or its odds, or ``None``: held as
    the players' prize on her way to port (:func:`held_prize`), she is theirs, no enemy
    (BtQ L1769-1771), and taken again her prize money would be shared twice (a GM who has
    the enemy retake her marks her recaptured first); arrived in port, her prize money paid,
    she is theirs for good, sold or taken into service (BtQ L1769-1835), and never an enemy
    again (she fights only once the GM makes her the players' ship)."""
    if held_prize(ship) is not None:
        return (f"{ship} is the players’ prize, on her way to port: she is no enemy to "
                "fight. If the enemy has retaken her, mark her recaptured on the campaign’s "
                "page first.")
    if ship.side == Ship.Side.ENEMY and Prize.objects.filter(
            ship=ship, status=Prize.Status.ARRIVED).exists():
        return (f"{ship} reached port as the players’ prize: she is theirs now, sold or "
                "taken into service, and no enemy to fight again. Taken into service, make "
                "her the players’ ship on her page.")
    return None


def prizes_refuse(ships) -> None:
    """``ValidationError`` with :func:`prize_refusal`'s reason for the first of ``ships``
    that may not fight."""
    for ship in ships:
        refusal = prize_refusal(ship)
        if refusal is not None:
            raise ValidationError(refusal)


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
