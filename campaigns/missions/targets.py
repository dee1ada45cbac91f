"""A mission's reward and failure targets as a person writes them, for the mission pages and
the API alike: picked from the words of :func:`target_choices` (the Measures, skills, damage
areas and the characters' reputations, as the book names them), and read into the target
syntax of ``rules.btq.missions.Entry`` by :func:`resolve_entries`."""

from __future__ import annotations

from collections.abc import Mapping

from rules.btq import missions as kernel


def _reputation_name(reputation: tuple[str, str, str]) -> str:
    return f"{reputation[1]} {reputation[2]}".strip()


def target_choices(characters: dict) -> list[str]:
    """The words a target may be picked as (a datalist): the Measures, the skills, the
    damage areas, then the reputations of ``characters`` (id ->
    ``campaigns.directory.CharacterRef``), each once."""
    names = [*kernel.MEASURES.values(), *kernel.SKILLS.values(), *kernel.AREAS.values()]
    for ref in characters.values():
        names += [_reputation_name(r) for r in ref.reputations]
    return list(dict.fromkeys(names))


def _find(reputations: list[tuple[str, str, str]], words: str) -> tuple[str, str, str] | None:
    """The reputation named ``words`` (case aside), else the only one whose name holds them."""
    folded = " ".join(words.lower().split())
    same = [r for r in reputations if _reputation_name(r).lower() == folded]
    holding = [r for r in reputations if folded in _reputation_name(r).lower()]
    return (same or (holding if len(holding) == 1 else [None]))[0]


def _character(entry: Mapping) -> int | None:
    """The row's own character id, if it names one (the API may send it as text)."""
    value = entry.get("character")
    if isinstance(value, str) and value.isascii() and value.isdigit():
        return int(value)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def resolve_entries(entries: list[dict], side: str, cast: dict, every: dict) -> dict[int, str]:
    """Write each reputation target of ``entries`` (rows of ``side``, ``"reward"`` or
    ``"failure"``, as ``rules.btq.missions.Entry`` JSON) as the kernel reads it: a reward to
    an existing reputation as its ``"<kind>:<descriptor>:<subject>"``, a failure, wound or
    heal as ``"reputation:<its name>"``, looked up among the reputations of ``cast`` (id ->
    ``CharacterRef``: the mission's characters), or of the row's own character of ``every``.
    Returns the refusals by row index: a name none of them has, with the reputations they
    have (but a failure written ``"reputation:<words>"``, as the book's missions are, stays
    for the words to be matched when it is paid). Measures, skills, areas and a new
    reputation (``personal:…:…``) are left for the kernel."""
    errors = {}
    for index, data in enumerate(entries):
        kind = data.get("kind")
        target = data.get("target")
        target = target.strip() if isinstance(target, str) else ""
        if kind not in ("reputation", "heal_dead", *kernel.WOUNDS) or not target:
            continue
        if kernel.target_key(kind, target) in kernel.AREAS:
            continue
        if side == kernel.REWARD and kind == "reputation" and \
                kernel.reputation_target(target) is not None:
            continue
        words = target.removeprefix("reputation:").strip()
        own = cast
        character = _character(data)
        if data.get("scope") == "character" and character in every:
            own = {character: every[character]}
        found = _find([r for ref in own.values() for r in ref.reputations], words)
        if found is None and (not own or (side == kernel.FAILURE and words != target)):
            continue  # no character yet, or a failure's "reputation:<words>" (the book's
            # missions): the words are matched when the cost is paid
        if found is None:
            errors[index] = " ".join(
                f"{ref.name} has no reputation “{words}”; "
                + (f"{ref.name}'s reputations are: "
                   f"{', '.join(_reputation_name(r) for r in ref.reputations)}."
                   if ref.reputations else f"{ref.name} has no reputations yet.")
                for ref in own.values())
        elif side == kernel.REWARD and kind == "reputation":
            data["target"] = ":".join(found)
        else:
            data["target"] = f"reputation:{_reputation_name(found)}"
    return errors
