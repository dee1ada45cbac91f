"""REST API of the odds, under ``/api/`` (what the odds' pages offer): ask for a simulation
from a new battle's terms or from a running battle (optionally of one pending decision),
read it (progress, then results, as the JSON download), stop it. Errors are
``{"detail": reason}`` or the fields' reasons: 404 for a simulation or battle the user may
not see, 403 where the odds are the GM's, 400 for bad input."""

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.api_common import InputSerializer
from campaigns.selectors import campaign_for_user
from combat import selectors as combat_selectors
from combat.new_battle_api import NewBattleSerializer, new_battle_of
from combat.odds import selectors, services
from combat.odds.views import results_json


class GamesSerializer(InputSerializer):
    games = serializers.IntegerField(required=False, min_value=1, max_value=services.MAX_GAMES,
                                     help_text="Games to play (per option of a decision).")
    until_precise = serializers.BooleanField(
        required=False, default=False,
        help_text="Play batches until every outcome's 95 % interval is within one point.")


class OddsOfSetupSerializer(NewBattleSerializer, GamesSerializer):
    """A new battle's terms, as a new battle takes them (``combat.new_battle_api``), with
    its stacked cards, and how many games to play."""

    stacked_cards = serializers.CharField(
        required=False, allow_blank=True,
        help_text="GM-only cards every game draws first, as the battle would, e.g. '6C 4C'.")


class OddsOfEncounterSerializer(GamesSerializer):
    actor = serializers.CharField(max_length=100, required=False, allow_blank=True,
                                  help_text="With kind: a pending decision, for its what if.")
    kind = serializers.CharField(max_length=100, required=False, allow_blank=True)


def _valid(serializer_class, data) -> dict:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class OddsOfSetupView(APIView):
    @extend_schema(request=OddsOfSetupSerializer, responses={201: serializers.DictField()})
    def post(self, request, campaign_id):
        campaign = campaign_for_user(request.user, campaign_id)
        data = _valid(OddsOfSetupSerializer, request.data)
        battle = new_battle_of(campaign, data)
        simulation = services.simulation_create_from_setup(
            campaign=campaign, user=request.user, engine="btq_naval", title=battle.name(),
            setup=battle.setup(), games=data.get("games"), until_precise=data["until_precise"],
            ships=battle.ships, stacked_cards=data.get("stacked_cards"))
        return Response(results_json(request.user, simulation), status=status.HTTP_201_CREATED)


class OddsOfEncounterView(APIView):
    @extend_schema(request=OddsOfEncounterSerializer, responses={201: serializers.DictField()})
    def post(self, request, pk):
        encounter = combat_selectors.encounter_for_user(request.user, pk)
        data = _valid(OddsOfEncounterSerializer, request.data)
        simulation = services.simulation_create_from_encounter(
            encounter=encounter, user=request.user, actor=data.get("actor", ""),
            decision_kind=data.get("kind", ""), games=data.get("games"),
            until_precise=data["until_precise"])
        return Response(results_json(request.user, simulation), status=status.HTTP_201_CREATED)


class OddsView(APIView):
    @extend_schema(responses=serializers.DictField())
    def get(self, request, pk):
        simulation = selectors.simulation_for_user(request.user, pk)
        return Response(results_json(request.user, simulation))


class OddsCancelView(APIView):
    @extend_schema(request=None, responses=serializers.DictField())
    def post(self, request, pk):
        simulation = selectors.simulation_for_user(request.user, pk)
        simulation = services.simulation_cancel(simulation=simulation, user=request.user)
        return Response(results_json(request.user, simulation))


urlpatterns = [
    path("campaigns/<int:campaign_id>/odds/", OddsOfSetupView.as_view(), name="api-odds-new"),
    path("encounters/<int:pk>/odds/", OddsOfEncounterView.as_view(), name="api-odds-ask"),
    path("odds/<int:pk>/", OddsView.as_view(), name="api-odds"),
    path("odds/<int:pk>/cancel/", OddsCancelView.as_view(), name="api-odds-cancel"),
]
