"""Forms of the battle pages. They check the shape of the input; the services decide."""

import json
import re
from dataclasses import dataclass

from django import forms

from campaigns.api_common import MAX_ID
from campaigns.forms import Form
from combat.challenges import add_challenge_field
from rules.btq.characters import DamageState
from rules.btq.naval import DISTANCES, GENERAL_PRECIPITATION, GENERAL_WIND, WEATHER
from rules.engine import get_engine
from ships.models import Ship, ShipPosting, ShipReputation
from ships.prizes import prize_words
from ships.services import naval_setup

BOOK_SCENARIO = "hermes_vs_corsair"
"""The book's example of ship-to-ship combat (BtQ L2533-2603), as ``btq_naval`` hands it out
(``Engine.scenarios()``): its cards and decisions are what "Replay the book's example"
stacks."""


def _weather_label(name: str, speed: int | None, handling: int | None) -> str:
    if speed is None:
        return f"{name} (Speed 0, Handling 0)"
    changes = [f"{what} {value:+d}" for what, value in (("Speed", speed), ("Handling", handling))
               if value]
    return f"{name} ({', '.join(changes) or 'no modifiers'})"


WEATHER_CHOICES = [(key, _weather_label(*row)) for key, row in WEATHER.items()]
"""The ship-combat weather (BtQ L2365-2367; ``rules.btq.naval.WEATHER``)."""

def _general(table: dict[str, int]) -> list[tuple[str, str]]:
    return [(key, f"{key.replace('_', ' ').capitalize()}"
                  + (f" ({value:+d})" if value else "")) for key, value in table.items()]


GENERAL_WIND_CHOICES = _general(GENERAL_WIND)
GENERAL_PRECIPITATION_CHOICES = _general(GENERAL_PRECIPITATION)
"""The general weather (BtQ L1699-1709), for the setting general_weather_in_ship_combat."""


def general_weather(wind: str | None, precipitation: str | None) -> dict | None:
    """The general weather a new battle is given (BtQ L1699-1709): ``None`` if neither its
    wind nor its rain is named, else both, a missing one at its mildest (a light wind, no
    rain)."""
    if not wind and not precipitation:
        return None
    return {"wind": wind or "light_wind", "precipitation": precipitation or "no_rain"}

AWARENESS = ""
START_DISTANCE_CHOICES = [(AWARENESS, "An Awareness test decides")] + [
    (str(d), f"{d}: {DISTANCES[d]}") for d in (3, 4, 5)
]
"""The starting distance: set by the GM (3-5), or by a contested Awareness test
(BtQ L2397-2402)."""


def _book_scenario():
    return get_engine("btq_naval").scenarios()[BOOK_SCENARIO]


def book_cards() -> str:
    """The cards of the book's Hermes vs Corsair example in the order the engine draws
    them."""
    return _book_scenario().cards


_PC = re.compile(r"pc:[A-Za-z0-9_]+")


def book_choices(pc_ship: Ship) -> list[dict]:
    """The decisions of the book's Hermes vs Corsair example in the order the engine asks
    for them, as ``[{"kind", "choice"}]``. A PC of the scenario named in a choice
    (``"hull:pc:smith"``) becomes the PC posted at the same station aboard ``pc_ship``
    (``"hull:pc:12"``); with no one at that station the choice stays as it is (and will not
    fit the battle)."""
    scenario = _book_scenario()
    posted = {p.station: p.character_id for p in pc_ship.postings.all()}
    ids = {f"pc:{pc['id']}": f"pc:{posted[pc['station']]}"
           for pc in scenario.setup["pcs"] if pc.get("station") in posted}
    return [{"kind": step["kind"],
             "choice": _PC.sub(lambda m: ids.get(m.group(0), m.group(0)), step["choice"])}
            for step in scenario.choices]


def unlike_the_book(pc_ship: Ship, enemy_ship: Ship) -> str | None:
    """Why ``pc_ship`` against ``enemy_ship`` cannot replay the book's Hermes vs Corsair
    example (BtQ L2533-2603): its cards make the book's battle only with ships of the book's
    types (its pools and damage tracks) and the PCs at the book's stations aboard the players'
    ship (its decisions name them, :func:`book_choices`); ``None`` if they can."""
    setup = _book_scenario().setup
    types = {ship["side"]: ship["type"] for ship in setup["ships"]}
    stations = [pc["station"] for pc in setup["pcs"]]
    posted = {p.station for p in pc_ship.postings.all()}
    names = [str(ShipPosting.Station(s).label) for s in stations]
    if pc_ship.ship_type.name == types["pc"] and enemy_ship.ship_type.name == types["enemy"] \
            and posted.issuperset(stations):
        return None
    return (f"The book's example is a {types['pc']} against a {types['enemy']}, with PCs "
            f"posted as {', '.join(names[:-1])} and {names[-1]} aboard the "
            f"{types['pc']}: choose ships like the book's, or play without its cards.")


def _is_damaged(ship: Ship) -> bool:
    return any("x" in text for text in ship.tracks.values()) or bool(ship.morale_state)


def ship_with_damage(ship: Ship) -> str:
    """A ship as the New battle form offers her to the GM: "Corsair (14): Crew Maimed"."""
    return f"{ship.display_name}: {ship.damage_words}"


def ship_label(campaign):
    """How the GM's ship pickers of ``campaign`` name a ship (a form field's
    ``label_from_instance``): with the damage she brings into the fight
    (:func:`ship_with_damage`) and, a prize of the players', what she is
    (``ships.prizes.prize_words``), so that he sees why she is refused before he chooses
    her."""
    prizes = prize_words(campaign)

    def label(ship: Ship) -> str:
        words = prizes.get(ship.pk)
        return f"{ship_with_damage(ship)} ({words})" if words else ship_with_damage(ship)
    return label


def battle_title(ours: list, theirs: list) -> str:
    """A battle's default title: every ship of each side by name, "HMS Hermes vs Corsair
    and The Falcon" (``ours`` and ``theirs``: the ships, the main one first)."""
    def names(ships: list) -> str:
        words = [str(ship.name) for ship in ships]
        return " and ".join(words) if len(words) < 3 else \
            f"{', '.join(words[:-1])} and {words[-1]}"
    return f"{names(ours)} vs {names(theirs)}"


def already_in_battle(main: Ship | None, more: list[Ship]) -> str | None:
    """Why ``more`` (a side's "more ships") may not be taken as it is: it names ``main``, the
    ship already chosen for that side; ``None`` if it does not."""
    if main is not None and main in more:
        return f"{main} is already in the battle: choose other ships here."
    return None


@dataclass(frozen=True)
class NewBattle:
    """The ships and terms of a new Beat to Quarters ship battle, as the New battle form
    (:meth:`NavalEncounterForm.new_battle`) and the API (``combat.new_battle_api``) take
    them, for a battle to prepare or for its odds: the players' ship with her ``allies``
    against the enemy ship with hers (BtQ L2498-2506), the weather (BtQ L2365-2367), the
    starting distance (``None``: the Awareness test, BtQ L2397-2402), the general weather
    (BtQ L1699-1709), a ship reputation that fits the enemy and the title, if one is given."""

    pc_ship: Ship
    enemy_ship: Ship
    weather: str
    start_distance: int | None = None
    allies: tuple[Ship, ...] = ()
    enemies: tuple[Ship, ...] = ()
    general_weather: dict | None = None
    ship_reputation: ShipReputation | None = None
    title: str = ""

    @property
    def ships(self) -> list[Ship]:
        """Every ship of the battle: the players' side's, then the enemy's, main ones first."""
        return [self.pc_ship, *self.allies, self.enemy_ship, *self.enemies]

    def name(self) -> str:
        """The battle's title: the one given, else every ship by name (:func:`battle_title`)."""
        return self.title or battle_title([self.pc_ship, *self.allies],
                                          [self.enemy_ship, *self.enemies])

    def setup(self) -> dict:
        """The engine's setup (``ships.services.naval_setup``, which raises
        ``ValidationError`` for a ship that may not fight on her side)."""
        return naval_setup(pc_ship=self.pc_ship, enemy_ship=self.enemy_ship,
                           weather=self.weather, start_distance=self.start_distance,
                           allies=self.allies, enemies=self.enemies,
                           general_weather=self.general_weather,
                           ship_reputation=self.ship_reputation)


DECISION_TIMEOUT = (10, 3600)
"""The shortest and longest decision timeout a GM may set (seconds)."""


class NavalEncounterForm(Form):
    """A new Beat to Quarters ship battle: the players' ship, with any allies of theirs,
    against an enemy ship and any others (BtQ L2498-2506). A side's "more ships" picker is
    shown only where the campaign has another ship of that side than the one chosen above."""

    title = forms.CharField(max_length=200, required=False,
                            help_text="Leave empty for “<our ships> vs <the enemy's>”.")
    pc_ship = forms.ModelChoiceField(queryset=Ship.objects.none(), label="The players' ship")
    enemy_ship = forms.ModelChoiceField(queryset=Ship.objects.none(), label="Enemy ship")
    allies = forms.ModelMultipleChoiceField(
        queryset=Ship.objects.none(), required=False, widget=forms.CheckboxSelectMultiple,
        label="More ships on the players' side",
        help_text="An allied ship with no PCs aboard is sailed by the GM.")
    more_enemies = forms.ModelMultipleChoiceField(
        queryset=Ship.objects.none(), required=False, widget=forms.CheckboxSelectMultiple,
        label="More enemy ships")
    ship_reputation = forms.ModelChoiceField(
        queryset=ShipReputation.objects.none(), required=False,
        label="A reputation of the players' ship that fits this enemy",
        help_text="Its cards go to the tests of the PCs aboard her; if the battle is lost, "
                  "it is damaged.")
    weather = forms.ChoiceField(choices=WEATHER_CHOICES, initial="steady_breeze")
    start_distance = forms.ChoiceField(choices=START_DISTANCE_CHOICES, required=False,
                                       label="Starting distance")
    wind = forms.ChoiceField(choices=GENERAL_WIND_CHOICES, initial="light_wind",
                             required=False, label="General weather: wind",
                             help_text="Counts only if the campaign's settings apply the "
                                       "general weather to ship battles.")
    precipitation = forms.ChoiceField(choices=GENERAL_PRECIPITATION_CHOICES,
                                      initial="no_rain", required=False,
                                      label="General weather: rain")
    stacked_cards = forms.CharField(
        required=False, widget=forms.Textarea(attrs={"rows": 3}),
        label="Stacked cards (GM only)",
        help_text="Cards drawn first, in order, before the shuffled decks take over, "
                  "e.g. “6C 4C KS 3C JD”. Players never see them before the battle ends.",
    )
    decision_timeout = forms.IntegerField(
        required=False, min_value=DECISION_TIMEOUT[0], max_value=DECISION_TIMEOUT[1],
        label="Decision timeout (seconds)",
        help_text="A decision nobody makes within this time takes its default. Leave empty "
                  "to wait as long as it takes.")
    book_cards = forms.BooleanField(
        required=False, label="Replay the book's example cards (Hermes vs Corsair)",
        help_text="Stacks the cards and the decisions of the book's worked example (replaces "
                  "the cards above); both ships must be Healthy, as in the book.",
    )

    def __init__(self, *args, campaign, challenge=None, **kwargs):
        super().__init__(*args, **kwargs)
        ships = Ship.objects.filter(campaign=campaign).select_related("ship_type")
        labelled = ship_label(campaign)
        for name, more, side in (("pc_ship", "allies", Ship.Side.PC),
                                 ("enemy_ship", "more_enemies", Ship.Side.ENEMY)):
            choices = ships.filter(side=side)
            self.fields[name].queryset = choices
            self.fields[name].label_from_instance = labelled
            if len(choices) == 1:
                self.fields[name].initial = choices[0].pk
            if len(choices) < 2:
                # the side's only ship is the one chosen above: no other to offer
                del self.fields[more]
                continue
            self.fields[more].queryset = choices
            self.fields[more].label_from_instance = labelled
            # static/js/moreships.js hides the box of the ship chosen above as main
            self.fields[more].widget.attrs["data-main-ship"] = name
        self.fields["ship_reputation"].queryset = ShipReputation.objects.filter(
            ship__campaign=campaign, ship__side=Ship.Side.PC).exclude(
            damage_state=DamageState.DEAD).select_related("ship")
        self.fields["ship_reputation"].label_from_instance = lambda r: f"{r.ship.name}: {r.label}"
        self.damaged_ships = [ship for ship in ships if _is_damaged(ship)]
        add_challenge_field(self, campaign, challenge)

    def clean_start_distance(self):
        value = self.cleaned_data["start_distance"]
        return int(value) if value else None

    def clean(self):
        data = super().clean()
        data["stacked_choices"] = []
        data["general_weather"] = general_weather(data.get("wind"), data.get("precipitation"))
        for extra, main in (("allies", "pc_ship"), ("more_enemies", "enemy_ship")):
            chosen = list(data.get(extra) or [])
            if refusal := already_in_battle(data.get(main), chosen):
                self.add_error(extra, refusal)
            data[extra] = [ship for ship in chosen if ship != data.get(main)]
        if data.get("book_cards") and (data["allies"] or data["more_enemies"]):
            self.add_error("book_cards", "The book's example is one ship against one: leave "
                                         "out the other ships, or play without its cards.")
        damaged = [ship for ship in (data.get("pc_ship"), data.get("enemy_ship"))
                   if ship is not None and _is_damaged(ship)]
        if data.get("book_cards") and damaged:
            self.add_error("book_cards", f"{' and '.join(map(str, damaged))} already "
                           f"{'carry' if len(damaged) > 1 else 'carries'} damage: the book's "
                           "cards assume Healthy ships. Repair them first, or play without.")
        elif data.get("book_cards") and data.get("pc_ship") and data.get("enemy_ship") and (
                refusal := unlike_the_book(data["pc_ship"], data["enemy_ship"])):
            self.add_error("book_cards", refusal)
        elif data.get("book_cards"):
            data["stacked_cards"] = book_cards()
            data["stacked_choices"] = book_choices(data["pc_ship"])
        return data

    def new_battle(self) -> NewBattle:
        """The battle this (valid) form asks for, to prepare or to play for its odds."""
        data = self.cleaned_data
        return NewBattle(pc_ship=data["pc_ship"], enemy_ship=data["enemy_ship"],
                         weather=data["weather"], start_distance=data["start_distance"],
                         allies=tuple(data["allies"]), enemies=tuple(data["more_enemies"]),
                         general_weather=data["general_weather"],
                         ship_reputation=data["ship_reputation"], title=data["title"])


class VersionForm(forms.Form):
    """A step taken from a page: the version of the battle the page showed."""

    version = forms.IntegerField(min_value=1, max_value=MAX_ID)


class ActForm(VersionForm):
    """One decision made from the battle page: ``choice`` an option's key, or for a typed
    decision its ``f_<field>`` inputs (:func:`typed_choice`)."""

    actor = forms.CharField(max_length=100)
    kind = forms.CharField(max_length=100)
    choice = forms.CharField(max_length=100, required=False)


FIELD_PREFIX = "f_"
"""The prefix of a typed decision's inputs in a posted form (``f_name``), so they never meet
the form's own fields."""

MAX_TYPED_INPUT = 20_000
"""The most characters of a typed decision's inputs taken from a posted form."""


def typed_choice(data) -> str:
    """A typed decision's answer (``rules.engine.Decision.fields``) from a posted form: the
    JSON text of every ``f_<field>`` input, as the engine takes it; each input is cut at
    :data:`MAX_TYPED_INPUT` characters (the engine then refuses what is too long); ``""``
    where none was posted (no choice at all, not an empty answer)."""
    typed = {key[len(FIELD_PREFIX):]: str(value)[:MAX_TYPED_INPUT]
             for key, value in data.items() if key.startswith(FIELD_PREFIX)}
    return json.dumps(typed) if typed else ""


def decision_fields(decision: dict, values: dict | None = None, errors: dict | None = None
                    ) -> list[dict]:
    """A typed decision's fields (``Decision.as_dict()["fields"]``) ready for the partial
    ``combat/_decision_fields.html``: each with the ``value`` to show (what was posted, else
    its default) and its ``errors``."""
    values, errors = values or {}, errors or {}
    return [{**f, "value": values.get(f["name"], f["default"]),
             "errors": errors.get(f["name"], [])} for f in decision.get("fields", ())]
