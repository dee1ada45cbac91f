"""HFG combat resolution and outcomes (digest 10 and 11; L282-328).

A combat is two :class:`Fighter` records (each an element with what the table shows about
it: ground, works, overlaps, flank contact, grade) resolved by :func:`fight`: one d6 each
through the random source (the phasing side's die first, digest 15), plus the combat factor
against the opponent's category, the tactical factors (:func:`tactical_factors`, digest
10.2) and the grading factor on the pre-grading totals (:func:`grading`, 10.3); the two
final scores give each side a band (:func:`band`, 10.4) and each side its outcome by its own
type, band, distant or close, and the enemy's type (:func:`outcome`, 11.2-11.5), with the
close LOSE columns applied first match down (A4: mounted worst first). Distances in paces.

Readings: routers score 1d6 - 2 and nothing else (A6, A7); uphill only in close combat
(A11); a shooter not shot at is ungraded and ignores every outcome but charge and press
forward (A22, L297); negative totals are not clamped (A23); outcomes the book leaves out are
filled as A19 and A24 say; mounted beaten by dismounted are spent and a town's garrison
beaten by half by guns or ships is destroyed with the town afire (settings, errata F5, F6).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rules.btq.settings import resolve
from rules.dice import d6
from rules.engine import IllegalAction
from rules.hfg.data import troop_type
from rules.random import RandomSource

WIN, TIE, LOSE, LOSE_HALF = "win", "tie", "lose", "lose_half"
GOINGS = ("good", "slow", "difficult")
WORKS = (None, "redoubt", "entrenchment")
MAX_AIDERS = 2
"""Only the primary and two aiding shooters count (L265-266, A10)."""


@dataclass(frozen=True, slots=True)
class Fighter:
    """One element in a combat, as the table shows it.

    ``type`` a troop code; ``grade`` None, ``"E"``, ``"I"``, ``"HVY"``, ``"HOR"`` (staff
    grades do not affect combat); ``dismounted`` for a dismountable fighting on foot;
    ``routing``; ``leading``: for a Command Party, the troop code of the mounted or foot element
    touching its rear (digest 9.4). Ground: ``going`` (good/slow/difficult), ``in_bua`` (and
    ``bua_afire``), ``in_wood``, ``on_difficult_hill``, ``in_water`` (river, stream, gully),
    ``uphill`` of the opponent, ``works`` (``"redoubt"``/``"entrenchment"`` protecting it from
    this shooter). Situation: ``overlaps`` (flanks overlapped by enemy, 0-2), ``flank_contact``
    (enemy front edge on its flank or rear, or shot from directly to its flank),
    ``contacted_in_flank`` (the close combat is fought on its flank), ``moved`` (made a tactical
    or march move this bound), ``pursuer_fresh`` (a mounted pursuer that just hit fresh
    enemy), ``bow_or_stern`` (a ship firing from or shot on its bow or stern),
    ``over_friends`` (shot over the shooter's own troops other than Skirmishers),
    ``beyond_crest`` (shot by artillery from beyond a hill crest), ``defeated_command``,
    ``attacking_bua`` (assaulting a town or strong point), ``repulsed_this_bound``."""

    type: str
    grade: str | None = None
    dismounted: bool = False
    routing: bool = False
    leading: str | None = None
    going: str = "good"
    in_bua: bool = False
    bua_afire: bool = False
    in_wood: bool = False
    on_difficult_hill: bool = False
    in_water: bool = False
    uphill: bool = False
    works: str | None = None
    overlaps: int = 0
    flank_contact: bool = False
    contacted_in_flank: bool = False
    moved: bool = False
    pursuer_fresh: bool = False
    bow_or_stern: bool = False
    over_friends: bool = False
    beyond_crest: bool = False
    defeated_command: bool = False
    attacking_bua: bool = False
    repulsed_this_bound: bool = False

    def check(self) -> None:
        """IllegalAction for a fighter the rules cannot have (in plain words)."""
        t = troop_type(self.type)
        if self.dismounted and not t.dismountable:
            raise IllegalAction(f"{t.name} cannot dismount")
        if self.going not in GOINGS:
            raise IllegalAction(f"going must be good, slow or difficult, not {self.going!r}")
        if self.works not in WORKS:
            raise IllegalAction(f"works must be a redoubt or an entrenchment, not {self.works!r}")
        if not 0 <= self.overlaps <= 2:
            raise IllegalAction("an element has two flanks to be overlapped on")
        if self.leading is not None:
            if self.type != "CP":
                raise IllegalAction("only a Command Party leads the element behind it")
            if troop_type(self.leading).category not in ("mounted", "foot"):
                raise IllegalAction("a Command Party leads only mounted or foot")


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one combat does to one element: ``kind`` one of ``none``, ``halt``,
    ``press_forward`` (200p or halt, owner's choice), ``pursue``, ``charge``, ``close_in``
    (a ship may close with enemy within 200p), ``recoil``, ``repulsed``, ``routed``, ``spent``,
    ``destroyed``; ``distance`` the (least, most) paces of the move (the owner chooses within);
    ``disabled`` (a general recoils and is disabled); ``afire`` (the town or strong point it
    holds is set afire); ``rear`` what the element a Command Party led does when it differs
    (``"spent"``)."""

    kind: str
    distance: tuple[int, int] = (0, 0)
    disabled: bool = False
    afire: bool = False
    rear: str | None = None


NONE = Outcome("none")
HALT = Outcome("halt")
DESTROYED = Outcome("destroyed")
PRESS = Outcome("press_forward", (0, 200))


def _move(kind: str, low: int, high: int | None = None) -> Outcome:
    return Outcome(kind, (low, low if high is None else high))


REPULSED_MOUNTED = _move("repulsed", 600, 1200)


@dataclass(frozen=True, slots=True)
class CombatResult:
    """A resolved combat: the ``dice``, each side's ``factors`` (value, reason), pre-grading
    ``totals``, ``grading`` (+1/0/-1), final ``scores``, ``bands`` and ``outcomes``, each a
    pair (a, b)."""

    close: bool
    dice: tuple[int, int]
    factors: tuple[tuple[tuple[int, str], ...], tuple[tuple[int, str], ...]]
    totals: tuple[int, int]
    grading: tuple[int, int]
    scores: tuple[int, int]
    bands: tuple[str, str]
    outcomes: tuple[Outcome, Outcome]


def kind(f: Fighter) -> str:
    """The class whose factors and outcomes ``f`` uses: its category, ``"dismounted"`` for a
    dismounted dismountable, and for a leading Command Party that of the element it leads."""
    if f.leading is not None:
        return kind(Fighter(f.leading))
    if f.dismounted:
        return "dismounted"
    return troop_type(f.type).category


def column(f: Fighter) -> int:
    """Which CF column ``f``'s opponents read: 0 Staff-or-Mounted, 1 Dismounted-or-Foot,
    2 Other (artillery, naval, logistics, Aeronauts) (digest 10.1)."""
    k = kind(f) if f.leading is None else "staff"
    return 0 if k in ("staff", "mounted") else 1 if k in ("foot", "dismounted") else 2


def combat_factor(me: Fighter, enemy: Fighter) -> int:
    """``me``'s CF against ``enemy``'s category (digest 2.2, 10.1): the dismounted row for a
    dismounted element, the Heavy row for Heavy artillery, a leading CP's own plus that of the
    element it leads (9.4). IllegalAction where the table has none (a Submarine against land
    troops)."""
    t = troop_type(me.type)
    row = (t.dismounted_cf if me.dismounted else
           t.heavy_cf if me.grade == "HVY" and t.heavy_cf else t.cf)
    assert row is not None
    cf = row[column(enemy)]
    if cf is None:
        raise IllegalAction(f"{t.name} cannot fight {troop_type(enemy.type).name}")
    if me.leading is not None:
        cf += combat_factor(Fighter(me.leading), enemy)
    return cf


def _is(f: Fighter, *codes: str) -> bool:
    return (f.leading or f.type) in codes


def _naval_gun(f: Fighter) -> bool:
    """A ship with guns: naval other than Flotilla and the gunless Submarine."""
    return troop_type(f.type).category == "naval" and f.type not in ("FLO", "SUB")


def tactical_factors(me: Fighter, enemy: Fighter, *, close: bool, shot_at: bool,
                     distance: int = 0, aiders: int = 0) -> list[tuple[int, str]]:
    """``me``'s tactical factors against ``enemy`` (digest 10.2, L289-293) as (value, reason)
    pairs, each line once. ``shot_at``: whether ``me`` is shot at (distant combat);
    ``distance`` the range in paces; ``aiders`` the shooters aiding the primary against ``me``
    (0-2). A router has only its -2 (A6)."""
    if me.routing:
        return [(-2, "routing")]
    k, ek = kind(me), kind(enemy)
    out: list[tuple[int, str]] = []
    if me.works and shot_at and not close:
        out.append((3, f"protected by its {me.works}"))
    if me.beyond_crest and shot_at and not close and ek == "artillery":
        out.append((2, "shot at by guns from beyond a crest"))
    if k in ("foot", "dismounted") and (close or shot_at):
        if ((me.in_bua or me.type == "SPG") and not me.bua_afire) or me.on_difficult_hill:
            out.append((2, "in a town or strong point" if me.in_bua or me.type == "SPG"
                        else "on a difficult hill"))
    if me.over_friends and shot_at and not close:
        out.append((1, "shot at over the enemy's own troops"))
    if close and me.uphill:
        out.append((1, "uphill"))
    elif me.in_wood and k in ("foot", "dismounted"):
        out.append((1, "in a wood"))
    if close and me.overlaps:
        out.append((-me.overlaps, "overlapped"))
    if not close and aiders:
        if aiders > MAX_AIDERS:
            raise IllegalAction("only two elements may aid the one shooting")
        out.append((-aiders, "shot at by more than one element"))
    if me.moved and (_is(me, "RIF", "BL") or k == "artillery"
                     or (k == "dismounted" and me.type != "DRG")):
        out.append((-1, "moved this bound"))
    if close and (me.in_water or (k == "mounted" and me.going != "good")
                  or enemy.going == "difficult"):
        out.append((-1, "bad ground"))
    if ((close or (shot_at and distance <= 400))
            and (_is(enemy, "SBA", "MXA") or _naval_gun(enemy))):
        out.append((-1, "facing canister at close range"))
    if me.pursuer_fresh and k == "mounted":
        out.append((-2, "pursuing into fresh enemy"))
    if me.bow_or_stern and _is(me, "SAIL", "STM", "IRC"):
        out.append((-2, "fighting across its bow or stern"))
    if me.flank_contact:
        out.append((-2, "enemy on its flank or rear"))
    if me.defeated_command and close and (k == "mounted" or ek == "mounted"):
        out.append((-1, "its command is defeated"))
    return out


def grading(me: Fighter, enemy: Fighter, mine: int, theirs: int, *, close: bool,
            shot_at: bool) -> int:
    """``me``'s grading factor from the pre-grading totals ``mine`` and ``theirs`` (digest
    10.3, L293-295): Elite +1 in close combat when equal (not against Skirmishers) or when
    shot at and lower; Inferior -1 in close combat when equal or lower or when shot at and
    equal or higher; nothing for a shooter not shot at (A22) or another grade."""
    if not close and not shot_at:
        return 0
    if me.grade == "E":
        if close:
            return 1 if mine == theirs and not _is(enemy, "SK") else 0
        return 1 if mine < theirs else 0
    if me.grade == "I":
        if close:
            return -1 if mine <= theirs else 0
        return -1 if mine >= theirs else 0
    return 0


def band(me: int, en: int) -> str:
    """WIN, TIE, LOSE (less but more than half) or LOSE_HALF (half or less), integers
    unclamped (digest 10.4, A23)."""
    if me > en:
        return WIN
    if me == en:
        return TIE
    return LOSE if 2 * me > en else LOSE_HALF


def _win(me: Fighter, enemy: Fighter, *, close: bool, own_bound: bool) -> Outcome:
    k, ek = kind(me), kind(enemy)
    if k == "mounted":
        return _move("pursue", 300, 1200) if close else _move("charge", 0, 600)
    if k in ("foot", "dismounted") and me.type != "SPG":
        if close or (own_bound and ek in ("mounted", "dismounted", "foot")):
            return PRESS
        return NONE
    if k == "naval":
        return _move("close_in", 0, 200)
    return NONE


def _tie(me: Fighter, enemy: Fighter, *, close: bool, own_bound: bool) -> Outcome:
    k, ek = kind(me), kind(enemy)
    if k in ("mounted", "staff"):
        return REPULSED_MOUNTED if close and not _is(me, "LH") else NONE
    if k in ("foot", "dismounted") and me.type != "SPG":
        if not close and own_bound and ek in ("dismounted", "foot"):
            return PRESS
        return HALT
    if k == "naval" and close and (_is(me, "SUB") or _is(enemy, "SUB")):
        return DESTROYED
    return NONE


def _lose_distant(me: Fighter, enemy: Fighter, *, margin: int, distance: int) -> Outcome:
    k, ek = kind(me), kind(enemy)
    guns = ek == "artillery" or _naval_gun(enemy)
    if me.type == "SPG" or k in ("logistics", "aeronauts"):
        return Outcome("none", afire=guns and (me.in_bua or me.type == "SPG"))
    if k in ("mounted", "staff"):
        return _move("recoil", troop_type(me.type).depth) if ek == "artillery" else REPULSED_MOUNTED
    if k in ("foot", "dismounted") and me.in_bua:
        return Outcome("none", afire=guns)
    if k == "dismounted":
        return REPULSED_MOUNTED if _is(me, "DRG", "REP") else HALT
    if k == "foot":
        if _is(me, "STO", "BL") or (_is(me, "RIF") and distance > 400):
            return HALT
        return _move("recoil", troop_type(me.type).depth)
    if k == "artillery":
        if margin < 2:
            return NONE
        if me.works:
            return DESTROYED if guns else NONE
        if me.going != "good":
            return _move("repulsed", 200)
        return _move("repulsed", 800 if me.grade == "HOR" else 400)
    # naval
    return NONE if _is(me, "IRC", "SUB") else _move("repulsed", 400)


def _lose_close_mounted(me: Fighter, enemy: Fighter, settings: Mapping | None) -> Outcome:
    ek = kind(enemy)
    if me.routing:
        return DESTROYED
    if _is(me, "CUI", "HC", "DRG", "MR") and _is(enemy, "SIP", "LH"):
        return DESTROYED
    if me.repulsed_this_bound:
        return _move("routed", 1200)
    against = {"foot", "artillery"}
    if resolve(settings)["hfg_spent_vs_dismounted"]:
        against.add("dismounted")
    if ek in against or enemy.routing:
        return Outcome("spent")
    return REPULSED_MOUNTED


def _lose_close_foot(me: Fighter, enemy: Fighter, *, own_bound: bool, staff: bool) -> Outcome:
    ek = kind(enemy)
    if me.type == "SPG":
        return DESTROYED
    if ek == "mounted" and me.going == "good" and not me.in_bua:  # A4: a town is not good going
        return DESTROYED
    if me.in_bua:
        return _move("routed", 800)
    if me.in_wood:
        return _move("recoil", troop_type(me.type).depth)
    if me.attacking_bua:
        return _move("repulsed", 400)
    if _is(enemy, "MUS") or _is(me, "STO", "SK"):
        return _move("recoil", troop_type(me.type).depth)
    if _is(enemy, "BAY", "LI") and not own_bound:
        return _move("routed", 800)
    if _is(enemy, "SPR"):
        return _move("routed", 1200) if staff else DESTROYED  # errata F7: staff for "mounted"
    return _move("routed", 800) if me.contacted_in_flank else _move("repulsed", 400)


def _lose_close_dismounted(me: Fighter, enemy: Fighter) -> Outcome:
    ek = kind(enemy)
    if me.in_bua:
        return _move("routed", 1200)
    if me.in_wood:
        return _move("recoil", troop_type(me.type).depth)
    if me.attacking_bua or _is(enemy, "SK") or ek == "artillery":
        return _move("repulsed", 400)
    if _is(enemy, "SPR"):
        return _move("repulsed", 800)
    if ek == "mounted":
        return DESTROYED
    return _move("routed", 1200)


def _lose_close(me: Fighter, enemy: Fighter, *, own_bound: bool,
                settings: Mapping | None) -> Outcome:
    k = kind(me)
    if k == "mounted":
        return _lose_close_mounted(me, enemy, settings)
    if k in ("foot", "staff"):
        return _lose_close_foot(me, enemy, own_bound=own_bound, staff=k == "staff")
    if k == "dismounted":
        return _lose_close_dismounted(me, enemy)
    if k == "artillery":
        if me.grade == "HOR" and kind(enemy) == "foot" and me.going == "good":
            return _move("routed", 1200)
        return DESTROYED
    if k == "naval":
        if me.type == "FLO":
            return _move("repulsed", 400)
        if _is(enemy, "SUB", "FLO"):
            return DESTROYED
        return NONE if me.type == "IRC" else _move("repulsed", 400)
    return NONE


def _lose_half(me: Fighter, enemy: Fighter, *, close: bool,
               settings: Mapping | None) -> Outcome:
    k, ek = kind(me), kind(enemy)
    guns = ek == "artillery" or _naval_gun(enemy)
    if k == "staff":
        if close or me.type == "NP":
            return DESTROYED
        return Outcome("recoil", (troop_type(me.type).depth,) * 2, disabled=True)
    if k == "mounted":
        if _is(me, "LH") and close and _is(enemy, "CUI", "HC"):
            return REPULSED_MOUNTED
        return DESTROYED
    if _is(me, "SK"):
        if close and (me.in_bua or (ek == "mounted" and me.going == "good")
                      or (ek == "foot" and not _is(enemy, "MUS"))):
            return DESTROYED
        return _move("routed", 1200)
    if me.type == "IRC":
        heavy = enemy.grade == "HVY" and _is(enemy, "MXA", "RFA")
        if heavy or _is(enemy, "IRC", "FLO") or (close and _is(enemy, "SUB")):
            return DESTROYED
        return _move("repulsed", 800)
    if k == "naval":
        if (_is(enemy, "IRC", "STM", "SAIL") or ek == "artillery"
                or (close and _is(enemy, "FLO", "SUB"))):
            return DESTROYED
        return _move("repulsed", 800)
    if not close and guns and (me.in_bua or me.type == "SPG"):
        if me.type != "SPG" and resolve(settings)["hfg_bua_half_loss_by_artillery"] == \
                "afire_and_destroyed":
            return Outcome("destroyed", afire=True)
        return Outcome("none", afire=True)
    if me.type == "SPG":
        return DESTROYED if close else NONE
    return DESTROYED


def outcome(me: Fighter, enemy: Fighter, result: str, *, close: bool, own_bound: bool,
            shot_at: bool = True, margin: int = 0, distance: int = 0,
            settings: Mapping | None = None) -> Outcome:
    """``me``'s outcome for the band ``result`` against ``enemy`` (digest 11.2-11.5):
    ``close`` or distant combat, ``own_bound`` (``me``'s side is phasing), ``shot_at`` (in
    distant combat; a shooter not shot at ignores all but charge and press forward, L297),
    ``margin`` the enemy's lead in points (artillery losing by 1 is unaffected) and
    ``distance`` the range (Rifles beyond 400p halt). A Command Party leading the element
    behind it obeys that element's outcome; if that is spent, the element is spent and the CP
    is repulsed 600-1,200p (9.4)."""
    if result == WIN:
        out = _win(me, enemy, close=close, own_bound=own_bound)
    elif result == TIE:
        out = _tie(me, enemy, close=close, own_bound=own_bound)
    elif result == LOSE:
        out = (_lose_close(me, enemy, own_bound=own_bound, settings=settings) if close
               else _lose_distant(me, enemy, margin=margin, distance=distance))
    else:
        out = _lose_half(me, enemy, close=close, settings=settings)
    if not close and not shot_at and out.kind not in ("charge", "press_forward"):
        return NONE
    if me.leading is not None and out.kind == "spent":
        return Outcome("repulsed", (600, 1200), rear="spent")
    return out


def fight(a: Fighter, b: Fighter, source: RandomSource, *, close: bool,
          phasing: str = "a", distance: int = 0, b_shoots_back: bool = True, aiders: int = 0,
          settings: Mapping | None = None) -> CombatResult:
    """Resolve one combat between ``a`` and ``b`` (digest 10-11): one d6 each, the phasing
    side's (``"a"`` or ``"b"``) first, recorded as ``"combat <type>"``. In distant combat
    ``a`` is the primary shooter and ``b`` its target, shot at by ``aiders`` more (max 2);
    ``a`` is shot at only if ``b_shoots_back`` (a target that cannot shoot back still rolls).
    ``distance`` is the range in paces. IllegalAction for an impossible fighter."""
    if phasing not in ("a", "b"):
        raise IllegalAction("the phasing side is a or b")
    a.check()
    b.check()
    shot = (close or b_shoots_back, True)
    if phasing == "a":
        da = d6(source, f"combat {a.type}")
        db = d6(source, f"combat {b.type}")
    else:
        db = d6(source, f"combat {b.type}")
        da = d6(source, f"combat {a.type}")
    fa = tuple(tactical_factors(a, b, close=close, shot_at=shot[0], distance=distance))
    fb = tuple(tactical_factors(b, a, close=close, shot_at=True, distance=distance,
                                aiders=0 if close else aiders))
    ta = da + (0 if a.routing else combat_factor(a, b)) + sum(v for v, _ in fa)
    tb = db + (0 if b.routing else combat_factor(b, a)) + sum(v for v, _ in fb)
    ga = grading(a, b, ta, tb, close=close, shot_at=shot[0])
    gb = grading(b, a, tb, ta, close=close, shot_at=True)
    sa, sb = ta + ga, tb + gb
    ba, bb = band(sa, sb), band(sb, sa)
    oa = outcome(a, b, ba, close=close, own_bound=phasing == "a", shot_at=shot[0],
                 margin=sb - sa, distance=distance, settings=settings)
    ob = outcome(b, a, bb, close=close, own_bound=phasing == "b", shot_at=True,
                 margin=sa - sb, distance=distance, settings=settings)
    return CombatResult(close=close, dice=(da, db), factors=(fa, fb), totals=(ta, tb),
                        grading=(ga, gb), scores=(sa, sb), bands=(ba, bb), outcomes=(oa, ob))
