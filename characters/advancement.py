"""What missions do to a character: rewards taken and failure costs paid from the purchase
tables, one entry at a time, on the character's page (BtQ L1500-1545;
``rules/btq_characters.md`` §6.1-6.2; DECISIONS D9, D13).

Missions are the only way to raise Measures, skills and reputations (BtQ L1500-1502). When a
mission is completed its reward entries are *due* to each character on it they are for
(:func:`dues`); when it fails or is abandoned, its failure entries are. The player chooses
what a reward raises (the Measure, the skill, the reputation, BtQ L1525); the GM chooses
what a failure lowers or wounds (BtQ L1541). :func:`mission_purchase` applies one entry
through the kernel (``rules.btq.missions.apply_reward`` / ``apply_failure``), records it as a
:class:`MissionPurchase` (the database keeps one per entry and character, so a double submit
takes it once) and writes the journal.

Ship Morale is one track per ship (``rules/btq_characters.md`` A15), kept by the ships app
above this one: it registers :class:`ShipArea` (:func:`register_ship_area`), and a failure
on Ship Morale is paid once per ship, whichever of its crew's pages it is paid on.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction

from campaigns.missions.models import Mission
from campaigns.missions.services import purchase_tables
from campaigns.services import log_append
from characters.models import AREA_FIELDS, MAX_WEALTH, Character, MissionPurchase, Reputation
from characters.selectors import character_access
from characters.services import character_damage_set
from rules.btq import missions as kernel
from rules.btq.characters import MEASURES, SKILLS, DamageState


@dataclass(frozen=True, slots=True)
class ShipArea:
    """How the ships app reaches the Ship Morale of a character's ship: ``of(character)``
    returns ``(ship_id, state, ship_name)`` or ``None`` (on no ship), ``set(ship_id, state,
    actor, note)`` writes it under the ship's row lock and logs it."""

    of: Callable
    set: Callable


_ship_area: ShipArea | None = None


def register_ship_area(area: ShipArea) -> None:
    global _ship_area
    _ship_area = area


@dataclass(frozen=True, slots=True)
class Option:
    """One thing a due entry may be applied to: ``key`` (what :func:`mission_purchase`
    takes), ``label``, the value ``now`` and ``after`` it, and ``suggested`` when it is the
    entry's own target."""

    key: str
    label: str
    now: str
    after: str
    suggested: bool = False


@dataclass(frozen=True, slots=True)
class Due:
    """An entry of ``mission`` still to be taken (``side`` ``"reward"``) or paid
    (``"failure"``) by the character: ``index`` in the mission's list, the ``entry``, its
    table ``label``, who ``chooses`` (``"player"`` / ``"gm"``), its ``options``, and
    ``new_reputation`` when a reward may start a reputation."""

    mission: Mission
    side: str
    index: int
    entry: kernel.Entry
    label: str
    chooses: str
    options: tuple[Option, ...]
    new_reputation: bool = False


def _officer(character: Character) -> bool:
    return kernel.is_officer(character.rank, petty_officer_tier=character.campaign
                             .rules_settings()["petty_officer_tier"])


def _state_label(value: int) -> str:
    return DamageState(value).label


def _matches(reputation: Reputation, words: str) -> bool:
    return words.lower() in reputation.name.lower()


def _options(character: Character, side: str, entry: kernel.Entry) -> tuple[Option, ...]:
    """Every target ``entry`` may be applied to on ``character`` (the entry's own first)."""
    kind, target = entry.kind, entry.target
    out: list[Option] = []

    def add(key, label, now, after, suggested=False):
        out.append(Option(key, label, str(now), str(after), suggested))

    apply = (kernel.apply_reward if side == kernel.REWARD else kernel.apply_failure)
    reputations = list(character.reputations.all())
    if kind == "measure":
        for key, label in MEASURES.items():
            if not target or target == key:
                now = getattr(character, key)
                add(f"measure:{key}", label, now, apply(entry, now), target == key)
    elif kind == "skill":
        for key, label in SKILLS.items():
            now = character.skill(key)
            if (target and target != key) or (side == kernel.FAILURE and now <= 0):
                continue
            add(f"skill:{key}", label, now, apply(entry, now), target == key)
    elif kind == "reputation":
        named = kernel.reputation_target(target) if side == kernel.REWARD else None
        words = target.removeprefix("reputation:") if side == kernel.FAILURE else ""
        for rep in reputations:
            same = named is not None and (rep.kind, rep.descriptor.lower(),
                                          rep.subject.lower()) == (
                named[0], named[1].lower(), named[2].lower())
            if named is not None and not same:
                continue
            add(f"reputation:{rep.pk}", rep.name, rep.value, apply(entry, rep.value),
                same or bool(words and _matches(rep, words)))
        if named is not None and not out:
            add(f"new:{target}", f"{named[1]} {named[2]} (new)", 0, entry.amount, True)
    elif kind == "trait_point":
        now = trait_points(character)
        add("trait_point", "Trait points", now, now + entry.amount, True)
    elif kind == "wealth":
        now = character.wealth
        after = (apply(entry, now, maximum=MAX_WEALTH) if side == kernel.REWARD
                 else apply(entry, now))
        add("wealth", "Wealth", now, after, True)
    elif kind in (*kernel.WOUNDS, "heal_dead"):
        heal = kind == "heal_dead"
        words = target.removeprefix("reputation:") if target.startswith("reputation:") else ""
        areas = [("health", "Health", character.health_state),
                 ("wealth", "Wealth", character.wealth_state)]
        if heal:  # a Dead Health is death, never healed (BtQ L1365-1366)
            areas = areas[1:]
        for key, label, state in areas:
            if heal and state != DamageState.DEAD:
                continue
            after = apply(entry, state)
            add(key, label, _state_label(state), _state_label(after), target == key)
        ship = _ship_area.of(character) if _ship_area is not None else None
        if ship is not None and not (heal and ship[1] != DamageState.DEAD):
            add("ship_morale", f"Ship Morale of {ship[2]}", _state_label(ship[1]),
                _state_label(apply(entry, ship[1])), target == "ship_morale")
        for rep in reputations:
            if heal and rep.damage_state != DamageState.DEAD:
                continue
            add(f"reputation:{rep.pk}", rep.name, _state_label(rep.damage_state),
                _state_label(apply(entry, rep.damage_state)), bool(words and _matches(rep, words)))
    elif kind == "narrative":
        add("narrative", entry.note or "In the story", "", "", True)
    return tuple(sorted(out, key=lambda o: not o.suggested))


def trait_points(character: Character) -> int:
    """The trait points the character's missions have given (BtQ L1531: they may be saved
    up for a dearer trait; spending them is the traits' part of the sheet)."""
    return sum(character.mission_purchases.filter(kind="trait_point").values_list(
        "amount", flat=True))


def _subject(character: Character, entry: kernel.Entry, option: str | None) -> str:
    if option == "ship_morale" and _ship_area is not None:
        ship = _ship_area.of(character)
        if ship is not None:
            return f"ship:{ship[0]}"
    return f"character:{character.pk}"


def dues(character: Character) -> list[Due]:
    """The rewards and failure costs still to be taken or paid by ``character``: the entries
    of its completed missions (rewards) and failed or abandoned ones (failures) that are for
    it (its scope: everyone, the Officers, the Ratings or this character) and not taken yet.
    A Ship Morale wound already paid for the ship on a shipmate's page is not due again."""
    missions = Mission.objects.filter(
        campaign=character.campaign, cast__character_id=character.pk,
        status__in=Mission.ENDED).order_by("ended_at", "pk")
    done = set(MissionPurchase.objects.filter(mission__in=missions).values_list(
        "mission_id", "side", "entry_index", "subject"))
    tables = purchase_tables(character.campaign)
    officer = _officer(character)
    out = []
    for mission in missions:
        side = kernel.REWARD if mission.status == Mission.Status.COMPLETED else kernel.FAILURE
        entries = mission.rewards if side == kernel.REWARD else mission.failures
        for index, data in enumerate(entries):
            entry = kernel.Entry.from_dict(data)
            if not kernel.applies_to(entry, character=character.pk, officer=officer):
                continue
            mine = (mission.pk, side, index, f"character:{character.pk}")
            ship = _subject(character, entry, "ship_morale")
            if mine in done or (entry.target == "ship_morale" and
                                (mission.pk, side, index, ship) in done):
                continue
            row = tables[side][entry.kind]
            options = _options(character, side, entry)
            out.append(Due(mission, side, index, entry, row.label, row.chooser, options,
                           new_reputation=side == kernel.REWARD and entry.kind == "reputation"
                           and kernel.reputation_target(entry.target) is None))
    return out


def _due(character: Character, mission_id, side: str, index) -> Due:
    for due in dues(character):
        if (due.mission.pk, due.side, due.index) == (mission_id, side, index):
            return due
    raise ValidationError("That reward or cost is not due on this character (taken already, "
                          "or its mission is not over).")


@transaction.atomic
def mission_purchase(*, character: Character, actor, mission_id: int, side: str, index: int,
                     option: str, new_kind: str = "", new_descriptor: str = "",
                     new_subject: str = "") -> tuple[MissionPurchase, list[str]]:
    """Take reward entry ``index`` (``side`` ``"reward"``: the PC's player or a GM) or pay
    failure entry ``index`` (``"failure"``: a GM) of ``mission_id`` on ``character``,
    applied to ``option`` (an :class:`Option` key of the due entry; for a reward that starts
    a reputation, ``"new"`` with ``new_kind``, ``new_descriptor``, ``new_subject``).

    Locks the character; refuses (``ValidationError``) an entry not due, an option not
    offered; ``PermissionDenied`` for anyone else. Returns ``(purchase, warnings)``: the
    D9 warning when a reputation is left above its cap. Taken once: a second submit of the
    same entry is refused, by the database's unique constraint."""
    character = Character.objects.select_for_update().select_related("campaign").get(
        pk=character.pk)
    access = character_access(actor, character)
    if side not in kernel.SIDES:
        raise ValidationError({"side": "A reward or a failure."})
    if access != "gm" and not (access == "owner" and side == kernel.REWARD):
        raise PermissionDenied("The player takes his character's rewards; the GM chooses "
                               "what a failure costs.")
    due = _due(character, mission_id, side, index)
    entry = due.entry
    keys = {o.key: o for o in due.options}
    if option == "new" and due.new_reputation:
        if new_kind not in ("personal", "institution") or not new_descriptor.strip() or \
                not new_subject.strip():
            raise ValidationError({"option": "A new reputation needs its kind, its words "
                                             "(“Hated by”) and whom it concerns."})
        option = f"new:{new_kind}:{new_descriptor.strip()}:{new_subject.strip()}"
    elif option not in keys:
        raise ValidationError({"option": "Choose one of the offered options."})
    before, after, what, warnings = _apply(character, side, entry, option, actor, due)
    try:
        with transaction.atomic():
            purchase = MissionPurchase.objects.create(
                character=character, mission=due.mission, side=side, entry_index=index,
                subject=_subject(character, entry, option), kind=entry.kind, target=option,
                amount=entry.amount, before=before, after=after, text=what[:300],
                created_by=actor)
    except IntegrityError:
        raise ValidationError("That reward or cost has been taken already.") from None
    verb = "took" if side == kernel.REWARD else "paid"
    log_append(campaign=character.campaign, kind=f"purchase.{side}", actor=actor,
               gm_only=due.mission.hidden, record=("character", character.pk),
               data={"character": character.pk, "mission": due.mission.pk, "side": side,
                     "entry": index, "target": option, "before": before, "after": after},
               text=f"{character} {verb} from “{due.mission}”: {what}.")
    return purchase, warnings


def _apply(character: Character, side: str, entry: kernel.Entry, option: str, actor,
           due: Due) -> tuple[int | None, int | None, str, list[str]]:
    """Change the sheet as ``entry`` says on ``option``: ``(before, after, words,
    warnings)``."""
    reward = side == kernel.REWARD
    sign = "+" if reward else "-"
    warnings: list[str] = []
    try:
        if option.startswith(("measure:", "skill:")):
            group, key = option.split(":", 1)
            if group == "measure":
                before = getattr(character, key)
                label = MEASURES[key]
            else:
                before, label = character.skill(key), SKILLS[key]
            after = kernel.apply_reward(entry, before) if reward else kernel.apply_failure(
                entry, before)
            if group == "measure":
                setattr(character, key, after)
            else:
                skills = dict(character.skills)
                skills[key] = after
                character.skills = skills
            _save(character)
            if group == "measure" and key in Reputation.CAP_MEASURE.values():
                warnings += [f"“{r.name}” {r.value} is above {label} {after}: it counts as "
                             f"{after} in tests." for r in character.reputations.all()
                             if r.cap_measure == key and r.value > after]
            return before, after, f"{label} {sign}{entry.amount} ({before} → {after})", warnings
        if option.startswith("new:"):
            kind, descriptor, subject = kernel.reputation_target(option[4:])
            rep = Reputation.objects.create(character=character, kind=kind,
                                            descriptor=descriptor[:100], subject=subject[:200],
                                            value=min(entry.amount, 20))
            warnings += _cap_warning(rep)
            return 0, rep.value, f"new reputation “{rep.name}” +{rep.value}", warnings
        if option == "wealth" and entry.kind == "wealth":
            before = character.wealth
            after = (kernel.apply_reward(entry, before, maximum=MAX_WEALTH) if reward
                     else kernel.apply_failure(entry, before))
            character.wealth = after
            _save(character)
            return before, after, f"Wealth {sign}{entry.amount} ({before} → {after})", warnings
        if option == "trait_point":
            before = trait_points(character)
            return before, before + entry.amount, f"+{entry.amount} trait point", warnings
        if option == "narrative":
            return None, None, entry.note or due.label, warnings
        if option.startswith("reputation:") and entry.kind == "reputation":
            rep = Reputation.objects.select_for_update().get(pk=int(option.split(":")[1]),
                                                             character=character)
            before = rep.value
            rep.value = min(20, kernel.apply_reward(entry, before)) if reward else \
                kernel.apply_failure(entry, before)
            rep.version += 1
            rep.save(update_fields=["value", "version"])
            if reward:
                warnings += _cap_warning(rep)
            return before, rep.value, f"“{rep.name}” {sign}{entry.amount} ({before} → " \
                                      f"{rep.value})", warnings
        # a wound or a heal of a damage state
        apply = kernel.apply_reward if reward else kernel.apply_failure
        if option == "ship_morale":
            ship_id, before, name = _ship_area.of(character)
            after = apply(entry, before)
            _ship_area.set(ship_id, DamageState(after), actor,
                           f"{name}'s Ship Morale: {_state_label(before)} → "
                           f"{_state_label(after)} (the mission “{due.mission}”).")
            return before, after, f"Ship Morale of {name}: {_state_label(before)} → " \
                                  f"{_state_label(after)}", warnings
        if option.startswith("reputation:"):
            rep = Reputation.objects.select_for_update().get(pk=int(option.split(":")[1]),
                                                             character=character)
            before = rep.damage_state
            after = apply(entry, before)
            character_damage_set(character=character, area="reputation",
                                 state=DamageState(after), reputation=rep)
            return before, after, f"“{rep.name}”: {_state_label(before)} → " \
                                  f"{_state_label(after)}", warnings
        if option in AREA_FIELDS:
            before = getattr(character, AREA_FIELDS[option])
            after = apply(entry, before)
            character_damage_set(character=character, area=option, state=DamageState(after))
            return before, after, f"{option.capitalize()}: {_state_label(before)} → " \
                                  f"{_state_label(after)}", warnings
    except kernel.MissionError as exc:
        raise ValidationError({"option": str(exc)}) from None
    raise ValidationError({"option": "Choose one of the offered options."})


def _save(character: Character) -> None:
    character.version += 1
    character.save()


def _cap_warning(rep: Reputation) -> list[str]:
    """D9: stored in full, counted as the cap in tests, and said so."""
    capped = kernel.reputation_cap(rep.value, rep.cap, rep.cap_measure.capitalize())
    return [f"“{rep.name}”: {capped.warning}"] if capped.warning else []


def purchases_for(character: Character, access: str):
    """What the character's missions gave and cost it, oldest first; those of hidden missions
    only for a GM."""
    rows = character.mission_purchases.select_related("mission").order_by("created_at", "id")
    if access != "gm":
        rows = rows.filter(mission__hidden=False)
    return rows
