"""The odds of an encounter (issue 11): Monte Carlo simulations of any engine on the
workers, from a setup, from a running encounter, or for each option of a pending decision
("what if"), with their pages, charts, downloads and live progress. The games are played by
``rules.montecarlo``; the jobs' lease machinery of ``combat.services`` shares them among the
workers."""
