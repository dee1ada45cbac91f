"""Damage and healing of a character's areas (BtQ L1297-1426; ``rules/btq_characters.md`` §5;
``rules/DECISIONS.md`` D11, D12, D16, D20).

* :func:`wound`: the state an area takes from a hit of a success level, with the traits
  that change it: Is But A Scratch, Sir! (an extra wound level before Injured, D12), Cheat
  Death! (D11) and Jonah (BtQ L1081-1082).
* :func:`heal_route`: how an area in a state heals (BtQ L1361-1366): Injured by a simple
  test with the area's healing skill (D4), Maimed through a successful challenge of the
  current Mission, Dead through a whole new Mission, Health Dead never; :func:`healed` is
  the state one step better. A failed attempt locks the area until the character completes
  another challenge (BtQ L1366): the lock itself is the caller's record.
* :func:`scar`: the optional Scar rule's card (BtQ L1318-1320).
* :func:`scratch_restored`: when Is But A Scratch, Sir!'s used level comes back (A17).
* Ship areas between battles: :func:`ship_repair` clears one box of a track with a repair
  test's success, as the Repair step does (BtQ L2409-2416), and :func:`ship_refit`, the GM's
  refit in port, gives clean tracks.

Overcoming Great Hardship is :func:`rules.btq.tests.overcome_great_hardship`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rules.btq.characters import DamageState
from rules.btq.settings import resolve
from rules.btq.ships import DamageTrack
from rules.btq.tests import SuccessLevel, damage_after
from rules.cards import Card

HEALTHY, INJURED, MAIMED, DEAD = (DamageState.HEALTHY, DamageState.INJURED,
                                  DamageState.MAIMED, DamageState.DEAD)

AREAS: dict[str, str] = {
    "health": "Health",
    "ship_morale": "Ship Morale",
    "wealth": "Wealth",
    "personal": "Personal reputation",
    "institution": "Institution reputation",
}
"""The kinds of damage area, a reputation by its kind (BtQ L1369-1411)."""

MEASURE_OF_AREA: dict[str, str] = {
    "health": "guts", "ship_morale": "discipline", "wealth": "influence",
    "personal": "charm", "institution": "influence",
}
"""The Measure of each area: its Maimed gate and Great Hardship (BtQ L1385-1411)."""

HEAL_SKILLS: dict[str, dict[DamageState, tuple[str, ...]]] = {
    "health": {INJURED: ("first_aid",), MAIMED: ("first_aid",)},
    "ship_morale": {INJURED: ("command",), MAIMED: ("command",)},
    "wealth": {INJURED: ("diplomacy",), MAIMED: ("haggle", "diplomacy", "skullduggery")},
    "personal": {INJURED: ("courtesy",), MAIMED: ("courtesy",)},
    "institution": {INJURED: ("diplomacy",), MAIMED: ("diplomacy",)},
}
"""The skills that heal each area by state (BtQ L1385-1411; Wealth L1747-1748, A23)."""


class HealError(ValueError):
    """A heal the rules do not allow (Health Dead, a healthy area, a locked one)."""


@dataclass(frozen=True, slots=True)
class Wound:
    """What a hit did to an area: ``before`` -> ``after``, ``scratched`` after it (Is But A
    Scratch's extra level used, D12), ``saved_by`` the trait that changed the result (its
    name) and ``extra_failed_challenge`` when Jonah was used (BtQ L1081-1082)."""

    before: DamageState
    after: DamageState
    scratched: bool = False
    saved_by: str | None = None
    extra_failed_challenge: bool = False

    def as_dict(self) -> dict:
        return {"from": self.before.name.lower(), "to": self.after.name.lower(),
                "scratched": self.scratched, "saved_by": self.saved_by,
                "extra_failed_challenge": self.extra_failed_challenge}


def wound(state: DamageState | int, level: SuccessLevel | int, *,
          traits: Mapping[str, int] | None = None, health: bool = True, scratched: bool = False,
          combat: bool = False, cheat_death: bool = False, jonah: bool = False,
          lasting: bool = False) -> Wound:
    """The area in ``state`` hit by a success of ``level`` (Ordinary one level worse,
    Critical two, Perfect three, BtQ L1305-1329), for a character with ``traits`` (key ->
    times). Only a Health hit (``health``) is changed by the traits:

    * Is But A Scratch, Sir! (D12): while Healthy, a first Ordinary wound only scratches
      (``scratched``, no penalty), a Critical leaves Injured, a Perfect leaves Maimed; a
      scratched character hit again counts the scratch as the first level. The level stays
      used (``scratched``) once the character is wounded beyond it only if it is
      ``lasting``: it comes back at a session's end, not with Health healed
      (:func:`scratch_restored`, A17).
    * Cheat Death! (D11): in ``combat``, if the player uses it (``cheat_death``: a use left
      this session is the caller's to count, A18), a wound taking Injured or Maimed to Dead
      is ignored.
    * Jonah (BtQ L1081-1082): in ``combat``, if used (``jonah``), a Maimed or Dead result is
      ignored and the current Naval Mission counts one more failed challenge.
    """
    state, level = DamageState(state), int(level)
    traits = traits or {}
    if not level:
        return Wound(state, state, scratched)
    normal = damage_after(state, level)
    after, now_scratched, saved = normal, lasting and scratched, None
    if health and "is_but_a_scratch" in traits and state == HEALTHY:
        # The track H, S(cratched), I, M, D: the same additive rule one box longer (D12).
        index = min(4, int(scratched) + level)
        after = HEALTHY if index == 1 else DamageState(index - 1)
        now_scratched = index == 1 or lasting
        if after != normal:
            saved = "Is But A Scratch, Sir!"
    if health and combat and after != state:
        if cheat_death and traits.get("cheat_death") and after == DEAD and \
                state in (INJURED, MAIMED):
            return Wound(state, state, scratched, "Cheat Death!")
        if jonah and "jonah" in traits and after in (MAIMED, DEAD):
            return Wound(state, state, scratched, "Jonah", extra_failed_challenge=True)
    return Wound(state, after, now_scratched, saved)


SCRATCH_RESTORED_AT: dict[str, tuple[str, ...]] = {
    "on_heal": ("heal",), "session_end": ("session_end",), "both": ("heal", "session_end"),
}
"""The setting ``scratch_resets`` -> the moments Is But A Scratch's level comes back."""


def scratch_restored(moment: str, settings: Mapping | None = None) -> bool:
    """Whether Is But A Scratch, Sir!'s extra wound level, once used, comes back at
    ``moment``: ``"heal"`` (Health healed back to Healthy) or ``"session_end"`` (the end of
    a session), under the campaign's setting ``scratch_resets``. The book says only that the
    character "may ignore the first wound you take" (BtQ L1049-1050) and is silent on when it
    comes back; D12 makes it a wound level, which heals with Health, the default
    (``rules/btq_characters.md`` A17, §5.7). Raises ``ValueError`` for another moment."""
    if moment not in ("heal", "session_end"):
        raise ValueError(f"{moment!r} is no moment of Is But A Scratch: 'heal' or "
                         "'session_end'")
    return moment in SCRATCH_RESTORED_AT[resolve(settings)["scratch_resets"]]


@dataclass(frozen=True, slots=True)
class HealRoute:
    """How an area in a state heals (BtQ L1361-1366): ``method`` ``"simple_test"`` (Injured:
    a simple test of one of ``skills``, D4), ``"challenge"`` (Maimed: a successful challenge
    of the current Mission narrated to include the healing, with one of ``skills``) or
    ``"mission"`` (Dead: a whole new Mission, or its reward "Heal a DEAD ... to MAIMED",
    BtQ L1523); ``to`` the state it reaches."""

    method: str
    skills: tuple[str, ...]
    to: DamageState


def heal_route(area: str, state: DamageState | int) -> HealRoute:
    """How ``area`` (a key of :data:`AREAS`) heals from ``state``. Raises :class:`HealError`
    for a Healthy area, for Health Dead ("no Mission can bring a character back from the
    dead", BtQ L1365-1366) and for an unknown area."""
    if area not in AREAS:
        raise HealError(f"{area!r} is not a damage area ({', '.join(AREAS)})")
    state = DamageState(state)
    if state == HEALTHY:
        raise HealError(f"{AREAS[area]} is Healthy: nothing to heal")
    if state == DEAD:
        if area == "health":
            raise HealError("Health is Dead: no Mission can bring a character back from the "
                            "dead")
        return HealRoute("mission", (), MAIMED)
    method = "simple_test" if state == INJURED else "challenge"
    return HealRoute(method, HEAL_SKILLS[area][state], healed(state))


def healed(state: DamageState | int) -> DamageState:
    """The state one step better (Dead -> Maimed -> Injured -> Healthy; BtQ L1361-1365)."""
    state = DamageState(state)
    if state == HEALTHY:
        raise HealError("a Healthy area cannot heal further")
    return DamageState(state - 1)


def check_heal(area: str, state: DamageState | int, *, locked: bool) -> HealRoute:
    """:func:`heal_route`, refused (:class:`HealError`) while the area is locked by a failed
    attempt, until the character has completed another challenge (BtQ L1366)."""
    route = heal_route(area, state)
    if locked:
        raise HealError(f"{AREAS[area]}: a heal failed; it may be tried again only once the "
                        "character has completed another challenge")
    return route


@dataclass(frozen=True, slots=True)
class Scar:
    """The optional Scar rule's result (BtQ L1318-1320): ``kind`` (``"scar"``,
    ``"infection"``, ``"delirium"``, ``"illness"``, ``"crippled"``, ``"any"``), its
    ``text``, and ``lose``: the Measures of which the player loses one (a choice), if any."""

    kind: str
    text: str
    lose: tuple[str, ...] = ()


def scar(card: Card) -> Scar:
    """The Scar rule's result for ``card``, turned when Health returns to Healthy after
    being Maimed (BtQ L1318-1320; the Joker, which the book does not cover, is the player's
    choice, ``rules/btq_characters.md`` §5.5)."""
    if card.is_joker:
        return Scar("any", "The Joker: choose any result of the table.")
    if card.rank == 14:
        return Scar("crippled", "Crippled: an eye, a limb or some such is lost.")
    red = card.suit in ("H", "D")
    if card.rank <= 10:
        if red:
            return Scar("scar", "A notable, ugly scar.")
        return Scar("infection", "A life-threatening infection, bed-ridden for some time: "
                                 "one Mission you are on has its Deadline reduced by 1.")
    if red:
        return Scar("delirium", "Heavily scarred and deliriously sick: lose 1 Charm or 1 "
                                "Influence.", ("charm", "influence"))
    return Scar("illness", "Wracked by illness: lose 1 Guts or 1 Discipline.",
                ("guts", "discipline"))


def ship_repair(track: DamageTrack | str, level: SuccessLevel | int
                ) -> tuple[DamageTrack, DamageState | None]:
    """A ship's area between battles, repaired as in the Repair step (BtQ L2409-2416): a
    success of ``level`` clears one crossed box "equal to, or lower than" it, the one that
    lifts the most penalty (:meth:`rules.btq.ships.DamageTrack.repair`'s default: a Hull
    ``xx|x.|..`` repaired with a Critical becomes ``x.|x.|..``, Healthy). Returns the track
    and the level cleared (``None``: nothing it could clear)."""
    if isinstance(track, str):
        track = DamageTrack.parse(track)
    return track.repair(int(level))


def ship_refit(tracks: Mapping[str, DamageTrack | str]) -> dict[str, DamageTrack]:
    """Every track of a ship refitted in port: each box clean, the sizes kept. The book has
    no rule for a refit: it is the GM's decision, in port between voyages."""
    out = {}
    for area, track in tracks.items():
        parsed = DamageTrack.parse(track) if isinstance(track, str) else track
        out[area] = DamageTrack.clean(parsed.sizes)
    return out
