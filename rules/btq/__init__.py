"""*Beat to Quarters* (Omnihedron Games, 2009): the book's table of contents in code.

* :mod:`rules.btq.tests` - the card test (BtQ L1181-1286): grading, the victor, every kind of test.
* :mod:`rules.btq.table` - a card test at the table, the encounter engine ``btq_test``.
* :mod:`rules.btq.odds`  - exact probabilities of a test before any card is turned.
* :mod:`rules.btq.ships` - the Ship Roster, ship traits and damage tracks (BtQ L2204-2347),
  and the sample ships (``samples/ships.json``, BtQ L2313-2316, L2831-3142).
* :mod:`rules.btq.crew` - a ship's origin and NPC crew drawn at creation (BtQ L606-752).
* :mod:`rules.btq.naval` - ship-to-ship combat (BtQ L2353-2675), the encounter engine
  ``btq_naval``.
* ``rules/btq/scenarios/`` - the book's worked examples as JSON scenarios (``naval/``,
  ``test/``), loaded by :func:`rules.engine.load_scenarios`.

Line numbers (``L1223``) are lines of ``seeds/003_ab32986bd6e6f4fb.txt``.
"""
