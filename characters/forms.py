"""The character form: what the editing user may change, and nothing else."""

from django import forms
from django.contrib.auth import get_user_model

from campaigns.forms import Form
from characters.models import DAMAGE_STATE_CHOICES, MAX_RATING, Character
from rules.btq.characters import MEASURES, SKILLS


def _rating(label: str, minimum: int) -> forms.IntegerField:
    return forms.IntegerField(
        label=label, min_value=minimum, max_value=MAX_RATING,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


class CharacterForm(Form):
    """Create (``character=None``) or edit a character. ``access`` is ``"gm"`` (all fields)
    or ``"owner"`` (name, Measures and skills: what a player may change)."""

    def __init__(self, *args, access: str, campaign, character: Character | None = None,
                 **kwargs):
        if character is not None:
            kwargs.setdefault("initial", self.initial_for(character))
        super().__init__(*args, **kwargs)
        self.editing = character is not None
        gm = access == "gm"
        if self.editing:
            self.fields["version"] = forms.IntegerField(widget=forms.HiddenInput)
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
        if gm:
            self.fields["health_state"] = forms.TypedChoiceField(
                label="Health", choices=DAMAGE_STATE_CHOICES, coerce=int, initial=0
            )
            self.fields["ship_morale_state"] = forms.TypedChoiceField(
                label="Ship Morale", choices=DAMAGE_STATE_CHOICES, coerce=int, initial=0
            )
            self.fields["gm_notes"] = forms.CharField(
                label="GM notes (never shown to players)", required=False,
                widget=forms.Textarea(attrs={"rows": 3}),
            )

    @staticmethod
    def initial_for(character: Character) -> dict:
        initial = {
            "version": character.version, "kind": character.kind, "owner": character.owner_id,
            "rank": character.rank, "name": character.name, "seniority": character.seniority,
            "health_state": character.health_state,
            "ship_morale_state": character.ship_morale_state, "gm_notes": character.gm_notes,
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
        names = self.changed_data if self.editing else list(self.cleaned_data)
        result, skills = {}, {}
        for name in names:
            if name == "version":
                continue
            value = self.cleaned_data[name]
            if name.startswith("skill_"):
                skills[name.removeprefix("skill_")] = value
            else:
                result[name] = value
        if skills:
            result["skills"] = skills
        return result
