"""Campaign settings: the places where the book allows two readings.

Each setting's default is the reading decided in ``rules/DECISIONS.md`` (or, where that page
is silent, the digest's recommendation); a table may choose the other. Campaigns store only
the settings they change; :func:`resolve` fills in the rest and rejects unknown names and
values.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Setting:
    """One campaign setting: its ``choices`` (value -> label), ``default``, a one-line
    ``description``, the ``source`` of the decision, and ``used_by``: what in the app the
    setting affects (``"card tests"``, ``"ship-to-ship combat"``), empty while nothing in the
    app applies it (a rule of a part not built yet, or one the engines do not apply)."""

    name: str
    description: str
    choices: dict
    default: object
    source: str
    used_by: str = ""


SETTINGS: dict[str, Setting] = {
    s.name: s
    for s in (
        Setting(
            "reputation_loss_mode",
            "A reputation added to a losing pool drops",
            {"one_step": "one level, whatever the winner scored",
             "severity": "to the level of the winner's best success"},
            "one_step",
            "DECISIONS D1; BtQ L1241-1242",
            used_by="card tests",
        ),
        Setting(
            "personal_pool_floor",
            "Smallest card pool after penalties in a personal test",
            {0: "0 cards (the test cannot succeed)", 1: "1 card"},
            0,
            "DECISIONS D2; BtQ L2594-2595",
            used_by="card tests",
        ),
        Setting(
            "full_tie",
            "A test whose two sides tie all the way down, success for success and rank for "
            "rank,",
            {"retest": "is turned again, as a test both sides failed",
             "defender": "goes to the side that answers the action: the opposition, the "
                         "defender, or the difficulty of a static test"},
            "retest",
            "btq_characters A5, DECISIONS D3; BtQ L1238-1239, L1274-1276",
            used_by="card tests, skirmishes, boarding actions",
        ),
        Setting(
            "retest_fate",
            "A test turned again (both sides failed, or they tied all the way down) is "
            "turned against",
            {"new": "a new Card of Fate", "same": "the same Card of Fate"},
            "new",
            "btq_characters A6, DECISIONS D3; BtQ L1274-1276",
            used_by="card tests, skirmishes, boarding actions",
        ),
        Setting(
            "unskilled_traits",
            "A test made without the skill (a single card) takes",
            {False: "nothing more: no trait or equipment adds a card",
             True: "the cards of traits and equipment (still no reputation, helper or "
                   "Discipline card)"},
            False,
            "btq_characters A9; BtQ L1266-1272",
            used_by="card tests",
        ),
        Setting(
            "crusty_old_seadog_skill",
            "Crusty Old Seadog adds its card to",
            {"maritime": "Maritime tests (the trait's text)",
             "seamanship": "Seamanship tests (the book's example)"},
            "maritime",
            "btq_characters A4; BtQ L1080 vs L1210",
            used_by="card tests",
        ),
        Setting(
            "petty_officer_tier",
            "Petty Officers (Mates) count as",
            {"warrant": "Warrant Officers", "rating": "ratings"},
            "warrant",
            "DECISIONS D7; BtQ L275-280, L906-907",
            used_by="character creation, missions, prize money",
        ),
        Setting(
            "midshipman_wealth",
            "A Midshipman's Wealth bonus is that of",
            {"officer": "an Officer (+2)", "warrant": "a Warrant Officer (+1)"},
            "officer",
            "DECISIONS D8; BtQ L266, L898-902",
            used_by="character creation",
        ),
        Setting(
            "creation_experiences",
            "Experiences of a new character (fewer than 3 inexperienced, 4-5 capable, 6 or "
            "more exceptional)",
            {n: f"{n} experiences" for n in range(1, 9)},
            5,
            "BtQ L214-216, L255-258 (the GM's choice; O'Toole has 5)",
            used_by="character creation",
        ),
        Setting(
            "spade_ace_booty",
            "The Ace of Spades on a booty table gives",
            {"institution": "+1 to three Institution reputations (every other Spade row)",
             "personal": "+1 to three Personal reputations (as printed)"},
            "institution",
            "btq_characters A12; BtQ L518, L1005",
            used_by="character creation",
        ),
        Setting(
            "booty_skill_points",
            "The skill points of a Diamond Face or Ace on a booty table go",
            {"one_skill": "all to one skill (\"added to a Skill\")",
             "split": "a point to each skill the player names, as he chooses"},
            "one_skill",
            "btq_characters A19; BtQ L490, L977",
            used_by="character creation",
        ),
        Setting(
            "general_weather_in_ship_combat",
            "General weather modifiers (wind, rain) in ship-to-ship combat",
            {False: "not applied: the ship-combat weather table governs",
             True: "applied as well"},
            False,
            "DECISIONS D15; BtQ L2365-2367",
            used_by="ship-to-ship combat",
        ),
        Setting(
            "becalmed_tow",
            "In ship-to-ship combat, becalmed ships",
            {False: "lie still: Speed 0 and Handling 0",
             True: "send out their boats to tow them: Speed 1, and half the cards (rounded "
                   "down) for the Broadside! and for repairs, with the crew at the oars"},
            False,
            "btq_naval N10; BtQ L2365-2367, L1701-1705",
            used_by="ship-to-ship combat",
        ),
        Setting(
            "repair_lockout",
            "A PC who repairs (not one who fights a fire) sits out How Will You Fight? in",
            {"same_round": "the same round", "next_round": "the next round"},
            "same_round",
            "DECISIONS D19; BtQ L2415, L2577, L2594",
            used_by="ship-to-ship combat",
        ),
        Setting(
            "double_shot_extra",
            "Double-shotting adds an extra Injured hit",
            {"per_area": "once to each of Crew and Hull that was hit",
             "per_hit": "for every hit on Crew or Hull"},
            "per_area",
            "btq_naval N14; BtQ L2653-2654",
            used_by="ship-to-ship combat",
        ),
        Setting(
            "skirmish_morale_loss",
            "A lost skirmish costs Ship Morale a level",
            {"always": "always, as written", "with_crew": "only when fought with the crew"},
            "always",
            "btq_missions A8; BtQ L1688-1690",
            used_by="skirmishes",
        ),
        Setting(
            "fled_ship_morale",
            "A ship that flees a battle beyond Distance 5",
            {False: "keeps her Ship Morale (only a ship sunk, struck, taken or without a "
                    "crew loses a level)",
             True: "loses a level of Ship Morale, as a ship that lost"},
            False,
            "btq_naval N22; BtQ L2602-2603",
            used_by="ship-to-ship combat",
        ),
        Setting(
            "boarding_crew_loss",
            "The loser of a boarding's Command test who fights on crosses off",
            {"one_box": "one box of his Crew (an Injured hit)",
             "severity": "a hit of the winner's best success"},
            "one_box",
            "btq_naval N19; BtQ L2530",
            used_by="boarding actions",
        ),
        Setting(
            "firebrand_fire",
            "Firebrands and grenades set the enemy ship on fire with",
            {"best": "a best success that is a Critical or Perfect of Clubs or Spades",
             "any": "any Critical or Perfect success of Clubs or Spades among his cards"},
            "best",
            "btq_naval N16; BtQ L2663-2664",
            used_by="boarding actions",
        ),
        Setting(
            "scar_rule",
            "The optional Scar rule (a card when Health is healed after being Maimed)",
            {False: "not used", True: "used"},
            False,
            "BtQ L1318-1320",
            used_by="healing",
        ),
        Setting(
            "scratch_resets",
            "The extra wound level of Is But A Scratch, Sir!, once used, comes back",
            {"on_heal": "when Health is healed back to Healthy",
             "session_end": "at the end of each session",
             "both": "at the end of each session, and when Health is healed back to "
                     "Healthy"},
            "on_heal",
            "btq_characters A17, DECISIONS D12; BtQ L1049-1050",
            used_by="healing",
        ),
        Setting(
            "great_hardship",
            "The optional rule Overcoming Great Hardship",
            {False: "not used", True: "used"},
            False,
            "DECISIONS D20; BtQ L1415-1426",
            used_by="ship-to-ship combat",
        ),
        Setting(
            "maimed_morale_test",
            "In ship-to-ship combat, the commanding officer of a ship whose Ship Morale is "
            "Maimed must pass, for the ship to act each round,",
            {"discipline": "a Discipline test (the battle's rule)",
             "command": "a Command test (the Great Hardship example)"},
            "discipline",
            "btq_missions A1, DECISIONS D20; BtQ L2483-2484, L1424",
            used_by="ship-to-ship combat",
        ),
        Setting(
            "maimed_morale_scope",
            "In ship-to-ship combat, a Maimed Ship Morale's -3 falls on",
            {"all_pools": "all the ship's card pools",
             "final_test": "her Broadside! alone, as a skirmish's falls on its final test"},
            "all_pools",
            "btq_missions A1, DECISIONS D20; BtQ L1424, L1646-1647",
            used_by="ship-to-ship combat",
        ),
        Setting(
            "mutual_fail_final",
            "A skirmish's final Command test that both commanders fail (or tie)",
            {"retest": "is turned again, as any test (up to ten times)",
             "stalemate": "ends the skirmish in a stalemate"},
            "retest",
            "btq_missions A8, DECISIONS D3; BtQ L1274-1276, L1656",
            used_by="skirmishes",
        ),
        Setting(
            "prize_share_lasts",
            "A prize share's automatic successes last",
            {"one_test": "for the first Wealth test they help",
             "until_port": "until the ship leaves port (the GM spends them)"},
            "one_test",
            "btq_missions A2; BtQ L1827-1835",
            used_by="purchases",
        ),
        Setting(
            "grog_critical_failure",
            "A drinker \"fails critically\" (-3) when",
            {"grog_critical": "he loses to the grog's Critical or better",
             "no_success": "he loses without a single success"},
            "grog_critical",
            "btq_missions A10; BtQ L1864-1866",
            used_by="grog",
        ),
        Setting(
            "mission_injured_cost",
            "In a mission's failure cost, an INJURED wound costs",
            {1: "1 point (as printed)", 2: "2 points (halfway to MAIMED's 4)"},
            1,
            "DECISIONS D13; BtQ L1538-1540",
            used_by="missions",
        ),
        Setting(
            "odds_for_players",
            "The odds of a battle and of each option of a decision (“What if”) are "
            "offered to",
            {False: "the GM only: the simulation knows what the players do not (the enemy's "
                    "crew, her traits, her shot), and its odds give it away",
             True: "the players too, for their own decisions and the battle as it stands "
                   "(the odds reveal what the simulation knows of the enemy)"},
            False,
            "Quarterdeck, not the book (issue 11): the simulation plays with hidden facts",
            used_by="odds",
        ),
        # Brethren of the Coast (rules/brethren.md §11 and the errata): where the book allows
        # readings, its recommended one is the default.
        Setting(
            "brethren_light_air",
            "Brethren of the Coast: a Light Air gives",
            {"minus_S": "−S to every move", "plus_minus_S": "−S or +S, a die for each move"},
            "minus_S",
            "brethren A2, errata BR-2; Brethren L46",
            used_by="Brethren of the Coast",
        ),
        Setting(
            "brethren_broadside_rank",
            "Brethren of the Coast: a Broadside's die must reach",
            {"highest_number": "the largest rank number among the firing cannons",
             "lowest_number": "the smallest rank number"},
            "highest_number",
            "brethren A6; Brethren L68",
            used_by="Brethren of the Coast",
        ),
        Setting(
            "brethren_broadside_every",
            "Brethren of the Coast: a ship may fire a Broadside",
            {"first_only": "on her first shoot action of the game",
             "every_other_turn": "every other turn"},
            "first_only",
            "brethren §6.6; Brethren L67-L69",
            used_by="Brethren of the Coast",
        ),
        Setting(
            "brethren_fire_sides",
            "Brethren of the Coast: no firing to both port and starboard in a turn, for",
            {"ship": "the whole ship", "battery": "each battery"},
            "ship",
            "brethren A8; Brethren L70",
            used_by="Brethren of the Coast",
        ),
        Setting(
            "brethren_board_when_fouled",
            "Brethren of the Coast: boarding",
            {False: "only right after a ram", True: "also at the start of a fouled ship's turn"},
            False,
            "brethren A13; Brethren L77",
            used_by="Brethren of the Coast",
        ),
        Setting(
            "brethren_st_croix",
            "Brethren of the Coast: St. Croix's double action is rolled",
            {"once_per_turn": "once a turn", "every_action": "before every action"},
            "once_per_turn",
            "brethren A20; Brethren L19-L20",
            used_by="Brethren of the Coast",
        ),
        Setting(
            "brethren_rehire_mode",
            "Brethren of the Coast: a ship home with one crew counter hires",
            {"top_up_to_min": "up to her minimum crew", "add_half": "half her points on top"},
            "top_up_to_min",
            "errata BR-3; Brethren L81",
            used_by="Brethren of the Coast",
        ),
        Setting(
            "brethren_sea_wolves_share",
            "Brethren of the Coast: Sea Wolves, the Navy succeeds keeping of the convoy",
            {"0.75": "three quarters", "0.5": "half", "1": "all of it"},
            "0.75",
            "errata BR-1; Brethren L103",
            used_by="Brethren of the Coast",
        ),
        Setting(
            "brethren_advanced_damage",
            "Brethren of the Coast: the optional Advanced Damage",
            {False: "not used: every hit takes a mast",
             True: "used: chainshot against the rigging, roundshot the hull, grapeshot the "
                   "crew"},
            False,
            "brethren §6.7.2; Brethren L73-L75",
            used_by="Brethren of the Coast",
        ),
        Setting(
            "brethren_loss_of_rigging",
            "Brethren of the Coast: the optional Loss of Rigging",
            {False: "not used: a lost mast falls clear",
             True: "used: a lost mast may hang over the side until cut away"},
            False,
            "brethren §6.7.3; Brethren L71-L73",
            used_by="Brethren of the Coast",
        ),
        Setting(
            "brethren_critical_hits",
            "Brethren of the Coast: the optional critical hits (with Advanced Damage)",
            {False: "not used", True: "used: two hull hits in one exchange roll for the rudder "
                                      "or the magazine"},
            False,
            "brethren §6.7.4; Brethren L75-L77",
            used_by="Brethren of the Coast",
        ),
        Setting(
            "brethren_hanging_fouls",
            "Brethren of the Coast: a mast hanging to the side of the enemy who shot it away "
            "fouls the two ships when he is",
            {"within_S": "within S of her on that side", "contact": "touching her"},
            "within_S",
            "brethren A24; Brethren L72-L73",
            used_by="Brethren of the Coast",
        ),
        Setting(
            "brethren_derelict_hit",
            "Brethren of the Coast: a mastless ship sinks when hit by",
            {"any": "any shot", "roundshot": "roundshot only (Advanced Damage)"},
            "any",
            "brethren A22; Brethren L57",
            used_by="Brethren of the Coast",
        ),
        Setting(
            "brethren_fire_during_move",
            "Brethren of the Coast: a ship ordered to move and fire",
            {True: "may fire during her move, where her guns bear best, then sails on",
             False: "fires where her orders put it, before or after the whole move"},
            True,
            "errata BR-5; Brethren L51-L52",
            used_by="Brethren of the Coast",
        ),
        Setting(
            "brethren_island_count",
            "Brethren of the Coast: the set-up procedure places",
            {"players_plus_2": "one island per player and two more",
             "six": "six islands (the base game's advice for a 30-point game)"},
            "players_plus_2",
            "brethren A29, errata BR-6; Brethren L23-L24",
            used_by="Brethren of the Coast",
        ),
        Setting(
            "brethren_wind_change",
            "Brethren of the Coast: the optional wind change each turn",
            {True: "used", False: "not used: the wind stays as set"},
            True,
            "Brethren L41-L43",
            used_by="Brethren of the Coast",
        ),
        # British vs Pirates (rules/british_vs_pirates.md §8, §11 and the errata BV-1 to BV-4).
        Setting(
            "bvp_minimum_movement",
            "British vs Pirates: the advanced rule Minimum Movement (a ship moves or pivots)",
            {False: "not used", True: "used"},
            False,
            "british_vs_pirates §8.1; BvP L201-L203",
            used_by="British vs Pirates",
        ),
        Setting(
            "bvp_stealing_wind",
            "British vs Pirates: the advanced rule Stealing Wind",
            {False: "not used", True: "used"},
            False,
            "british_vs_pirates §8.2; BvP L205-L211",
            used_by="British vs Pirates",
        ),
        Setting(
            "bvp_firing_arc",
            "British vs Pirates: a broadside's firing arc",
            {"strict": "between the bow and stern hexsides, corners excluded",
             "inclusive": "between the bow and stern hexsides, corners included",
             "narrow": "only square to the side (60° to 120° off the bow)"},
            "strict",
            "british_vs_pirates A1; BvP L115-L117",
            used_by="British vs Pirates",
        ),
        Setting(
            "bvp_downwind_cone",
            "British vs Pirates: a ship is downwind of another within",
            {"30": "30° either side of the wind's direction", "60": "60° either side"},
            "30",
            "british_vs_pirates A3; BvP L207",
            used_by="British vs Pirates",
        ),
        Setting(
            "bvp_side_die_exhaustion",
            "British vs Pirates: a side's D6 showing 1",
            {"a": "stays; the next hit removes it",
             "b": "is removed as soon as it reaches 1",
             "c": "the next hit removes it and turns the Structure D6 as well"},
            "a",
            "british_vs_pirates A4, errata BV-2; BvP L167-L169",
            used_by="British vs Pirates",
        ),
        Setting(
            "bvp_wind_reading",
            "British vs Pirates: a ship card's first speed is for the wind",
            {"from_astern": "from dead astern", "head_wind": "from dead ahead"},
            "from_astern",
            "british_vs_pirates A9, errata BV-4; BvP L103, L111",
            used_by="British vs Pirates",
        ),
        Setting(
            "bvp_two_broadsides",
            "British vs Pirates: firing both broadsides in one attack",
            {"full": "each broadside rolls the full dice for its range",
             "split": "the dice are split between the two"},
            "full",
            "british_vs_pirates A16; BvP L117",
            used_by="British vs Pirates",
        ),
        Setting(
            "bvp_card_morale",
            "British vs Pirates: a skill card's Crew Morale",
            {"require": "is only required", "spend": "is spent (not below 1)"},
            "require",
            "british_vs_pirates A11; BvP L98",
            used_by="British vs Pirates",
        ),
        Setting(
            "bvp_merchant_captain",
            "British vs Pirates: a merchant Fluyt in Merchant Escort sails",
            {"none": "without a captain (morale 0, no Grapple or Repel)",
             "require_captain": "with one of the captain cards"},
            "none",
            "errata BV-1; BvP L183-L185",
            used_by="British vs Pirates",
        ),
        # The Viking sea fight (rules/viking.md §9 and the errata): the recommended reading
        # is the default.
        Setting(
            "viking_facing",
            "Viking sea fight: facing beyond what the forward movement pays for",
            {"strict": "not allowed: facing is at most the distance moved / the ratio",
             "lenient": "the rest of the table's allowance may be turned in place"},
            "strict",
            "viking A4; Viking L117-L133",
            used_by="Viking sea fight",
        ),
        Setting(
            "viking_facing_inch",
            "Viking sea fight: one inch of facing turns the vessel until",
            {"asin": "its bow is one inch to the side (the arc a little more than an inch)",
             "atan": "its bow reaches the inch mark of a ruler laid across the bow",
             "arc": "its bow has travelled an inch of arc"},
            "asin",
            "errata VK-2; viking A3; Viking L129-L131",
            used_by="Viking sea fight",
        ),
        Setting(
            "viking_sail_lowering",
            "Viking sea fight: lowering sail above the speed it can lose meanwhile",
            {"keep_dropping": "allowed: the vessel goes on slowing a level a turn",
             "wait_until_slow": "not allowed until the vessel is slow enough"},
            "keep_dropping",
            "errata VK-3; viking A8; Viking L161",
            used_by="Viking sea fight",
        ),
        # Horse, Foot and Guns (rules/hfg.md §16 and the errata): the recommended reading is
        # the default.
        Setting(
            "hfg_spent_vs_dismounted",
            "Horse, Foot and Guns: mounted troops losing a close combat against dismounted "
            "troops are",
            {True: "spent, as against foot", False: "repulsed 600-1,200 paces"},
            True,
            "errata F5; HFG L304",
            used_by="Horse, Foot and Guns",
        ),
        Setting(
            "hfg_bua_half_loss_by_artillery",
            "Horse, Foot and Guns: a town's garrison beaten by half or more by artillery or "
            "ships",
            {"afire_and_destroyed": "sets the town afire and is destroyed",
             "afire_only": "sets the town afire and is unharmed"},
            "afire_and_destroyed",
            "errata F6; HFG L311",
            used_by="Horse, Foot and Guns",
        ),
        Setting(
            "hfg_submarine_can_shoot",
            "Horse, Foot and Guns: submarines shoot at ships, guns and supplies",
            {False: "no, they fight only at close quarters", True: "yes, at naval range"},
            False,
            "errata F4; HFG L273",
            used_by="Horse, Foot and Guns",
        ),
        Setting(
            "hfg_army_break_fraction",
            "Horse, Foot and Guns: an army breaks when its losses exceed",
            {0.5: "half of its element equivalents", 0.25: "a quarter",
             0.75: "three quarters"},
            0.5,
            "hfg A1; HFG L332-L333",
            used_by="Horse, Foot and Guns",
        ),
        Setting(
            "hfg_rout_contagion",
            "Horse, Foot and Guns: friends that routers flee through",
            {"book": "rout too, unless they hold a town or strong point, are skirmishers or "
                     "ships, or the routers are inferior",
             "digest": "rout too, unless they hold a town or strong point, or the routers "
                       "are skirmishers, ships or inferior",
             "off": "stand: routers pass through and nobody else routs"},
            "book",
            "hfg 11.6, A25; HFG L318-L319",
            used_by="Horse, Foot and Guns",
        ),
        Setting(
            "hfg_ford_both_banks",
            "Horse, Foot and Guns: searching for a ford with a town near the river on both "
            "banks adds",
            {4: "4, as printed (a ford is sure to be found)", 2: "2 (one for each town)"},
            4,
            "hfg A13b; HFG L250",
            used_by="Horse, Foot and Guns",
        ),
        Setting(
            "hfg_foot_charge_shooters",
            "Horse, Foot and Guns: foot may charge into contact with enemy foot who would "
            "shoot at them",
            {False: "no: they close only by winning the firefight and pressing forward",
             True: "yes: a move that ends in contact is not stopped 200 paces short, since "
                   "troops in contact are no longer a target"},
            False,
            "errata F19.3, F21.2; hfg 7.7; HFG L257-L258, L270",
            used_by="Horse, Foot and Guns",
        ),
    )
}


RETIRED = frozenset({"max_retests"})
"""Names that once were settings and are no longer: stored setups and records may still carry
them, and :func:`resolve` passes over them. (``max_retests`` is the bound of D3,
``rules.btq.tests.MAX_RETESTS``, not a table's choice.)"""


class SettingError(ValueError):
    """An unknown setting name, or a value the setting does not offer."""


def resolve(overrides: Mapping | None = None) -> dict:
    """The full settings: every default, with ``overrides`` applied.

    Raises :class:`SettingError` naming the setting for an unknown name or value.
    """
    values = {name: s.default for name, s in SETTINGS.items()}
    for name, value in (overrides or {}).items():
        if name in RETIRED:
            continue
        setting = SETTINGS.get(name)
        if setting is None:
            raise SettingError(f"unknown campaign setting {name!r}")
        if value not in setting.choices:
            allowed = ", ".join(repr(c) for c in setting.choices)
            raise SettingError(f"{name}: {value!r} is not one of {allowed}")
        values[name] = value
    return values


def completed(stored: dict) -> dict:
    """The settings a game kept when it began (``stored``), with each setting made since at
    its default: how the engines played before it existed (a new setting's default is the
    play before it). ``stored`` itself when none is missing; names no longer settings
    (:data:`RETIRED`) are kept as they are."""
    missing = SETTINGS.keys() - stored.keys()
    if not missing:
        return stored
    return {**stored, **{name: SETTINGS[name].default for name in missing}}


_KEPT_AT = (("settings",), ("setup", "settings"), ("boarding", "state", "setup", "settings"))
"""Where a Beat to Quarters engine's state keeps its settings: its own (ship to ship), its
setup's (skirmishes, boardings, duels, card tests, creation) and a boarding's within a battle."""


def upgraded(state: Any) -> Any:
    """A state a Beat to Quarters engine stored under an earlier version (a battle begun
    before a setting was made), with its settings :func:`completed` wherever it keeps them
    (:data:`_KEPT_AT`), so that it plays on under this version: an engine reads each of its
    settings from the state. ``state`` itself when nothing was missing; else a copy in which
    only the dicts on the way to the settings are new. The engines' ``upgrade``
    (:func:`rules.engine.stored`)."""
    for path in _KEPT_AT:
        state = _completed_at(state, path)
    return state


def _completed_at(value: Any, path: tuple[str, ...]) -> Any:
    if not isinstance(value, dict):
        return value
    if not path:
        return completed(value)
    inner = value.get(path[0])
    new = _completed_at(inner, path[1:])
    return value if new is inner else {**value, path[0]: new}
