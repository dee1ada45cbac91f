"""The journal: the campaign log (``CampaignLogEntry``) read as one chronological record of
everything that happens, each entry linked to its record (DESIGN.md; issue 9 item 5).

An entry names its record by kind and id (``record_kind``, ``record_id``); the app that owns
that kind of record registers how to reach its page (:func:`register_link`, from its
``AppConfig.ready()``), so ``campaigns`` links to characters, ships and encounters without
importing them. :func:`record_of` reads the link from an entry's ``data`` when its writer did
not name one: the first of :data:`LINK_KEYS` present.
"""

from __future__ import annotations

from collections.abc import Callable

LINK_KEYS = ("mission", "session", "voyage", "card_test", "encounter", "ship", "character")
"""The ``data`` keys that name an entry's record, most specific first (``card_test``: an
encounter of the card-test engine, whose page is the test's; ``encounter``: a battle's)."""

KINDS = {
    "mission": "Missions",
    "challenge": "Challenges",
    "test": "Tests",
    "battle": "Battles",
    "purchase": "Rewards and failures",
    "session": "Sessions",
    "voyage": "Voyages",
    "character": "Characters",
    "reputation": "Reputations",
    "ship": "Ships",
    "prize": "Prizes",
    "scene": "The Captain's table and the gun deck",
    "member": "Members",
    "campaign": "The campaign",
}
"""The filters of the journal: the first word of an entry's ``kind`` -> label."""

_LINKS: dict[str, Callable[[int, int], str | None]] = {}


def register_link(kind: str, url: Callable[[int, int], str | None]) -> None:
    """``url(campaign_id, record_id)`` gives the page of a record of ``kind`` (or ``None``),
    without a query: a page lists many entries."""
    _LINKS[kind] = url


def record_of(data: dict) -> tuple[str, int | None]:
    """``(record_kind, record_id)`` named by an entry's ``data``; ``("", None)`` if none."""
    for key in LINK_KEYS:
        value = data.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return key, value
    return "", None


def link_for(entry) -> str | None:
    """The page of ``entry``'s record, from the app that owns it; ``None`` if there is none."""
    url = _LINKS.get(entry.record_kind)
    if url is None or entry.record_id is None:
        return None
    return url(entry.campaign_id, entry.record_id)


def with_links(entries) -> list:
    """``entries`` as a list, each with ``link``: its record's page or ``None``."""
    entries = list(entries)
    for entry in entries:
        entry.link = link_for(entry)
    return entries
