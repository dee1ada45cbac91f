"""REST API of characters and their reputations: list and create in a campaign, detail and
update (409 on a stale version). What a user sees of a character is decided by
``characters.selectors``: players never receive GM notes, nor an NPC's stats or
reputations."""

from django.http import Http404
from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError as ApiValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.api_common import InputSerializer, OneOfForViewer, damage_state_field
from campaigns.selectors import campaign_for_user, membership_role, require_gm
from characters import selectors, services
from characters.models import MAX_RATING, MAX_WEALTH, Character, Reputation


class CharacterPublicSerializer(serializers.ModelSerializer):
    """What a player sees of an NPC."""

    class Meta:
        model = Character
        fields = ["id", "campaign", "kind", "name", "rank"]


class ReputationSerializer(serializers.ModelSerializer):
    """A reputation: ``cap`` is the Charm (personal) or Influence (institution) it counts at
    most in a test; ``over_cap`` when the value stored is above it (D9)."""

    kind = serializers.ChoiceField(choices=Reputation.Kind.choices, read_only=True)
    name = serializers.CharField(read_only=True)
    damage_state = damage_state_field(read_only=True)
    cap = serializers.IntegerField(read_only=True)
    over_cap = serializers.BooleanField(read_only=True)

    class Meta:
        model = Reputation
        fields = ["id", "character", "kind", "descriptor", "subject", "name", "value", "cap",
                  "over_cap", "damage_state", "version"]


class CharacterSheetSerializer(CharacterPublicSerializer):
    """What a member sees of a PC (all but the GM notes)."""

    owner = serializers.SlugRelatedField(slug_field="username", read_only=True,
                                         allow_null=True)
    health_state = damage_state_field(read_only=True)
    ship_morale_state = serializers.SerializerMethodField()
    wealth_state = damage_state_field(read_only=True)
    skills = serializers.SerializerMethodField()
    reputations = ReputationSerializer(many=True, read_only=True)

    class Meta(CharacterPublicSerializer.Meta):
        fields = [*CharacterPublicSerializer.Meta.fields, "owner", "seniority", "guts",
                  "discipline", "influence", "charm", "skills", "wealth", "health_state",
                  "ship_morale_state", "wealth_state", "reputations", "notes", "version"]

    def get_skills(self, obj) -> dict[str, int]:
        """All 22 skills, 0 for the untrained ones."""
        return obj.skill_values()

    def get_ship_morale_state(self, obj) -> int | None:
        """The Ship Morale (0-3) of the ship the character serves on, mirrored from the ship
        (A15); null when they serve on none, or on a ship whose Ship Morale players may not
        see. It is changed on the ship."""
        ship = obj.ship
        return None if ship is None or ship.is_hidden_from_players else ship.morale_state


class CharacterGMSerializer(CharacterSheetSerializer):
    """What a GM sees: everything."""

    class Meta(CharacterSheetSerializer.Meta):
        fields = [*CharacterSheetSerializer.Meta.fields, "gm_notes", "revealed"]

    def get_ship_morale_state(self, obj) -> int | None:
        """The Ship Morale (0-3) of the ship the character serves on; null when none."""
        return obj.ship_morale_state


SERIALIZER_FOR_ACCESS = {
    "gm": CharacterGMSerializer,
    "owner": CharacterSheetSerializer,
    "sheet": CharacterSheetSerializer,
    "public": CharacterPublicSerializer,
}


def _for_viewer(**kwargs) -> OneOfForViewer:
    return OneOfForViewer("CharacterForViewer", [
        CharacterGMSerializer, CharacterSheetSerializer, CharacterPublicSerializer], **kwargs)


def _rating(minimum: int):
    return serializers.IntegerField(min_value=minimum, max_value=MAX_RATING, required=False)


class CharacterWriteSerializer(InputSerializer):
    """Fields to set; only those given are changed. A player may set the name and notes of
    their own PC; the rest is the GM's (403)."""

    kind = serializers.ChoiceField(choices=Character.Kind.choices, required=False)
    owner = serializers.CharField(
        required=False, allow_null=True, max_length=150,
        help_text="The username of the player, a member of the campaign (PCs only).")
    name = serializers.CharField(max_length=200, required=False)
    rank = serializers.CharField(max_length=100, required=False, allow_blank=True)
    seniority = serializers.IntegerField(min_value=0, max_value=1000, required=False)
    guts = _rating(1)
    discipline = _rating(1)
    influence = _rating(1)
    charm = _rating(1)
    skills = serializers.DictField(child=serializers.IntegerField(), required=False)
    wealth = serializers.IntegerField(min_value=0, max_value=MAX_WEALTH, required=False)
    health_state = damage_state_field(required=False)
    wealth_state = damage_state_field(required=False)
    notes = serializers.CharField(required=False, allow_blank=True)
    gm_notes = serializers.CharField(required=False, allow_blank=True)
    revealed = serializers.BooleanField(
        required=False, help_text="GM: an NPC shown to the players (NPCs start hidden).")

    def validate(self, attrs):
        if "ship_morale_state" in self.initial_data:
            raise ApiValidationError({"ship_morale_state": (
                "Ship Morale belongs to the ship the character serves on: change the ship's "
                "morale_state.")})
        return attrs


class CharacterCreateSerializer(CharacterWriteSerializer):
    name = serializers.CharField(max_length=200)


class CharacterUpdateSerializer(CharacterWriteSerializer):
    version = serializers.IntegerField(help_text="The version you edited (409 if stale).")


def _render(request, character: Character, role=None) -> dict:
    access = selectors.character_access(request.user, character, role)
    return SERIALIZER_FOR_ACCESS[access](character).data


class CampaignCharactersView(APIView):
    @extend_schema(
        responses=_for_viewer(many=True),
        description="Players receive fewer fields: no GM notes, and only name and rank of NPCs.",
    )
    def get(self, request, pk):
        campaign = campaign_for_user(request.user, pk)
        role = membership_role(request.user, campaign)
        characters = selectors.characters_for_user(request.user, campaign).prefetch_related(
            "reputations", "postings__ship")
        return Response([_render(request, c, role) for c in characters])

    @extend_schema(request=CharacterCreateSerializer, responses={201: CharacterGMSerializer})
    def post(self, request, pk):
        """GM: create a PC (give its player's ``owner``) or an NPC."""
        campaign = campaign_for_user(request.user, pk)
        require_gm(request.user, campaign)
        data = CharacterCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        character = services.character_create(
            campaign=campaign, actor=request.user, **data.validated_data
        )
        return Response(_render(request, character), status=status.HTTP_201_CREATED)


class CharacterDetailView(APIView):
    @extend_schema(
        responses=_for_viewer(),
        description="Players receive fewer fields: no GM notes, and only name and rank of NPCs.",
    )
    def get(self, request, pk):
        character = selectors.character_for_user(request.user, pk)
        return Response(_render(request, character))

    @extend_schema(request=CharacterUpdateSerializer, responses=_for_viewer())
    def patch(self, request, pk):
        """Change the fields given: the GM any, a player the name and notes of their own PC
        (403 for a mechanical value: Measures, skills, Wealth are the GM's). 409 if the
        character was saved since ``version``."""
        character = selectors.character_for_user(request.user, pk)
        selectors.require_character_edit(request.user, character)
        data = CharacterUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        character = services.character_update(
            character=character, actor=request.user, **data.validated_data
        )
        return Response(_render(request, character))


class ReputationWriteSerializer(InputSerializer):
    """Fields to set; the damage state is the GM's."""

    kind = serializers.ChoiceField(choices=Reputation.Kind.choices, required=False)
    descriptor = serializers.CharField(max_length=100, required=False)
    subject = serializers.CharField(max_length=200, required=False)
    value = serializers.IntegerField(min_value=1, max_value=MAX_RATING, required=False)
    damage_state = damage_state_field(required=False)


class ReputationCreateSerializer(ReputationWriteSerializer):
    descriptor = serializers.CharField(max_length=100)
    subject = serializers.CharField(max_length=200)


class ReputationUpdateSerializer(ReputationWriteSerializer):
    version = serializers.IntegerField(help_text="The version you edited (409 if stale).")


class ReputationDeleteSerializer(InputSerializer):
    version = serializers.IntegerField(help_text="The version you saw (409 if stale).")


class CharacterReputationsView(APIView):
    @extend_schema(responses=ReputationSerializer(many=True))
    def get(self, request, pk):
        """The reputations of a PC (any member) or of an NPC (the GM)."""
        character = selectors.character_for_user(request.user, pk)
        if selectors.character_access(request.user, character) == "public":
            raise Http404("No such character.")
        return Response(ReputationSerializer(character.reputations.all(), many=True).data)

    @extend_schema(request=ReputationCreateSerializer, responses={201: ReputationSerializer})
    def post(self, request, pk):
        """Add a reputation: the GM to any character, a player to their own PC."""
        character = selectors.character_for_user(request.user, pk)
        selectors.require_character_edit(request.user, character)
        data = ReputationCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        reputation = services.reputation_create(character=character, actor=request.user,
                                                **data.validated_data)
        return Response(ReputationSerializer(reputation).data, status=status.HTTP_201_CREATED)


class ReputationDetailView(APIView):
    @extend_schema(responses=ReputationSerializer)
    def get(self, request, pk):
        return Response(ReputationSerializer(
            selectors.reputation_for_user(request.user, pk)).data)

    @extend_schema(request=ReputationUpdateSerializer, responses=ReputationSerializer)
    def patch(self, request, pk):
        """Change the fields given. 409 if it was saved since ``version``."""
        reputation = selectors.reputation_for_user(request.user, pk)
        selectors.require_character_edit(request.user, reputation.character)
        data = ReputationUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        reputation = services.reputation_update(reputation=reputation, actor=request.user,
                                                **data.validated_data)
        return Response(ReputationSerializer(reputation).data)

    @extend_schema(request=ReputationDeleteSerializer, responses={204: None})
    def delete(self, request, pk):
        """Remove it (refused while an open test uses it). 409 if it changed since
        ``version``."""
        reputation = selectors.reputation_for_user(request.user, pk)
        selectors.require_character_edit(request.user, reputation.character)
        data = ReputationDeleteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.reputation_delete(reputation=reputation, actor=request.user,
                                   **data.validated_data)
        return Response(status=status.HTTP_204_NO_CONTENT)


urlpatterns = [
    path("campaigns/<int:pk>/characters/", CampaignCharactersView.as_view(),
         name="api-campaign-characters"),
    path("characters/<int:pk>/", CharacterDetailView.as_view(), name="api-character-detail"),
    path("characters/<int:pk>/reputations/", CharacterReputationsView.as_view(),
         name="api-character-reputations"),
    path("reputations/<int:pk>/", ReputationDetailView.as_view(),
         name="api-reputation-detail"),
]
