"""Horse, Foot and Guns (HFG): the kernel of the land-battle wargame (issue 13).

Source: the HFG seed (``seeds/002_a94228d927715433.txt``, cited as L<n>), digested in
``rules/hfg.md`` with the errata in ``rules/errata/hfg.md`` (F<n>). Modules: the reference
data and army lists (:mod:`rules.hfg.data`), combat resolution and outcomes
(:mod:`rules.hfg.combat`), distant shooting (:mod:`rules.hfg.shooting`), losses and army
break (:mod:`rules.hfg.losses`), command (:mod:`rules.hfg.command`), the table's geometry
(:mod:`rules.hfg.geometry`), movement limits (:mod:`rules.hfg.movement`), the pre-battle
dice and zones (:mod:`rules.hfg.prebattle`), the ``hfg`` engine (:mod:`rules.hfg.engine`) and its
default commander (:mod:`rules.hfg.ai`). The places where the book allows two readings are
campaign settings (``hfg_*`` in :mod:`rules.btq.settings`), read from a battle's
``setup["settings"]``.
"""
