"""Forms of the battle pages. They check the shape of the input; the services decide."""

from pathlib import Path

from django import forms

from ships.models import Ship

BOOK_CARDS_FILE = Path(__file__).resolve().parent / "fixtures" / "hermes_vs_corsair_cards.txt"

WEATHER_CHOICES = [
    ("becalmed", "Becalmed (Speed 0, Handling 0)"),
    ("steady_breeze", "Steady Breeze (no modifiers)"),
    ("good_wind", "Good Wind (Handling -1)"),
    ("high_seas", "High Seas (Speed -1, Handling -2)"),
    ("storm", "Storm (Speed -2, Handling -3)"),
]
"""The ship-combat weather (BtQ L2365-2367; ``rules/btq_naval.md`` §4.3.1)."""

AWARENESS = ""
START_DISTANCE_CHOICES = [
    (AWARENESS, "An Awareness test decides"),
    ("3", "3: Visual"),
    ("4", "4: Far Sight"),
    ("5", "5: Horizon"),
]
"""The starting distance: set by the GM (3-5), or by a contested Awareness test
(BtQ L2397-2402)."""


def book_cards() -> str:
    """The cards of the book's Hermes vs Corsair example (BtQ L2533-2603) in the order the
    engine draws them, from ``combat/fixtures/hermes_vs_corsair_cards.txt`` (``#`` starts a
    comment)."""
    lines = BOOK_CARDS_FILE.read_text(encoding="utf-8").splitlines()
    return " ".join(card for line in lines for card in line.split("#", 1)[0].split())


class NavalEncounterForm(forms.Form):
    """A new Beat to Quarters ship battle: the players' ship against an enemy ship."""

    title = forms.CharField(max_length=200, required=False,
                            help_text="Leave empty for “<our ship> vs <enemy>”.")
    pc_ship = forms.ModelChoiceField(queryset=Ship.objects.none(), label="The players' ship")
    enemy_ship = forms.ModelChoiceField(queryset=Ship.objects.none(), label="Enemy ship")
    weather = forms.ChoiceField(choices=WEATHER_CHOICES, initial="steady_breeze")
    start_distance = forms.ChoiceField(choices=START_DISTANCE_CHOICES, required=False,
                                       label="Starting distance")
    stacked_cards = forms.CharField(
        required=False, widget=forms.Textarea(attrs={"rows": 3}),
        label="Stacked cards (GM only)",
        help_text="Cards drawn first, in order, before the shuffled decks take over, "
                  "e.g. “6C 4C KS 3C JD”. Players never see them before the battle ends.",
    )
    book_cards = forms.BooleanField(
        required=False, label="Replay the book's example cards (Hermes vs Corsair)",
        help_text="Stacks the cards of the book's worked example (replaces the cards above).",
    )

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, **kwargs)
        ships = Ship.objects.filter(campaign=campaign).select_related("ship_type")
        self.fields["pc_ship"].queryset = ships.filter(side=Ship.Side.PC)
        self.fields["enemy_ship"].queryset = ships.filter(side=Ship.Side.ENEMY)

    def clean_start_distance(self):
        value = self.cleaned_data["start_distance"]
        return int(value) if value else None

    def clean(self):
        data = super().clean()
        if data.get("book_cards"):
            data["stacked_cards"] = book_cards()
        if not data.get("title") and data.get("pc_ship") and data.get("enemy_ship"):
            data["title"] = f"{data['pc_ship'].name} vs {data['enemy_ship'].name}"
        return data


class VersionForm(forms.Form):
    """A step taken from a page: the version of the battle the page showed."""

    version = forms.IntegerField(min_value=1)


class ActForm(VersionForm):
    """One decision made from the battle page."""

    actor = forms.CharField(max_length=100)
    kind = forms.CharField(max_length=100)
    choice = forms.CharField(max_length=100)
