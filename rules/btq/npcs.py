"""The 21 sample characters of "Friends and Foes" (BtQ L2680-3086; ``rules/btq_naval.md``
§5.3): six named British characters, the generic sailors, lieutenants and captains of the
French, Spanish, American and Barbary crews, and their named officers, as
``rules/btq/samples/npcs.json`` holds them.

Each is a :class:`SampleNPC`. Where the book's entry cannot be entered as printed (a skill
named after a Measure, a Second Language in the character's own tongue, a reputation with no
value, Measures printed in another order, a personal station that is no social class) the
fixture follows the digest's recommendation (or the print, where there is nothing better to
put) and ``corrections`` says so in plain words, for the GM's notes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources

from rules.btq.characters import MEASURES, SKILLS
from rules.btq.traits import check_takes

__all__ = ["SampleNPC", "sample_npcs"]

_REPUTATION_KINDS = ("personal", "institution")


@dataclass(frozen=True)
class SampleNPC:
    """One sample character: ``key`` (unique), ``rank`` and ``name`` (the book's title is
    ``rank name``), ``tags`` the four creation choices as printed (nationality, religion,
    personal station, profession; BtQ L2680), the four Measures, ``wealth`` (``None`` for a
    generic template, which the book gives none), ``skills`` (keys of
    :data:`rules.btq.characters.SKILLS`), ``professions`` (trade -> value), ``traits``
    ``[(trait key, times, detail)]``, ``curios`` ``[{"name", "skill" | "weapon"}]`` (+1
    card), ``reputations`` ``[{"kind", "descriptor", "subject", "value"}]``, ``template``
    (a generic crewman or officer rather than a named one), ``corrections`` (where the
    fixture departs from the print, and why) and ``source`` (the book's lines)."""

    key: str
    rank: str
    name: str
    tags: tuple[str, ...]
    guts: int
    discipline: int
    influence: int
    charm: int
    wealth: int | None
    skills: dict[str, int]
    professions: dict[str, int]
    traits: tuple[tuple[str, int, str], ...]
    curios: tuple[dict[str, str], ...]
    reputations: tuple[dict, ...]
    template: bool
    corrections: tuple[str, ...]
    source: str

    @property
    def title(self) -> str:
        """"Gunner's Mate Jack Higgins"."""
        return f"{self.rank} {self.name}".strip()

    def measures(self) -> dict[str, int]:
        """Measure key -> value."""
        return {m: getattr(self, m) for m in MEASURES}


def _checked(entry: dict) -> SampleNPC:
    """``entry`` of the JSON as a :class:`SampleNPC`; ``ValueError`` naming the character
    for an unknown skill, trait or reputation kind, or a trait taken too often."""
    who = entry.get("name", "?")
    unknown = sorted(set(entry["skills"]) - set(SKILLS))
    if unknown:
        raise ValueError(f"{who}: unknown skill {unknown[0]!r}")
    taken: dict[str, int] = {}
    for key, times, _ in entry["traits"]:
        taken[key] = taken.get(key, 0) + times
    check_takes(taken)
    for rep in entry["reputations"]:
        if rep["kind"] not in _REPUTATION_KINDS or rep["value"] < 1:
            raise ValueError(f"{who}: bad reputation {rep!r}")
    for curio in entry["curios"]:
        if curio.get("skill") not in (None, *SKILLS) or not ("skill" in curio or "weapon" in
                                                             curio):
            raise ValueError(f"{who}: a curio adds to a skill or a weapon: {curio!r}")
    return SampleNPC(**{**entry, "tags": tuple(entry["tags"]),
                        "traits": tuple(tuple(t) for t in entry["traits"]),
                        "curios": tuple(entry["curios"]),
                        "reputations": tuple(entry["reputations"]),
                        "corrections": tuple(entry["corrections"])})


def sample_npcs() -> dict[str, SampleNPC]:
    """The sample characters, key -> :class:`SampleNPC`, in the book's order (a fresh copy on
    every call), read from this package's ``samples/npcs.json``; ``ValueError`` if the file
    holds a character the rules do not allow."""
    text = resources.files("rules.btq").joinpath("samples", "npcs.json").read_text("utf-8")
    return {entry["key"]: _checked(entry) for entry in json.loads(text)}
