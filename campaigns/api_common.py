"""API conventions shared by every app's ``api.py``: the 409 answer to a stale write
(``campaigns.services.StaleVersion``) and damage states as numbers."""

from rest_framework import serializers, status
from rest_framework.response import Response

from campaigns.services import StaleVersion
from rules.btq.characters import DamageState

DAMAGE_STATE_HELP = ", ".join(f"{s.value} {s.label}" for s in DamageState)


def damage_state_field(**kwargs) -> serializers.IntegerField:
    """A damage state as its number, 0-3 (as an enum the schema would name it once per
    field)."""
    return serializers.IntegerField(min_value=0, max_value=3, help_text=DAMAGE_STATE_HELP,
                                    **kwargs)


class ConflictSerializer(serializers.Serializer):
    detail = serializers.CharField()
    version = serializers.IntegerField(help_text="The version now saved.")


def conflict_response(exc: StaleVersion) -> Response:
    """409 with the reason and the version now saved."""
    return Response({"detail": str(exc), "version": exc.obj.version},
                    status=status.HTTP_409_CONFLICT)
