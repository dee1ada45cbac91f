"""Ship forms (a GM's): the ship itself, and who serves aboard."""

from django import forms

from campaigns.forms import Form, JSONField, RecordForm, TextField
from characters.models import DAMAGE_STATE_CHOICES, MAX_RATING
from rules.btq.characters import NPC_CREW_SKILLS, SKILLS
from rules.btq.ships import AREAS
from ships.models import Ship, ShipPosting, ShipReputation
from ships.selectors import ship_traits, ship_types


class ShipForm(RecordForm):
    """Create (``ship=None``: an undamaged ship) or edit a ship."""

    name = forms.CharField(max_length=200, help_text="Without the guns: “HMS Hermes”.")
    guns = forms.IntegerField(min_value=1, max_value=200, required=False)
    ship_type = forms.ModelChoiceField(label="Type", queryset=ship_types())
    side = forms.ChoiceField(choices=Ship.Side.choices)
    traits = forms.ModelMultipleChoiceField(
        queryset=ship_traits(), required=False, widget=forms.CheckboxSelectMultiple,
        help_text="Un-rated ships take one trait, rated 4-6 two, rated 1-3 three; "
        "each at most once.",
    )

    def __init__(self, *args, ship: Ship | None = None, **kwargs):
        super().__init__(*args, record=ship, **kwargs)
        if self.editing:
            for area in AREAS:
                self.fields[f"{area}_track"] = forms.CharField(
                    label=f"{area.capitalize()} track", max_length=120,
                    help_text="x crossed, . free; Injured|Maimed|Dead",
                )
            self.fields["morale_state"] = forms.TypedChoiceField(
                label="Ship Morale", choices=DAMAGE_STATE_CHOICES, coerce=int
            )
        for key in NPC_CREW_SKILLS:
            self.fields[f"crew_{key}"] = forms.IntegerField(
                label=SKILLS[key], min_value=0, max_value=MAX_RATING, initial=0
            )
        self.fields["overrides"] = JSONField(
            required=False, widget=forms.Textarea(attrs={"rows": 2}),
            help_text='Figures that differ from the type, e.g. {"handling": 1}.',
        )
        self.fields["gm_notes"] = TextField(
            label="GM notes (never shown to players)", required=False,
            widget=forms.Textarea(attrs={"rows": 3}),
        )
        if self.editing and ship.side != Ship.Side.PC:
            self.fields["show_in_full"] = forms.BooleanField(
                required=False, label="If she moves to the players' side, show her to them "
                                      "in full",
                help_text="The players see the ships of their side in full: her crew skills, "
                          "traits and Ship Morale (never the GM notes).")
            order = list(self.fields)
            order.insert(order.index("side") + 1, order.pop(order.index("show_in_full")))
            self.order_fields(order)

    def clean(self):
        data = super().clean()
        if "show_in_full" in self.fields and data.get("side") == Ship.Side.PC \
                and not data.get("show_in_full"):
            self.add_error("show_in_full", "On the players' side the players see her in "
                                           "full: tick this to move her there, or keep her "
                                           "on her side.")
        return data

    @staticmethod
    def initial_for(ship: Ship) -> dict:
        initial = {
            "version": ship.version, "name": ship.name, "guns": ship.guns,
            "ship_type": ship.ship_type_id, "side": ship.side,
            "traits": list(ship.traits.all()), "morale_state": ship.morale_state,
            "overrides": ship.overrides, "gm_notes": ship.gm_notes,
        }
        initial.update({f"{area}_track": text for area, text in ship.tracks.items()})
        initial.update({f"crew_{k}": ship.crew.get(k, 0) for k in NPC_CREW_SKILLS})
        return initial

    def crew_fields(self):
        return [self[f"crew_{key}"] for key in NPC_CREW_SKILLS]

    def track_fields(self):
        return [self[f"{area}_track"] for area in AREAS] if self.editing else []

    def main_fields(self):
        return [f for f in self.visible_fields()
                if not f.name.startswith("crew_") and not f.name.endswith("_track")]

    def changes(self) -> dict:
        """The values to save: all for a new ship, the changed ones for an edit. Crew skills
        as one mapping; damage tracks as one mapping of all four when any changed."""
        names = self.to_save()
        data = self.cleaned_data
        result, crew = {}, {}
        for name in names:
            if name == "show_in_full" or name.endswith("_track"):
                continue
            if name.startswith("crew_"):
                crew[name.removeprefix("crew_")] = data[name]
            elif name == "overrides":
                result["overrides"] = data["overrides"] or {}
            elif name == "traits":
                result["traits"] = list(data["traits"])
            else:
                result[name] = data[name]
        if crew:
            result["crew"] = crew
        if any(name.endswith("_track") for name in names):
            result["tracks"] = {area: data[f"{area}_track"] for area in AREAS}
        return result


class PostingForm(Form):
    character = forms.ModelChoiceField(queryset=None)
    station = forms.ChoiceField(choices=ShipPosting.Station.choices)

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["character"].queryset = campaign.characters.all()


class ShipReputationForm(Form):
    """A GM's new ship reputation, or an edit of one (``reputation`` given: with its
    version)."""

    kind = forms.ChoiceField(choices=ShipReputation.Kind.choices)
    descriptor = forms.CharField(max_length=100, label="How",
                                 help_text="“Feared by”, “Sworn enemy of”")
    subject = forms.CharField(max_length=200, label="By whom",
                              help_text="“Smugglers”, “Black Bill Forsyth”")
    value = forms.IntegerField(min_value=1, max_value=MAX_RATING, initial=1)
    damage_state = forms.TypedChoiceField(label="Damage", choices=DAMAGE_STATE_CHOICES,
                                          coerce=int, initial=0)

    def __init__(self, *args, reputation: ShipReputation | None = None, **kwargs):
        if reputation is not None:
            kwargs.setdefault("initial", {
                "kind": reputation.kind, "descriptor": reputation.descriptor,
                "subject": reputation.subject, "value": reputation.value,
                "damage_state": reputation.damage_state, "version": reputation.version})
            kwargs.setdefault("prefix", f"rep{reputation.pk}")
        super().__init__(*args, **kwargs)
        if reputation is not None:
            self.fields["version"] = forms.IntegerField(widget=forms.HiddenInput)

    def changes(self) -> dict:
        return {k: v for k, v in self.cleaned_data.items() if k != "version"}


class RenownedNameForm(Form):
    """The trait Renowned Name's +1: to one of the ship's reputations, or a new one at +1."""

    reputation = forms.ModelChoiceField(queryset=ShipReputation.objects.none(), required=False,
                                        empty_label="a new reputation at +1",
                                        label="+1 to")
    kind = forms.ChoiceField(choices=ShipReputation.Kind.choices, required=False)
    descriptor = forms.CharField(max_length=100, required=False, label="New one: how")
    subject = forms.CharField(max_length=200, required=False, label="…by whom")

    def __init__(self, *args, ship: Ship, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["reputation"].queryset = ship.reputations.all()

    def clean(self):
        data = super().clean()
        if data.get("reputation") is None:
            for field in ("descriptor", "subject"):
                if not data.get(field):
                    self.add_error(field, "A new reputation needs this.")
        return data

    def changes(self) -> dict:
        data = self.cleaned_data
        if data["reputation"] is not None:
            return {"reputation": data["reputation"]}
        return {k: data[k] for k in ("kind", "descriptor", "subject")}
