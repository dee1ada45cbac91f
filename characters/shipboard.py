"""Use cases of shipboard life that change a character's record: prize shares, purchases,
punishments under the Articles of War, the career (Voyages, promotion) and the social
scenes' tokens (BtQ L1737-2198; ``rules/btq_missions.md`` §7-§11).

The draws behind them (a Wealth test, grog, the Captain's table, the Lieutenant's
examination) are card tests of ``combat.shipboard``, which calls these functions when a
test ends. Each function is one transaction, locks what it changes and logs it; those a
person calls check who may (``PermissionDenied``) and the version they saw.
"""

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from campaigns.models import Campaign
from campaigns.selectors import is_gm, require_gm
from campaigns.services import check_version, log_append
from characters.models import (
    Career,
    Character,
    Infraction,
    Item,
    PrizeShare,
    Reputation,
    SceneToken,
)
from characters.selectors import character_access
from characters.services import character_damage_set, history_record
from rules.btq import promotion, shipboard, wealth
from rules.btq.characters import DamageState
from rules.btq.tests import SuccessLevel, damage_after
from rules.cards import card_count


def _locked(character: Character) -> Character:
    return Character.objects.select_for_update().select_related("campaign").get(
        pk=character.pk)


def _require_owner_or_gm(actor, character: Character) -> str:
    access = character_access(actor, character)
    if access not in ("gm", "owner"):
        raise PermissionDenied("Only the GM or the character's player may do that.")
    return access


# --- Prize money ------------------------------------------------------------------------


def prize_shares_pay(*, battle: int, captured: str, rating: int | None, crew, settings=None,
                     actor=None) -> list[PrizeShare]:
    """Pay each of ``crew`` (characters) their share of the prize ``captured``, a ship of
    ``rating`` (1-6, ``None`` un-rated) taken in encounter ``battle`` (BtQ L1769-1835): the
    row of the prize table their rank gives (``rules.btq.wealth.prize_row``; a rank of no
    row is paid nothing) and the captured ship's class. A prize pays each character once:
    a second call for the same battle and prize adds nothing. Returns the shares paid now."""
    klass = wealth.prize_class(rating)
    paid = []
    with transaction.atomic():
        for character in Character.objects.select_for_update().filter(
                pk__in=[c.pk for c in crew]).order_by("pk"):
            row = wealth.prize_row(character.rank, settings)
            if row is None:
                continue
            entries = wealth.prize_entries(row, klass)
            share, created = PrizeShare.objects.get_or_create(
                character=character, battle=battle, captured=captured[:200],
                defaults={"prize_class": klass, "row": row,
                          "entries": [list(e) for e in entries]})
            if created:
                paid.append(share)
        if paid:
            campaign = paid[0].character.campaign
            text = "; ".join(f"{s.character.title} ({wealth.PRIZE_ROWS[s.row]}): "
                             f"{wealth.entries_text(s.entries)}" for s in paid)
            log_append(campaign=campaign, kind="prize.paid", actor=actor,
                       text=f"Prize money for {captured} ({wealth.PRIZE_CLASSES[klass]}), as "
                            f"automatic successes in a Wealth test against the opposition "
                            f"shown or lower: {text}.",
                       data={"battle": battle, "shares": [s.pk for s in paid]})
    return paid


def best_prize_share(character: Character, opposition: int) -> tuple[PrizeShare | None, int]:
    """The held share of ``character`` that gives the most automatic successes against
    ``opposition`` cards, and how many (``(None, 0)`` if none helps). Shares do not stack
    (``rules/btq_missions.md`` A2). Call inside a transaction: the held shares are locked, so
    two purchases at once do not both count on one share."""
    best, most = None, 0
    held = character.prize_shares.filter(status=PrizeShare.Status.HELD).order_by("pk")
    for share in held.select_for_update():
        k = wealth.automatic_successes(share.entries, opposition)
        if k > most:
            best, most = share, k
    return best, most


def prize_share_spend(*, share: PrizeShare, test: int, settings=None) -> PrizeShare:
    """Mark ``share`` as used by Wealth test ``test``: spent, unless the campaign's setting
    ``prize_share_lasts`` keeps shares until the ship leaves port (then the GM spends it,
    :func:`prize_share_close`)."""
    share = PrizeShare.objects.select_for_update().get(pk=share.pk)
    if (settings or {}).get("prize_share_lasts", "one_test") == "one_test" and \
            share.status == PrizeShare.Status.HELD:
        share.status, share.spent_on = PrizeShare.Status.SPENT, test
        share.save(update_fields=["status", "spent_on"])
    return share


@transaction.atomic
def prize_share_close(*, share: PrizeShare, actor) -> PrizeShare:
    """GM: the share is spent (the ship has left port, or the money is gone)."""
    require_gm(actor, share.character.campaign)
    share = PrizeShare.objects.select_for_update().select_related("character").get(
        pk=share.pk)
    if share.status != PrizeShare.Status.HELD:
        raise ValidationError({"share": f"The share is {share.get_status_display().lower()} "
                                        "already."})
    share.status = PrizeShare.Status.SPENT
    share.save(update_fields=["status"])
    log_append(campaign=share.character.campaign, kind="prize.spent", actor=actor,
               text=f"{share.character.title}'s share of {share.captured} is spent.",
               data={"share": share.pk, "character": share.character_id})
    return share


# --- Purchases ------------------------------------------------------------------------------


@transaction.atomic
def purchase_record(*, character: Character, item: str, cost: int, how: str, actor) -> Item:
    """``character`` acquires ``item`` (cost ``cost`` on the Wealth scale), ``how`` in words
    ("without a test", "with a Wealth test"): the bought thing joins the sheet's items (an
    "other equipment" row, which adds no card: only booty makes curios, BtQ L522-530), and the
    purchase is logged. The value of Wealth does not change; a lost Wealth test damages it
    (the card test's own write-back) (BtQ L1743-1753). Returns the new :class:`Item`."""
    bought = Item.objects.create(character=character, kind=Item.Kind.OTHER, name=item[:200])
    history_record(character=character, actor=actor,
                   changes={f"item “{bought}”": [None, bought.name]})
    log_append(campaign=character.campaign, kind="wealth.purchase", actor=actor,
               text=f"{character.title} acquires {item} (cost {cost}) {how}.",
               data={"character": character.pk, "item": item, "cost": cost,
                     "item_id": bought.pk})
    return bought


# --- The Articles of War --------------------------------------------------------------------


@transaction.atomic
def infraction_record(*, character: Character, actor, article: int, punishment: str,
                      lashes: int = 0, broken_on_ship: int | None = None, details: str = "",
                      gm_notes: str = "") -> Infraction:
    """GM: charge ``character`` under ``article`` and punish them with ``punishment`` (the
    Captain's choice where the Article offers several; all of a cumulative Article's)
    (BtQ L1914-2151; ``rules.btq.shipboard.check_punishment``). Loss of Prize Money forfeits
    every held prize share and the share of every prize not yet in port (he is taken off
    its crew, L1922-1923). ``details`` is public, ``gm_notes`` the GM's alone (never
    logged). ``ValidationError`` naming the field for a punishment the Article does not
    allow or more than 12 lashes."""
    require_gm(actor, character.campaign)
    character = _locked(character)
    try:
        article = int(article)
    except (TypeError, ValueError):
        raise ValidationError({"article": "Choose an Article, 1 to 36."}) from None
    try:
        applied = shipboard.check_punishment(article, punishment, lashes=lashes,
                                             broken_on_ship=broken_on_ship)
    except shipboard.ShipboardError as exc:
        field = ("lashes" if "lash" in str(exc) or "flogging" in str(exc)
                 else "article" if "numbered" in str(exc) or "name that Article" in str(exc)
                 else "punishment")
        raise ValidationError({field: f"{str(exc)[:1].upper()}{str(exc)[1:]}."}) from None
    infraction = Infraction.objects.create(
        character=character, article=article, punishments=list(applied), lashes=lashes,
        details=(details or "").strip(), gm_notes=(gm_notes or "").strip(), created_by=actor)
    forfeited = 0
    if "loss_of_prize" in applied:
        forfeited = character.prize_shares.filter(status=PrizeShare.Status.HELD).update(
            status=PrizeShare.Status.FORFEITED)
        at_sea = list(character.prizes.filter(status="held"))
        character.prizes.remove(*at_sea)
        forfeited += len(at_sea)
    what = ", ".join(shipboard.PUNISHMENTS[p] for p in applied)
    if lashes:
        what += f", {lashes} lashes"
    if forfeited:
        what += f" ({forfeited} prize share{'s' if forfeited > 1 else ''} forfeited)"
    log_append(campaign=character.campaign, kind="articles.punished", actor=actor,
               text=f"{character.title} is charged under Article {article} "
                    f"({shipboard.article(article).text}): {what}.",
               data={"character": character.pk, "infraction": infraction.pk,
                     "article": article, "punishments": list(applied), "lashes": lashes})
    return infraction


# --- Career and promotion -------------------------------------------------------------------


def career_of(character: Character) -> Career:
    """The character's career record (created, empty, the first time)."""
    career, _ = Career.objects.get_or_create(character=character)
    return career


@transaction.atomic
def career_update(*, character: Character, actor, version, **changes) -> Career:
    """GM: set ``voyages_completed``, ``voyages_since_promotion``, ``profession`` (a key of
    ``rules.btq.promotion.PROFESSIONS`` or ``""``) or ``examination_barred``. Refused from a
    stale ``version`` with nothing saved."""
    require_gm(actor, character.campaign)
    career = Career.objects.select_for_update().get(pk=career_of(character).pk)
    check_version(career, version)
    errors = {}
    for key in ("voyages_completed", "voyages_since_promotion"):
        if key in changes:
            value = changes[key]
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 99:
                errors[key] = "A whole number of Voyages, 0 to 99."
    if "profession" in changes and changes["profession"] not in ("", *promotion.PROFESSIONS):
        errors["profession"] = f"Choose one of {', '.join(promotion.PROFESSIONS)}."
    if "examination_barred" in changes and not isinstance(changes["examination_barred"], bool):
        errors["examination_barred"] = "Yes or no."
    unknown = set(changes) - {"voyages_completed", "voyages_since_promotion", "profession",
                              "examination_barred"}
    if unknown:
        errors["__all__"] = f"Unknown fields: {', '.join(sorted(unknown))}."
    if errors:
        raise ValidationError(errors)
    for key, value in changes.items():
        setattr(career, key, value)
    career.version += 1
    career.save()
    log_append(campaign=character.campaign, kind="career.updated", actor=actor,
               text=f"{character.title}'s service record: " + ", ".join(
                   f"{k.replace('_', ' ')} {v}" for k, v in changes.items()) + ".",
               data={"character": character.pk})
    return career


@transaction.atomic
def voyage_completed(sender, *, voyage, actor=None, **kwargs) -> None:
    """``campaigns.signals.voyage_recalled`` receiver: the Voyage counts for every PC of its
    campaign (:func:`character_voyage_completed`)."""
    for character in Character.objects.filter(campaign_id=voyage.campaign_id,
                                              kind=Character.Kind.PC).order_by("pk"):
        character_voyage_completed(character=character, actor=actor)


def character_voyage_completed(*, character: Character, actor=None) -> Career:
    """A Voyage ends with ``character`` aboard (the ship recalled to Britain, BtQ L1432):
    one more Voyage in all and since the last promotion, and a failed examination may be
    retried (BtQ L2192). For the voyages' records to call."""
    career = Career.objects.select_for_update().get(pk=career_of(character).pk)
    career.voyages_completed += 1
    career.voyages_since_promotion += 1
    career.examination_barred = False
    career.version += 1
    career.save()
    return career


def captain_reputation(character: Character) -> int:
    """The value of the character's best Personal reputation with a Captain that is not
    Dead (the Mate's step asks "Personal: (Your Captain) +1", BtQ L2178)."""
    values = [r.value for r in character.reputations.filter(kind=Reputation.Kind.PERSONAL)
              if "captain" in r.subject.lower() and r.damage_state != DamageState.DEAD]
    return max(values, default=0)


def promotion_checks(character: Character, step: str, *, vacancy: bool = False,
                     profession: str | None = None) -> list[promotion.Check]:
    """The prerequisites of promotion ``step`` for ``character`` now
    (``rules.btq.promotion.prerequisites``)."""
    career = career_of(character)
    return promotion.prerequisites(
        step, skills=character.skill_values(), voyages_since=career.voyages_since_promotion,
        profession=profession or career.profession or None,
        captain_reputation=captain_reputation(character), vacancy=vacancy,
        locked=career.examination_barred)


@transaction.atomic
def character_promote(*, character: Character, actor, step: str, version,
                      vacancy: bool = False, profession: str = "", post: str = "") -> Character:
    """GM: promote ``character`` by ``step`` once its mission is complete (BtQ L2161-2185):
    every prerequisite must be met (``ValidationError`` listing the unmet ones); the rank
    becomes the step's (or ``post``, "Gunner's Mate"), the Voyages since promotion start
    again. The Lieutenant's step is the examination (:func:`examination_passed`)."""
    require_gm(actor, character.campaign)
    character = _locked(character)
    check_version(character, version)
    try:
        path = promotion.path(step)
    except promotion.PromotionError as exc:
        raise ValidationError({"step": str(exc)}) from None
    if path.key == "lieutenant":
        raise ValidationError({"step": "A Midshipman becomes a Lieutenant by passing the "
                                       "examination."})
    if profession:
        career = career_of(character)
        if profession not in promotion.PROFESSIONS:
            raise ValidationError({"profession": "Choose a profession."})
        career.profession = profession
        career.save(update_fields=["profession"])
    unmet = [c.label for c in promotion_checks(character, step, vacancy=vacancy) if not c.met]
    if unmet:
        raise ValidationError({"step": "Not yet: " + "; ".join(unmet) + "."})
    return _promote(character, (post or "").strip()[:100] or path.to_rank, actor)


def _promote(character: Character, rank: str, actor) -> Character:
    before = character.rank
    character.rank = rank
    character.version += 1
    character.save(update_fields=["rank", "version", "updated_at"])
    career = Career.objects.select_for_update().get(pk=career_of(character).pk)
    career.voyages_since_promotion = 0
    career.version += 1
    career.save()
    log_append(campaign=character.campaign, kind="career.promoted", actor=actor,
               text=f"{character.name} is promoted from {before or 'no rank'} to {rank}.",
               data={"character": character.pk, "from": before, "to": rank})
    return character


def examination_passed(*, character: Character, actor) -> Character:
    """The examination's third challenge is won: a Lieutenant (BtQ L2191)."""
    return _promote(_locked(character), promotion.PATHS["lieutenant"].to_rank, actor)


def examination_failed(*, character: Character, actor) -> str:
    """A challenge of the examination is lost (deadline 1): the Ward Room reputation is
    Injured (an Ordinary hit; none if the character has none) and the examination barred
    until another Voyage (BtQ L2192). Returns what happened, in words."""
    character = _locked(character)
    career = Career.objects.select_for_update().get(pk=career_of(character).pk)
    career.examination_barred = True
    career.version += 1
    career.save()
    rep = Reputation.objects.select_for_update().filter(
        character=character, kind=Reputation.Kind.INSTITUTION,
        subject__icontains=promotion.WARD_ROOM).order_by("pk").first()
    if rep is None:
        return "He has no Ward Room reputation to injure; he must wait for another Voyage."
    before = DamageState(rep.damage_state)
    after = damage_after(before, SuccessLevel.ORDINARY)
    character_damage_set(character=character, area="reputation", state=after, reputation=rep)
    return (f"“{rep.name}” goes from {before.label} to {after.label}; he must wait for "
            "another Voyage.")


# --- Social scenes --------------------------------------------------------------------------


def scene_token_grant(*, campaign: Campaign, scene: str, winner: Character | None,
                      earned_by: Character, topic: str, scene_test: int) -> SceneToken:
    """The token of a scene's test ``scene_test``: the Favour or the Ear for the winning PC
    ``winner``, else the Ire or the Shame, the GM's against ``earned_by`` and the PCs (BtQ
    L1886-1910). Once per scene test."""
    token = shipboard.scene_token(scene, winner is not None)
    found, _ = SceneToken.objects.get_or_create(
        scene_test=scene_test, defaults={"campaign": campaign, "token": token,
                                         "holder": winner, "earned_by": earned_by,
                                         "topic": topic[:200]})
    return found


@transaction.atomic
def scene_token_spend(*, token: SceneToken, actor, challenge: str) -> dict:
    """Surrender ``token`` on a challenge of its topic (``challenge``, in words): its holder's
    player (the Favour, the Ear) or the GM (any; the Ire and the Shame are the GM's). Returns
    the pool modifier ``{"source", "cards"}`` to give that challenge's test (+4 or -4).
    Refused once spent or expired."""
    token = SceneToken.objects.select_for_update(of=("self",)).select_related(
        "holder", "campaign").get(pk=token.pk)
    gm = is_gm(actor, token.campaign)
    if not gm and (token.holder is None or token.holder.owner_id != actor.pk):
        raise PermissionDenied("Only its holder, or the GM, surrenders a token.")
    if token.status != SceneToken.Status.HELD:
        raise ValidationError({"token": f"{shipboard.TOKENS[token.token]['label']} is "
                                        f"{token.get_status_display().lower()} already."})
    challenge = (challenge or "").strip()
    if not challenge:
        raise ValidationError({"challenge": "Say which challenge of the topic it is used on."})
    token.status, token.spent_on = SceneToken.Status.SPENT, challenge[:200]
    token.save(update_fields=["status", "spent_on"])
    modifier = shipboard.token_modifier(token.token)
    log_append(campaign=token.campaign, kind="scene.token_spent", actor=actor,
               text=f"{modifier['source']} ({token.topic}) is surrendered on “{challenge}”: "
                    f"{card_count(modifier['cards'], signed=True)}.",
               data={"token": token.pk, "cards": modifier["cards"]})
    return modifier


@transaction.atomic
def scene_tokens_expire(*, campaign: Campaign, actor) -> int:
    """GM: the session ends: every held token of the campaign expires (BtQ L1889-1893)."""
    require_gm(actor, campaign)
    count = SceneToken.objects.filter(campaign=campaign, status=SceneToken.Status.HELD).update(
        status=SceneToken.Status.EXPIRED)
    if count:
        log_append(campaign=campaign, kind="scene.tokens_expired", actor=actor,
                   text=f"The session ends: {count} social token{'s' if count > 1 else ''} "
                        "expire.")
    return count
