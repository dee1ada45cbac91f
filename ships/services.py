"""Use cases of ships: reference data, ships of a campaign, postings, and the bridge to the
``btq_naval`` encounter engine (the setup it starts from, the damage a battle leaves).

Stats and damage tracks come from ``rules.btq.ships``; these functions only store them.
"""

from django.core.exceptions import ValidationError
from django.db import transaction

from campaigns.models import Campaign
from campaigns.selectors import require_gm
from campaigns.services import check_version, log_append
from characters.models import MAX_RATING, Character, Item
from characters.services import trait_left
from rules.btq import damage, traits
from rules.btq.boarding import POSTS as OFFICER_POSTS
from rules.btq.characters import NPC_CREW_SKILLS, SKILLS, DamageState
from rules.btq.personal_combat import COMBAT_TRAITS, weapon_named
from rules.btq.ships import (
    AREAS,
    SHIP_TRAITS,
    SHIP_TYPES,
    DamageTrack,
    ShipStats,
    canonical_trait,
    sample_ships,
    ship_stats,
)
from ships.models import Ship, ShipPosting, ShipTrait, ShipType
from ships.reputations import battle_reputation


@transaction.atomic
def reference_data_load() -> tuple[int, int]:
    """Copy ``rules.btq.ships.SHIP_TYPES`` and ``SHIP_TRAITS`` into the database, creating or
    updating rows by name (running it again changes nothing). Returns the numbers of types
    and traits."""
    for t in SHIP_TYPES.values():
        ShipType.objects.update_or_create(
            name=t.name,
            defaults={
                "command": t.command, "rating": t.rating, "guns_min": t.guns_min,
                "guns_max": t.guns_max,
                "boxes": {area: list(sizes) for area, sizes in t.boxes.items()},
                "broadside": t.broadside, "speed": t.speed, "handling": t.handling,
                "source": t.source,
            },
        )
    for t in SHIP_TRAITS.values():
        ShipTrait.objects.update_or_create(
            name=t.name,
            defaults={
                "description": t.description, "speed": t.speed, "handling": t.handling,
                "broadside": t.broadside, "boxes": dict(t.boxes), "source": t.source,
            },
        )
    return len(SHIP_TYPES), len(SHIP_TRAITS)


def stats_for(*, ship_type: ShipType, traits, overrides: dict | None) -> ShipStats:
    """The battle figures of a ship of ``ship_type`` with ``traits`` (``ShipTrait`` rows or
    names) and per-ship ``overrides``; ``ValidationError`` naming the problem (a trait over
    the rating's limit, BtQ L2338-2339, or taken twice, L2339; a bad override)."""
    names = [t if isinstance(t, str) else t.name for t in traits]
    try:
        return ship_stats(ship_type.name, names, overrides or {})
    except ValueError as exc:
        field = "overrides" if "override" in str(exc) else "traits"
        raise ValidationError({field: str(exc)}) from None


OVERRIDE_RANGES = {"broadside": (0, 10), "speed": (0, 8), "handling": (-5, 10),
                   "trait_limit": (0, 5), **{area: (1, 12) for area in AREAS}}
"""The sane range of each per-ship override: a little beyond the roster's extremes (Broadside
0-6, Speed 2-4, Handling -2 to 4, 1-8 boxes per segment, BtQ L2245-2333, plus traits, L2337-
2347), so a sample ship's odd figure fits (HMS Phoebe, L2313-2316; the President's four
traits, L3023-3049) but a typo cannot make a battle draw thousands of cards."""


def clean_overrides(overrides) -> dict:
    """``overrides`` checked against :data:`OVERRIDE_RANGES`: whole numbers (an area's boxes
    per segment one number or three) within range. ``ValidationError`` on ``overrides``
    listing each bad figure."""
    if overrides is None:
        return {}
    if not isinstance(overrides, dict):
        raise ValidationError({"overrides": "Overrides are a mapping of figure to value, "
                                            'e.g. {"handling": 1}.'})
    errors = []
    for key, value in overrides.items():
        if key not in OVERRIDE_RANGES:
            errors.append(f"{key!r} is not a figure you can override (known: "
                          f"{', '.join(OVERRIDE_RANGES)}).")
            continue
        low, high = OVERRIDE_RANGES[key]
        values = value if key in AREAS and isinstance(value, list) and len(value) == 3 \
            else [value]
        if not all(isinstance(v, int) and not isinstance(v, bool) and low <= v <= high
                   for v in values):
            what = "boxes per segment (one number or three)" if key in AREAS else key
            errors.append(f"{key}: {what} must be a whole number from {low} to {high}, "
                          f"not {value!r}.")
    if errors:
        raise ValidationError({"overrides": errors})
    return dict(overrides)


def ship_stats_of(ship: Ship) -> ShipStats:
    """The battle figures of a stored ship."""
    return stats_for(ship_type=ship.ship_type, traits=ship.traits.all(), overrides=ship.overrides)


def clean_crew(crew, *, base: dict | None = None) -> dict[str, int]:
    """The six NPC crew skills (``rules.btq.characters.NPC_CREW_SKILLS``) from ``base`` with
    ``crew`` applied, absent ones 0. ``ValidationError`` for another key or a value that is
    not a whole number from 0 to ``MAX_RATING``."""
    if not isinstance(crew, dict):
        raise ValidationError({"crew": "Crew skills are a mapping of skill name to value."})
    result = {key: int((base or {}).get(key, 0)) for key in NPC_CREW_SKILLS}
    errors = []
    for key, value in crew.items():
        if key not in NPC_CREW_SKILLS:
            errors.append(f"{key!r} is not one of the crew skills: {', '.join(NPC_CREW_SKILLS)}.")
        elif isinstance(value, bool) or not isinstance(value, int) or not (
            0 <= value <= MAX_RATING
        ):
            errors.append(f"{SKILLS[key]} must be a whole number from 0 to {MAX_RATING}.")
        else:
            result[key] = value
    if errors:
        raise ValidationError({"crew": errors})
    return result


def clean_tracks(tracks, stats: ShipStats) -> dict[str, str]:
    """``tracks`` (area -> ``DamageTrack`` or its text) checked against the segment sizes of
    ``stats``, as text. ``ValidationError`` for a missing or unknown area, a track that does
    not parse or has the wrong number of boxes."""
    if not isinstance(tracks, dict) or set(tracks) != set(AREAS):
        raise ValidationError({"tracks": f"Give a damage track for each of {', '.join(AREAS)}."})
    errors = {}
    result = {}
    for area in AREAS:
        try:
            track = DamageTrack.parse(str(tracks[area]))
        except ValueError as exc:
            errors[f"{area}_track"] = str(exc)
            continue
        if track.sizes != tuple(stats.boxes[area]):
            expected = "|".join("." * n for n in stats.boxes[area])
            errors[f"{area}_track"] = (
                f"The {area} track of this ship has {'/'.join(map(str, stats.boxes[area]))} "
                f"boxes per state (like {expected}), not {track}."
            )
            continue
        result[area] = str(track)
    if errors:
        raise ValidationError(errors)
    return result


def resized_tracks(tracks: dict[str, str], stats: ShipStats) -> dict[str, str]:
    """``tracks`` resized to the segment sizes of ``stats`` (after a change of type or
    traits), keeping as many crossed boxes in each segment as still fit."""
    result = {}
    for area in AREAS:
        old = DamageTrack.parse(tracks[area])
        result[area] = str(DamageTrack(
            [True] * min(sum(seg), n) + [False] * (n - min(sum(seg), n))
            for seg, n in zip(old.segments, stats.boxes[area])
        ))
    return result


def _check_guns(ship_type: ShipType, guns) -> None:
    if guns is None:
        return
    low, high = ship_type.guns_min or 1, ship_type.guns_max
    if guns < low or (high is not None and guns > high):
        span = f"{low} to {high}" if high is not None else f"{low} or more"
        raise ValidationError({"guns": f"A {ship_type.name} carries {span} guns, not {guns}."})


def _check_morale(morale) -> int:
    if isinstance(morale, bool) or morale not in [s.value for s in DamageState]:
        raise ValidationError(
            {"morale_state": f"Ship Morale is a damage state 0-3, not {morale!r}."}
        )
    return int(morale)


def _set_tracks(ship: Ship, tracks: dict[str, str]) -> None:
    for area, text in tracks.items():
        setattr(ship, f"{area}_track", text)


def _traits_named(names) -> list[ShipTrait]:
    wanted = []
    for name in names:
        try:
            wanted.append(canonical_trait(name if isinstance(name, str) else name.name))
        except ValueError as exc:
            raise ValidationError({"traits": str(exc)}) from None
    found = {t.name: t for t in ShipTrait.objects.filter(name__in=wanted)}
    missing = [n for n in wanted if n not in found]
    if missing:
        raise ValidationError(
            {"traits": f"Ship trait {missing[0]!r} is not loaded: run load_reference_data."}
        )
    return [found[n] for n in wanted]


@transaction.atomic
def ship_create(
    *, campaign: Campaign, actor, name: str, ship_type: ShipType, guns: int | None = None,
    side: str = Ship.Side.ENEMY, traits=(), crew: dict | None = None,
    overrides: dict | None = None, morale_state: int = DamageState.HEALTHY, gm_notes: str = "",
) -> Ship:
    """A new, undamaged ship of ``ship_type`` with ``traits`` (``ShipTrait`` rows or names).
    Raises ``ValidationError`` naming the field for a bad value: guns outside the type's
    range, too many traits for the rating or one taken twice (BtQ L2338-2339), bad crew
    skills or overrides."""
    trait_rows = _traits_named(traits)
    overrides = clean_overrides(overrides)
    stats = stats_for(ship_type=ship_type, traits=trait_rows, overrides=overrides)
    _check_guns(ship_type, guns)
    ship = Ship(
        campaign=campaign, name=(name or "").strip(), guns=guns, ship_type=ship_type, side=side,
        revealed=side == Ship.Side.PC, crew=clean_crew(crew or {}), overrides=overrides,
        morale_state=_check_morale(morale_state), gm_notes=gm_notes,
    )
    _set_tracks(ship, {area: str(track) for area, track in stats.clean_tracks().items()})
    ship.full_clean(exclude=["campaign", "ship_type"])
    ship.save()
    ship.traits.set(trait_rows)
    log_append(campaign=campaign, kind="ship.created", actor=actor,
               text=f"{actor} added the ship {ship}.", data={"ship": ship.pk},
               gm_only=ship.is_hidden_from_players)
    return ship


SHIP_FIELDS = frozenset({
    "name", "guns", "ship_type", "side", "traits", "tracks", "morale_state", "crew", "overrides",
    "gm_notes", "revealed",
})
"""What :func:`ship_update` may change (a GM's edit)."""


def _edited(ship: Ship, traits: list[ShipTrait]) -> dict:
    """What :func:`ship_update` may change of ``ship`` with its ``traits``, to tell whether
    an edit changed anything."""
    return {"name": ship.name, "guns": ship.guns, "side": ship.side, "gm_notes": ship.gm_notes,
            "revealed": ship.revealed, "morale_state": ship.morale_state, "crew": ship.crew,
            "ship_type": ship.ship_type_id, "overrides": ship.overrides, "tracks": ship.tracks,
            "traits": sorted(trait.pk for trait in traits)}


@transaction.atomic
def ship_update(*, ship: Ship, actor, version, **changes) -> Ship:
    """Change only the fields given (``SHIP_FIELDS``; ``tracks`` is area -> track text,
    ``crew`` is merged into the stored crew skills). A change of type or traits resizes the
    damage tracks, keeping the crossed boxes that fit, unless new ``tracks`` are given.

    Raises ``ValidationError`` for an unknown field or a bad value,
    ``campaigns.services.StaleVersion`` if the ship was saved since ``version``; nothing is
    written then. Values that are the ones saved write nothing either: the version stays,
    so nobody else's open form goes stale for nothing.
    """
    unknown = set(changes) - SHIP_FIELDS
    if unknown:
        raise ValidationError(f"Unknown ship fields: {', '.join(sorted(unknown))}.")
    ship = Ship.objects.select_for_update().select_related("ship_type", "campaign").get(
        pk=ship.pk
    )
    check_version(ship, version)
    ship_type = changes.get("ship_type", ship.ship_type)
    trait_rows = (
        _traits_named(changes["traits"]) if "traits" in changes else list(ship.traits.all())
    )
    overrides = clean_overrides(changes["overrides"]) if "overrides" in changes \
        else ship.overrides
    stats = stats_for(ship_type=ship_type, traits=trait_rows, overrides=overrides)
    if "tracks" in changes:
        tracks = clean_tracks(changes["tracks"], stats)
    else:
        tracks = resized_tracks(ship.tracks, stats)
    _check_guns(ship_type, changes.get("guns", ship.guns))
    revealing = changes.get("revealed", ship.revealed) and not ship.revealed
    before = _edited(ship, list(ship.traits.all()))
    for field in ("name", "guns", "side", "gm_notes", "revealed"):
        if field in changes:
            setattr(ship, field, changes[field].strip() if field == "name" else changes[field])
    if "morale_state" in changes:
        ship.morale_state = _check_morale(changes["morale_state"])
    if "crew" in changes:
        ship.crew = clean_crew(changes["crew"], base=ship.crew)
    ship.ship_type = ship_type
    ship.overrides = overrides
    _set_tracks(ship, tracks)
    if _edited(ship, trait_rows) == before:
        return ship  # a save that changes nothing writes nothing, the version kept
    ship.version += 1
    ship.full_clean(exclude=["campaign", "ship_type"])
    ship.save()
    if "traits" in changes:
        ship.traits.set(trait_rows)
    log_append(campaign=ship.campaign, kind="ship.updated", actor=actor,
               gm_only=ship.is_hidden_from_players, text=f"{actor} edited the ship {ship}.",
               data={"ship": ship.pk, "fields": sorted(changes)})
    if revealing:
        _log_reveal(ship, actor)
    return ship


def _log_reveal(ship: Ship, actor) -> None:
    who = f"{actor} revealed" if actor else "Revealed"
    log_append(campaign=ship.campaign, kind="ship.revealed", actor=actor,
               text=f"{who} the ship {ship} to the players.", data={"ship": ship.pk})


@transaction.atomic
def ship_reveal(*, ship: Ship, actor=None) -> Ship:
    """Show ``ship`` to the players from now on (a GM's choice, or automatically when it takes
    part in a battle with them: the battle's start calls this). Logged once; a ship already
    revealed is returned unchanged. The version stays: no figure the GM edits changed. The GM
    hides it again with ``ship_update(revealed=False)``."""
    ship = Ship.objects.select_for_update().select_related("campaign").get(pk=ship.pk)
    if not ship.revealed:
        ship.revealed = True
        ship.save(update_fields=["revealed"])
        _log_reveal(ship, actor)
    return ship


@transaction.atomic
def posting_set(*, ship: Ship, character: Character, station: str, actor) -> ShipPosting:
    """Post ``character`` to ``station`` aboard ``ship`` (moving them from any other
    posting: a character serves on one ship at a time)."""
    if character.campaign_id != ship.campaign_id:
        raise ValidationError("The character and the ship belong to different campaigns.")
    if station not in ShipPosting.Station.values:
        raise ValidationError({"station": f"{station!r} is not a station."})
    Character.objects.select_for_update().get(pk=character.pk)
    posting, _ = ShipPosting.objects.update_or_create(
        character=character, defaults={"ship": ship, "station": station}
    )
    log_append(campaign=ship.campaign, kind="ship.posting", actor=actor,
               gm_only=character.kind == Character.Kind.NPC or ship.is_hidden_from_players,
               text=f"{character} serves as {posting.get_station_display()} aboard {ship}.",
               data={"ship": ship.pk, "character": character.pk, "station": station})
    return posting


@transaction.atomic
def posting_remove(*, posting: ShipPosting, actor) -> None:
    """End a posting: the character no longer serves aboard that ship."""
    posting = ShipPosting.objects.select_for_update().select_related(
        "ship__campaign", "character"
    ).get(pk=posting.pk)
    posting.delete()
    log_append(campaign=posting.ship.campaign, kind="ship.posting_ended", actor=actor,
               gm_only=posting.character.kind == Character.Kind.NPC
               or posting.ship.is_hidden_from_players,
               text=f"{posting.character} no longer serves aboard {posting.ship}.",
               data={"ship": posting.ship_id, "character": posting.character_id})


@transaction.atomic
def sample_ships_load(*, campaign: Campaign, actor) -> list[Ship]:
    """Add to ``campaign`` the sample ships of "Friends and Foes" and of the book's examples
    (``rules.btq.ships.sample_ships``; BtQ L2313-2316, L2533-2536, L2831-3142) it has no ship
    of that name for, as other (not the players') ships, hidden from the players until the
    GM reveals them, each with her crew's skills and, in her GM notes, her source and where
    her figures part from the book's print (``rules/btq_naval.md`` N26). Returns the ships
    added (running it again adds none)."""
    require_gm(actor, campaign)
    have = set(campaign.ships.values_list("name", flat=True))
    added = []
    for sample in sample_ships().values():
        if sample.name in have:
            continue
        notes = [f"{sample.nation}{f', {sample.kind}' if sample.kind else ''}"
                 f"{f'; captain {sample.captain}' if sample.captain else ''}. {sample.source}."]
        notes += [f"Not as printed: {why}." for why in sample.book_errors.values()]
        added.append(ship_create(
            campaign=campaign, actor=actor, name=sample.name, guns=sample.guns,
            ship_type=ShipType.objects.get(name=sample.type), side=Ship.Side.ENEMY,
            traits=[canonical_trait(t) for t in sample.traits], crew=sample.crew,
            overrides=sample.overrides or None, gm_notes=" ".join(notes)))
    return added


def _ship_setup(ship: Ship, side: str) -> dict:
    entry = {
        "id": str(ship.pk),
        "name": ship.display_name,
        "side": side,
        "type": ship.ship_type.name,
        "traits": [t.name for t in ship.traits.all()],
        "tracks": dict(ship.tracks),
        "morale": ship.morale_state,
        "crew": clean_crew({}, base=ship.crew),
    }
    if ship.overrides:
        entry["overrides"] = dict(ship.overrides)
    officers = ship_officers(ship)
    if officers:
        entry["officers"] = officers
    return entry


CHEAT_DEATH = "cheat_death"
"""The trait Cheat Death! (``rules.btq.traits``; BtQ L1084-1085, D11)."""


def combat_traits(character: Character) -> dict[str, int]:
    """The traits of ``character`` that personal combat applies
    (``rules.btq.personal_combat.COMBAT_TRAITS``), by name -> times taken: what he brings to
    a fight or a boarding (BtQ L1086-1101). Cheat Death! counts the uses his sheet has left
    this session (BtQ L1084; ``characters.services.trait_left``), and is left out when none
    is: a use spent in an earlier fight is not brought into the next."""
    taken = dict(character.trait_takes())
    if CHEAT_DEATH in taken:
        taken[CHEAT_DEATH] = trait_left(character, CHEAT_DEATH)
    return {traits.TRAITS[k].name: n for k, n in sorted(taken.items())
            if traits.TRAITS[k].name in COMBAT_TRAITS and n}


def combat_items(character: Character) -> list[dict]:
    """The items on ``character``'s sheet that add to a fight by themselves, as the fight
    kernel takes them (``rules.btq.personal_combat.fighter``'s ``items``): each for a weapon
    of the fights (``rules.btq.personal_combat.weapon_named``: "Musket", "sword") with no
    condition, ``{"name", "weapon", "cards"}``, in the sheet's order. A special weapon adds
    +1 "to a combat test when using it" (BtQ L1013); a curio for a weapon +1 (the
    Short-barrelled Carbine, +1 Musket tests, BtQ L2693) and a priceless one +2 (BtQ
    L1017). One with a condition, or naming a weapon no fight has, is the GM's to add."""
    kinds = (Item.Kind.SPECIAL_WEAPON, Item.Kind.CURIO, Item.Kind.PRICELESS_ITEM)
    out = []
    for item in character.items.filter(kind__in=kinds, condition="").exclude(
            weapon="").order_by("pk"):
        weapon = weapon_named(item.weapon)
        if weapon is not None:
            out.append({"name": item.name, "weapon": weapon, "cards": item.bonus})
    return out


def ship_officers(ship: Ship, weapons=("cutlass",)) -> list[dict]:
    """The NPCs posted aboard ``ship`` at an officer's station, as the officers a boarding
    fights (BtQ L2519-2528; ``rules.btq.boarding.officer``): id ``npc:<pk>``, name, post,
    Command, Health, Guts, :func:`combat_traits` and :func:`combat_items` from the sheet
    (with ``scratch`` false when the sheet has Is But A Scratch, Sir! spent, D12; ``items``
    only when he has any), and ``weapons`` (the sheet keeps none; the cutlass by default). A
    Dead NPC is left out."""
    out = []
    for posting in ship.postings.select_related("character").order_by("station", "pk"):
        npc = posting.character
        if npc.kind != Character.Kind.NPC or posting.station not in OFFICER_POSTS or \
                npc.health_state == DamageState.DEAD:
            continue
        out.append({"id": f"npc:{npc.pk}", "name": npc.title, "post": posting.station,
                    "command": npc.skill("command"), "weapons": list(weapons),
                    "traits": combat_traits(npc),
                    **({"items": items} if (items := combat_items(npc)) else {}),
                    **({"scratch": False} if npc.scratched else {}),
                    "health": DamageState(npc.health_state).name.lower(), "guts": npc.guts})
    return out


def naval_setup(*, pc_ship: Ship, enemy_ship: Ship, weather, start_distance=None,
                allies=(), enemies=(), general_weather=None, ship_reputation=None) -> dict:
    """The setup of a ``btq_naval`` encounter between the players' ship (with ``allies``,
    more ships of the players' side) and an enemy (with ``enemies``, more of hers):

    ``{"weather", "start_distance", "settings", "ships": [pc, *allies, enemy, *enemies],
    "pcs": [...]}``, each ship with its id (pk as text), name with guns, side, type, traits,
    ``overrides`` (only when set), damage tracks, Ship Morale (0-3), crew skills and
    ``officers`` (only when any: :func:`ship_officers`, for a boarding); each PC posted
    aboard one of the players' side's ships (a Dead one is not) with id, name, ship,
    seniority, Discipline, all 22 skills, station, Health, Guts, ``combat_traits`` and
    ``combat_items`` (for a boarding's fights: :func:`combat_traits`, :func:`combat_items`),
    ``trait_cards`` (what his traits add to each skill's tests in a battle:
    :func:`_naval_trait_cards`), ``scratched`` (Is But A
    Scratch, Sir! spent on his sheet, D12) and, aboard the ship of
    ``ship_reputation`` (a ``ShipReputation`` of a ship of the players' side, the one that
    fits this battle), that reputation as his ``ship_reputation``
    (``ships.reputations.battle_reputation``). ``weather``, ``start_distance`` and
    ``general_weather`` (``{"wind", "precipitation"}``, for the setting
    ``general_weather_in_ship_combat``; left out if ``None``) are passed through for the
    engine to check. Raises ``ValidationError`` if the ships are not of one
    campaign, a ship of the players' side is not the players' (``Ship.Side.PC``), an enemy
    not an enemy, a ship is named twice, or ``ship_reputation`` is Dead or not of the
    players' side.
    """
    friends, foes = [pc_ship, *allies], [enemy_ship, *enemies]
    every = friends + foes
    if len({ship.campaign_id for ship in every}) > 1:
        raise ValidationError("The ships belong to different campaigns.")
    if len({ship.pk for ship in every}) < len(every):
        raise ValidationError("A ship can fight only once in a battle.")
    for ship in friends:
        if ship.side != Ship.Side.PC:
            raise ValidationError(f"{ship} is not the players' ship.")
    for ship in foes:
        if ship.side != Ship.Side.ENEMY:
            raise ValidationError(f"{ship} is not an enemy ship.")
    postings = (
        ShipPosting.objects.filter(ship__in=friends, character__kind=Character.Kind.PC)
        .exclude(character__health_state=DamageState.DEAD)
        .select_related("character")
        .order_by("-character__seniority", "character__name", "pk")
    )
    more = {"general_weather": general_weather} if general_weather else {}
    settings = pc_ship.campaign.rules_settings()
    used = {}
    if ship_reputation is not None:
        if ship_reputation.ship_id not in {ship.pk for ship in friends}:
            raise ValidationError({"ship_reputation": "Choose a reputation of a ship of the "
                                                      "players' side."})
        used = {ship_reputation.ship_id: battle_reputation(ship_reputation)}
    return {
        **more,
        "weather": weather,
        "start_distance": start_distance,
        "settings": settings,
        "ships": [*(_ship_setup(s, "pc") for s in friends),
                  *(_ship_setup(s, "enemy") for s in foes)],
        "pcs": [
            {
                "id": str(p.character.pk),
                "name": p.character.title,
                "ship": str(p.ship_id),
                "seniority": p.character.seniority,
                "discipline": p.character.discipline,
                "skills": p.character.skill_values(),
                "station": p.station,
                "trait_cards": _naval_trait_cards(p.character, settings),
                "health": DamageState(p.character.health_state).name.lower(),
                "guts": p.character.guts,
                "combat_traits": combat_traits(p.character),
                "combat_items": combat_items(p.character),
                "scratched": p.character.scratched,
                **({"ship_reputation": used[p.ship_id]} if p.ship_id in used else {}),
            }
            for p in postings
        ],
    }


def _naval_trait_cards(character, settings) -> dict[str, int]:
    """What ``character``'s traits add to each skill's tests in a ship battle (tag
    ``naval_combat``; ``rules.btq.traits.pool_modifiers``, BtQ L1028-1111, L2459-2460 "Any
    traits from PCs"): skill -> cards, the skills they add nothing to left out."""
    taken = character.trait_takes()
    if not taken:
        return {}
    cards = {skill: sum(m.cards for m in traits.pool_modifiers(taken, skill, {"naval_combat"},
                                                                settings))
             for skill in SKILLS}
    return {skill: min(n, 5) for skill, n in cards.items() if n > 0}


def ship_morale_set(*, ship: Ship, state: DamageState, actor, note: str) -> None:
    """Set ``ship``'s Ship Morale to ``state`` (the damage a card test dealt), bumping its
    version so that an edit made before is refused, and append ``note`` to the campaign log
    (GM-only for a ship the players may not see). For a use case that already holds the
    ship's row locked (``select_for_update``) in its transaction."""
    ship.morale_state = _check_morale(state)
    ship.version += 1
    ship.save(update_fields=["morale_state", "version", "updated_at"])
    log_append(campaign=ship.campaign, kind="ship.morale", actor=actor, text=note,
               data={"ship": ship.pk, "morale": ship.morale_state},
               gm_only=ship.is_hidden_from_players)


AREA_LABELS = {"hull": "Hull", "guns": "Guns", "crew": "Crew", "rigging": "Rigging"}
"""The book's names of a ship's damage areas."""


def _track_words(track: DamageTrack) -> str:
    crossed = track.crossed
    return f"{track.state.label}, {crossed} box{'es' if crossed != 1 else ''} crossed"


def battle_changes(ship: Ship, tracks: dict, morale: int) -> list[dict]:
    """What a battle's end changes on ``ship``, in words: one ``{"who", "area", "from",
    "to"}`` per damage track whose boxes change ("Crew", "Injured", "Dead"; with the boxes
    crossed when the state stays: "Healthy, 1 box crossed") and one for her Ship Morale
    ("Ship Morale", "Injured", "Maimed"), so that a journal search for "Morale" finds it.
    ``tracks``: area -> ``DamageTrack`` or its text; ``morale`` 0-3 (BtQ L2602-2603)."""
    changes = []
    for area, text in tracks.items():
        before, after = DamageTrack.parse(ship.tracks[area]), DamageTrack.parse(str(text))
        if before == after:
            continue
        same = before.state == after.state
        changes.append({"who": ship.display_name, "area": AREA_LABELS.get(area, area),
                        "from": _track_words(before) if same else before.state.label,
                        "to": _track_words(after) if same else after.state.label})
    if morale != ship.morale_state:
        changes.append({"who": ship.display_name, "area": "Ship Morale",
                        "from": DamageState(ship.morale_state).label,
                        "to": DamageState(morale).label})
    return changes


def changes_said(changes: list[dict]) -> str:
    """``changes`` (:func:`battle_changes`) as sentences: " The Hermes's Crew: Injured →
    Dead. The Hermes's Ship Morale: Injured → Maimed." (empty for none)."""
    return "".join(f" {c['who']}'s {c['area']}: {c['from']} → {c['to']}." for c in changes)


@transaction.atomic
def ship_record_battle(*, ship: Ship, tracks: dict, morale: int, note: str, actor=None
                       ) -> list[dict]:
    """Write the damage tracks (area -> ``DamageTrack`` or its text) and Ship Morale (0-3) a
    finished battle left on ``ship``: locks the row, bumps its version and appends ``note``
    to the campaign log, followed by each change in words (:func:`battle_changes`), which it
    returns. ``ValidationError`` if a track does not fit the ship."""
    ship = Ship.objects.select_for_update().select_related("ship_type", "campaign").get(
        pk=ship.pk
    )
    clean = clean_tracks({area: str(t) for area, t in dict(tracks).items()}, ship_stats_of(ship))
    morale = _check_morale(morale)
    changes = battle_changes(ship, clean, morale)
    _set_tracks(ship, clean)
    ship.morale_state = morale
    ship.version += 1
    ship.save()
    # An enemy ship's Ship Morale is the GM's to know, so its record is too; the battle's
    # own entry in the log tells everyone how it ended.
    log_append(campaign=ship.campaign, kind="ship.battle", actor=actor,
               text=f"{note}{changes_said(changes)}",
               data={"ship": ship.pk, "tracks": clean, "morale": ship.morale_state,
                     "changes": changes},
               gm_only=ship.is_hidden_from_players)
    return changes


def ship_morale_of(character) -> tuple[int, int, str] | None:
    """``(ship id, Ship Morale, name)`` of the ship ``character`` serves on, or ``None``
    (``characters.advancement.ShipArea``)."""
    ship = character.ship
    return None if ship is None else (ship.pk, ship.morale_state, ship.display_name)


def ship_morale_pay(ship_id: int, state, actor, note: str) -> None:
    """A mission's failure on Ship Morale (``characters.advancement``): the ship's row
    locked, its morale set and logged (:func:`ship_morale_set`)."""
    ship = Ship.objects.select_for_update().select_related("campaign").get(pk=ship_id)
    ship_morale_set(ship=ship, state=state, actor=actor, note=note)


@transaction.atomic
def ship_refit(*, ship: Ship, actor, version) -> Ship:
    """GM: refit ``ship`` in port: every damage track clean (its sizes kept) and Ship Morale
    left as it is (the crew heals by Command, BtQ L1385). The book has no refit rule: it is
    the GM's decision between voyages, so that a ship that lost a battle can fight again.
    Logged; ``StaleVersion`` if the ship was saved since ``version``."""
    ship = Ship.objects.select_for_update().select_related("ship_type", "campaign").get(
        pk=ship.pk)
    require_gm(actor, ship.campaign)
    check_version(ship, version)
    before = dict(ship.tracks)
    _set_tracks(ship, {area: str(t) for area, t in damage.ship_refit(before).items()})
    ship.version += 1
    ship.save()
    log_append(campaign=ship.campaign, kind="ship.refit", actor=actor,
               gm_only=ship.is_hidden_from_players,
               text=f"{actor} refitted {ship} in port: every damage box is clean.",
               data={"ship": ship.pk, "before": before, "tracks": dict(ship.tracks)})
    return ship


def ship_repair_set(*, ship: Ship, area: str, level: int, actor, note: str) -> DamageState | None:
    """A repair test between battles passed with a success of ``level`` (BtQ L2409-2416, as
    the Repair step repairs): one crossed box of ``area`` at or below it is cleared, the
    highest (``rules.btq.damage.ship_repair``). Returns the level of the box cleared
    (``None``: none it could clear). Logged with ``note``; for a use case that holds the
    ship's row locked (``combat.healing``)."""
    track, cleared = damage.ship_repair(getattr(ship, f"{area}_track"), level)
    if cleared is not None:
        setattr(ship, f"{area}_track", str(track))
        ship.version += 1
        ship.save(update_fields=[f"{area}_track", "version", "updated_at"])
    log_append(campaign=ship.campaign, kind="ship.repaired", actor=actor,
               gm_only=ship.is_hidden_from_players, text=note,
               data={"ship": ship.pk, "area": area, "track": getattr(ship, f"{area}_track"),
                     "cleared": None if cleared is None else cleared.label})
    return cleared
