"""HFG reference data and army lists (``rules/hfg.md`` §2-§3): the troop table's rows, the
cost table, every army list of the text, vectors G (army-list totals, computed; the book's
figure asserted where the digest says it reconciles, the difference where it does not) and
an army checked against its list."""

import pytest

from rules.engine import IllegalAction
from rules.hfg.data import army_list, army_lists, list_totals, table_cost, troop_type, validate_army


def test_troop_table_rows_read_as_the_digest_prints_them():
    mus = troop_type("MUS")
    assert (mus.category, mus.depth, mus.move, mus.cf, mus.ranges) == (
        "foot", 200, (400, 200, 200), (4, 3, 3), ((None, 200),))
    assert troop_type("MR").dismounted_cf == (4, 4, 4) and troop_type("MR").dismountable
    assert troop_type("SBA").heavy_cf == (3, 4, 4)
    assert troop_type("SUP").ee == 5 and troop_type("LAA").ee == 5
    assert troop_type("BAY").exists_in(1715) and not troop_type("BAY").exists_in(1750)
    assert troop_type("PIS").exists_in(1773)  # errata F13: Pistols until 1773
    with pytest.raises(ValueError, match="unknown troop type"):
        troop_type("XYZ")


def test_cost_table():
    assert [table_cost("HQ", g) for g in (None, "A", "L")] == [20, 50, 10]
    assert [table_cost("RFA", g) for g in (None, "HVY", "HOR")] == [12, 20, 25]
    assert table_cost("LI", "E") is None and table_cost("SK", "I") is None
    assert table_cost("IRC", "I") == 15 and table_cost("REDOUBT") == 5
    with pytest.raises(ValueError, match="unknown grade"):
        table_cost("MUS", "X")


def test_every_list_of_the_text_is_there():
    assert len(army_lists()) == 43
    swedes = army_list("gnw-swedish")
    assert swedes.ag == 4 and swedes.years == (1707, 1709)
    flagged = {o.id for o in army_list("peninsula-anglo-portuguese").options().values()
               if o.deviates}
    # the book's price deviations (digest 3.4 ⚠): A-CP @30 (table 50), E-LI and I-Sk forbidden
    assert flagged == {"a-cp-wellington", "a-cp-hill", "e-li", "i-sk-partida"}


# (list, year, choices, section, computed min, computed max, book figure or None)
G = [
    ("G1", "gnw-swedish", None, ["a-cp-karl-xii"], None, 91, 128, 128),
    ("G2", "gnw-russian", None, [], None, 74, 122, None),
    ("G3", "italy1859-french", None, [], False, 93, 93, 93),
    ("G4", "italy1859-french", None, [], "corps", 41, 69, None),
    ("G5", "italy1859-piedmontese", None, [], None, 145, 145, None),
    ("G6a", "italy1859-austrian", None, [], False, 50, 50, None),
    ("G6b", "italy1859-austrian", None, [], "corps", 25, 34, None),
    ("G7", "acw1861-east-union", None, [], None, 75, 116, None),
    ("G8", "acw1861-east-confederate", None, [], None, 63, 110, 110),
    ("G9", "acw1862-east-union", None, [], None, 289, 582, None),
    ("G10", "acw1862-east-confederate", None, ["a-hq-lee", "a-cp-jackson"], None, 232, 404, None),
    ("G11", "acw1862-west-union", None, [], None, 141, 304, 304),
    ("G12", "acw1862-west-confederate", None, [], None, 131, 301, None),
    ("G13", "acw1863-west-union", 1865, [], None, 320, 488, 488),
    ("G14", "acw1863-west-confederate", None, [], None, 146, 277, 277),
    ("G15a", "acw1863-east-union", None, ["rep"], None, 383, 829, None),
    ("G15b", "acw1863-east-union", None, ["i-drg-before-july-1863"], None, 380, 808, None),
    ("G16", "acw1863-east-confederate", None, [], None, 310, 599, None),
    ("G17", "sa1900-british", None, [], None, 221, 468, None),
    ("G18a", "sa1900-boer", None, ["cp"], None, 185, 390, None),
    ("G18b", "sa1900-boer", None, ["a-cp"], None, 200, 405, None),
]


@pytest.mark.parametrize("vid,list_id,year,choices,section,low,high,book", G,
                         ids=[g[0] for g in G])
def test_G_army_list_totals(vid, list_id, year, choices, section, low, high, book):
    lst = army_list(list_id)
    if section is False:
        got = list_totals(lst, year=year, choices=choices, sections=False)
    else:
        got = list_totals(lst, year=year, choices=choices, section=section)
    assert got == (low, high)
    if book is not None:  # the rows the digest marks as reconciling with the book
        assert high == book == lst.book["max"]


def test_G_differences_from_the_book_are_reported():
    """Where the book's printed total does not reconcile, the difference stands (digest G)."""
    def diff(list_id, **kw):
        lst = army_list(list_id)
        return list_totals(lst, **kw)[1] - lst.book["max"]
    assert diff("gnw-russian") == -5  # a missing Laager @5?
    assert diff("italy1859-piedmontese") == 9
    assert diff("acw1861-east-union") == 5
    assert diff("acw1862-east-union") == 8
    assert diff("acw1862-east-confederate", choices=["a-hq-lee", "a-cp-jackson"]) == 11
    assert diff("acw1862-west-confederate") == 10
    assert diff("acw1863-east-union", choices=["rep"]) == 35
    assert diff("acw1863-east-confederate") == 59
    assert diff("sa1900-british") == -20
    corps = army_list("italy1859-french")
    assert list_totals(corps, section="corps")[1] - corps.book["section_max"]["corps"] == 10


def swedes(**counts):
    base = {"a-cp-karl-xii": 1, "bay": 2, "hc": 4, "drg": 2, "laa": 1}
    base.update(counts)
    return {"list": "gnw-swedish", "year": 1709, "counts": base}


def test_a_legal_army_costs_its_list_prices():
    assert validate_army(swedes()) == 50 + 8 + 20 + 8 + 5
    assert validate_army({**swedes(), "points": 91}) == 91


@pytest.mark.parametrize("army,message", [
    (swedes(bay=5), "must have 2 to 4 of BAY @4; it has 5"),
    (swedes(laa=0), "must have 1 of LAA @5; it has 0"),
    (swedes(cp=1), "must have 1 of A-CP @50 \\(Karl XII\\) or CP @15; it has 2"),
    (swedes(mus=1), "has no entry 'mus'"),
    (swedes(bay=-1), "whole number"),
    ({**swedes(), "year": 1720}, "for 1707-1709"),
    ({**swedes(), "points": 90}, "costs 91 AP, more than the 90 AP agreed"),
    ({"list": "nowhere", "year": 1700}, "unknown army list"),
])
def test_an_army_breaking_its_list_is_refused_in_plain_words(army, message):
    with pytest.raises(IllegalAction, match=message):
        validate_army(army)


def test_dated_entries_sections_and_per_counts():
    awi = {"list": "awi-british", "year": 1778,
           "counts": {"cp": 1, "lh": 1, "e-bay-guards-and-grenadiers": 1, "bay": 2,
                      "mus-hessians": 1, "sba": 1, "redoubt": 1}}
    with pytest.raises(IllegalAction, match="may only be taken from 1780, not in 1778"):
        validate_army(awi)
    assert validate_army({**awi, "year": 1780}) == 15 + 2 + 6 + 8 + 3 + 8 + 5
    corps = {"cp": 1, "bay": 3, "lc": 1, "sba": 1}
    french = {"list": "peninsula-french", "year": 1810, "counts": {"hq": 1},
              "sections": {"corps": [corps]}}
    with pytest.raises(IllegalAction, match="must have 2 to 4 Corps; it has 1"):
        validate_army(french)
    assert validate_army({**french, "sections": {"corps": [corps, corps]}}) == 20 + 2 * 40
    with pytest.raises(IllegalAction, match="Corps 2: the army must have 3 to 6 of BAY"):
        validate_army({**french, "sections": {"corps": [corps, {**corps, "bay": 7}]}})
    japan = {"list": "siberia-japanese", "year": 1904,
             "counts": {"hq": 1, "cp": 3, "i-rep": 1, "e-rif-guard": 2, "rif": 46,
                        "hvy-rfa": 1, "rfa": 8}}
    assert validate_army(japan) == 20 + 45 + 4 + 16 + 322 + 20 + 96
    with pytest.raises(IllegalAction, match="comes 2 for every 12 .* so 8; you have 6"):
        validate_army({**japan, "counts": {**japan["counts"], "rfa": 6}})
