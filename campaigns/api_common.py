"""API conventions shared by every app's ``api.py``: the schema of the 409 answer to a
refused step (``campaigns.services.Conflict``, answered by ``config.api.exception_handler``),
of an answer whose fields depend on who asks, request bodies of JSON's own types, and damage
states as numbers."""

from collections.abc import Mapping

from rest_framework import serializers

from rules.btq.characters import DamageState

DAMAGE_STATE_HELP = ", ".join(f"{s.value} {s.label}" for s in DamageState)


MAX_ID = 2**63 - 1
"""The largest id or version a database integer column holds: larger numbers are refused as
bad input, never handed to the database (an overflow there is a 500)."""


def id_field(**kwargs) -> serializers.IntegerField:
    """A row's id: a whole number a database integer column holds."""
    return serializers.IntegerField(min_value=1, max_value=MAX_ID, **kwargs)


def damage_state_field(**kwargs) -> serializers.IntegerField:
    """A damage state as its number, 0-3 (as an enum the schema would name it once per
    field)."""
    return serializers.IntegerField(min_value=0, max_value=3, help_text=DAMAGE_STATE_HELP,
                                    **kwargs)


class ConflictSerializer(serializers.Serializer):
    """The 409 answer: why the step was refused, and the version now saved."""

    detail = serializers.CharField()
    version = serializers.IntegerField(help_text="The version now saved.")


class OneOfForViewer(serializers.Serializer):
    """For the schema only: an answer shaped by one of ``choices`` (serializer classes), the
    one for the viewer's access (what a GM, the crew or another player sees of a ship).
    Documented as the component ``name``, ``anyOf`` the choices (``config.schema``)."""

    def __init__(self, name: str, choices: list, **kwargs):
        self.component_name = name
        self.choices = choices
        super().__init__(**kwargs)


def _type_error(field, value) -> str | list | dict | None:
    """Why ``value`` (from a JSON body) is not of the JSON type ``field`` documents, else
    ``None``: a string for text and choices of text, ``true``/``false`` for a boolean, a
    whole number for an integer, an array or an object of such for a list or a mapping."""
    if value is None:
        return None  # the field's own allow_null decides
    if isinstance(field, serializers.BooleanField):
        return None if isinstance(value, bool) else "Must be true or false."
    if isinstance(field, serializers.IntegerField):
        ok = isinstance(value, int) and not isinstance(value, bool)
        return None if ok else "Must be a whole number."
    if isinstance(field, serializers.ChoiceField):
        textual = all(isinstance(key, str) for key in field.choices)
        return "Must be a string." if textual and not isinstance(value, str) else None
    if isinstance(field, serializers.CharField | serializers.SlugRelatedField):
        return None if isinstance(value, str) else "Must be a string."
    if isinstance(field, serializers.ListField):
        if not isinstance(value, list):
            return "Must be an array."
        errors = {str(i): e for i, item in enumerate(value)
                  if (e := _type_error(field.child, item))}
        return errors or None
    if isinstance(field, serializers.DictField):
        if not isinstance(value, dict):
            return "Must be an object."
        errors = {key: e for key, item in value.items() if (e := _type_error(field.child, item))}
        return errors or None
    return None


class InputSerializer(serializers.Serializer):
    """A request body, taken as the schema documents it: each field's value of the JSON type
    it names (400 with the reason per field otherwise). DRF alone would read ``7758`` as the
    name ``"7758"``, ``"3"`` as the version 3 and ``"yes"`` as ``true``."""

    def to_internal_value(self, data):
        if isinstance(data, Mapping):
            errors = {name: error for name, field in self.fields.items()
                      if not field.read_only and name in data
                      and (error := _type_error(field, data[name]))}
            if errors:
                raise serializers.ValidationError(errors)
        return super().to_internal_value(data)
