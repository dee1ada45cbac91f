"""The card table: from a card test's setup to the kernel's sides, and its exact odds
(BtQ L1181-1286; ``rules/btq_characters.md`` §4; ``rules/DECISIONS.md`` D1-D5).

No writes here: ``combat.card_tests.services`` starts the encounter (engine ``btq_test``)
and writes its end back, ``combat.card_tests.selectors`` decides who sees what. A setup
(:class:`Setup`, from an encounter's ``terms``) names characters and reputations;
:func:`build` turns it into ``rules.btq.tests`` sides from their current values, and
:func:`engine_setup` into the engine's setup:

* the acting PC turns from its own deck (52 cards and a Joker), side ``"pc:<id>"``;
* an NPC turns from the GM deck, side ``"npc:<id>"``, marked ``secret``: its pool's make-up
  (its skill value, the GM's modifiers) is the GM's alone;
* a difficulty is the kernel's difficulty side, from the GM deck; no opposition is a simple
  test against a lone Card of Fate (D4).

The pool is the skill's value (a Measure's, or Wealth for a Wealth test, BtQ L1747-1753),
the modifiers stated, the character's traits that apply to the skill (``rules.btq.traits``:
Crusty Old Seadog, Physician; the others need the GM's word that the test involves what they
are for, so the GM adds them as modifiers), his curios and priceless items for the skill
that have no condition (:func:`item_modifiers`), at most one reputation capped by Charm or
Influence (D9) with the important and priceless items for it that have no condition
(:func:`reputation_item_modifiers`) or, instead, one reputation of the ship the character
serves on, which no Measure caps (BtQ L770: a ship's reputations serve "in battles or
political scheming"; ``rules/btq_characters.md`` A22), helpers (BtQ L1280-1286), and the
damage penalty of the area tied to the action: the area at risk and, in a Wealth test,
Wealth (Injured -1, Maimed -3, BtQ L1305-1316, L1749). A skill of 0 makes the test
unskilled: one card, no reputation or helpers (BtQ L1266-1272), and the cards of traits and
equipment only under the setting ``unskilled_traits`` (A9). A character's Ship Morale is
that of the ship they serve on (``rules/btq_characters.md`` A15).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from django.db import models

from characters.models import AREA_FIELDS, SHIP_MORALE, Character, Item, Reputation
from rules.btq import odds as btq_odds
from rules.btq.characters import DAMAGE_AREAS, MEASURES, SKILLS, DamageState
from rules.btq.tests import (
    DIFFICULTIES,
    DIFFICULTY_LABELS,
    MAX_RETESTS,
    AtRisk,
    Helper,
    Modifier,
    Pool,
    Side,
    TestError,
    damage_penalty,
)
from rules.btq.tests import Reputation as PoolReputation
from rules.btq.traits import pool_modifiers
from rules.cards import GM_DECK, PLAYER_DECK, card_count
from rules.engine import get_engine
from ships.models import Ship, ShipPosting, ShipReputation


class Opposition(models.TextChoices):
    """What a test is against."""

    NPC = "npc", "An NPC"
    DIFFICULTY = "difficulty", "A difficulty"
    NONE = "none", "None: a simple test"


class Area(models.TextChoices):
    """What may be at risk in a test (BtQ L1297-1328): a damage area or a reputation."""

    HEALTH = "health", "Health"
    SHIP_MORALE = "ship_morale", "Ship Morale"
    WEALTH = "wealth", "Wealth"
    REPUTATION = "reputation", "A reputation"


class Origin(models.TextChoices):
    """Who asked for a test: the GM called it, or a player proposed it for the GM."""

    GM = "gm", "Called by the GM"
    PLAYER = "player", "Proposed by the player"


class Status(models.TextChoices):
    """Where a test stands, from its encounter's status and its engine's phase."""

    PROPOSED = "proposed", "Proposed"
    AWAITING_CONFIRMATION = "awaiting_confirmation", "Awaiting confirmation"
    AWAITING_JOKER = "awaiting_joker", "Awaiting a Joker"
    DONE = "done", "Done"
    DECLINED = "declined", "Declined"
    CANCELLED = "cancelled", "Cancelled"


ENGINE = "btq_test"
"""The encounter engine of a card test (``rules.btq.table``)."""

WEALTH = "wealth"
POOL_LABELS: dict[str, str] = {**SKILLS, **MEASURES, WEALTH: "Wealth"}
"""What a pool may be built from: the 22 skills, the four Measures (Measure tests, BtQ
L1314-1316) and Wealth (the Wealth test, BtQ L1747)."""

MAX_POOL = 51
"""No pool turns more cards than the GM deck holds once the Card of Fate is out."""


def who(character: Character) -> str:
    """The kernel's name of a character's side: ``"pc:3"``, ``"npc:5"``."""
    return f"{character.kind}:{character.pk}"


def pool_value(character: Character, key: str) -> int:
    """The value of skill, Measure or ``"wealth"`` ``key``; ``TestError`` for anything else."""
    if key in SKILLS:
        return character.skill(key)
    if key in MEASURES:
        return character.current_measure(key)  # less Great Hardship's spent points
    if key == WEALTH:
        return getattr(character, key)
    raise TestError(f"{key!r} is not a skill, a Measure or Wealth")


def serving_ships(characters) -> dict[int, Ship]:
    """The ship each of ``characters`` serves on, by character pk (those posted nowhere are
    left out)."""
    pks = [c.pk for c in characters if c is not None]
    postings = ShipPosting.objects.filter(character__in=pks).select_related("ship")
    return {p.character_id: p.ship for p in postings}


def area_state(character: Character, area: str, ship: Ship | None) -> DamageState | None:
    """The damage state of ``character``'s ``area`` (a key of ``DAMAGE_AREAS``); for Ship
    Morale that of ``ship``, the ship they serve on, ``None`` if they serve on none
    (``rules/btq_characters.md`` A15)."""
    if area == SHIP_MORALE:
        return None if ship is None else DamageState(ship.morale_state)
    return DamageState(getattr(character, AREA_FIELDS[area]))


def parse_difficulty(text: str) -> str | int:
    """A difficulty as the kernel takes it: a key of ``DIFFICULTIES`` (``"challenging"``) or a
    number of opposition cards the GM set (``"4"``, BtQ L1747). ``TestError`` otherwise."""
    text = (text or "").strip()
    if text in DIFFICULTIES:
        return text
    if text.isascii() and text.isdigit() and int(text) <= MAX_POOL:
        return int(text)
    known = ", ".join(DIFFICULTIES)
    raise TestError(f"the difficulty {text!r} is neither one of {known} nor a number of "
                    f"cards from 0 to {MAX_POOL}")


def difficulty_label(text: str) -> str:
    """"Challenging (5 cards)", "Easy (1 card)", "4 cards"."""
    value = parse_difficulty(text)
    if isinstance(value, str):
        return f"{DIFFICULTY_LABELS[value]} ({card_count(DIFFICULTIES[value])})"
    return card_count(value)


class OppositionError(TestError):
    """The NPC's side cannot be built: the GM's to settle (its message may name the NPC's
    hidden values, so players get a generic one)."""


@dataclass
class Setup:
    """What a test was called with, as model instances (see ``campaigns.models.CardTest``),
    and ``ships``, the ship each of its characters serves on (:func:`serving_ships`), whose
    Ship Morale is theirs; ``ship_reputation``, one of that ship's reputations in the pool in
    place of ``reputation``."""

    character: Character
    skill: str
    opposition: str
    reputation: Reputation | None = None
    helpers: list[Character] = field(default_factory=list)
    modifiers: list[dict] = field(default_factory=list)
    opponent: Character | None = None
    opponent_skill: str = ""
    opponent_modifiers: list[dict] = field(default_factory=list)
    difficulty: str = ""
    at_risk: str = ""
    at_risk_reputation: Reputation | None = None
    opponent_at_risk: str = ""
    intent: str = ""
    ships: dict[int, Ship] = field(default_factory=dict)
    ship_reputation: ShipReputation | None = None

    @classmethod
    def of(cls, campaign, terms: dict, *, lock: bool = False) -> Setup:
        """The setup of an encounter's ``terms`` (``campaign``'s ids, as
        ``combat.card_tests.services.clean_setup`` stores them), its characters and
        reputations read now (``lock``: locked, each kind in id order). A character or
        reputation since removed is ``None``: ``Character.DoesNotExist`` for the acting
        one."""
        ids = {terms["character"], *terms.get("helpers", ())}
        if terms.get("opponent"):
            ids.add(terms["opponent"])
        chars = Character.objects.filter(campaign=campaign, pk__in=ids).select_related("owner")
        chars = {c.pk: c for c in (chars.select_for_update(of=("self",)) if lock else chars)
                 .order_by("pk")}
        at_risk = terms.get("at_risk") or ""
        rep_ids = list(terms.get("reputations") or ())
        risk_rep = None
        if at_risk.startswith("reputation:"):
            risk_rep = int(at_risk.partition(":")[2])
            at_risk = "reputation"
        reps = Reputation.objects.filter(pk__in=[*rep_ids, risk_rep])
        reps = {r.pk: r for r in (reps.select_for_update() if lock else reps).order_by("pk")}
        for rep in reps.values():
            rep.character = chars.get(rep.character_id, rep.character)
        ship_rep = None
        if terms.get("ship_reputation"):
            found = ShipReputation.objects.filter(pk=terms["ship_reputation"])
            ship_rep = (found.select_for_update() if lock else found).select_related(
                "ship__campaign").first()
        character = chars.get(terms["character"])
        if character is None:
            raise Character.DoesNotExist(f"character {terms['character']} was removed")
        opponent = chars.get(terms.get("opponent"))
        return cls(
            character=character, skill=terms["skill"], opposition=terms["opposition"],
            reputation=reps.get(rep_ids[0]) if rep_ids else None,
            helpers=[chars[pk] for pk in terms.get("helpers", ()) if pk in chars],
            modifiers=list(terms.get("modifiers", ())), opponent=opponent,
            opponent_skill=terms.get("opponent_skill", ""),
            opponent_modifiers=list(terms.get("opponent_modifiers", ())),
            difficulty=terms.get("difficulty", ""), at_risk=at_risk,
            at_risk_reputation=reps.get(risk_rep), opponent_at_risk=terms.get(
                "opponent_at_risk", ""),
            intent=terms.get("intent", ""), ships=serving_ships([character, opponent]),
            ship_reputation=ship_rep,
        )

    def terms(self) -> dict:
        """The setup in ids, as an encounter keeps it (the inverse of :meth:`of`)."""
        at_risk = self.at_risk
        if at_risk == "reputation":
            at_risk = f"reputation:{self.at_risk_reputation.pk}"
        return {
            "character": self.character.pk, "skill": self.skill,
            "reputations": [self.reputation.pk] if self.reputation is not None else [],
            "helpers": [h.pk for h in self.helpers], "modifiers": list(self.modifiers),
            "opposition": self.opposition,
            "opponent": self.opponent.pk if self.opponent is not None else None,
            "opponent_skill": self.opponent_skill,
            "opponent_modifiers": list(self.opponent_modifiers),
            "difficulty": self.difficulty, "intent": self.intent, "at_risk": at_risk,
            "opponent_at_risk": self.opponent_at_risk,
            "ship_reputation": (self.ship_reputation.pk if self.ship_reputation is not None
                                else None),
        }

    def names(self) -> dict[str, str]:
        """Each character side's kernel name -> the character's name."""
        names = {who(self.character): self.character.title}
        if self.opponent is not None:
            names[who(self.opponent)] = self.opponent.title
        return names


@dataclass(frozen=True)
class Table:
    """A setup made into the kernel's terms: ``kind`` (``"contested"``, ``"static"`` or
    ``"simple"``), the acting ``side``, the NPC's ``opponent`` side or the ``difficulty``."""

    kind: str
    side: Side
    opponent: Side | None = None
    difficulty: str | int | None = None

    def opposition_size(self, floor: int) -> int:
        """Cards the opposition turns: 0 in a simple test."""
        if self.opponent is not None:
            return self.opponent.pool.size(floor)
        if self.difficulty is None:
            return 0
        return DIFFICULTIES.get(self.difficulty, self.difficulty)


def _character_side(character: Character, skill: str, modifiers, *, deck: str, secret: bool,
                    reputation: Reputation | None = None, helpers=(), at_risk: str = "",
                    at_risk_reputation: Reputation | None = None,
                    ship: Ship | None = None,
                    ship_reputation: ShipReputation | None = None) -> Side:
    if character.health_state == DamageState.DEAD:
        raise TestError(f"{character.title} is Dead: the dead take no tests")
    value = pool_value(character, skill)
    unskilled = skill in SKILLS and value == 0
    mods = [Modifier.of(m) for m in modifiers]
    risk = None
    tied = {WEALTH} if skill == WEALTH else set()
    if at_risk == "reputation":
        if at_risk_reputation is None or at_risk_reputation.character_id != character.pk:
            raise TestError(f"the reputation at risk must be one of {character.title}'s")
        risk = AtRisk(at_risk_reputation.name, DamageState(at_risk_reputation.damage_state))
    elif at_risk:
        state = area_state(character, at_risk, ship)
        if state is None:
            raise TestError(f"{character.title} serves on no ship: post them aboard one to put "
                            "its Ship Morale at risk")
        risk = AtRisk(DAMAGE_AREAS[at_risk], state)
        tied.add(at_risk)
    # A point spent under Overcoming Great Hardship lifts the area's penalty (BtQ L1421).
    for area in sorted(tied - set(character.overcoming)):
        penalty = damage_penalty(DAMAGE_AREAS[area], area_state(character, area, ship))
        if penalty is not None:
            mods.append(penalty)
    settings = character.campaign.rules_settings()
    # An unskilled test turns one card: traits and equipment add none unless the campaign's
    # setting says they do (A9).
    if not unskilled or settings["unskilled_traits"]:
        # A trait the GM already stated as a modifier counts once.
        stated = {m.source for m in mods}
        mods.extend(m for m in pool_modifiers(
            character.trait_takes(), skill, _tags(character, skill, ship), settings)
            if m.source not in stated)
        mods.extend(m for m in item_modifiers(character, skill) if m.source not in stated)
    rep = None
    if reputation is not None:
        if reputation.character_id != character.pk:
            raise TestError(f"“{reputation}” is not a reputation of {character.title}")
        rep = PoolReputation(reputation.name, reputation.value, cap=reputation.cap,
                             state=DamageState(reputation.damage_state))
        if not unskilled:  # an unskilled pool takes no reputation, so none of its items
            stated = {m.source for m in mods}
            mods.extend(m for m in reputation_item_modifiers(reputation)
                        if m.source not in stated)
    if ship_reputation is not None:
        if rep is not None:
            raise TestError("a pool takes one reputation: a personal one or one of the "
                            "ship's, not both")
        if ship is None or ship_reputation.ship_id != ship.pk:
            raise TestError(f"“{ship_reputation}” is not a reputation of the ship "
                            f"{character.title} serves on")
        rep = PoolReputation(str(ship_reputation), ship_reputation.value,
                             state=DamageState(ship_reputation.damage_state))
    if helpers and skill not in SKILLS:
        raise TestError("helpers add their skill to a skill test, not to a Measure or Wealth "
                        "test (BtQ L1280-1283)")
    pool = Pool(POOL_LABELS[WEALTH] if skill == WEALTH else skill, value, tuple(mods), rep,
                tuple(Helper(h.title, h.skill(skill)) for h in helpers), unskilled)
    return Side(who(character), pool, deck, at_risk=risk, secret=secret)


def item_modifiers(character: Character, skill: str) -> list[Modifier]:
    """The cards ``character``'s curios and priceless items add to a test of ``skill`` by
    themselves: each one for that skill with no condition (a curio +1, a priceless item +2,
    BtQ L522-530, L1007-1017; ``characters.models.Item``), named as on the sheet. One with
    a condition ("navigating the West Indies") applies only when the fiction meets it, so the
    GM adds it as a modifier (BtQ L954, L1211: the Reef Map is no use off Portsmouth; TV-11).
    One for a reputation is :func:`reputation_item_modifiers`, one for a weapon is the
    fights' (``ships.services.combat_items``)."""
    kinds = (Item.Kind.CURIO, Item.Kind.PRICELESS_ITEM)
    return [Modifier(item.name, item.bonus) for item in character.items.filter(
        kind__in=kinds, skill=skill, condition="").order_by("pk")]


def reputation_item_modifiers(reputation: Reputation) -> list[Modifier]:
    """The cards the items tied to ``reputation`` add to a pool that uses it, by themselves:
    each important item (+1: "when used it raises your Reputation with that individual or
    organization by +1", BtQ L526) and priceless item (+2 to a Reputation, BtQ L530, L1017)
    for it with no condition, named as on the sheet. A separate line of the pool, so the
    reputation's cap (Charm or Influence, D9) does not take it: the item raises the
    reputation when it is used, not the reputation's standing. One with a condition is the
    GM's to add as a modifier, as for a curio (:func:`item_modifiers`)."""
    kinds = (Item.Kind.IMPORTANT_ITEM, Item.Kind.PRICELESS_ITEM)
    return [Modifier(item.name, item.bonus) for item in reputation.items.filter(
        kind__in=kinds, condition="").order_by("pk")]


def _tags(character: Character, skill: str, ship: Ship | None) -> set[str]:
    """What a test of ``skill`` is known to involve without the GM saying so, for the traits
    (``rules.btq.traits.TAGS``): a Measure test while its area is Maimed is that area's gate
    (Hard as Nails, BtQ L1043, L1314-1316)."""
    for area, measure in AREA_MEASURES.items():
        if skill == measure and area_state(character, area, ship) == DamageState.MAIMED:
            return {"maimed_gate"}
    return set()


def build(setup: Setup) -> Table:
    """The kernel's sides for ``setup``, from the characters' current values.

    Raises ``TestError`` (the message says why) for a test the rules forbid: a Dead area at
    risk or a Dead reputation (BtQ L1328), a dead character, a reputation or helpers in an
    unskilled test (BtQ L1268), an unknown difficulty; :class:`OppositionError` for the
    NPC's side (no skill chosen yet, a Dead area).
    """
    side = _character_side(
        setup.character, setup.skill, setup.modifiers, deck=PLAYER_DECK, secret=False,
        reputation=setup.reputation, helpers=setup.helpers, at_risk=setup.at_risk,
        at_risk_reputation=setup.at_risk_reputation, ship=setup.ships.get(setup.character.pk),
        ship_reputation=setup.ship_reputation,
    )
    if setup.opposition == "npc":
        if setup.opponent is None:
            raise TestError("choose the NPC who opposes the test")
        if not setup.opponent_skill:
            raise OppositionError(f"the GM has still to choose {setup.opponent.title}'s skill")
        try:
            opponent = _character_side(
                setup.opponent, setup.opponent_skill, setup.opponent_modifiers, deck=GM_DECK,
                secret=True, at_risk=setup.opponent_at_risk,
                ship=setup.ships.get(setup.opponent.pk),
            )
        except TestError as exc:
            raise OppositionError(str(exc)) from exc
        return Table("contested", side, opponent=opponent)
    if setup.opposition == "difficulty":
        return Table("static", side, difficulty=parse_difficulty(setup.difficulty))
    if setup.at_risk:
        raise TestError("a simple test has no opposition to deal damage: name a difficulty to "
                        "put an area at risk (D4)")
    return Table("simple", side)


def engine_setup(setup: Setup, table: Table, *, origin: str, stakes: dict, settings: dict
                 ) -> dict:
    """The setup of a ``btq_test`` encounter (``rules.btq.table``; ``/work/spec/btq_test.md``)
    for ``table``, built from ``setup``: the kind, ``origin`` (``"gm"``/``"player"``), the
    intent and the stakes (``{"stakes_win", "stakes_lose"}``), the campaign's ``settings``,
    the sides' JSON (the acting PC first), the difficulty and the sides' names."""
    sides = [table.side] + ([table.opponent] if table.opponent is not None else [])
    return {
        "kind": table.kind, "origin": origin, "intent": setup.intent,
        "stakes": {"win": stakes.get("stakes_win", ""), "lose": stakes.get("stakes_lose", "")},
        "settings": dict(settings), "sides": [side.as_dict() for side in sides],
        "difficulty": table.difficulty, "names": setup.names(),
    }


CHANGED = ("The characters' values changed since the test was called, so its odds are no "
           "longer those shown: the GM cancels it and calls it again.")
"""Why a called test whose pools would now be built otherwise is not drawn."""


def sides_changed(table: Table, engine_setup: dict) -> bool:
    """Whether ``table``'s sides (built now) differ from those of a started test's engine
    setup: its pools were fixed when it was called, and the odds shown must be those
    drawn."""
    sides = [table.side] + ([table.opponent] if table.opponent is not None else [])
    now = get_engine(ENGINE).validate_setup(
        {**engine_setup, "sides": [side.as_dict() for side in sides]})
    return now["sides"] != engine_setup["sides"]


AREA_MEASURES = {"health": "guts", "ship_morale": "discipline", "wealth": "influence"}
"""The Measure of each area's gate test when it is Maimed (BtQ L1314-1316, L1385-1411)."""


def gates(setup: Setup) -> list[str]:
    """The Measure tests the acting character must pass before this test, one per Maimed
    area tied to it (the area at risk, Wealth in a Wealth test, the reputation used): a
    simple test of the area's Measure (BtQ L1314-1316, L1749; D4, D16). The GM calls them
    as tests of their own; this test's pool already takes the -3."""
    character = setup.character
    ship = setup.ships.get(character.pk)
    tied = {setup.at_risk} & set(AREA_MEASURES)
    if setup.skill == WEALTH:
        tied.add(WEALTH)
    tied -= set(character.overcoming)  # lifted by Overcoming Great Hardship (BtQ L1421)
    found = [f"{DAMAGE_AREAS[area]} is Maimed: first a {MEASURES[AREA_MEASURES[area]]} test"
             for area in sorted(tied)
             if area_state(character, area, ship) == DamageState.MAIMED]
    rep = setup.reputation
    if rep is not None and rep.damage_state == DamageState.MAIMED:
        found.append(f"“{rep.name}” is Maimed: first a {MEASURES[rep.cap_measure]} test")
    return found


def _plain(values: dict) -> dict:
    return {k: float(v) if isinstance(v, Fraction) else v for k, v in values.items()}


def odds(table: Table, settings: dict) -> dict:
    """The exact odds of ``table`` before any card is turned (``rules.btq.odds``), from the
    acting character's point of view, under the campaign ``settings`` the test is drawn
    under:

    * ``pool``, ``opposition_pool``: the cards each side turns;
    * ``first_draw``: ``win``, ``lose``, ``tie`` and ``both_failed`` (a mutual failure,
      retested, D3) of the first draw, summing to 1;
    * ``full_tie``, ``retest_fate``: those settings, which say what follows a full tie (a
      retest, or the opposition's win) and what a retest is turned against;
    * ``final``: ``win``, ``lose`` and ``stalemate`` after the retests, summing to 1 (in a
      simple test ``win`` is a pass and ``lose`` a failure);
    * ``win_by_level``, ``lose_by_level``: ``ordinary``, ``critical``, ``perfect``: the chance
      of winning (losing) to that best success, which sets the loser's damage;
    * ``levels``: the chance of each best success of the character's own pool
      (``failure``, ``ordinary``, ``critical``, ``perfect``), summing to 1.

    ``None`` if a pool is beyond what the decks hold.
    """
    floor = settings["personal_pool_floor"]
    pool = table.side.pool
    a = pool.size(floor)
    b = table.opposition_size(floor)
    args = {"a_deck": PLAYER_DECK, "b_deck": GM_DECK, "a_unskilled": pool.unskilled,
            "b_unskilled": table.opponent is not None and table.opponent.pool.unskilled}
    try:
        first = btq_odds.first_draw(a, b, by_level=True, **args)
        final = btq_odds.final(a, b, max_retests=MAX_RETESTS, full_tie=settings["full_tie"],
                               by_level=True, **args)
        levels = btq_odds.levels(a, deck=PLAYER_DECK, unskilled=pool.unskilled)
    except ValueError:
        return None
    return {
        "pool": a,
        "opposition_pool": b,
        "first_draw": {"win": first["a"], "lose": first["b"], "tie": first["tie"],
                       "both_failed": first["both_failed"]},
        "full_tie": settings["full_tie"],
        "retest_fate": settings["retest_fate"],
        "final": {"win": final["a"], "lose": final["b"], "stalemate": final["stalemate"]},
        "win_by_level": _plain(final["a_by_level"]),
        "lose_by_level": _plain(final["b_by_level"]),
        "levels": _plain(levels),
    }


def own_odds(table: Table, settings: dict) -> dict:
    """The part of :func:`odds` that depends on the character's own pool alone: ``pool`` and
    ``levels``. What a player sees before a test against an NPC, so that the odds never
    betray the NPC's pool."""
    pool = table.side.pool
    size = pool.size(settings["personal_pool_floor"])
    try:
        levels = btq_odds.levels(size, deck=PLAYER_DECK, unskilled=pool.unskilled)
    except ValueError:
        return None
    return {"pool": size, "levels": _plain(levels)}
