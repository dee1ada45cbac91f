"""The sample characters of "Friends and Foes" as reference data (``rules.btq.npcs``; BtQ
L2680-3086, ``rules/btq_naval.md`` §5.3)."""

from rules.btq.npcs import sample_npcs
from rules.btq.traits import TRAITS


def test_twenty_one_characters_each_of_the_rules():
    npcs = sample_npcs()
    assert len(npcs) == 21
    assert sum(1 for n in npcs.values() if n.template) == 12  # and nine named
    for npc in npcs.values():
        assert all(key in TRAITS for key, _, _ in npc.traits)
        assert all(1 <= v <= 8 for v in npc.measures().values())


def test_the_book_s_figures_and_its_corrections():
    npcs = sample_npcs()
    # BtQ L2891-2907: Fournier, Command 6, Seamanship 7, Strong Swordarm (3); Measures
    # printed Guts, Discipline, Charm, Influence
    fournier = npcs["fournier"]
    assert fournier.title == "Chef de Division André Fournier"
    assert (fournier.skills["command"], fournier.skills["seamanship"]) == (6, 7)
    assert ("strong_swordarm", 3, "") in fournier.traits
    assert any("Charm, Influence" in c for c in fournier.corrections)
    # BtQ L3084-3086: the Barbary Rais is printed as a copy of the American Captain
    rais, captain = npcs["barbary_rais"], npcs["american_captain"]
    assert (rais.skills, rais.traits, rais.reputations) == (
        captain.skills, captain.traits, captain.reputations)
    assert rais.corrections and not captain.corrections
    assert npcs["spanish_lieutenant"].tags[0] == "Spanish"
