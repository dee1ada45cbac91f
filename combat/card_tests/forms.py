"""Forms of the card test pages: calling or proposing a test (and the GM's adjustment of a
proposal), naming a Joker, declining. They collect the setup that
``combat.card_tests.services`` checks; a service's ``ValidationError`` lands on the field
it names."""

import re

from django import forms
from django.core.exceptions import ValidationError

from campaigns.forms import Form, VersionedForm
from characters.models import SHIP_MORALE, Character
from combat.card_tests.table import (
    MAX_POOL,
    POOL_LABELS,
    WEALTH,
    Opposition,
    area_state,
    difficulty_label,
)
from combat.challenges import add_challenge_field
from rules.btq import weather as btq_weather
from rules.btq.characters import DAMAGE_AREAS, MEASURES, SKILLS, DamageState
from rules.btq.tests import DIFFICULTIES
from rules.cards import STANDARD_52, SUIT_NAMES, SUITS

_MODIFIER_LINE = re.compile(r"^(?P<source>.*?)\s*(?P<cards>[+-]\s*\d+)$")
CUSTOM_CARDS = "cards"
SERVICE_FIELDS = {"reputations": "reputation"}
"""Service field names that a form field of another name shows."""
WEATHER_USES = [("", "Not a factor"), ("modifier", "A modifier on the pool"),
                ("opponent", "The opponent: its own pool")]
"""How the weather enters a test: a modifier (BtQ L1699-1709) or the opponent (L1711-1722)."""


def modifiers_text(modifiers: list[dict]) -> str:
    """``[{"source", "cards"}]`` as the form shows them, one per line: "Storm -2"."""
    return "\n".join(f"{m['source']} {m['cards']:+d}" for m in modifiers)


def parse_modifiers(text: str) -> list[dict]:
    """One modifier per line, its source then a signed number: "Crusty Old Seadog +1"."""
    result = []
    for line in (text or "").splitlines():
        line = line.strip()
        if not line:
            continue
        match = _MODIFIER_LINE.match(line)
        if match is None or not match["source"].strip():
            raise ValidationError(f"“{line}”: write each modifier as its source and a signed "
                                  "number of cards, such as “Crusty Old Seadog +1” or "
                                  "“Storm -2”.")
        result.append({"source": match["source"].strip(),
                       "cards": int(match["cards"].replace(" ", ""))})
    return result


def pool_choices(character: Character | None = None) -> list:
    """Skills, Measures and Wealth, grouped; with ``character``'s values."""
    def label(key, text):
        if character is None:
            return text
        return f"{text} {character.skill(key) if key in SKILLS else getattr(character, key)}"

    return [
        ("Skills", [(k, label(k, v)) for k, v in SKILLS.items()]),
        ("Measures", [(k, label(k, v)) for k, v in MEASURES.items()]),
        ("Wealth", [(WEALTH, label(WEALTH, POOL_LABELS[WEALTH]))]),
    ]


def _area_choices(character: Character, gm: bool) -> list:
    choices = [("", "Nothing")]
    ship = character.ship
    for key, label in DAMAGE_AREAS.items():
        state = area_state(character, key, ship)
        if state is None:
            choices.append((key, f"{label} (serves on no ship)"))
        elif key == SHIP_MORALE and ship.is_hidden_from_players and not gm:
            choices.append((key, label))
        else:
            where = f" of {ship.display_name}" if key == SHIP_MORALE else ""
            choices.append((key, f"{label}{where} ({state.label})"))
    for rep in character.reputations.all():
        state = DamageState(rep.damage_state)
        choices.append((f"reputation:{rep.pk}", f"Reputation: {rep.name} ({state.label})"))
    return choices


def _reputation_label(rep) -> str:
    capped = f", counts as {rep.cap}" if rep.over_cap else ""
    return f"{rep.name} ({rep.value}{capped}; {rep.get_damage_state_display()})"


SHIP = "ship:"
"""The reputation choice's prefix for one of the ship's reputations."""


def _ship_reputations(character: Character):
    """The reputations of the ship ``character`` serves on that a pool may take in place of
    a personal one (BtQ L770; ``rules/btq_characters.md`` A22): none of a ship the players
    may not see, nor a Dead one."""
    ship = character.ship
    if ship is None or ship.is_hidden_from_players:
        return []
    return [r for r in ship.reputations.all() if r.damage_state != DamageState.DEAD]


class CardTestForm(Form):
    """Call (``gm``) or propose a test of ``character``: the pool, the opposition and the
    stakes. ``gm`` adds the NPC's side (skill, modifiers, area at risk); ``versioned`` the
    version of the test being adjusted (the GM accepting a proposal)."""

    skill = forms.ChoiceField(label="Skill")
    reputation = forms.ChoiceField(
        required=False, widget=forms.RadioSelect,
        help_text="At most one, yours or your ship's; if the test is lost, it is damaged.")
    helpers = forms.MultipleChoiceField(
        required=False, widget=forms.CheckboxSelectMultiple,
        help_text="Each adds their value in the skill, +3 at most in all; an unskilled helper "
                  "takes a card away.")
    modifiers = forms.CharField(
        required=False, widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Traits, curios, weather: one per line, “Crusty Old Seadog +1”.")
    weather = forms.ChoiceField(
        required=False, choices=WEATHER_USES,
        help_text="As a modifier: Wind and Precipitation added to the pool. As the opponent: "
                  "twice their size in cards, in place of the opposition below.")
    wind = forms.ChoiceField(required=False, initial="light", choices=[
        (k, f"{n} ({m:+d})" if k != "no_wind" else n)
        for k, (n, m) in btq_weather.WINDS.items()])
    precipitation = forms.ChoiceField(required=False, initial="none", choices=[
        (k, f"{n} ({m:+d})" if k not in ("mist", "fog_bank") else f"{n} (Awareness)")
        for k, (n, m) in btq_weather.PRECIPITATION.items()])
    opposition = forms.ChoiceField(choices=Opposition.choices,
                                   widget=forms.RadioSelect, initial=Opposition.NPC)
    opponent = forms.ChoiceField(label="Opposing NPC", required=False)
    difficulty = forms.ChoiceField(
        required=False,
        choices=[("", "—")] + [(k, difficulty_label(k)) for k in DIFFICULTIES]
        + [(CUSTOM_CARDS, "Another number of cards")],
        help_text="A static test against a pool the GM turns.")
    difficulty_cards = forms.IntegerField(
        label="Number of opposition cards", required=False, min_value=0, max_value=MAX_POOL,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        help_text="For “another number”: set by price and rarity in a Wealth test.")
    intent = forms.CharField(max_length=500,
                             help_text="What the character tries to do.")
    stakes_win = forms.CharField(label="On a win", max_length=500, required=False)
    stakes_lose = forms.CharField(label="On a loss", max_length=500, required=False)
    at_risk = forms.ChoiceField(label="Area at risk", required=False,
                                help_text="The loser takes damage here, by the winner's best "
                                          "success.")

    def __init__(self, *args, campaign, character: Character, gm: bool, versioned=False,
                 challenge=None, **kwargs):
        super().__init__(*args, **kwargs)
        if gm and not versioned:
            add_challenge_field(self, campaign, challenge)
        if versioned:
            self.fields["version"] = forms.IntegerField(widget=forms.HiddenInput)
        self.character = character
        self.gm = gm
        self.fields["skill"].choices = pool_choices(character)
        self.fields["reputation"].choices = [("", "None")] + [
            (str(r.pk), _reputation_label(r)) for r in character.reputations.all()] + [
            (f"{SHIP}{r.pk}", f"{character.ship.display_name}: {r.label}")
            for r in _ship_reputations(character)]
        others = campaign.characters.filter(kind=Character.Kind.PC).exclude(pk=character.pk)
        self.fields["helpers"].choices = [(str(c.pk), c.title) for c in others]
        self.fields["opponent"].choices = [("", "—")] + [
            (str(c.pk), c.title) for c in campaign.characters.filter(kind=Character.Kind.NPC)
            if gm or c.revealed]
        self.fields["at_risk"].choices = _area_choices(character, gm)
        if gm:
            self.fields["opponent_skill"] = forms.ChoiceField(
                label="The NPC's skill", required=False,
                choices=[("", "—")] + pool_choices())
            self.fields["opponent_modifiers"] = forms.CharField(
                label="The NPC's modifiers", required=False,
                widget=forms.Textarea(attrs={"rows": 2}),
                help_text="Its traits and equipment, one per line (never shown to players).")
            self.fields["opponent_at_risk"] = forms.ChoiceField(
                label="The NPC's area at risk", required=False,
                choices=[("", "Nothing")] + list(DAMAGE_AREAS.items()))
        for name, opposition in self.SHOWN_FOR.items():
            if name in self.fields:
                self.fields[name].shown_for = opposition

    @classmethod
    def initial_from(cls, setup: dict) -> dict:
        """Form values from a setup (``combat.card_tests.services.setup_input``)."""
        difficulty = setup.get("difficulty") or ""
        custom = difficulty.isdigit()
        return {
            "skill": setup["skill"],
            "reputation": str(setup["reputations"][0]) if setup["reputations"] else (
                f"{SHIP}{setup['ship_reputation']}" if setup.get("ship_reputation") else ""),
            "helpers": [str(pk) for pk in setup["helpers"]],
            "modifiers": modifiers_text(setup["modifiers"]),
            "opposition": setup["opposition"],
            "opponent": str(setup["opponent"] or ""),
            "opponent_skill": setup["opponent_skill"],
            "opponent_modifiers": modifiers_text(setup["opponent_modifiers"]),
            "difficulty": CUSTOM_CARDS if custom else difficulty,
            "difficulty_cards": int(difficulty) if custom else None,
            "intent": setup["intent"], "stakes_win": setup["stakes_win"],
            "stakes_lose": setup["stakes_lose"], "at_risk": setup["at_risk"],
            "opponent_at_risk": setup["opponent_at_risk"],
        }

    def clean_modifiers(self):
        return parse_modifiers(self.cleaned_data["modifiers"])

    def clean_opponent_modifiers(self):
        return parse_modifiers(self.cleaned_data["opponent_modifiers"])

    def _sky(self):
        data = self.cleaned_data
        return btq_weather.Weather(data.get("wind") or "light",
                                   data.get("precipitation") or "none")

    def clean(self):
        if self.cleaned_data.get("weather") == "opponent" and \
                btq_weather.opponent_pool(self._sky()) == 0:
            self.add_error("weather", f"{self._sky().label} has no pool to oppose a test: "
                                      "choose wind or rain that takes cards away.")
        data = super().clean()
        if data.get("difficulty") == CUSTOM_CARDS and data.get("difficulty_cards") is None:
            self.add_error("difficulty_cards", "Give the number of opposition cards.")
        return data

    def setup(self) -> dict:
        """The setup for ``card_test_call`` / ``card_test_propose`` / ``card_test_accept``.
        Of the opposition's fields only those of the opposition chosen count (the form keeps
        the others filled in while the user switches between them)."""
        data = self.cleaned_data
        pick = data.get("reputation") or ""
        setup = {
            "character": self.character.pk,
            "skill": data["skill"],
            "reputations": [int(pick)] if pick and not pick.startswith(SHIP) else [],
            "ship_reputation": int(pick[len(SHIP):]) if pick.startswith(SHIP) else None,
            "helpers": [int(pk) for pk in data.get("helpers") or ()],
            "modifiers": data["modifiers"],
            "opposition": data["opposition"],
            "intent": data.get("intent", ""),
            "stakes_win": data.get("stakes_win", ""),
            "stakes_lose": data.get("stakes_lose", ""),
            "at_risk": data.get("at_risk") or "",
        }
        if data["opposition"] == Opposition.NPC:
            setup["opponent"] = int(data["opponent"]) if data.get("opponent") else None
            if self.gm:
                setup.update(opponent_skill=data.get("opponent_skill") or "",
                             opponent_modifiers=data["opponent_modifiers"],
                             opponent_at_risk=data.get("opponent_at_risk") or "")
        elif data["opposition"] == Opposition.DIFFICULTY:
            difficulty = data.get("difficulty") or ""
            if difficulty == CUSTOM_CARDS:
                difficulty = str(data["difficulty_cards"])
            setup["difficulty"] = difficulty
        if data.get("weather") == "modifier":
            setup["modifiers"] = [*setup["modifiers"],
                                  *btq_weather.weather_modifiers(self._sky(), data["skill"])]
        elif data.get("weather") == "opponent":
            # the weather is the opposition, and is not counted twice as a modifier (BtQ
            # L1711-1722; rules/btq_missions.md §6.3)
            setup.pop("opponent", None)
            setup.update(opposition=Opposition.DIFFICULTY,
                         difficulty=str(btq_weather.opponent_pool(self._sky())))
            for key in ("opponent_skill", "opponent_modifiers", "opponent_at_risk"):
                setup.pop(key, None)
        return setup

    def add_service_error(self, exc: ValidationError) -> None:
        if hasattr(exc, "error_dict"):
            exc = ValidationError({SERVICE_FIELDS.get(k, k): v
                                   for k, v in exc.error_dict.items()})
        super().add_service_error(exc)

    def pool_fields(self):
        return [self[n] for n in ("skill", "reputation", "helpers", "modifiers", "weather",
                                  "wind", "precipitation")]

    SHOWN_FOR = {"opponent": "npc", "opponent_skill": "npc", "opponent_modifiers": "npc",
                 "opponent_at_risk": "npc", "difficulty": "difficulty",
                 "difficulty_cards": "difficulty"}
    """The opposition each field belongs to: the page shows it only for that opposition."""

    def opposition_fields(self):
        names = ["opposition", "opponent", "opponent_skill", "opponent_modifiers",
                 "difficulty", "difficulty_cards"]
        return [self[n] for n in names if n in self.fields]

    def stakes_fields(self):
        names = ["challenge", "intent", "stakes_win", "stakes_lose", "at_risk",
                 "opponent_at_risk"]
        return [self[n] for n in names if n in self.fields]


class JokerForm(VersionedForm):
    """Name the card the Joker counts as: any of the 52, the Card of Fate by default (D5)."""

    card = forms.ChoiceField(label="Your Joker counts as")

    def __init__(self, *args, fate: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["card"].choices = [
            (SUIT_NAMES[suit], [(str(c), str(c)) for c in STANDARD_52 if c.suit == suit])
            for suit in SUITS]
        self.fields["card"].initial = fate
        self.fields["card"].help_text = (f"The Card of Fate, {fate}, is the default: a Perfect "
                                         "success (an Ordinary one in an unskilled test).")


class DeclineForm(VersionedForm):
    reason = forms.CharField(label="Why", max_length=500, required=False)
