"""The Viking-era naval wargame (``rules/viking.md``; seed ``seeds/004_2bc46dfc7d4f87d1.txt``).

The source is the middle instalment of a magazine series: it defines orders, the sequence
of play and movement under oars and sail (:mod:`rules.viking.movement`, tables in
:mod:`rules.viking.data`). The phases it names but does not define (impact, missiles,
melee, fitness to continue, break-offs) are house rules of this project
(:mod:`rules.viking.house`), each a pluggable resolver a setup may switch off. The engine
is :mod:`rules.viking.engine`.
"""
