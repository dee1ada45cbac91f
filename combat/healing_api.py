"""REST API of the heal and repair tests (``combat.healing``): the GM calls them; they are
card tests, answered as ``/api/card-tests/<id>/`` answers."""

from django.urls import path
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError as ApiValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.api_common import InputSerializer
from characters.models import Character
from characters.selectors import character_for_user
from combat import healing
from combat.card_tests.api import CardTestSerializer, _view
from rules.btq.characters import SKILLS
from rules.btq.ships import AREAS
from ships.selectors import ship_for_user


class HealTestSerializer(InputSerializer):
    area = serializers.ChoiceField(choices=list(healing.HEAL_AREAS))
    reputation = serializers.IntegerField(required=False, allow_null=True,
                                          help_text="For area ``reputation``: which.")
    healer = serializers.IntegerField(required=False, allow_null=True,
                                      help_text="The PC who turns the cards (default the "
                                                "character).")
    skill = serializers.ChoiceField(choices=[("", "default"), *SKILLS.items()], required=False)


class RepairTestSerializer(InputSerializer):
    area = serializers.ChoiceField(choices=list(AREAS))
    character = serializers.IntegerField(help_text="The PC aboard who repairs.")
    skill = serializers.ChoiceField(choices=[("", "default"), *SKILLS.items()], required=False)


def _character(campaign, pk, field: str) -> Character | None:
    if pk is None:
        return None
    found = Character.objects.filter(campaign=campaign, pk=pk).first()
    if found is None:
        raise ApiValidationError({field: "No such character in this campaign."})
    return found


class HealTestView(APIView):
    @extend_schema(request=HealTestSerializer, responses={201: CardTestSerializer})
    def post(self, request, pk):
        """GM: call the simple test that heals the character's Injured area (the healer's
        player turns the cards; a pass heals it, a failure locks it until another
        challenge)."""
        character = character_for_user(request.user, pk)
        data = HealTestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        reputation = None
        if values.get("reputation") is not None:
            reputation = character.reputations.filter(pk=values["reputation"]).first()
            if reputation is None:
                raise ApiValidationError({"reputation": "Not one of the character's."})
        test = healing.heal_call(
            character=character, area=values["area"], actor=request.user,
            reputation=reputation, skill=values.get("skill", ""),
            healer=_character(character.campaign, values.get("healer"), "healer"))
        return _view(request, test, status.HTTP_201_CREATED)


class RepairTestView(APIView):
    @extend_schema(request=RepairTestSerializer, responses={201: CardTestSerializer})
    def post(self, request, pk):
        """GM: between battles, call the repair test of one of the ship's areas (a PC aboard
        turns the cards; a success mends one box of its level or lower)."""
        ship = ship_for_user(request.user, pk)
        data = RepairTestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        test = healing.ship_repair_call(
            ship=ship, area=values["area"], actor=request.user, skill=values.get("skill", ""),
            character=_character(ship.campaign, values["character"], "character"))
        return _view(request, test, status.HTTP_201_CREATED)


class ScarDrawView(APIView):
    @extend_schema(request=None, responses={201: OpenApiResponse(
        description="The Scar card's encounter, as /api/encounters/<id>/ answers it.")})
    def post(self, request, pk):
        """The GM or the character's player: the Scar card that is due (the optional Scar
        rule) is to be turned; answered as ``/api/encounters/<id>/`` answers, the player then
        turns it there."""
        from combat.api import _detail  # combat.api includes these routes

        character = character_for_user(request.user, pk)
        encounter = healing.scar_draw_start(character=character, actor=request.user)
        return Response(_detail(request.user, encounter), status=status.HTTP_201_CREATED)


urlpatterns = [
    path("characters/<int:pk>/scar-card/", ScarDrawView.as_view(), name="api-scar-card"),
    path("characters/<int:pk>/heal-test/", HealTestView.as_view(), name="api-heal-test"),
    path("ships/<int:pk>/repair-test/", RepairTestView.as_view(), name="api-repair-test"),
]
