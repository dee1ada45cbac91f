"""The damage track as the book draws it: boxes in three segments (Injured, Maimed, Dead),
crossed or free, and the state they make named beside them (BtQ L1297-1329; a ship's
areas, BtQ L2464-2470). One tag for ship and character sheets, battle pages and logs:
``{% damage_track track %}`` with a ship area's track text (``"x.|..|.."``, as
``rules.btq.ships.DamageTrack`` writes it) or a character's damage state (0-3, a
``DamageState``: a track of one box per segment). The boxes are drawn by CSS
(``static/css/quarterdeck.css``: damage-track); a text alternative says the same."""

from django import template

from rules.btq.characters import DamageState
from rules.btq.ships import DamageTrack

register = template.Library()

SEGMENTS = tuple(DamageState(level).label for level in (1, 2, 3))
"""The names of the three segments, left to right."""


def _track(value) -> DamageTrack | None:
    if isinstance(value, DamageTrack):
        return value
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 3:
        return DamageTrack((level <= value,) for level in (1, 2, 3))
    try:
        return DamageTrack.parse(str(value))
    except ValueError:
        return None


@register.inclusion_tag("campaigns/_track.html")
def damage_track(value, name=""):
    """The track ``value`` (track text, or a damage state 0-3) drawn as boxes, with its
    state named; ``name`` (an area, say "Hull") opens its text alternative. A value that is
    no track is shown as it is."""
    track = _track(value)
    if track is None:
        return {"raw": value}
    segments = [{"name": label, "boxes": seg, "crossed": sum(seg), "size": len(seg)}
                for label, seg in zip(SEGMENTS, track.segments)]
    state = track.state.label
    # The text alternative names only the segments with crossed boxes: a healthy track
    # reads "Healthy, no box crossed", never the states it is not in.
    hit = ", ".join(f"{s['name']} {s['crossed']} of {s['size']}" for s in segments
                    if s["crossed"])
    crossed = (f"{track.crossed} of {sum(track.sizes)} boxes crossed: {hit}" if hit
               else "no box crossed")
    return {"segments": segments, "state": state, "text": str(track),
            "summary": f"{name + ': ' if name else ''}{state}, {crossed}"}
