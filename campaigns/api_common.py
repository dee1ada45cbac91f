"""API conventions shared by every app's ``api.py``: the schema of the 409 answer to a
refused step (``campaigns.services.Conflict``, answered by ``config.api.exception_handler``),
of an answer whose fields depend on who asks, and damage states as numbers."""

from rest_framework import serializers

from rules.btq.characters import DamageState

DAMAGE_STATE_HELP = ", ".join(f"{s.value} {s.label}" for s in DamageState)


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
