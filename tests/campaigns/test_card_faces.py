"""The card tags every page draws turned cards with (``campaigns.templatetags.cards``): the
level the kernel recorded is what a card shows; only a card logged without one is graded
against the Card of Fate."""

from django.template import Context, Template


def render(text: str, **context) -> str:
    return Template("{% load cards %}" + text).render(Context(context))


def test_a_recorded_level_wins_over_the_grade_so_an_unskilled_perfect_shows_as_ordinary():
    # BtQ L1269-1272: in an unskilled test a Perfect match counts as an Ordinary success.
    html = render("{% hand cards levels %}", cards=["7D"], levels=["ordinary"])
    assert 'class="card-face red success-1"' in html and 'title="Ordinary success"' in html
    assert "7♦" in html


def test_an_engine_pair_carries_its_level_and_a_bare_card_is_graded_against_the_fate():
    html = render("{% hand cards fate=fate %}", cards=[["7D", "ordinary"], "7H", "2C"],
                  fate="7D")
    faces = html.split("</span>")
    assert 'data-card="7D"' in faces[0] and "success-1" in faces[0]
    assert 'data-card="7H"' in faces[1] and "success-2" in faces[1]  # same rank: Critical
    assert 'data-card="2C"' in faces[2] and "success" not in faces[2]


def test_the_card_of_fate_a_joker_and_cards_without_a_fate():
    assert render("{% fate '7D' %}") == (
        '<span class="fate-card"><small class="fate-label">Card of Fate</small> '
        '<span class="card-face red fate" title="Card of Fate" data-card="7D">7♦</span></span>')
    waiting = render("{% hand cards levels %}", cards=["JK"], levels=[None])
    assert 'title="to be named"' in waiting and ">Joker<" in waiting
    named = render("{% hand 'JK=4C' %}")
    assert 'data-card="JK=4C"' in named and "Joker named 4♣" in named
    assert render("{% hand 'KS 2S' %}").count('class="card-face black"') == 2  # fire cards
    assert render("{% hand cards %}", cards=["??"]) == '<span class="card-face">??</span>'
