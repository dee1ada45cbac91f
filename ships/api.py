"""REST API of ships: reference data, list and create in a campaign, detail and update
(409 on a stale version). What a user sees of a ship is decided by ``ships.selectors``:
players see only name, type and damage of any ship but their own, and never GM notes."""

from django.http import Http404
from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.api_common import InputSerializer, OneOfForViewer, damage_state_field
from campaigns.selectors import campaign_for_user, membership_role, require_gm
from rules.btq.characters import NPC_CREW_SKILLS
from ships import reputations, selectors, services
from ships.models import Ship, ShipCrewMember, ShipReputation, ShipTrait, ShipType


class ShipTypeSerializer(serializers.ModelSerializer):
    class Meta:
        model = ShipType
        fields = ["id", "name", "command", "rating", "guns_min", "guns_max", "boxes",
                  "broadside", "speed", "handling", "source"]


class ShipTraitSerializer(serializers.ModelSerializer):
    class Meta:
        model = ShipTrait
        fields = ["id", "name", "description", "speed", "handling", "broadside", "boxes",
                  "source"]


class ShipPublicSerializer(serializers.ModelSerializer):
    """What a player sees of a ship other than their own: name, type and damage."""

    type = serializers.CharField(source="ship_type.name", read_only=True)
    tracks = serializers.SerializerMethodField()
    damage = serializers.SerializerMethodField()

    class Meta:
        model = Ship
        fields = ["id", "campaign", "name", "guns", "display_name", "side", "type", "tracks",
                  "damage"]

    def get_tracks(self, obj) -> dict[str, str]:
        """Damage track per area, e.g. ``"x.|..|.."`` (x crossed; Injured|Maimed|Dead)."""
        return obj.tracks

    def get_damage(self, obj) -> dict[str, str]:
        """Damage state per area: Healthy, Injured, Maimed or Dead."""
        return {area: state.label for area, _, state in obj.damage}


class PostingSerializer(serializers.Serializer):
    character = serializers.IntegerField(source="character_id")
    name = serializers.CharField(source="character.title")
    station = serializers.CharField()


class ShipReputationSerializer(serializers.ModelSerializer):
    damage_state = damage_state_field(read_only=True)

    class Meta:
        model = ShipReputation
        fields = ["id", "kind", "descriptor", "subject", "value", "damage_state", "renowned",
                  "version"]


class ShipCrewMemberSerializer(serializers.ModelSerializer):
    class Meta:
        model = ShipCrewMember
        fields = ["position", "name", "competence", "key", "other", "disposition", "feature"]


class ShipCrewSerializer(ShipPublicSerializer):
    """What a player sees of the players' own ship: all but the GM's fields."""

    traits = serializers.SlugRelatedField(slug_field="name", many=True, read_only=True)
    reputations = ShipReputationSerializer(many=True, read_only=True)
    roster = ShipCrewMemberSerializer(many=True, read_only=True)
    stats = serializers.SerializerMethodField()
    crew = serializers.SerializerMethodField()
    postings = serializers.SerializerMethodField()
    morale_state = damage_state_field(read_only=True)

    class Meta(ShipPublicSerializer.Meta):
        fields = [*ShipPublicSerializer.Meta.fields, "traits", "stats", "morale_state",
                  "crew", "postings", "reputations", "roster", "version"]

    def get_stats(self, obj) -> dict:
        """Broadside, Speed, Handling and boxes per segment of each area (type + traits +
        overrides)."""
        s = services.ship_stats_of(obj)
        return {"broadside": s.broadside, "speed": s.speed, "handling": s.handling,
                "boxes": {area: list(n) for area, n in s.boxes.items()}}

    def get_crew(self, obj) -> dict[str, int]:
        """The NPC officers' skills the ship uses when no PC acts."""
        return services.clean_crew({}, base=obj.crew)

    def get_postings(self, obj) -> list[dict]:
        return PostingSerializer(selectors.ship_postings(obj), many=True).data


class ShipGMSerializer(ShipCrewSerializer):
    class Meta(ShipCrewSerializer.Meta):
        fields = [*ShipCrewSerializer.Meta.fields, "overrides", "gm_notes", "revealed"]


SERIALIZER_FOR_ACCESS = {
    "gm": ShipGMSerializer,
    "crew": ShipCrewSerializer,
    "public": ShipPublicSerializer,
}


def _for_viewer(**kwargs) -> OneOfForViewer:
    return OneOfForViewer("ShipForViewer", [
        ShipGMSerializer, ShipCrewSerializer, ShipPublicSerializer], **kwargs)


class ShipWriteSerializer(InputSerializer):
    """Fields to set; only those given are changed."""

    name = serializers.CharField(max_length=200, required=False)
    guns = serializers.IntegerField(min_value=1, max_value=200, required=False, allow_null=True)
    ship_type = serializers.SlugRelatedField(
        slug_field="name", queryset=ShipType.objects.all(), required=False,
        help_text="The type's name, e.g. 'Brig Sloop'.",
    )
    side = serializers.ChoiceField(choices=Ship.Side.choices, required=False)
    traits = serializers.ListField(child=serializers.CharField(), required=False,
                                   help_text="Trait names, e.g. ['Heart of Oak'].")
    crew = serializers.DictField(child=serializers.IntegerField(), required=False,
                                 help_text=f"Any of {', '.join(NPC_CREW_SKILLS)}.")
    overrides = serializers.DictField(required=False)
    gm_notes = serializers.CharField(required=False, allow_blank=True)


class ShipCreateSerializer(ShipWriteSerializer):
    name = serializers.CharField(max_length=200)
    ship_type = serializers.SlugRelatedField(slug_field="name", queryset=ShipType.objects.all())
    morale_state = damage_state_field(required=False)


class ShipUpdateSerializer(ShipWriteSerializer):
    version = serializers.IntegerField(help_text="The version you edited (409 if stale).")
    revealed = serializers.BooleanField(
        required=False, help_text="Shown to the players (an enemy ship starts hidden).")
    tracks = serializers.DictField(child=serializers.CharField(), required=False,
                                   help_text="All four areas, e.g. {'hull': 'x.|..|..', ...}.")
    morale_state = damage_state_field(required=False)


def _render(request, ship: Ship, role=None) -> dict:
    return SERIALIZER_FOR_ACCESS[selectors.ship_access(request.user, ship, role)](ship).data


class ShipTypeListView(APIView):
    @extend_schema(responses=ShipTypeSerializer(many=True))
    def get(self, request):
        """The Ship Roster (BtQ L2245-2333)."""
        return Response(ShipTypeSerializer(selectors.ship_types(), many=True).data)


class ShipTraitListView(APIView):
    @extend_schema(responses=ShipTraitSerializer(many=True))
    def get(self, request):
        """The ship traits (BtQ L2337-2347)."""
        return Response(ShipTraitSerializer(selectors.ship_traits(), many=True).data)


class CampaignShipsView(APIView):
    @extend_schema(
        responses=_for_viewer(many=True),
        description="Players receive fewer fields: name, type and damage only of ships other "
        "than their own, and never GM notes or overrides.",
    )
    def get(self, request, pk):
        campaign = campaign_for_user(request.user, pk)
        role = membership_role(request.user, campaign)
        ships = selectors.ships_for_user(request.user, campaign)
        return Response([_render(request, s, role)
                         for s in ships.prefetch_related(*selectors.WITH_CREW)])

    @extend_schema(request=ShipCreateSerializer, responses={201: ShipGMSerializer})
    def post(self, request, pk):
        """GM: add an undamaged ship."""
        campaign = campaign_for_user(request.user, pk)
        require_gm(request.user, campaign)
        data = ShipCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        ship = services.ship_create(campaign=campaign, actor=request.user, **data.validated_data)
        return Response(_render(request, ship), status=status.HTTP_201_CREATED)


class ShipDetailView(APIView):
    @extend_schema(
        responses=_for_viewer(),
        description="Players receive fewer fields (see the list).",
    )
    def get(self, request, pk):
        ship = selectors.ship_for_user(request.user, pk)
        return Response(_render(request, ship))

    @extend_schema(request=ShipUpdateSerializer, responses=ShipGMSerializer)
    def patch(self, request, pk):
        """GM: change the fields given. 409 if the ship was saved since ``version``."""
        ship = selectors.ship_for_user(request.user, pk)
        require_gm(request.user, ship.campaign)
        data = ShipUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        ship = services.ship_update(ship=ship, actor=request.user, **data.validated_data)
        return Response(_render(request, ship))


urlpatterns = [
    path("ship-types/", ShipTypeListView.as_view(), name="api-ship-types"),
    path("ship-traits/", ShipTraitListView.as_view(), name="api-ship-traits"),
    path("campaigns/<int:pk>/ships/", CampaignShipsView.as_view(), name="api-campaign-ships"),
    path("ships/<int:pk>/", ShipDetailView.as_view(), name="api-ship-detail"),
]


class ShipRefitSerializer(InputSerializer):
    version = serializers.IntegerField(help_text="The version you saw (409 if stale).")


class ShipRefitView(APIView):
    @extend_schema(request=ShipRefitSerializer, responses=_for_viewer())
    def post(self, request, pk):
        """GM: refit the ship in port: every damage box clean (logged), so a ship that lost a
        battle can fight again. 409 if it was saved since ``version``."""
        ship = selectors.ship_for_user(request.user, pk)
        require_gm(request.user, ship.campaign)
        data = ShipRefitSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        ship = services.ship_refit(ship=ship, actor=request.user, **data.validated_data)
        return Response(_render(request, ship))


urlpatterns += [path("ships/<int:pk>/refit/", ShipRefitView.as_view(), name="api-ship-refit")]


class ShipReputationWriteSerializer(InputSerializer):
    kind = serializers.ChoiceField(choices=ShipReputation.Kind.choices, required=False)
    descriptor = serializers.CharField(max_length=100, required=False)
    subject = serializers.CharField(max_length=200, required=False)
    value = serializers.IntegerField(min_value=1, max_value=20, required=False)
    damage_state = damage_state_field(required=False)


class ShipReputationUpdateSerializer(ShipReputationWriteSerializer):
    version = serializers.IntegerField(help_text="The version you saw (409 if stale).")


class ShipReputationDeleteSerializer(InputSerializer):
    version = serializers.IntegerField(help_text="The version you saw (409 if stale).")


def _gm_ship(request, pk) -> Ship:
    ship = selectors.ship_for_user(request.user, pk)
    require_gm(request.user, ship.campaign)
    return ship


class ShipReputationsView(APIView):
    @extend_schema(request=ShipReputationWriteSerializer,
                   responses={201: ShipReputationSerializer})
    def post(self, request, pk):
        """GM: a new reputation of the ship (BtQ L770-779); its cards go to the PCs aboard in
        a battle it is chosen for."""
        data = ShipReputationWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        made = reputations.ship_reputation_create(ship=_gm_ship(request, pk),
                                                  actor=request.user, **data.validated_data)
        return Response(ShipReputationSerializer(made).data, status=status.HTTP_201_CREATED)


class ShipReputationView(APIView):
    def _reputation(self, request, pk, reputation_pk) -> ShipReputation:
        ship = _gm_ship(request, pk)
        found = ship.reputations.filter(pk=reputation_pk).first()
        if found is None:
            raise Http404("No such reputation of this ship.")
        return found

    @extend_schema(request=ShipReputationUpdateSerializer, responses=ShipReputationSerializer)
    def patch(self, request, pk, reputation_pk):
        """GM: change the fields given (heal or damage it, say). 409 if stale."""
        data = ShipReputationUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        saved = reputations.ship_reputation_update(
            reputation=self._reputation(request, pk, reputation_pk), actor=request.user,
            **data.validated_data)
        return Response(ShipReputationSerializer(saved).data)

    @extend_schema(request=ShipReputationDeleteSerializer, responses={204: None})
    def delete(self, request, pk, reputation_pk):
        """GM: remove it. 409 if stale."""
        data = ShipReputationDeleteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        reputations.ship_reputation_delete(
            reputation=self._reputation(request, pk, reputation_pk), actor=request.user,
            **data.validated_data)
        return Response(status=status.HTTP_204_NO_CONTENT)


urlpatterns += [
    path("ships/<int:pk>/reputations/", ShipReputationsView.as_view(),
         name="api-ship-reputations"),
    path("ships/<int:pk>/reputations/<int:reputation_pk>/", ShipReputationView.as_view(),
         name="api-ship-reputation"),
]
