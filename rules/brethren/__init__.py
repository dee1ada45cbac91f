"""Brethren of the Coast (Kevin Durden's house rules for *Pirates of the Spanish Main*,
``seeds/000_571764555f130932.txt``; ``rules/brethren.md``, ``rules/errata/
brethren_viking_bvp.md``): a treasure-hunting fleet action with wind, initiative, gunfire,
boarding, terrain and missions, as the encounter engine ``brethren``.

One module per part of the rules: :mod:`~rules.brethren.geometry` (the table, S and L),
:mod:`~rules.brethren.wind`, :mod:`~rules.brethren.movement`, :mod:`~rules.brethren.terrain`,
:mod:`~rules.brethren.gunfire`, :mod:`~rules.brethren.boarding`,
:mod:`~rules.brethren.damage`, :mod:`~rules.brethren.treasure`, :mod:`~rules.brethren.crews`,
:mod:`~rules.brethren.missions` (end of game, scoring, the six missions),
:mod:`~rules.brethren.ai` (the default policy) and :mod:`~rules.brethren.engine` (the
Engine protocol, orders and turns). Reference data: ``data/*.json``
(:mod:`~rules.brethren.data`); scenarios: ``scenarios/*.json``. Every die goes through the
injected random source (:mod:`rules.dice`).
"""
