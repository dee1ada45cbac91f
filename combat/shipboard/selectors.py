"""What each viewer sees of a character's shipboard life: the one place that decides it for
the page, the API and the panels (``characters.selectors.character_access``).

The GM sees everything; the character's player and the other members see its Wealth,
prize shares, tokens, service record, promotion prerequisites and punishments, without the
GM's notes of a punishment; an NPC's shipboard life is the GM's alone (404 for players).
"""

from django.http import Http404

from campaigns.models import Membership
from characters import shipboard as records
from characters.models import Character, Infraction, PrizeShare, SceneToken
from characters.selectors import character_access, character_for_user, characters_for_user
from combat.models import Encounter
from rules.btq import promotion, shipboard, wealth
from rules.btq.characters import DamageState
from ships.models import Prize

OPEN_TOKEN = SceneToken.Status.HELD


def shipboard_character(user, pk) -> tuple[Character, str]:
    """The character ``pk`` and the viewer's access (``"gm"``, ``"owner"``, ``"sheet"``);
    ``Http404`` for a non-member or, for a player, an NPC."""
    character = character_for_user(user, pk)
    access = character_access(user, character)
    if access in ("none", "public"):
        raise Http404("No such character.")
    return character, access


def _share(share: PrizeShare) -> dict:
    return {"id": share.pk, "prize": share.captured, "status": share.status,
            "shares_as": wealth.PRIZE_ROWS.get(share.row, share.row),
            "prize_class": wealth.PRIZE_CLASSES.get(share.prize_class, share.prize_class),
            "entries": share.entries, "text": wealth.entries_text(share.entries),
            "battle": share.battle}


def _infraction(infraction: Infraction, gm: bool) -> dict:
    data = {"id": infraction.pk, "article": infraction.article,
            "article_text": shipboard.article(infraction.article).text,
            "punishments": [shipboard.PUNISHMENTS[p] for p in infraction.punishments],
            "lashes": infraction.lashes, "details": infraction.details,
            "at": infraction.created_at}
    if gm:
        data["gm_notes"] = infraction.gm_notes
    return data


def _token(token: SceneToken) -> dict:
    spec = shipboard.TOKENS[token.token]
    return {"id": token.pk, "token": token.token, "label": spec["label"],
            "cards": spec["cards"], "topic": token.topic, "status": token.status,
            "holder": token.holder.title if token.holder else "the GM",
            "holder_id": token.holder_id, "spent_on": token.spent_on}


def shipboard_view(user, character: Character, access: str) -> dict:
    """The shipboard life of ``character`` as ``user`` (with ``access``) may see it:
    ``wealth`` {value, state, lives_like}, ``prize_shares``, ``tokens`` (held by the
    character, and the GM's earned against them), ``career`` {voyages..., version},
    ``promotions`` (each step's prerequisites: met or not), ``infractions`` (``gm_notes``
    for the GM only), ``open_tests`` (its shipboard card tests not over), ``can_act`` (the
    player or GM), ``is_gm``."""
    gm = access == "gm"
    career = records.career_of(character)
    steps = []
    for key, path in promotion.PATHS.items():
        checks = records.promotion_checks(character, key)
        steps.append({"key": key, "from": path.from_rank, "to": path.to_rank,
                      "eligible": promotion.eligible(checks),
                      "checks": [c.as_dict() for c in checks],
                      "mission": promotion.PROMOTION_MISSIONS[path.mission]["name"]})
    tokens = SceneToken.objects.filter(campaign=character.campaign).filter(
        holder=character) | SceneToken.objects.filter(earned_by=character, holder=None)
    return {
        "character": {"id": character.pk, "name": character.title, "rank": character.rank},
        "wealth": {"value": character.wealth, "state": DamageState(character.wealth_state).label,
                   "lives_like": wealth.WEALTH_LEVELS[min(character.wealth, 10)]},
        "prize_shares": [_share(s) for s in character.prize_shares.all()],
        "tokens": [_token(t) for t in tokens.select_related("holder").order_by("-pk")],
        "career": {"voyages_completed": career.voyages_completed,
                   "voyages_since_promotion": career.voyages_since_promotion,
                   "profession": career.profession,
                   "examination_barred": career.examination_barred,
                   "version": career.version},
        "promotions": steps,
        "infractions": [_infraction(i, gm) for i in character.infractions.all()],
        "open_tests": [{"id": t.pk, "title": t.title} for t in Encounter.objects.filter(
            engine="btq_test", status__in=Encounter.UNFINISHED, terms__character=character.pk,
            terms__has_key="shipboard").order_by("pk")],
        "can_act": access in ("gm", "owner"),
        "is_gm": gm,
    }


def campaign_panel(request, campaign, role: str) -> dict:
    """The shipboard section of the campaign page: the PCs, each with a link to their
    shipboard page, the tokens held now and the prizes on their way to port (for the GM to
    mark arrived, lost or recaptured)."""
    pcs = [c for c in characters_for_user(request.user, campaign) if c.kind == Character.Kind.PC]
    held = SceneToken.objects.filter(campaign=campaign, status=OPEN_TOKEN).select_related(
        "holder")
    return {"shipboard_pcs": pcs, "shipboard_tokens": [_token(t) for t in held],
            "shipboard_prizes": list(campaign.prizes.filter(status=Prize.Status.HELD)),
            "prize_resolutions": Prize.Status.choices[1:],
            "shipboard_gm": role == Membership.Role.GM}


def character_section(request, character: Character, access: str) -> dict:
    """The shipboard section of a character's page: a link and the Wealth in short."""
    return {"shipboard_link": access in ("gm", "owner", "sheet"),
            "held_shares": character.prize_shares.filter(status=PrizeShare.Status.HELD).count()}
