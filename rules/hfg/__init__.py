"""Horse, Foot and Guns (HFG): the kernel of the land-battle wargame (issue 13).

Source: the HFG seed (``seeds/002_a94228d927715433.txt``, cited as L<n>), digested in
``rules/hfg.md`` with the errata in ``rules/errata/hfg.md`` (F<n>). Built so far: the
reference data and army lists (:mod:`rules.hfg.data`), combat resolution and outcomes
(:mod:`rules.hfg.combat`), ranges (:mod:`rules.hfg.shooting`), losses and army break
(:mod:`rules.hfg.losses`) and command (:mod:`rules.hfg.command`).
"""
