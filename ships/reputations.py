"""Use cases of a ship's reputations and crew roster (BtQ L640-779, L2344-2345): the GM's
edits, the trait Renowned Name's +1, the records a ship creation writes, the reputation a
battle uses and what a lost battle does to it.

The rules are ``rules.btq.missions`` (:func:`~rules.btq.missions.ship_reputation_cards`,
:func:`~rules.btq.missions.ship_reputation_after_battle`); these functions store them. Each
is one transaction that locks what it changes and logs it; a GM's edit checks the version
the GM saw (``campaigns.services.StaleVersion``).
"""

from django.core.exceptions import ValidationError
from django.db import transaction

from campaigns.selectors import require_gm
from campaigns.services import check_version, log_append
from rules.btq import missions
from rules.btq.characters import DamageState
from ships.models import Ship, ShipCrewMember, ShipReputation

RENOWNED_NAME = "Renowned Name"
"""The ship trait that gives a new +1 ship reputation or +1 to one (BtQ L2344-2345)."""

REPUTATION_FIELDS = frozenset({"kind", "descriptor", "subject", "value", "damage_state"})
"""What the GM sets on a ship reputation."""


def _log(ship: Ship, kind: str, text: str, actor, **data) -> None:
    log_append(campaign=ship.campaign, kind=kind, actor=actor, text=text,
               gm_only=ship.is_hidden_from_players, data={"ship": ship.pk, **data})


def _locked_ship(ship: Ship) -> Ship:
    return Ship.objects.select_for_update().select_related("campaign").get(pk=ship.pk)


def _set(reputation: ShipReputation, fields: dict) -> None:
    unknown = set(fields) - REPUTATION_FIELDS
    if unknown:
        raise ValidationError(f"Unknown ship reputation fields: {', '.join(sorted(unknown))}.")
    for field, value in fields.items():
        setattr(reputation, field, value.strip() if isinstance(value, str) else value)
    reputation.full_clean(exclude=["ship"])


@transaction.atomic
def ship_reputation_create(*, ship: Ship, actor, **fields) -> ShipReputation:
    """GM: a new reputation of ``ship`` (``kind``, ``descriptor``, ``subject``, ``value``,
    ``damage_state``), gained where the GM says (a mission's reward, BtQ L1501-1502).
    ``ValidationError`` naming the field for a bad value."""
    ship = _locked_ship(ship)
    require_gm(actor, ship.campaign)
    reputation = ShipReputation(ship=ship)
    _set(reputation, fields)
    reputation.save()
    _log(ship, "ship.reputation", f"{ship} gains the reputation “{reputation.label}”.", actor,
         reputation=reputation.pk)
    return reputation


def _locked(reputation: ShipReputation) -> ShipReputation:
    return ShipReputation.objects.select_for_update(of=("self",)).select_related(
        "ship__campaign").get(pk=reputation.pk)


@transaction.atomic
def ship_reputation_update(*, reputation: ShipReputation, actor, version, **fields
                           ) -> ShipReputation:
    """GM: change a ship reputation's fields (as :func:`ship_reputation_create`), e.g. heal
    or damage it. ``StaleVersion`` if it was saved since ``version``."""
    reputation = _locked(reputation)
    require_gm(actor, reputation.ship.campaign)
    check_version(reputation, version)
    before = reputation.label
    _set(reputation, fields)
    reputation.version += 1
    reputation.save()
    _log(reputation.ship, "ship.reputation",
         f"{reputation.ship}'s reputation “{before}” is now “{reputation.label}”.", actor,
         reputation=reputation.pk)
    return reputation


@transaction.atomic
def ship_reputation_delete(*, reputation: ShipReputation, actor, version) -> None:
    """GM: remove a ship reputation. ``StaleVersion`` if it was saved since ``version``."""
    reputation = _locked(reputation)
    ship = reputation.ship
    require_gm(actor, ship.campaign)
    check_version(reputation, version)
    reputation.delete()
    _log(ship, "ship.reputation", f"{ship} loses the reputation “{reputation.label}”.", actor)


def renowned_name_due(ship: Ship) -> bool:
    """Whether ``ship`` has the trait Renowned Name and its +1 is not yet in a reputation
    (BtQ L2344-2345)."""
    return (ship.traits.filter(name=RENOWNED_NAME).exists()
            and not ship.reputations.filter(renowned=True).exists())


@transaction.atomic
def renowned_name_apply(*, ship: Ship, actor, reputation: ShipReputation | None = None,
                        **fields) -> ShipReputation:
    """GM: the trait Renowned Name's "new +1 ship Reputation or +1 to an existing ship
    Reputation" (BtQ L2344-2345), once per ship: +1 to ``reputation`` (one of hers), or a new
    one of ``fields`` (``kind``, ``descriptor``, ``subject``) at +1. ``ValidationError`` if
    the ship lacks the trait or has had its +1."""
    ship = _locked_ship(ship)
    require_gm(actor, ship.campaign)
    if not renowned_name_due(ship):
        raise ValidationError(f"{ship} has no Renowned Name still to give: the trait gives "
                              "its +1 once.")
    if reputation is not None:
        reputation = _locked(reputation)
        if reputation.ship_id != ship.pk:
            raise ValidationError({"reputation": "Choose one of this ship's reputations."})
        _set(reputation, {"value": reputation.value + 1})
        reputation.version += 1
    else:
        reputation = ShipReputation(ship=ship)
        _set(reputation, {**fields, "value": 1})
    reputation.renowned = True
    reputation.save()
    _log(ship, "ship.reputation", f"Renowned Name: {ship} has “{reputation.label}”.", actor,
         reputation=reputation.pk)
    return reputation


def ship_records_from_creation(*, ship: Ship, reputations, crew) -> None:
    """The records of a ship the group made (``rules.btq.ship_creation``'s outcome):
    ``reputations`` (``[{"kind", "descriptor", "subject", "value"}]``, BtQ L770-772) as
    :class:`ShipReputation` rows and ``crew`` (``[{"position", "card", "competence", "key",
    "other", "disposition", "feature"}]``, L640-766) as her roster. Part of the caller's
    transaction."""
    for rep in reputations:
        row = ShipReputation(ship=ship)
        _set(row, {k: rep[k] for k in ("kind", "descriptor", "subject", "value")})
        row.save()
    ShipCrewMember.objects.bulk_create(
        ShipCrewMember(ship=ship, position=m["position"], competence=m["competence"],
                       key=m["key"], other=m["other"], disposition=m["disposition"],
                       feature=m.get("feature") or "", card=m.get("card") or "")
        for m in crew)


def battle_reputation(reputation: ShipReputation) -> dict:
    """What a battle's setup gives the PCs aboard ``reputation``'s ship who use it
    (``rules.btq.naval``'s ``ship_reputation``): ``{"id", "name", "cards"}``, the cards as
    ``rules.btq.missions.ship_reputation_cards`` counts them (a Maimed one less 3; no
    Measure gates a ship's reputation). ``ValidationError`` for a Dead one, which adds
    nothing."""
    if reputation.damage_state == DamageState.DEAD:
        raise ValidationError({"ship_reputation": f"“{reputation}” is Dead: it adds no "
                                                  "cards until a mission heals it."})
    cards = missions.ship_reputation_cards(missions.ShipReputation(
        str(reputation), reputation.value, reputation.damage_state))
    return {"id": str(reputation.pk), "name": str(reputation), "cards": cards}


def ship_reputation_wounded(*, reputation: ShipReputation, state: DamageState, actor,
                            note: str) -> None:
    """Set ``reputation``'s damage state to ``state`` (what a lost card test that had it in
    its pool left it, BtQ L1241-1242), bumping its version so that an edit made before is
    refused, and append ``note`` to the campaign log (GM-only for a ship the players may not
    see). For a use case that already holds the row locked in its transaction."""
    reputation.damage_state = DamageState(state)
    reputation.version += 1
    reputation.save(update_fields=["damage_state", "version"])
    _log(reputation.ship, "ship.reputation", note, actor, reputation=reputation.pk)


def battle_reputation_result(*, setup: dict, winner: str | None, actor=None) -> list:
    """After a battle, each ship reputation its PCs used (the setup's PCs'
    ``ship_reputation``) takes what :func:`rules.btq.missions.ship_reputation_after_battle`
    gives: one level of damage when the players' side lost. Returns the reputations
    damaged."""
    ids = {int(p["ship_reputation"]["id"]) for p in setup.get("pcs", ())
           if p.get("ship_reputation")}
    damaged = []
    for reputation in ShipReputation.objects.select_for_update().select_related(
            "ship__campaign").filter(pk__in=ids).order_by("pk"):
        after = missions.ship_reputation_after_battle(reputation.damage_state, winner=winner)
        if after == reputation.damage_state:
            continue
        reputation.damage_state = after
        reputation.version += 1
        reputation.save(update_fields=["damage_state", "version"])
        _log(reputation.ship, "ship.reputation",
             f"{reputation.ship} lost the battle: her reputation “{reputation}” is "
             f"{after.label}.", actor, reputation=reputation.pk)
        damaged.append(reputation)
    return damaged
