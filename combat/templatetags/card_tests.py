"""Template tags of card tests for the pages of the apps below ``combat``, which may not
import it: ``{% tests_waiting_for_you campaign %}`` on the campaign page."""

from django import template

from combat.card_tests.selectors import card_test_names, card_test_status, card_tests_awaiting
from combat.card_tests.table import Status

register = template.Library()


@register.inclusion_tag("combat/card_tests/_waiting_for_you.html", takes_context=True)
def tests_waiting_for_you(context, campaign) -> dict:
    """The card tests of ``campaign`` that wait for the user of the page
    (``combat.card_tests.selectors.card_tests_awaiting``), as links."""
    user = context["request"].user
    rows = []
    for test in card_tests_awaiting(user, campaign):
        names = card_test_names(campaign, test.terms)
        rows.append({"test": test, "name": names.get(f"pc:{test.terms['character']}"),
                     "status": Status(card_test_status(test)).label.lower()})
    return {"campaign": campaign, "rows": rows}
