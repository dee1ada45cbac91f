"""REST API of shipboard life, under ``/api/`` (everything the shipboard page offers): a
character's shipboard view, and one endpoint per use case. A use case that draws answers
201 with ``{"test": id | null, "message"}``: the card test it opened (turn its cards with
``/api/card-tests/<id>/confirm/``), or none (an automatic purchase).

Answers: 400 bad input (the reason per field), 403 a step that is not the user's, 404 not a
member (or a player asking for an NPC), 409 a stale ``version``; nothing is changed then."""

from django.core.exceptions import ValidationError
from django.http import Http404
from django.urls import path
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.api_common import InputSerializer, id_field
from campaigns.models import Campaign
from campaigns.selectors import membership_role
from characters import shipboard as records
from characters.models import Character, PrizeShare, SceneToken
from combat.shipboard import selectors, services
from rules.btq import promotion, shipboard, wealth, weather
from rules.btq.characters import SKILLS
from rules.btq.tests import DIFFICULTIES
from ships import prizes
from ships.models import Prize

STARTED = inline_serializer("ShipboardStarted", {
    "test": serializers.IntegerField(allow_null=True,
                                     help_text="The card test opened, or null."),
    "message": serializers.CharField()})


class ShipboardViewSerializer(serializers.Serializer):
    """A character's shipboard life as the viewer may see it
    (``combat.shipboard.selectors.shipboard_view``)."""

    character = serializers.JSONField()
    wealth = serializers.JSONField(help_text="{value, state, lives_like}")
    prize_shares = serializers.JSONField(help_text="[{id, prize, status, shares_as, "
                                                   "prize_class, entries [[L, k]], text}]")
    tokens = serializers.JSONField()
    career = serializers.JSONField()
    promotions = serializers.JSONField(help_text="[{key, from, to, eligible, checks}]")
    infractions = serializers.JSONField(help_text="gm_notes for the GM only")
    open_tests = serializers.JSONField()
    can_act = serializers.BooleanField()
    is_gm = serializers.BooleanField()


def _choices(mapping) -> list:
    return list(mapping)


class BuySerializer(InputSerializer):
    item = serializers.ChoiceField(choices=_choices(wealth.PRICES), required=False,
                                   allow_blank=True, help_text="A price-list key.")
    name = serializers.CharField(required=False, allow_blank=True, max_length=100,
                                 help_text="GM: anything else, with its cost.")
    cost = serializers.IntegerField(required=False, min_value=0, max_value=10)
    available = serializers.BooleanField(required=False, default=True)
    rarity = serializers.ChoiceField(choices=_choices(wealth.RARITY), required=False,
                                     default="ordinary")
    opposition = serializers.IntegerField(required=False, min_value=0, max_value=51,
                                          allow_null=True, help_text="GM only.")
    reputation = serializers.IntegerField(required=False, allow_null=True)
    use_prize = serializers.BooleanField(required=False, default=True)


class SupplySerializer(InputSerializer):
    skill = serializers.ChoiceField(choices=_choices(wealth.SUPPLY_TESTS))
    items = serializers.CharField(max_length=200)
    difficulty = serializers.ChoiceField(choices=_choices(DIFFICULTIES), required=False,
                                         allow_blank=True, help_text="GM only.")
    reputation = serializers.IntegerField(required=False, allow_null=True)


class GrogSerializer(InputSerializer):
    drink = serializers.ChoiceField(choices=_choices(shipboard.DRINKS))
    challenge = serializers.CharField(max_length=200)
    iron_stomach = serializers.BooleanField(required=False, default=False)


class SceneSerializer(InputSerializer):
    scene = serializers.ChoiceField(choices=_choices(shipboard.SCENES))
    topic = serializers.CharField(max_length=200)
    skill = serializers.ChoiceField(choices=_choices(SKILLS))
    others = serializers.ListField(child=id_field(), max_length=30,
                                   required=False, default=list,
                                   help_text="The other characters who take part.")
    captain = id_field(required=False, allow_null=True, default=None,
                                       help_text="The Captain (an NPC), who tests his own "
                                                 "skill at his table.")
    captain_skill = serializers.ChoiceField(choices=_choices(SKILLS), required=False,
                                            allow_blank=True, default="")
    reputations = serializers.ListField(child=serializers.IntegerField(), max_length=30,
                                        required=False, default=list,
                                        help_text="Reputations used, one per participant.")


class ExaminationSerializer(InputSerializer):
    reputation = serializers.IntegerField(required=False, allow_null=True)
    reputation_challenge = serializers.IntegerField(required=False, default=0, min_value=0,
                                                    max_value=2)


class WeatherSerializer(InputSerializer):
    skill = serializers.ChoiceField(choices=_choices(SKILLS))
    wind = serializers.ChoiceField(choices=_choices(weather.WINDS))
    precipitation = serializers.ChoiceField(choices=_choices(weather.PRECIPITATION))
    mode = serializers.ChoiceField(choices=["modifier", "opponent"])
    intent = serializers.CharField(max_length=200)
    difficulty = serializers.CharField(required=False, allow_blank=True, default="")
    at_risk = serializers.ChoiceField(choices=["", "health", "ship_morale", "wealth"],
                                      required=False, default="")


class PromoteSerializer(InputSerializer):
    step = serializers.ChoiceField(choices=[k for k in promotion.PATHS if k != "lieutenant"])
    version = serializers.IntegerField(help_text="The character's version (409 if stale).")
    vacancy = serializers.BooleanField(required=False, default=False)
    profession = serializers.ChoiceField(choices=["", *promotion.PROFESSIONS], required=False,
                                         default="")
    post = serializers.CharField(required=False, allow_blank=True, default="", max_length=100)


class CareerSerializer(InputSerializer):
    version = serializers.IntegerField(help_text="The service record's version.")
    voyages_completed = serializers.IntegerField(required=False)
    voyages_since_promotion = serializers.IntegerField(required=False)
    profession = serializers.CharField(required=False, allow_blank=True)
    examination_barred = serializers.BooleanField(required=False)


class ChargeSerializer(InputSerializer):
    article = serializers.IntegerField(help_text="1-36")
    punishment = serializers.ChoiceField(choices=_choices(shipboard.PUNISHMENTS))
    lashes = serializers.IntegerField(required=False, default=0, min_value=0)
    broken_on_ship = serializers.IntegerField(required=False, allow_null=True)
    details = serializers.CharField(required=False, allow_blank=True, default="")
    gm_notes = serializers.CharField(required=False, allow_blank=True, default="")


class TokenSpendSerializer(InputSerializer):
    challenge = serializers.CharField(max_length=200)


def _character(request, pk) -> tuple[Character, str]:
    return selectors.shipboard_character(request.user, pk)


class ShipboardView(APIView):
    @extend_schema(responses=ShipboardViewSerializer)
    def get(self, request, pk):
        """A character's Wealth, prize shares, tokens, service record, promotion
        prerequisites and punishments, as you may see them."""
        character, access = _character(request, pk)
        return Response(selectors.shipboard_view(request.user, character, access))


class _UseCase(APIView):
    serializer_class = None
    use = None

    def arguments(self, data: dict, character: Character) -> dict:
        return data

    def post(self, request, pk):
        character, _ = _character(request, pk)
        data = self.serializer_class(data=request.data)
        data.is_valid(raise_exception=True)
        started = type(self).use(character=character, actor=request.user,
                                 **self.arguments(dict(data.validated_data), character))
        return Response({"test": started.test.pk if started.test else None,
                         "message": started.message}, status=status.HTTP_201_CREATED)


def _use_case(name, serializer, use, doc, arguments=None):
    def post(self, request, pk):
        return _UseCase.post(self, request, pk)
    post.__doc__ = doc
    attrs = {"serializer_class": serializer, "use": use,
             "post": extend_schema(request=serializer, responses={201: STARTED})(post)}
    if arguments is not None:
        attrs["arguments"] = arguments
    return type(name, (_UseCase,), attrs)


def _no_null(self, data: dict, character: Character) -> dict:
    return {k: v for k, v in data.items() if v is not None}


def _table(self, data: dict, character: Character) -> dict:
    crew = Character.objects.filter(campaign=character.campaign)
    others = list(crew.filter(pk__in=data["others"]))
    if len(others) != len(set(data["others"])):
        raise ValidationError({"others": "Choose characters of this campaign."})
    captain = None
    if data["captain"] is not None:
        captain = crew.filter(pk=data["captain"]).first()
        if captain is None:
            raise ValidationError({"captain": "Choose a character of this campaign."})
    return {**data, "others": others, "captain": captain}


BuyView = _use_case("BuyView", BuySerializer, services.purchase_start,
                    "Buy an item of the price list (the GM: anything, at its cost): at once, "
                    "or a Wealth test.", _no_null)
SupplyView = _use_case("SupplyView", SupplySerializer, services.supply_start,
                       "A Purser or Scavenge test for supplies.")
GrogView = _use_case("GrogView", GrogSerializer, services.grog_start,
                     "A Guts test against the drink's Grog Rating.")
SceneView = _use_case("SceneView", SceneSerializer, services.scene_start,
                      "GM: the test of the Captain's table or the gun deck: everyone who takes "
                      "part, one contested test, one winner. ``test`` is the scene's "
                      "encounter (``/api/encounters/<id>/``).", _table)
ExaminationView = _use_case("ExaminationView", ExaminationSerializer,
                            services.examination_start,
                            "GM: the Lieutenant's examination begins.")
WeatherView = _use_case("WeatherView", WeatherSerializer, services.weather_test_start,
                        "GM: a test in the weather, as a modifier or as the opponent.")


class PromoteView(APIView):
    @extend_schema(request=PromoteSerializer, responses=ShipboardViewSerializer)
    def post(self, request, pk):
        """GM: promote the character once every prerequisite is met."""
        character, access = _character(request, pk)
        data = PromoteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        records.character_promote(character=character, actor=request.user,
                                  **data.validated_data)
        character.refresh_from_db()
        return Response(selectors.shipboard_view(request.user, character, access))


class CareerView(APIView):
    @extend_schema(request=CareerSerializer, responses=ShipboardViewSerializer)
    def post(self, request, pk):
        """GM: the service record (Voyages, profession, examination barred)."""
        character, access = _character(request, pk)
        data = CareerSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        records.career_update(character=character, actor=request.user, **data.validated_data)
        return Response(selectors.shipboard_view(request.user, character, access))


class ChargeView(APIView):
    @extend_schema(request=ChargeSerializer, responses={201: ShipboardViewSerializer})
    def post(self, request, pk):
        """GM: a charge under the Articles of War and its punishment."""
        character, access = _character(request, pk)
        data = ChargeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        records.infraction_record(character=character, actor=request.user,
                                  **data.validated_data)
        return Response(selectors.shipboard_view(request.user, character, access),
                        status=status.HTTP_201_CREATED)


class TokenSpendView(APIView):
    @extend_schema(request=TokenSpendSerializer, responses=inline_serializer(
        "ShipboardModifier", {"source": serializers.CharField(),
                              "cards": serializers.IntegerField()}))
    def post(self, request, pk):
        """Surrender a token on a challenge of its topic: its holder's player, or the GM.
        Returns the modifier for that challenge's test."""
        token = SceneToken.objects.filter(pk=pk).select_related("campaign").first()
        if token is None or membership_role(request.user, token.campaign) is None:
            raise Http404("No such token.")
        data = TokenSpendSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        return Response(records.scene_token_spend(token=token, actor=request.user,
                                                  **data.validated_data))


class ShareSpentView(APIView):
    @extend_schema(request=None, responses={200: inline_serializer(
        "ShipboardShare", {"id": serializers.IntegerField(),
                           "status": serializers.CharField()})})
    def post(self, request, pk):
        """GM: a prize share is spent (the ship has left port)."""
        share = PrizeShare.objects.filter(pk=pk).select_related("character__campaign").first()
        if share is None or membership_role(request.user,
                                                    share.character.campaign) is None:
            raise Http404("No such share.")
        share = records.prize_share_close(share=share, actor=request.user)
        return Response({"id": share.pk, "status": share.status})


PRIZE = inline_serializer("Prize", {
    "id": serializers.IntegerField(), "captured": serializers.CharField(),
    "battle": serializers.IntegerField(), "status": serializers.CharField(),
    "version": serializers.IntegerField()})


def _prize(prize: Prize) -> dict:
    return {"id": prize.pk, "captured": prize.captured, "battle": prize.battle,
            "status": prize.status, "version": prize.version}


class PrizeListView(APIView):
    @extend_schema(responses={200: serializers.ListSerializer(child=PRIZE)})
    def get(self, request, pk):
        """A campaign's prizes, newest first: held (on their way to port), arrived (their
        prize money paid), lost or recaptured. Every member sees them."""
        campaign = Campaign.objects.filter(pk=pk).first()
        if campaign is None or membership_role(request.user, campaign) is None:
            raise Http404("No such campaign.")
        return Response([_prize(p) for p in campaign.prizes.all()])


class PrizeResolveSerializer(InputSerializer):
    status = serializers.ChoiceField(choices=[c for c, _ in Prize.Status.choices[1:]])
    version = serializers.IntegerField()


class PrizeResolveView(APIView):
    @extend_schema(request=PrizeResolveSerializer, responses={200: PRIZE})
    def post(self, request, pk):
        """GM: a held prize reached port (``arrived``: her prize money is shared out by rank
        to the PCs who took her, once), or was ``lost`` or ``recaptured`` (nothing paid)."""
        prize = Prize.objects.filter(pk=pk).select_related("campaign").first()
        if prize is None or membership_role(request.user, prize.campaign) is None:
            raise Http404("No such prize.")
        data = PrizeResolveSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        return Response(_prize(prizes.prize_resolve(prize=prize, actor=request.user,
                                                    **data.validated_data)))


urlpatterns = [
    path("campaigns/<int:pk>/prizes/", PrizeListView.as_view(), name="api-prizes"),
    path("prizes/<int:pk>/resolve/", PrizeResolveView.as_view(), name="api-prize-resolve"),
    path("characters/<int:pk>/shipboard/", ShipboardView.as_view(), name="api-shipboard"),
    path("characters/<int:pk>/shipboard/buy/", BuyView.as_view(), name="api-shipboard-buy"),
    path("characters/<int:pk>/shipboard/supply/", SupplyView.as_view(),
         name="api-shipboard-supply"),
    path("characters/<int:pk>/shipboard/grog/", GrogView.as_view(), name="api-shipboard-grog"),
    path("characters/<int:pk>/shipboard/scene/", SceneView.as_view(),
         name="api-shipboard-scene"),
    path("characters/<int:pk>/shipboard/examination/", ExaminationView.as_view(),
         name="api-shipboard-examination"),
    path("characters/<int:pk>/shipboard/weather/", WeatherView.as_view(),
         name="api-shipboard-weather"),
    path("characters/<int:pk>/shipboard/promote/", PromoteView.as_view(),
         name="api-shipboard-promote"),
    path("characters/<int:pk>/shipboard/career/", CareerView.as_view(),
         name="api-shipboard-career"),
    path("characters/<int:pk>/shipboard/charge/", ChargeView.as_view(),
         name="api-shipboard-charge"),
    path("scene-tokens/<int:pk>/spend/", TokenSpendView.as_view(),
         name="api-shipboard-token-spend"),
    path("prize-shares/<int:pk>/spent/", ShareSpentView.as_view(),
         name="api-shipboard-share-spent"),
]
