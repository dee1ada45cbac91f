"""The rules kernel: pure Python, no Django, no I/O.

Every rule system here is a set of pure functions over plain, JSON-serialisable state.
All randomness goes through one object from :mod:`rules.random`, which records every
draw, so that a test, a battle or a whole campaign can be replayed from its seed.

Public modules:

* :mod:`rules.cards`  - playing cards and decks in the book's notation (``10S``, ``AH``, ``JK``).
* :mod:`rules.random` - the seeded and the scripted random source.
* :mod:`rules.engine` - the interface every encounter engine implements.
* :mod:`rules.btq`    - *Beat to Quarters*: card tests, odds, ships, ship-to-ship combat.
"""
