"""The character form: what the editing user may change, and nothing else."""

from django import forms
from django.contrib.auth import get_user_model

from campaigns.forms import Form, JSONField, RecordForm, TextField
from characters.models import (
    DAMAGE_STATE_CHOICES,
    MAX_RATING,
    MAX_WEALTH,
    TRAIT_CHOICES,
    Character,
    Item,
    Reputation,
)
from rules.btq.characters import MEASURES, SKILLS

OPTIONAL = ("wealth", "wealth_state")
"""Fields a form may leave out (added after the first character sheets)."""


def _rating(label: str, minimum: int) -> forms.IntegerField:
    return forms.IntegerField(
        label=label, min_value=minimum, max_value=MAX_RATING,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


class CharacterForm(RecordForm):
    """Create (``character=None``) or edit a character. ``access`` is ``"gm"`` (all fields)
    or ``"owner"``: name and notes; Measures, skills and Wealth are shown read-only, as only
    the GM changes them (advancement, BtQ L1510-1545)."""

    def __init__(self, *args, access: str, campaign, character: Character | None = None,
                 **kwargs):
        super().__init__(*args, record=character, **kwargs)
        gm = access == "gm"
        if gm:
            self.fields["kind"] = forms.ChoiceField(choices=Character.Kind.choices)
            self.fields["owner"] = forms.ModelChoiceField(
                label="Player (for a PC)", required=False,
                queryset=get_user_model().objects.filter(
                    memberships__campaign=campaign
                ).order_by("username"),
            )
            self.fields["rank"] = forms.CharField(
                label="Rank or position", max_length=100, required=False
            )
        self.fields["name"] = forms.CharField(max_length=200)
        if gm:
            self.fields["seniority"] = forms.IntegerField(
                min_value=0, max_value=1000, initial=0,
                help_text="The most senior officer aboard commands in battle.",
            )
        for key, label in MEASURES.items():
            self.fields[key] = _rating(label, 1)
            self.fields[key].initial = 1
        for key, label in SKILLS.items():
            self.fields[f"skill_{key}"] = _rating(label, 0)
            self.fields[f"skill_{key}"].initial = 0
        self.fields["wealth"] = forms.IntegerField(
            label="Wealth", min_value=0, max_value=MAX_WEALTH, initial=0, required=False,
            widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
            help_text="0 destitute, 2 shopkeeper, 4 merchant, 6 lesser nobility, 10 the Royal "
                      "Family.",
        )
        self.gm_changes_ratings = not gm
        if not gm:
            for key in [*MEASURES, *(f"skill_{k}" for k in SKILLS), "wealth"]:
                self.fields[key].disabled = True
            self.fields["wealth"].help_text = "The GM changes it."
        self.fields["notes"] = TextField(
            label="Notes", required=False, widget=forms.Textarea(attrs={"rows": 3}),
            help_text="The player's: history, looks, aims. Shown with the sheet.",
        )
        if gm:
            self.fields["health_state"] = forms.TypedChoiceField(
                label="Health", choices=DAMAGE_STATE_CHOICES, coerce=int, initial=0
            )
            self.fields["wealth_state"] = forms.TypedChoiceField(
                label="Wealth damage", choices=DAMAGE_STATE_CHOICES, coerce=int, initial=0,
                required=False, empty_value=None,
            )
            self.fields["professions"] = JSONField(
                label="Profession specialisations", required=False,
                widget=forms.TextInput(), help_text='Each trade and its value: '
                '{"Fisherman": 2, "Mapmaker": 1}.')
            self.fields["scratched"] = forms.BooleanField(
                label="Is But A Scratch, Sir! used (the extra wound level is gone)",
                required=False)
            self.fields["gm_notes"] = TextField(
                label="GM notes (never shown to players)", required=False,
                widget=forms.Textarea(attrs={"rows": 3}),
            )

    @staticmethod
    def initial_for(character: Character) -> dict:
        initial = {
            "version": character.version, "kind": character.kind, "owner": character.owner_id,
            "rank": character.rank, "name": character.name, "seniority": character.seniority,
            "health_state": character.health_state, "wealth": character.wealth,
            "wealth_state": character.wealth_state, "gm_notes": character.gm_notes,
            "notes": character.notes, "professions": character.professions,
            "scratched": character.scratched,
        }
        initial.update({key: getattr(character, key) for key in MEASURES})
        initial.update({f"skill_{k}": v for k, v in character.skill_values().items()})
        return initial

    def skill_fields(self):
        return [self[f"skill_{key}"] for key in SKILLS]

    def measure_fields(self):
        return [self[key] for key in MEASURES]

    def other_fields(self):
        return [f for f in self.visible_fields()
                if not f.name.startswith("skill_") and f.name not in MEASURES]

    def changes(self) -> dict:
        """The values to save: all of them for a new character, the changed ones for an
        edit (so an edit never writes what it did not touch). Skills as one mapping."""
        result, skills = {}, {}
        for name in self.to_save():
            value = self.cleaned_data[name]
            if name == "professions" and value is None:
                value = {}
            if name in OPTIONAL and value is None:
                continue  # left out: the default for a new character, unchanged for an edit
            if name.startswith("skill_"):
                skills[name.removeprefix("skill_")] = value
            else:
                result[name] = value
        if skills:
            result["skills"] = skills
        return result


class ReputationForm(RecordForm):
    """The GM's: create (``reputation=None``) or edit a reputation, every field of it (a
    player may not change his reputations: ``characters.services.REPUTATION_FIELDS``)."""

    kind = forms.ChoiceField(choices=Reputation.Kind.choices, widget=forms.RadioSelect,
                             help_text="Personal: capped by Charm. Institution (a group, ship "
                                       "or family): capped by Influence.")
    descriptor = forms.CharField(max_length=100, help_text="“Distrusted by”, “Admired by”")
    subject = forms.CharField(max_length=200, help_text="“Captain Jones”, “the Ward Room”")
    value = forms.IntegerField(min_value=1, max_value=MAX_RATING, initial=1,
                               widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    damage_state = forms.TypedChoiceField(label="Damage", choices=DAMAGE_STATE_CHOICES,
                                          coerce=int, initial=0)

    def __init__(self, *args, reputation: Reputation | None = None, **kwargs):
        super().__init__(*args, record=reputation, **kwargs)

    @staticmethod
    def initial_for(reputation: Reputation) -> dict:
        return {"kind": reputation.kind, "descriptor": reputation.descriptor,
                "subject": reputation.subject, "value": reputation.value,
                "damage_state": reputation.damage_state, "version": reputation.version}

    def changes(self) -> dict:
        """All values for a new reputation, the changed ones for an edit."""
        return {n: self.cleaned_data[n] for n in self.to_save()}


class TraitForm(Form):
    """GM: a trait the character takes, its parameter and the wording of the reputations it
    leaves to the player (Crusty Old Seadog's two ships, Heartbreaker's two ladies)."""

    trait = forms.ChoiceField(choices=TRAIT_CHOICES)
    times = forms.IntegerField(min_value=1, max_value=3, initial=1,
                               widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    parameter = forms.CharField(
        max_length=200, required=False, label="Named",
        help_text="What the trait names: the language, captain, officer, cause, why.")
    descriptor_1 = forms.CharField(max_length=100, required=False, label="Reputation 1: as")
    subject_1 = forms.CharField(max_length=200, required=False, label="Reputation 1: of")
    descriptor_2 = forms.CharField(max_length=100, required=False, label="Reputation 2: as")
    subject_2 = forms.CharField(max_length=200, required=False, label="Reputation 2: of")

    def changes(self) -> dict:
        data = self.cleaned_data
        return {"trait": data["trait"], "times": data["times"], "parameter": data["parameter"],
                "reputations": [{"descriptor": data[f"descriptor_{i}"],
                                 "subject": data[f"subject_{i}"]} for i in (1, 2)]}


class ItemForm(Form):
    """GM: a curio or item (BtQ L522-530, L1007-1017)."""

    kind = forms.ChoiceField(choices=Item.Kind.choices)
    name = forms.CharField(max_length=200)
    skill = forms.ChoiceField(choices=[("", "—"), *SKILLS.items()], required=False,
                              help_text="A curio's or priceless item's skill.")
    reputation = forms.TypedChoiceField(choices=[], coerce=int, required=False,
                                        empty_value=None,
                                        help_text="An important item's reputation.")
    weapon = forms.CharField(max_length=60, required=False,
                             help_text="A special weapon's: “pistol”, “sword”. A weapon of the "
                                       "fights adds its card there by itself.")
    condition = forms.CharField(max_length=200, required=False,
                                help_text="Where it applies: “navigating the West Indies”. "
                                          "Without one, the item adds its cards by itself.")

    def __init__(self, *args, character: Character, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["reputation"].choices = [("", "—")] + [
            (r.pk, r.name) for r in character.reputations.all()]


class ImportForm(Form):
    """GM: a character from an export (schema version 1 or 2)."""

    data = JSONField(label="The export (JSON)", widget=forms.Textarea(attrs={"rows": 8}))
    owner = forms.ModelChoiceField(label="Player (for a PC)", required=False,
                                   queryset=get_user_model().objects.none())

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["owner"].queryset = get_user_model().objects.filter(
            memberships__campaign=campaign).order_by("username")
