"""HFG rout contagion (digest 11.6; HFG seed ``002_a94228d927715433.txt`` L317-321; A25).

The rule, L318-319: "Routed elements turn 180 degrees and move ... passing through all
friendly elements they meet. ... Elements passed through by routers immediately rout full
tactical move distance unless defending a BUA or SP or the friends are Skirmishers or naval
or the friends only are Inferior. The element moving furthest ends in front."

Readings (setting ``hfg_rout_contagion``):

- ``book`` (the default): a friend passed through routs its full tactical move unless it
  holds a town or strong point, or is itself Skirmishers or naval (as L319 words it); the
  garbled "the friends only are Inferior" is read as A25 reads it: an Inferior router
  panics nobody.
- ``digest``: the digest's §11.6 wording, which moves "Skirmishers or naval" onto the
  router: a Skirmisher, naval or Inferior router panics nobody, and any friend not holding a
  town or strong point is caught.
- ``off``: routers pass through friends and nobody else routs.

A router "meets" a friend when the friend's footprint overlaps the ground the router sweeps
over: its footprint from where it stands (already turned about) to where its move would
end. The friends caught rout first; the router then moves its distance. Where it would end
on a friend it went through it goes on until clear, just beyond it (L256): it moved further
than a friend who stood or who routed the same way and still stands under it, and "The
element moving furthest ends in front".
Pure geometry and rules, distances in paces; the engine moves the elements
(:func:`rules.hfg.engine._rout_move`).
"""

from __future__ import annotations

from rules.engine import IllegalAction
from rules.hfg.data import troop_type
from rules.hfg.geometry import Point, Rect, overlaps

READINGS = ("book", "digest", "off")


def swept(start: Rect, ahead: float) -> tuple[Point, Point, Point, Point]:
    """The ground an element covers moving ``ahead`` paces straight forward from ``start``
    (``ahead`` >= 0): a rectangle from ``start``'s rear edge to the front edge where it ends,
    as (front-left, front-right, rear-right, rear-left)."""
    if ahead < 0:
        raise IllegalAction("a rout moves forward, after turning about")
    end = start.moved(ahead)
    fl, fr, _, _ = end.corners()
    _, _, rr, rl = start.corners()
    return fl, fr, rr, rl


def panics(router_type: str, router_grade: str | None, friend_type: str, *,
           friend_holds_works: bool, reading: str = "book") -> bool:
    """Whether a router of ``router_type``/``router_grade`` passing through a friend of
    ``friend_type`` makes that friend rout (L319, A25; see the module docstring for the
    ``reading``). ``friend_holds_works``: the friend is defending a town (BUA) or strong
    point. IllegalAction for an unknown reading."""
    if reading not in READINGS:
        raise IllegalAction(f"rout contagion is read one of {', '.join(READINGS)}, "
                            f"not {reading!r}")
    if reading == "off" or friend_holds_works or friend_type == "SPG":
        return False
    if router_grade == "I":
        return False
    if reading == "book":
        return friend_type != "SK" and troop_type(friend_type).category != "naval"
    return router_type != "SK" and troop_type(router_type).category != "naval"


def met(path: tuple[Point, ...], friend: Rect) -> bool:
    """Whether ``friend``'s footprint lies on the router's ``path`` (:func:`swept`), more
    than touching it."""
    return overlaps(path, friend.corners())
