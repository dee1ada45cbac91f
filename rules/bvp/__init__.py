"""British vs Pirates: Volume 1, a hex-tile fleet battle (``rules/british_vs_pirates.md``;
book: ``seeds/001_f4a2d0af16c0b2e9.txt``, cited ``[Lnn]``).

Modules follow the rulebook: :mod:`hexes` (the sea tiles, arcs, line of sight, the side a
shot strikes, downwind), :mod:`data` (the ship, captain and skill cards as reference data),
:mod:`movement` (speed by the wind vane, pivots, stealing wind), :mod:`combat` (cannons,
boarding, damage), :mod:`skills` (the faction decks), :mod:`engine` (turns, decisions,
victory) and :mod:`ai` (the default policy).
"""
