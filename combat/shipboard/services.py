"""Use cases of shipboard life that draw cards: a purchase's Wealth test, the Purser and
Scavenge tests, grog, the Captain's table and the gun deck, the Lieutenant's examination, a
test in the weather; and the prize money of a battle won (BtQ L1694-2198;
``rules/btq_missions.md`` §6-§11).

Every draw is a card test (engine ``btq_test``) opened through
``combat.card_tests.services.card_test_open``: seeded, its hash published, its cards turned
by the PC's player, replayable. The test's ``terms`` carry ``"shipboard"``, what the test is
for; when it ends :func:`shipboard_outcome` (before the damage is written back: a prize
share's automatic successes may turn a lost Wealth test) and :func:`shipboard_finished`
(after) apply its meaning through ``characters.shipboard``, and may open the next test of a
chain (the examination's next challenge; the Wealth test after a Maimed Wealth's Influence
gate). The damage of a lost test is the card test's own write-back.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from campaigns.models import Membership
from campaigns.selectors import membership_role
from characters import shipboard as records
from characters.models import Character, PrizeShare, Reputation
from characters.services import character_damage_set
from combat.card_tests import table
from combat.card_tests.services import card_test_open
from combat.models import Encounter
from combat.services import encounter_create, encounter_start
from rules.btq import promotion, shipboard, traits, wealth, weather
from rules.btq.characters import SKILLS, DamageState
from rules.btq.scene import ENGINE_NAME as SCENE_ENGINE
from rules.btq.tests import DIFFICULTIES, SuccessLevel, TestError
from rules.cards import GM_DECK, PLAYER_DECK, card_count
from rules.engine import Outcome
from ships.prizes import prize_hold
from ships.reputations import battle_reputation_result

KEY = "shipboard"
"""The key of an encounter's ``terms`` that says what a shipboard test is for:
``{"action": "purchase" | "purchase_gate" | "supply" | "grog" | "scene" | "examination" |
"weather", ...}``."""


@dataclass(frozen=True)
class Started:
    """What a shipboard use case did: ``test``, the card test it opened (``None`` when
    nothing was drawn: an automatic purchase), and ``message``, in words."""

    test: Encounter | None
    message: str


def _role(actor, character: Character) -> str:
    role = membership_role(actor, character.campaign)
    if role is None:
        raise PermissionDenied("You are not a member of this campaign.")
    if role != Membership.Role.GM and character.owner_id != actor.pk:
        raise PermissionDenied("You may do that for your own characters only.")
    return role


def _gm(actor, character: Character) -> bool:
    return _role(actor, character) == Membership.Role.GM


def _pc(character) -> Character:
    if not isinstance(character, Character) or character.kind != Character.Kind.PC:
        raise ValidationError({"character": "Choose a player character."})
    return character


def _open(character: Character, actor, gm: bool, info: dict, **setup) -> Encounter:
    return card_test_open(campaign=character.campaign, actor=actor,
                          origin=table.Origin.GM if gm else table.Origin.PLAYER,
                          extra_terms={KEY: info}, character=character.pk, **setup)


def _reputation(character: Character, value) -> list[int]:
    if value in (None, ""):
        return []
    pk = value.pk if isinstance(value, Reputation) else value
    rep = Reputation.objects.filter(pk=pk if str(pk).isdigit() else None,
                                    character=character).first()
    if rep is None:
        raise ValidationError({"reputation": f"That is not a reputation of {character.title}."})
    return [rep.pk]


# --- Purchases ----------------------------------------------------------------------------


def _item(item: str, name: str, cost, gm: bool) -> tuple[str, int]:
    if item:
        try:
            found = wealth.price_item(item)
        except wealth.WealthError:
            raise ValidationError({"item": "Choose an item of the price list."}) from None
        return found.name, found.cost
    if not gm:
        raise ValidationError({"item": "Choose an item of the price list (the GM prices "
                                       "anything else)."})
    name = (name or "").strip()
    if not name:
        raise ValidationError({"name": "Name what is bought."})
    if isinstance(cost, bool) or not isinstance(cost, int) or not 0 <= cost <= 10:
        raise ValidationError({"cost": "The cost is a whole number on the Wealth scale, "
                                       "0 to 10."})
    return name[:100], cost


@transaction.atomic
def purchase_start(*, character: Character, actor, item: str = "", name: str = "",
                   cost: int | None = None, available: bool = True, rarity: str = "ordinary",
                   opposition: int | None = None, reputation=None,
                   use_prize: bool = True) -> Started:
    """Buy ``item`` (a key of the price list) or, the GM, anything ``name`` of ``cost``
    (BtQ L1743-1753, L1837-1854): refused (``ValidationError`` naming the field, with the
    reason) beyond Wealth + 2 or with a Dead Wealth; bought at once when available and
    cheaper than the Wealth; else a Wealth test against the price list's opposition (the
    cost, adjusted by the GM's ``rarity``, or the GM's own ``opposition``), Wealth at risk,
    with the best held prize share's automatic successes (``use_prize``). A Maimed Wealth
    first needs an Influence test (a simple test). The PC's player or the GM; only the GM
    sets the availability, rarity and opposition."""
    character = _pc(character)
    gm = _gm(actor, character)
    if not gm and (opposition is not None or rarity != "ordinary" or not available):
        raise PermissionDenied("Only the GM sets an item's availability, rarity and "
                               "opposition.")
    label, price = _item(item, name, cost, gm)
    try:
        terms = wealth.purchase_terms(wealth=character.wealth, state=character.wealth_state,
                                      cost=price, available=available, rarity=rarity,
                                      opposition=opposition)
    except wealth.WealthError as exc:
        raise ValidationError({"opposition" if opposition is not None else "item":
                               _sentence(str(exc))}) from None
    if terms.mode == "forbidden":
        raise ValidationError({"item": f"{label}: {_sentence(terms.reason)}"})
    purchase = {"item": label, "cost": price, "mode": terms.mode,
                "opposition": terms.opposition, "reputations": _reputation(character,
                                                                           reputation),
                "use_prize": bool(use_prize)}
    if terms.gate:
        test = _open(character, actor, gm, {"action": "purchase_gate", "purchase": purchase},
                     skill="influence", opposition="none",
                     intent=f"Raise the credit for {label} with a Maimed Wealth",
                     stakes_win="the purchase may be tried", stakes_lose="no purchase")
        return Started(test, "A Maimed Wealth needs an Influence test before any purchase.")
    return _purchase_next(character, actor, gm, purchase)


def _purchase_next(character: Character, actor, gm: bool, purchase: dict) -> Started:
    if purchase["mode"] == "automatic":
        records.purchase_record(character=character, item=purchase["item"],
                                cost=purchase["cost"], how="without a test", actor=actor)
        return Started(None, f"{purchase['item']} is bought without a test.")
    info = {"action": "purchase", "purchase": purchase}
    if purchase["use_prize"]:
        share, automatic = records.best_prize_share(character, purchase["opposition"])
        if share is not None:
            info["prize_share"] = {"id": share.pk, "automatic": automatic,
                                   "captured": share.captured}
    test = _open(character, actor, gm, info, skill=table.WEALTH, opposition="difficulty",
                 difficulty=str(purchase["opposition"]), reputations=purchase["reputations"],
                 intent=f"Buy {purchase['item']}", stakes_win=f"{purchase['item']} is bought",
                 stakes_lose="nothing is bought and Wealth is damaged", at_risk="wealth")
    return Started(test, f"Buying {purchase['item']} needs a Wealth test.")


def _sentence(text: str) -> str:
    text = text.strip()
    return (text[:1].upper() + text[1:]).rstrip(".") + "."


# --- Purser, Scavenge ---------------------------------------------------------------------


@transaction.atomic
def supply_start(*, character: Character, actor, skill: str, items: str,
                 difficulty: str = "", reputation=None) -> Started:
    """Draw supplies: ``skill`` ``"purser"``, a static test against the Victualling Yard
    (Routine unless the GM sets another difficulty; reputations may add cards), or
    ``"scavenge"``, a simple test (D4; the GM may set a difficulty) (BtQ L1755-1767). No
    area at risk (``rules/btq_missions.md`` A14). The PC's player or the GM; only the GM
    sets the difficulty."""
    character = _pc(character)
    gm = _gm(actor, character)
    if skill not in wealth.SUPPLY_TESTS:
        raise ValidationError({"skill": "Choose Purser or Scavenge."})
    if difficulty and not gm:
        raise PermissionDenied("Only the GM sets the difficulty.")
    items = (items or "").strip()
    if not items:
        raise ValidationError({"items": "Say what is sought."})
    spec = wealth.SUPPLY_TESTS[skill]
    if not difficulty and spec["kind"] == "static":
        difficulty = "routine"
    setup = {"opposition": "difficulty", "difficulty": difficulty} if difficulty else {
        "opposition": "none"}
    test = _open(character, actor, gm, {"action": "supply", "skill": skill, "items": items[:200]},
                 skill=skill, reputations=_reputation(character, reputation),
                 intent=f"{spec['intent']}: {items[:150]}", stakes_win=f"{items[:150]} obtained",
                 stakes_lose="nothing obtained", **setup)
    return Started(test, f"A {spec['label']} test for {items[:150]}.")


# --- Grog ---------------------------------------------------------------------------------


@transaction.atomic
def grog_start(*, character: Character, actor, drink: str, challenge: str,
               iron_stomach: bool = False) -> Started:
    """A drinker's Guts test against the drink's Grog Rating, its result a modifier of his
    pool for the scene's ``challenge`` (BtQ L1856-1868): the GM, or the PC's player.
    ``iron_stomach``: the trait's +1 card, given by itself to a drinker who took it."""
    character = _pc(character)
    gm = _gm(actor, character)
    iron_stomach = iron_stomach or "iron_stomach" in character.trait_takes()
    try:
        label, rating = shipboard.drink(drink)
    except shipboard.ShipboardError:
        raise ValidationError({"drink": "Choose a drink."}) from None
    challenge = (challenge or "").strip()
    if not challenge:
        raise ValidationError({"challenge": "Say which challenge of the scene the drink may "
                                            "help or hinder."})
    mods = [dict(zip(("source", "cards"), shipboard.IRON_STOMACH))] if iron_stomach else []
    test = _open(character, actor, gm, {"action": "grog", "drink": label, "rating": rating,
                                        "challenge": challenge[:200]},
                 skill="guts", modifiers=mods, opposition="difficulty", difficulty=str(rating),
                 intent=f"Hold his {label} (Grog Rating {rating}) before “{challenge[:120]}”",
                 stakes_win="no penalty; a Perfect gives +1 card",
                 stakes_lose="-1 card to the challenge, -3 if he fails critically")
    return Started(test, f"A Guts test against {label}.")


# --- The Captain's table and the gun deck -------------------------------------------------


SCENE_TAGS = {"captains_table": "captains_favour", "gun_deck": "ear_of_the_gun_deck"}
"""What a scene's test involves, for the traits (Silver Tongue, BtQ L1028)."""


def _scene_participant(character: Character, skill: str, scene: str,
                       reputation: Reputation | None) -> dict:
    """A character's place in the scene's test (``rules.btq.scene``): his pool of ``skill``
    with his traits' cards (``combat.card_tests.table``'s, and those of the scene) and the
    reputation he adds."""
    settings = character.campaign.rules_settings()
    pc = character.kind == Character.Kind.PC
    mods = traits.pool_modifiers(character.trait_takes(), skill, {SCENE_TAGS[scene]}, settings)
    try:
        side = table._character_side(character, skill, mods, secret=False,
                                     deck=PLAYER_DECK if pc else GM_DECK,
                                     reputation=reputation)
    except TestError as exc:
        raise ValidationError({"others": _sentence(str(exc))}) from None
    rep = None if reputation is None else {"id": str(reputation.pk), "name": reputation.name,
                                           "state": reputation.damage_state}
    return {"who": table.who(character), "name": character.title,
            "deck": PLAYER_DECK if pc else GM_DECK,
            "cards": side.pool.size(settings["personal_pool_floor"]),
            "breakdown": dict(side.pool.lines()), "unskilled": side.pool.unskilled,
            "skill": skill, "reputation": rep}


@transaction.atomic
def scene_start(*, character: Character, actor, scene: str, skill: str, topic: str,
                others=(), captain: Character | None = None, captain_skill: str = "",
                reputations=(), stacked_cards=None) -> Started:
    """GM: the social scene's test as the book plays it (BtQ L1872-1910; engine
    ``btq_scene``): ``character`` and every one of ``others`` who takes part (PCs, NPC
    officers and guests) test the sponsored ``skill``, but the ``captain`` (an NPC, who
    joins in) tests his own ``captain_skill`` at the Captain's table; ``reputations``
    (ids), at most one of each participant's, add their cards. One contested test, one
    winner: a PC holds the Favour (the Ear), an NPC's win earns the PCs the Ire (the Shame);
    a reputation used and lost is damaged (:func:`scene_recorded`). ``stacked_cards``: the
    GM's cards turned first (the Card of Fate, then each pool in the order above: the
    character, ``others``, the Captain). ``ValidationError`` naming the field."""
    character = _pc(character)
    if not _gm(actor, character):
        raise PermissionDenied("The GM runs the Captain's table and the gun deck.")
    if scene not in shipboard.SCENES:
        raise ValidationError({"scene": "Choose the Captain's table or the gun deck."})
    if skill not in SKILLS:
        raise ValidationError({"skill": "Choose the sponsored skill."})
    topic = (topic or "").strip()
    if not topic:
        raise ValidationError({"topic": "Name the topic or activity."})
    campaign = character.campaign
    everyone = [character, *[o for o in others if o.pk != character.pk]]
    if captain is not None:
        if captain.kind != Character.Kind.NPC or scene != "captains_table":
            raise ValidationError({"captain": "Only the Captain, an NPC at his own table, "
                                              "tests a skill of his choosing."})
        if captain_skill not in SKILLS:
            raise ValidationError({"captain_skill": "Choose the skill the Captain tests."})
        everyone = [c for c in everyone if c.pk != captain.pk] + [captain]
    if any(c.campaign_id != campaign.pk for c in everyone):
        raise ValidationError({"others": "Everyone at the table must be of this campaign."})
    if len(everyone) < 2:
        raise ValidationError({"others": "Who else takes part? A scene's test needs two or "
                                         "more."})
    used: dict[int, Reputation] = {}
    for rep in Reputation.objects.filter(pk__in=[int(r) for r in reputations],
                                         character__in=everyone):
        if rep.character_id in used:
            raise ValidationError({"reputations": "Each adds one reputation at most."})
        used[rep.character_id] = rep
    if len(used) != len(set(reputations)):
        raise ValidationError({"reputations": "Choose reputations of those taking part."})
    participants = [_scene_participant(c, captain_skill if c == captain else skill, scene,
                                       used.get(c.pk)) for c in everyone]
    label = shipboard.SCENES[scene]["label"]
    encounter = encounter_create(
        campaign=campaign, user=actor, engine=SCENE_ENGINE, title=f"{label}: {topic[:150]}",
        setup={"scene": scene, "skill": skill, "topic": topic[:200],
               "settings": campaign.rules_settings(), "participants": participants},
        stacked_cards=stacked_cards)
    encounter = encounter_start(encounter=encounter, user=actor,
                                expected_version=encounter.version)
    return Started(encounter, f"{label}: {topic[:150]}.")


def scene_recorded(*, encounter: Encounter, outcome: Outcome, user) -> dict:
    """What the end of a scene's test writes: the token (the Favour or the Ear for the
    winning PC, else the Ire or the Shame; ``characters.shipboard.scene_token_grant``, once)
    and the damage of each reputation used by one who lost. Called by the recorder of
    ``btq_scene``."""
    setup = encounter.setup
    people = {table.who(c): c for c in Character.objects.filter(
        campaign=encounter.campaign, pk__in=[int(p["who"].split(":")[1])
                                             for p in setup["participants"]])}
    winner = outcome.data.get("winner")
    if winner is None:
        return {}
    first_pc = next(people[p["who"]] for p in setup["participants"] if p["deck"] == PLAYER_DECK)
    pc_won = outcome.winner == "pc"
    token = records.scene_token_grant(
        campaign=encounter.campaign, scene=setup["scene"],
        winner=people[winner] if pc_won else None,
        earned_by=people[winner] if pc_won else first_pc,
        topic=setup["topic"], scene_test=encounter.pk)
    for hurt in outcome.data.get("damage", ()):
        owner = people[hurt["who"]]
        rep = owner.reputations.filter(pk=int(hurt["id"])).first()
        if rep is not None and rep.damage_state < hurt["after"]:
            character_damage_set(character=owner, area="reputation", reputation=rep,
                                 state=DamageState(hurt["after"]), actor=user)
    return {"data": {"token": token.pk}}


# --- The Lieutenant's examination ---------------------------------------------------------


@transaction.atomic
def examination_start(*, character: Character, actor, reputation=None,
                      reputation_challenge: int = 0) -> Started:
    """GM: a Midshipman stands the Lieutenant's examination (BtQ L2187-2193): refused
    (``ValidationError`` listing what is unmet) before two Voyages or after a failure until
    another Voyage; three static challenges against 3 cards, Maritime, Seamanship, Command,
    each opened when the one before is won; one reputation with an officer of the panel may
    join challenge ``reputation_challenge`` (0-2)."""
    character = _pc(character)
    if not _gm(actor, character):
        raise PermissionDenied("The GM convenes the panel of Captains.")
    if "midshipman" not in character.rank.lower():
        raise ValidationError({"character": f"{character.title} is no Midshipman."})
    unmet = [c.label for c in records.promotion_checks(character, "lieutenant") if not c.met]
    if unmet:
        raise ValidationError({"character": "Not yet: " + "; ".join(unmet) + "."})
    if reputation_challenge not in (0, 1, 2):
        raise ValidationError({"reputation_challenge": "Choose the first, second or third "
                                                       "challenge."})
    info = {"action": "examination", "results": [], "reputations": _reputation(
        character, reputation), "reputation_challenge": reputation_challenge}
    return Started(_examination_test(character, actor, info),
                   "The panel of Captains sits: the first challenge is Maritime.")


def _examination_test(character: Character, actor, info: dict) -> Encounter:
    step = promotion.examination_next(info["results"])
    n = step["challenge"]
    reps = info["reputations"] if n == info["reputation_challenge"] else []
    return _open(character, actor, True, info, skill=step["skill"], opposition="difficulty",
                 difficulty=str(promotion.EXAMINATION_POOL), reputations=reps,
                 intent=f"The Examination for Lieutenant, challenge {n + 1} of 3: "
                        f"{SKILLS[step['skill']]}",
                 stakes_win="the next challenge" if n < 2 else "promoted to Lieutenant",
                 stakes_lose="the examination is failed: Ward Room Injured, wait another "
                             "Voyage")


# --- Weather ------------------------------------------------------------------------------


@transaction.atomic
def weather_test_start(*, character: Character, actor, skill: str, wind: str,
                       precipitation: str, mode: str, intent: str, difficulty: str = "",
                       at_risk: str = "", stakes_win: str = "", stakes_lose: str = ""
                       ) -> Started:
    """GM: a test in the weather (BtQ L1699-1722): ``mode`` ``"modifier"``, the Wind and
    Precipitation modifiers on the character's pool against ``difficulty`` (none: a simple
    test); or ``"opponent"``, the weather's own pool, 2 x the modifiers, as the opposition
    (and no modifier, so it does not count twice)."""
    character = _pc(character)
    if not _gm(actor, character):
        raise PermissionDenied("Only the GM calls a test; a player proposes one.")
    try:
        sky = weather.Weather(wind, precipitation)
    except weather.WeatherError as exc:
        raise ValidationError({"wind" if "wind" in str(exc) else "precipitation":
                               _sentence(str(exc))}) from None
    if mode not in ("modifier", "opponent"):
        raise ValidationError({"mode": "The weather is a modifier or the opponent."})
    info = {"action": "weather", "weather": sky.label, "mode": mode}
    if mode == "opponent":
        pool = weather.opponent_pool(sky)
        if pool == 0:
            raise ValidationError({"mode": f"{sky.label} has no pool to oppose a test."})
        setup = {"opposition": "difficulty", "difficulty": str(pool), "modifiers": []}
    else:
        if difficulty and difficulty not in DIFFICULTIES and not str(difficulty).isdigit():
            raise ValidationError({"difficulty": "Choose a difficulty or a number of cards."})
        setup = ({"opposition": "difficulty", "difficulty": difficulty} if difficulty
                 else {"opposition": "none"})
        setup["modifiers"] = weather.weather_modifiers(sky, skill)
    test = _open(character, actor, True, info, skill=skill, intent=intent, at_risk=at_risk,
                 stakes_win=stakes_win, stakes_lose=stakes_lose, **setup)
    return Started(test, f"A test in {sky.label}.")


# --- When a test ends ---------------------------------------------------------------------


def _pc_who(encounter: Encounter) -> str:
    return f"pc:{encounter.terms['character']}"


def shipboard_outcome(*, encounter: Encounter, outcome: Outcome) -> Outcome:
    """Before a shipboard test's damage is written back: a Wealth test with a prize share is
    judged again with its automatic successes (BtQ L1772-1773); a win so made deals the
    buyer no damage. Returns the outcome to write back; the encounter keeps the engine's own
    (its replay checks it), and its ``terms["shipboard"]["judged"]`` the new judgement."""
    info = encounter.terms.get(KEY) or {}
    prize = info.get("prize_share")
    if info.get("action") != "purchase" or not prize:
        return outcome
    me = _pc_who(encounter)
    judged = wealth.rejudge_with_automatic(outcome.data["record"], me, prize["automatic"])
    data = {**outcome.data, "prize_share": judged}
    if judged["winner"] == me and outcome.winner != me:
        data["damage"] = [d for d in outcome.data.get("damage", ()) if d["who"] != me]
        outcome = Outcome(me, "won", f"{outcome.summary} With the prize money's "
                          f"{prize['automatic']} automatic successes the purchase is won.",
                          data)
    else:
        outcome = Outcome(outcome.winner, outcome.result, outcome.summary, data)
    encounter.terms = {**encounter.terms, KEY: {**info, "judged": judged}}
    return outcome


def shipboard_finished(*, encounter: Encounter, outcome: Outcome, user, written: dict) -> dict:
    """After a shipboard test's damage is written back: what it means (the purchase made,
    the grog's modifier, the token, the examination's next challenge or its end), in the log
    entry of its end: returns ``written`` with the sentence added to its ``summary``."""
    info = encounter.terms.get(KEY)
    if not info:
        return written
    character = Character.objects.select_for_update().get(pk=encounter.terms["character"])
    me = _pc_who(encounter)
    record = outcome.data["record"]
    won = outcome.winner == me
    action = info["action"]
    gm = membership_role(user, character.campaign) == Membership.Role.GM
    if action == "purchase":
        text = _purchase_done(encounter, character, info, won, user)
    elif action == "purchase_gate":
        if won:
            started = _purchase_next(character, user, gm, info["purchase"])
            text = f"The Influence test is passed. {started.message}"
        else:
            text = "The Influence test is failed: the purchase cannot be made."
    elif action == "supply":
        text = (f"{info['items']} obtained." if won else f"{info['items']}: nothing obtained.")
    elif action == "grog":
        grog_best = next((h["best"] for h in record["rounds"][-1]["hands"]
                          if h["who"] != me), None)
        effect = shipboard.grog_effect(
            won=won, best=_level(record["result"]) if won else None,
            grog_best=_level(grog_best), settings=encounter.setup.get("settings"))
        text = (f"{card_count(effect, signed=True)} to "
                f"{character.title}'s pool for “{info['challenge']}”." if effect else
                f"No change to {character.title}'s pool for “{info['challenge']}”.")
    elif action == "examination":
        text = _examination_done(encounter, character, info, won, user)
    else:
        text = ""
    if text:
        written = {**written, "summary": f"{written.get('summary', '')} {text}".strip(),
                   "data": {**written.get("data", {}), "shipboard": action}}
    return written


def _level(name):
    return None if not name or name == "failure" else SuccessLevel[name.upper()]


def _purchase_done(encounter: Encounter, character: Character, info: dict, won: bool,
                   user) -> str:
    purchase, prize = info["purchase"], info.get("prize_share")
    if prize:
        share = PrizeShare.objects.filter(pk=prize["id"]).first()
        if share is not None:
            records.prize_share_spend(share=share, test=encounter.pk,
                                      settings=encounter.setup.get("settings"))
    if not won:
        return f"{purchase['item']} is not bought."
    judged = (encounter.terms.get(KEY) or {}).get("judged") or {}
    how = (f"With the prize money's {prize['automatic']} automatic successes the test is won: "
           if judged.get("changed") else "")
    records.purchase_record(character=character, item=purchase["item"], cost=purchase["cost"],
                            how=f"with a Wealth test (#{encounter.pk})", actor=user)
    character.refresh_from_db()
    return (f"{how}{purchase['item']} is bought. Wealth {character.wealth}, "
            f"{DamageState(character.wealth_state).label}.")


def _examination_done(encounter: Encounter, character: Character, info: dict, won: bool,
                      user) -> str:
    results = [*info["results"], won]
    step = promotion.examination_next(results)
    if step["status"] == "failed":
        return "The examination is failed. " + records.examination_failed(
            character=character, actor=user)
    if step["status"] == "passed":
        records.examination_passed(character=character, actor=user)
        return f"The examination is passed: {character.name} is a Lieutenant."
    nxt = _examination_test(character, user, {**info, "results": results})
    return (f"Challenge {len(results)} is won; the next, {SKILLS[step['skill']]}, is test "
            f"#{nxt.pk}.")


# --- Prize money --------------------------------------------------------------------------

PRIZE_RESULTS = frozenset({"struck", "crew_dead", "taken"})
"""How an enemy ship left the battle when she is taken: she struck her colours, her crew is
dead, or she was taken by boarding (a sunk ship is no prize) (BtQ L2488-2496, L2530-2531,
L1769-1771)."""
_STILL_IN = frozenset({None, "escaped"})
"""How a players' ship ended a battle when she was not lost: still in it, or beyond Distance 5
of every enemy."""


def battle_ended(*, encounter: Encounter, outcome: Outcome, user) -> list:
    """What a finished ship battle does besides the ships' damage: each ship reputation its
    PCs used takes its damage if they lost (``ships.reputations.battle_reputation_result``),
    and every enemy ship taken in it (``Outcome.data["ships"][id]["out"]`` in
    :data:`PRIZE_RESULTS`) is held as a prize (``ships.prizes.prize_hold``), crewed by the PCs
    aboard, whose prize money is shared out when the GM marks her arrived in port (BtQ
    L1769-1835). She is taken whenever the players' side was not beaten: it won, or the
    battle ended with one of its ships not lost (an enemy struck in round 10 stays the
    players' prize when her consort escapes in round 22; nightfall parts the rest). Called
    by the naval recorder. Returns the prizes held now."""
    battle_reputation_result(setup=encounter.setup, winner=outcome.winner, actor=user)
    fates = (outcome.data or {}).get("ships") or {}
    state = encounter.state or {}
    sides = {sid: ship.get("side") for sid, ship in (state.get("ships") or {}).items()}
    beaten = outcome.winner == "enemy" or not any(
        sides.get(sid) == "pc" and ship.get("out") in _STILL_IN for sid, ship in fates.items())
    if beaten:
        return []
    taken = {sid for sid, ship in fates.items()
             if sides.get(sid) == "enemy" and ship.get("out") in PRIZE_RESULTS}
    pcs = [int(str(p).split(":")[-1]) for p in (state.get("pcs") or {})]
    crew = list(Character.objects.filter(pk__in=pcs, campaign=encounter.campaign,
                                         kind=Character.Kind.PC))
    held = []
    for ship in encounter.ships.select_related("ship_type").order_by("pk"):
        if str(ship.pk) in taken:
            prize = prize_hold(campaign=encounter.campaign, battle=encounter.pk, ship=ship,
                               crew=crew, actor=user)
            if prize is not None:
                held.append(prize)
    return held
