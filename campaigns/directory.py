"""Who a campaign's characters are, for the records of ``campaigns`` that name them by id
(a mission's characters, a journal entry's character). ``campaigns`` imports no other app:
the characters app registers its :class:`Directory` in its ``AppConfig.ready()``
(DESIGN.md, "Layers"), as the apps register their panels (``campaigns.panels``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class CharacterRef:
    """What ``campaigns`` may know of a character: ``id``, ``name`` (rank and name), its
    player's user id ``owner_id`` (``None`` for an NPC or a PC without a player),
    ``is_pc``, ``rank`` (free text), ``url`` of its sheet, ``reputations`` its reputations
    as ``(kind, descriptor, subject)``, ``("personal", "Distrusted by", "Captain Jones")``
    (what a mission's reward or failure may name)."""

    id: int
    name: str
    owner_id: int | None
    is_pc: bool
    rank: str = ""
    url: str = ""
    reputations: tuple[tuple[str, str, str], ...] = ()


_lookup: Callable[..., dict[int, CharacterRef]] | None = None


def register(lookup: Callable[..., dict[int, CharacterRef]]) -> None:
    """Set the function ``lookup(campaign, ids=None)`` that returns the campaign's
    characters (those of ``ids`` if given) by id."""
    global _lookup
    _lookup = lookup


def characters(campaign, ids=None) -> dict[int, CharacterRef]:
    """The campaign's characters by id (only ``ids`` if given; unknown ids are left out);
    empty when no app registered a directory."""
    if _lookup is None:
        return {}
    return _lookup(campaign, ids)


def player_characters(campaign) -> dict[int, CharacterRef]:
    """The campaign's PCs by id."""
    return {pk: ref for pk, ref in characters(campaign).items() if ref.is_pc}
