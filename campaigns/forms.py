"""Forms of the campaign pages, and the conventions every app's forms share: fields with
errors are marked for Pico CSS, and a service's refusal lands on the fields it names."""

import json
from collections.abc import Callable
from typing import Any, TypeVar

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import ValidationError
from django.db.models import Model
from django.forms.fields import InvalidJSONInput, JSONString

from campaigns import json_input
from campaigns.services import Conflict, StaleVersion
from rules.btq.settings import SETTINGS

Saved = TypeVar("Saved")


class PicoMixin:
    """Marks every field that has an error with ``aria-invalid`` (Pico draws it red) and
    shows the error beside it."""

    def add_error(self, field, error):
        super().add_error(field, error)
        for name in self.errors:
            if name in self.fields:
                self.fields[name].widget.attrs["aria-invalid"] = "true"

    def add_service_error(self, exc: ValidationError) -> None:
        """Put a service's ``ValidationError`` on the fields it names (the rest on the form)."""
        if hasattr(exc, "error_dict"):
            for field, errors in exc.message_dict.items():
                self.add_error(field if field in self.fields else None, errors)
        else:
            self.add_error(None, exc.messages)

    def submit(self, save: Callable[[], Saved]) -> Saved | None:
        """Call ``save``, the service call that writes this (valid) form's data, and return
        what it returns. If the service refuses, nothing was written: the reason lands on the
        form and ``None`` is returned (a ``ValidationError`` on the fields it names, a
        :class:`campaigns.services.Conflict`, someone saved first, on the whole form)."""
        try:
            return save()
        except Conflict as exc:
            self.refused(exc)
        except ValidationError as exc:
            self.add_service_error(exc)
        return None

    def refused(self, exc: Conflict) -> None:
        """Show the service's refusal ``exc`` on the whole form."""
        self.add_error(None, str(exc))


class Form(PicoMixin, forms.Form):
    pass


def shown(field: forms.Field, value) -> str:
    """``value`` of form ``field`` in words, as the field offers it: a choice's label, a
    record's name, "yes"/"no", JSON as typed, "(empty)" for nothing."""
    if value is None or value == "" or (isinstance(value, list | dict) and not value):
        return "(empty)"
    if isinstance(field, forms.ModelMultipleChoiceField):
        return ", ".join(sorted(str(record) for record in value)) or "(empty)"
    if isinstance(field, forms.ModelChoiceField):
        record = value if isinstance(value, Model) else field.queryset.filter(pk=value).first()
        return str(record)
    if isinstance(field, forms.ChoiceField):
        return str(dict((str(key), label) for key, label in field.choices).get(str(value), value))
    if isinstance(field, forms.BooleanField):
        return "yes" if value else "no"
    if isinstance(field, forms.JSONField):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


NOTHING_TO_SAVE = "Nothing to save: no field changed."
"""What a record's page says when its form was sent as it was (nothing written, the
version kept: :class:`RecordForm`)."""


class RecordForm(Form):
    """A form that creates a record (``record=None``) or edits one: built with the record's
    values now saved as its ``initial`` (``initial_for(record)``, which every subclass
    gives: the form's values for a record as saved, its ``version`` among them), it carries
    the version the user started from, so that a save over someone else's newer one is
    refused.

    On that refusal (:class:`campaigns.services.StaleVersion`) nothing was written, and the
    form is shown again with the values the user typed, ``stale`` listing beside them the
    values now saved of the fields that differ (``[{"label", "yours", "saved"}]``), and the
    version now saved in place of the old: saving it again then puts the user's values over
    the other person's, as the user chose, never silently."""

    initial_for: Callable[[Any], dict]

    def __init__(self, *args, record=None, **kwargs):
        if record is not None:
            kwargs.setdefault("initial", self.initial_for(record))
        super().__init__(*args, **kwargs)
        self.editing = record is not None
        self.stale: list[dict] = []
        if self.editing:
            self.fields["version"] = forms.IntegerField(widget=forms.HiddenInput)

    def to_save(self) -> list[str]:
        """The names of the fields whose values to save: all of a new record's, the changed
        ones of an edit (so an edit never writes what it did not touch); never ``version``."""
        names = self.changed_data if self.editing else list(self.cleaned_data)
        return [name for name in names if name != "version"]

    def refused(self, exc: Conflict) -> None:
        if not isinstance(exc, StaleVersion):
            super().refused(exc)
            return
        saved = self.initial_for(exc.obj)
        self.stale = [
            {"label": bound.label, "yours": shown(bound.field, self.cleaned_data.get(name)),
             "saved": shown(bound.field, saved[name])}
            for name, bound in ((name, self[name]) for name in self.fields)
            if name in saved and name != "version" and not bound.field.disabled
            and bound.field.has_changed(saved[name], bound.data)
        ]
        self.data = self.data.copy()
        self.data[self.add_prefix("version")] = str(exc.obj.version)
        self.add_error(None, (
            f"“{exc.obj}” was changed by someone else after you opened it: nothing of yours was "
            "saved. Your values are still in the form"
            + (", and the fields where they differ from the saved ones are listed below. "
               if self.stale else ". ")
            + "Save again to put yours in their place, or change them first."))


class TextField(forms.CharField):
    """Text of several lines (a ``Textarea``), its line breaks kept as ``\\n``: a browser
    sends every line break of a text area as ``\\r\\n``, so text saved as it was shown
    would otherwise differ from itself and count as a change."""

    widget = forms.Textarea

    def to_python(self, value):
        value = super().to_python(value)
        return value.replace("\r\n", "\n").replace("\r", "\n")


class JSONField(forms.JSONField):
    """Django's JSON form field, read as the API reads a body (``campaigns.json_input``):
    text longer than ``MAX_BYTES``, nested too deep or not strict JSON is an error on the
    field that says why, never a ``RecursionError``."""

    MAX_BYTES = 64 * 1024

    def to_python(self, value):
        if self.disabled or not isinstance(value, str) or value in self.empty_values:
            return super().to_python(value)
        try:
            converted = json_input.loads(value, max_bytes=self.MAX_BYTES)
        except json_input.JSONInputError as exc:
            raise ValidationError(str(exc), code="invalid", params={"value": value}) from None
        return JSONString(converted) if isinstance(converted, str) else converted

    def bound_data(self, data, initial):
        if self.disabled or data is None:
            return super().bound_data(data, initial)
        try:
            return json_input.loads(data, max_bytes=self.MAX_BYTES)
        except json_input.JSONInputError:
            return InvalidJSONInput(data)


class SignupForm(PicoMixin, UserCreationForm):
    pass


class VersionedForm(Form):
    """A form that edits a record: carries the version the user started from, so a save
    over someone else's newer one is refused."""

    version = forms.IntegerField(widget=forms.HiddenInput)


class CampaignForm(Form):
    name = forms.CharField(max_length=200)
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False)


def _choice_key(value) -> str:
    return str(value)


NOT_YET_IN_EFFECT: dict[str, str] = {}
"""Why each setting that nothing in the app applies yet (``used_by`` empty) has no effect:
what it waits for, shown on the settings page beside it."""


class CampaignSettingsForm(VersionedForm):
    """The campaign's name and description and every setting of
    ``rules.btq.settings.SETTINGS`` as a choice, the default marked, each field with
    ``used_by``: what in the app applies it, or ``not_yet``: why nothing does yet
    (:data:`NOT_YET_IN_EFFECT`, which names every such setting)."""

    name = forms.CharField(max_length=200)
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False)

    def __init__(self, *args, current: dict, **kwargs):
        super().__init__(*args, **kwargs)
        for name, setting in SETTINGS.items():
            choices = [
                (_choice_key(value), f"{label} (default)" if value == setting.default
                 and type(value) is type(setting.default) else label)
                for value, label in setting.choices.items()
            ]
            field = forms.ChoiceField(
                label=setting.description, choices=choices, widget=forms.RadioSelect,
                initial=_choice_key(current[name]),
            )
            field.used_by = setting.used_by
            field.not_yet = "" if setting.used_by else NOT_YET_IN_EFFECT[name]
            self.fields[f"setting_{name}"] = field

    def settings_fields(self):
        """The settings something in the app applies, in ``SETTINGS`` order."""
        return [self[f"setting_{name}"] for name, s in SETTINGS.items() if s.used_by]

    def inactive_settings_fields(self):
        """The settings nothing in the app applies yet, in ``SETTINGS`` order."""
        return [self[f"setting_{name}"] for name, s in SETTINGS.items() if not s.used_by]

    def chosen_settings(self) -> dict:
        """The settings chosen, as their real values (``False``, ``0``, ``"one_step"``)."""
        result = {}
        for name, setting in SETTINGS.items():
            key = self.cleaned_data[f"setting_{name}"]
            result[name] = next(v for v in setting.choices if _choice_key(v) == key)
        return result


class JournalFilterForm(Form):
    """The journal's filters: kind, character, session and words (all optional)."""

    kind = forms.ChoiceField(required=False, label="What")
    character = forms.TypedChoiceField(coerce=int, empty_value=None, required=False)
    session = forms.TypedChoiceField(coerce=int, empty_value=None, required=False)
    q = forms.CharField(required=False, max_length=100, label="Words")

    def __init__(self, *args, campaign, **kwargs):
        from campaigns import directory, journal
        from campaigns.models import Session

        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = [("", "Everything"), *journal.KINDS.items()]
        self.fields["character"].choices = [("", "Everyone")] + [
            (pk, ref.name) for pk, ref in sorted(directory.player_characters(campaign).items(),
                                                 key=lambda item: item[1].name)]
        self.fields["session"].choices = [("", "Every session")] + [
            (s.pk, str(s)) for s in Session.objects.filter(campaign=campaign)]

    def filters(self) -> dict:
        data = self.cleaned_data
        return {"kind": data.get("kind") or "", "character": data.get("character"),
                "session": data.get("session"), "text": (data.get("q") or "").strip()}
