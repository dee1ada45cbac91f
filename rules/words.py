"""A side's name as the subject of the engines' sentences, its verbs agreeing with it.

A side of a wargame is named by its setup, and many names are plural ("The Pirates", "The
Norsemen", "Hakon's men", "The harbour's defenders") while some are not ("The Royal Navy",
"The landing squadron"). A setup's side says so with ``"plural": true`` (default false):
:func:`plural_flag` reads it, :func:`agree` gives the verb that agrees ("The Pirates win",
"The Royal Navy wins").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def plural_flag(side: Mapping[str, Any], where: str) -> bool:
    """A setup side's ``plural`` (whether its name is plural), false when not given;
    ``ValueError`` naming ``where`` when it is not true or false."""
    plural = side.get("plural", False)
    if not isinstance(plural, bool):
        raise ValueError(f"{where}: plural is true or false")
    return plural


def agree(side: Mapping[str, Any], singular: str, plural: str) -> str:
    """``plural`` ("win") for a side whose name is plural, else ``singular`` ("wins")."""
    return plural if side.get("plural", False) else singular
