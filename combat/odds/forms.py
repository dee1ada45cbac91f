"""The odds' forms: they check the shape of the input; the services decide."""

from django import forms

from campaigns.forms import Form
from combat.odds import services


class OddsForm(Form):
    """How many games a simulation plays."""

    odds_games = forms.IntegerField(
        min_value=100, max_value=services.MAX_GAMES, initial=services.DEFAULT_GAMES,
        required=False, label="Games to play",
        help_text=f"{services.DEFAULT_GAMES:,} unless you say otherwise.")
    odds_precise = forms.BooleanField(
        required=False, label="Until every outcome is known within ±1 point",
        help_text="Plays batches of games until the 95 % interval of every outcome is "
                  "within one percentage point (at most the games above).")

    def games(self) -> int:
        return self.cleaned_data.get("odds_games") or services.DEFAULT_GAMES
