"""Life aboard: grog, the Captain's Favour and the Ear of the Gun Deck, the Articles of War
and their punishments (BtQ L1856-2151; ``rules/btq_missions.md`` §8-§10, A10-A12).

* :data:`DRINKS`, :func:`grog_effect`: a drinker's Guts test against the drink's Grog
  Rating changes his pool for the scene's challenge: +1, 0, -1 or -3 (BtQ L1856-1868);
* :data:`SCENES`, :data:`TOKENS`, :func:`scene_token`, :func:`token_modifier`: the social
  scenes at the Captain's table and on the gun deck and the tokens they leave, +4 or -4
  on a later challenge of the topic, once in the session (BtQ L1872-1910);
* :data:`PUNISHMENTS`, :data:`ARTICLES`, :func:`article`, :func:`check_punishment`: the 36
  Articles of War and what may be done to whoever breaks them (BtQ L1914-2151).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rules.btq.settings import resolve
from rules.btq.tests import SuccessLevel

# --- Grog --------------------------------------------------------------------------------

DRINKS: dict[str, tuple[str, int]] = {
    "small_beer": ("Small Beer", 1),
    "grog": ("Grog", 2),
    "beer": ("Beer", 3),
    "wine": ("Wine", 4),
    "fortified_wine": ("Fortified Wine", 5),
    "spirits": ("Spirits", 6),
}
"""Drink -> (name, Grog Rating): the opposition to the drinker's Guts (BtQ L1862-1863)."""

IRON_STOMACH = ("Iron Stomach", 1)
"""The trait's card in Guts tests against grog (BtQ L1028-1050; ``btq_missions.md`` D12)."""


class ShipboardError(ValueError):
    """A drink, scene, token, article or punishment the rules do not know; why."""


def drink(key: str) -> tuple[str, int]:
    """``(name, Grog Rating)`` of drink ``key``; :class:`ShipboardError` if unknown."""
    try:
        return DRINKS[key]
    except KeyError:
        raise ShipboardError(f"{key!r} is not a drink: one of {', '.join(DRINKS)}") from None


def grog_effect(*, won: bool, best: SuccessLevel | int | None,
                grog_best: SuccessLevel | int | None, settings: Mapping | None = None) -> int:
    """The change to the drinker's card pool for the scene's challenge after his Guts test
    against the grog (BtQ L1864-1866; ``rules/btq_missions.md`` A10):

    * won with an Ordinary or Critical success: 0; with a Perfect ("dutch courage"): +1;
    * lost: -1; "failed critically": -3, by the setting ``grog_critical_failure`` lost to
      the grog's Critical or better (the default), or lost without a single success.

    ``best`` is the drinker's best success, ``grog_best`` the grog's (``None`` or 0: none).
    A stalemate (D3) is no win: treated as lost, by the same reading.
    """
    if won:
        return 1 if best is not None and int(best) == SuccessLevel.PERFECT else 0
    if resolve(settings)["grog_critical_failure"] == "no_success":
        return -3 if not best else -1
    if grog_best is not None and int(grog_best) >= SuccessLevel.CRITICAL:
        return -3
    return -1


# --- Social scenes -------------------------------------------------------------------------

SCENES: dict[str, dict] = {
    "captains_table": {"label": "The Captain's table", "win": "favour", "lose": "ire",
                       "source": "BtQ L1872-1898"},
    "gun_deck": {"label": "The gun deck", "win": "ear", "lose": "shame",
                 "source": "BtQ L1902-1910"},
}
"""The two social scenes: who wins leaves which token."""

TOKENS: dict[str, dict] = {
    "favour": {"label": "The Captain's Favour", "holder": "pc", "cards": 4},
    "ire": {"label": "The Captain's Ire", "holder": "gm", "cards": -4},
    "ear": {"label": "The Ear of the Gun Deck", "holder": "pc", "cards": 4},
    "shame": {"label": "The Shame of the Gun Deck", "holder": "gm", "cards": -4},
}
"""Each token: its name, who holds it (the winning PC, or the GM against the PCs) and the
cards it gives a challenge of the topic when surrendered, once in the session (BtQ
L1889-1893, L1906-1910). Tokens expire at the session's end."""


def scene_token(scene: str, pc_won: bool) -> str:
    """The token a scene leaves: the Favour or the Ear when a PC wins, the Ire or the Shame
    (the GM's) when the Captain, a guest or another NPC wins (``btq_missions.md`` A11)."""
    if scene not in SCENES:
        raise ShipboardError(f"{scene!r} is not a scene: one of {', '.join(SCENES)}")
    return SCENES[scene]["win" if pc_won else "lose"]


def token_modifier(token: str) -> dict:
    """The pool modifier ``{"source", "cards"}`` a surrendered token gives: +4 or -4."""
    if token not in TOKENS:
        raise ShipboardError(f"{token!r} is not a token: one of {', '.join(TOKENS)}")
    return {"source": TOKENS[token]["label"], "cards": TOKENS[token]["cards"]}


# --- Articles of War ----------------------------------------------------------------------

PUNISHMENTS: dict[str, str] = {
    "death": "Death",
    "court_martial": "Court Martial",
    "dismissal": "Dismissal from Service",
    "captains_discretion": "Captain's Discretion",
    "loss_of_prize": "Loss of Prize Money",
    "none": "None",
    "as_if_on_ship": "Punished as if on a ship",
}
"""The punishments of the Articles (BtQ L1918-1923)."""

MAX_LASHES_PER_CRIME = 12
"""The most lashes, the greatest punishment short of death, for one crime (BtQ L1915-1916);
a Captain may run several crimes' floggings together."""


@dataclass(frozen=True, slots=True)
class Article:
    """Article ``number`` of the Articles of War: what it forbids or orders (``text``,
    paraphrased), its punishments, and whether they are ``alternatives`` (the Captain
    chooses one, printed "/") or all apply (printed ",") (``btq_missions.md`` A12)."""

    number: int
    text: str
    punishments: tuple[str, ...]
    alternatives: bool = True

    def as_dict(self) -> dict:
        return {"number": self.number, "text": self.text, "punishments": list(self.punishments),
                "alternatives": self.alternatives}


def _a(number, text, *punishments, alternatives=True):
    return Article(number, text, punishments, alternatives)


_DEATH_OR = ("death", "captains_discretion")

ARTICLES: tuple[Article, ...] = (
    _a(1, "Worship of the Church of England to be practised on board", "none"),
    _a(2, "No swearing, cursing, drunkenness or uncleanliness", "captains_discretion"),
    _a(3, "Passing information to the enemy", *_DEATH_OR),
    _a(4, "Withholding information about the enemy", *_DEATH_OR),
    _a(5, "Acting as, or with, an enemy spy", *_DEATH_OR),
    _a(6, "Giving or lending aid to the enemy", *_DEATH_OR),
    _a(7, "All papers from an enemy ship to go to the Admiralty", "loss_of_prize",
       "court_martial", alternatives=False),
    _a(8, "No looting of prize vessels", "loss_of_prize", "court_martial", alternatives=False),
    _a(9, "Proper treatment of captured enemies on a prize", "court_martial"),
    _a(10, "Cowardice in the face of the enemy", *_DEATH_OR),
    _a(11, "Disobeying a superior's orders in battle", "death"),
    _a(12, "Not trying to engage and destroy the enemy", "death"),
    _a(13, "Not pursuing the enemy to destroy them", "death"),
    _a(14, "Refusing to work, for wage arrears or other reasons", *_DEATH_OR),
    _a(15, "Desertion or stealing from the ship", "death"),
    _a(16, "Harbouring a deserter on your ship", "dismissal"),
    _a(17, "Failing to act as convoy protection when asked", *_DEATH_OR),
    _a(18, "Using a naval ship as a merchant vessel without good reason", "dismissal"),
    _a(19, "Mutiny and sedition", "death"),
    _a(20, "Hiding mutinous acts or words to the ship's detriment", *_DEATH_OR),
    _a(21, "Officers to remedy just complaints on board", "captains_discretion"),
    _a(22, "Striking, arguing with or disobeying a superior officer", "death"),
    _a(23, "Fighting among the men", "captains_discretion"),
    _a(24, "Wasting powder or shot", "court_martial"),
    _a(25, "Arson", "death"),
    _a(26, "Running the ship aground through negligence", "court_martial"),
    _a(27, "Falling asleep on watch", *_DEATH_OR),
    _a(28, "Murder", "death"),
    _a(29, "Buggery or sodomy with man or beast", "death"),
    _a(30, "Robbery", *_DEATH_OR),
    _a(31, "Keeping or encouraging a false muster book", "court_martial", "dismissal"),
    _a(32, "Provosts to do their duties, such as arresting men", "court_martial"),
    _a(33, "An officer behaving in a scandalous, infamous or cruel manner", "dismissal"),
    _a(34, "Mutiny, desertion or disobedience while off the ship", "as_if_on_ship"),
    _a(35, "Breaking any other Article while off the ship", "as_if_on_ship"),
    _a(36, "Any other crime not listed", "captains_discretion"),
)
"""The 36 Articles of War (BtQ L1932-2150; ``rules/btq_missions.md`` §10.3, A12)."""


def article(number: int) -> Article:
    """Article ``number`` (1-36); :class:`ShipboardError` for any other."""
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= 36:
        raise ShipboardError(f"the Articles of War are numbered 1 to 36, not {number!r}")
    return ARTICLES[number - 1]


def check_punishment(number: int, punishment: str, *, lashes: int = 0,
                     broken_on_ship: int | None = None) -> tuple[str, ...]:
    """The punishments applied for breaking Article ``number`` when the Captain chooses
    ``punishment``: that one alone where the Article offers alternatives, or all of the
    Article's where they are cumulative (Articles 7 and 8: the prize money lost and a Court
    Martial). Articles 34 and 35 punish as the Article ``broken_on_ship`` would. ``lashes``
    (a flogging, under the Captain's Discretion) is at most 12 for the one crime.

    Raises :class:`ShipboardError` saying why for a punishment the Article does not allow.
    """
    art = article(number)
    if art.punishments == ("as_if_on_ship",):
        if broken_on_ship is None or broken_on_ship in (34, 35):
            raise ShipboardError(f"Article {number} punishes as the Article broken would on "
                                 "a ship: name that Article")
        return check_punishment(broken_on_ship, punishment, lashes=lashes)
    if punishment not in art.punishments:
        allowed = " or ".join(PUNISHMENTS[p] for p in art.punishments)
        raise ShipboardError(f"Article {number} is punished by {allowed}, not "
                             f"{PUNISHMENTS.get(punishment, punishment)}")
    if isinstance(lashes, bool) or not isinstance(lashes, int) or lashes < 0:
        raise ShipboardError(f"lashes must be a whole number, not {lashes!r}")
    if lashes and punishment != "captains_discretion":
        raise ShipboardError("a flogging is the Captain's Discretion")
    if lashes > MAX_LASHES_PER_CRIME:
        raise ShipboardError(f"no more than {MAX_LASHES_PER_CRIME} lashes for one crime")
    return art.punishments if not art.alternatives else (punishment,)
