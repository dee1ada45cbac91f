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
from characters.models import (
    MAX_RATING,
    MAX_WEALTH,
    TRAIT_CHOICES,
    Character,
    CharacterTrait,
    Item,
    Reputation,
)
from rules.btq.characters import MEASURES, SKILLS
from rules.btq.traits import TRAITS


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


class CharacterTraitSerializer(serializers.ModelSerializer):
    """A trait a character took (``rules.btq.traits``): its key, name, times and parameter."""

    name = serializers.CharField(source="__str__", read_only=True)

    class Meta:
        model = CharacterTrait
        fields = ["id", "character", "trait", "name", "times", "parameter"]


class ItemSerializer(serializers.ModelSerializer):
    """A curio or item; ``bonus`` the cards it adds when used, ``applies_to`` to what."""

    bonus = serializers.IntegerField(read_only=True)
    applies_to = serializers.CharField(read_only=True)

    class Meta:
        model = Item
        fields = ["id", "character", "kind", "name", "skill", "reputation", "weapon",
                  "condition", "bonus", "applies_to", "version"]


class CharacterSheetSerializer(CharacterPublicSerializer):
    """What a member sees of a PC (all but the GM notes)."""

    owner = serializers.SlugRelatedField(slug_field="username", read_only=True,
                                         allow_null=True)
    health_state = damage_state_field(read_only=True)
    ship_morale_state = serializers.SerializerMethodField()
    wealth_state = damage_state_field(read_only=True)
    skills = serializers.SerializerMethodField()
    reputations = ReputationSerializer(many=True, read_only=True)
    traits = CharacterTraitSerializer(many=True, read_only=True)
    items = ItemSerializer(many=True, read_only=True)
    current_measures = serializers.SerializerMethodField()

    class Meta(CharacterPublicSerializer.Meta):
        fields = [*CharacterPublicSerializer.Meta.fields, "owner", "seniority", "guts",
                  "discipline", "influence", "charm", "current_measures", "skills",
                  "professions", "wealth", "health_state", "ship_morale_state",
                  "wealth_state", "scratched", "heal_locks", "overcoming", "reputations",
                  "traits", "items",
                  "notes", "version"]

    def get_current_measures(self, obj) -> dict[str, int]:
        """Each Measure as it is now, less the points spent under Overcoming Great Hardship
        until the end of the Naval Mission."""
        return {key: obj.current_measure(key) for key in MEASURES}

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
    professions = serializers.DictField(child=serializers.IntegerField(), required=False,
                                        help_text="Profession specialisations: {\"Fisherman\": 2}.")
    scratched = serializers.BooleanField(
        required=False, help_text="Is But A Scratch, Sir!: the extra wound level used.")
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
            "reputations", "postings__ship", "traits", "items__reputation")
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


class TraitReferenceSerializer(serializers.Serializer):
    """One of the book's traits (``rules.btq.traits``; its ``effects`` as that module
    describes them)."""

    key = serializers.CharField()
    name = serializers.CharField()
    category = serializers.CharField()
    cost = serializers.IntegerField()
    max_takes = serializers.IntegerField(allow_null=True, help_text="null: no limit")
    source = serializers.CharField()
    text = serializers.CharField()
    effects = serializers.ListField(child=serializers.DictField())
    parameter = serializers.CharField(allow_null=True)
    prerequisites = serializers.DictField(allow_null=True)


class TraitReferenceView(APIView):
    @extend_schema(responses=TraitReferenceSerializer(many=True))
    def get(self, request):
        """The book's 55 traits: key, name, category, cost, max_takes, source, text, effects,
        parameter, prerequisites (``rules.btq.traits``)."""
        return Response([t.as_dict() for t in TRAITS.values()])


class TraitAddSerializer(InputSerializer):
    trait = serializers.ChoiceField(choices=TRAIT_CHOICES)
    times = serializers.IntegerField(min_value=1, max_value=3, required=False)
    parameter = serializers.CharField(max_length=200, required=False, allow_blank=True)
    reputations = serializers.ListField(
        child=serializers.DictField(child=serializers.CharField(max_length=200)),
        required=False, max_length=3,
        help_text="The wording of each reputation the trait leaves to the player: "
                  "[{\"descriptor\", \"subject\"}].")


class CharacterTraitsView(APIView):
    @extend_schema(responses=CharacterTraitSerializer(many=True))
    def get(self, request, pk):
        """The traits of a PC (any member) or an NPC (the GM)."""
        character = _sheet(request, pk)
        return Response(CharacterTraitSerializer(character.traits.all(), many=True).data)

    @extend_schema(request=TraitAddSerializer, responses={201: CharacterTraitSerializer})
    def post(self, request, pk):
        """GM: the character takes a trait, with what it grants (reputations, Wealth)."""
        character = selectors.character_for_user(request.user, pk)
        data = TraitAddSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        row = services.trait_add(character=character, actor=request.user, **data.validated_data)
        return Response(CharacterTraitSerializer(row).data, status=status.HTTP_201_CREATED)


class TraitUseSerializer(serializers.Serializer):
    """A trait of limited use and what is left of it now (``characters.services.trait_uses``):
    ``per`` "session" or "Naval Mission"; ``under_way`` false when none is recorded as
    under way (the uses then count until the next one begins)."""

    key = serializers.CharField()
    name = serializers.CharField()
    per = serializers.CharField()
    uses = serializers.IntegerField()
    left = serializers.IntegerField()
    period = serializers.CharField()
    under_way = serializers.BooleanField()


class TraitUseInputSerializer(InputSerializer):
    trait = serializers.ChoiceField(choices=TRAIT_CHOICES)
    version = serializers.IntegerField(help_text="The character's version the user saw.")


class CharacterTraitUsesView(APIView):
    @extend_schema(responses=TraitUseSerializer(many=True))
    def get(self, request, pk):
        """The character's traits of limited use (Cheat Death!, Jonah, Jack Tar, Naysayer)
        and the uses left in the session, or Naval Mission, under way."""
        character = _sheet(request, pk)
        return Response(TraitUseSerializer(services.trait_uses(character), many=True).data)

    @extend_schema(request=TraitUseInputSerializer, responses=TraitUseSerializer(many=True))
    def post(self, request, pk):
        """The PC's player or the GM uses one (Jonah: the GM, as it costs the Naval Mission a
        challenge); refused once spent until the next session or Naval Mission."""
        character = selectors.character_for_user(request.user, pk)
        selectors.require_character_edit(request.user, character)
        data = TraitUseInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        character = services.trait_use(character=character, actor=request.user,
                                       **data.validated_data)
        return Response(TraitUseSerializer(services.trait_uses(character), many=True).data)


class CharacterTraitDetailView(APIView):
    @extend_schema(request=None, responses={204: None})
    def delete(self, request, pk):
        """GM: remove a trait (what it granted stays)."""
        row = _row(request, CharacterTrait, pk)
        services.trait_remove(character_trait=row, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ItemWriteSerializer(InputSerializer):
    kind = serializers.ChoiceField(choices=Item.Kind.choices, required=False)
    name = serializers.CharField(max_length=200, required=False)
    skill = serializers.ChoiceField(choices=[("", "none"), *SKILLS.items()], required=False)
    reputation = serializers.IntegerField(required=False, allow_null=True,
                                          help_text="One of the character's reputations.")
    weapon = serializers.CharField(max_length=60, required=False, allow_blank=True)
    condition = serializers.CharField(max_length=200, required=False, allow_blank=True)


class ItemCreateSerializer(ItemWriteSerializer):
    name = serializers.CharField(max_length=200)


class ItemUpdateSerializer(ItemWriteSerializer):
    version = serializers.IntegerField(help_text="The version you edited (409 if stale).")


class CharacterItemsView(APIView):
    @extend_schema(responses=ItemSerializer(many=True))
    def get(self, request, pk):
        """The curios and items of a PC (any member) or an NPC (the GM)."""
        character = _sheet(request, pk)
        return Response(ItemSerializer(character.items.all(), many=True).data)

    @extend_schema(request=ItemCreateSerializer, responses={201: ItemSerializer})
    def post(self, request, pk):
        """GM: give the character a curio or item."""
        character = selectors.character_for_user(request.user, pk)
        data = ItemCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        item = services.item_create(character=character, actor=request.user,
                                    **data.validated_data)
        return Response(ItemSerializer(item).data, status=status.HTTP_201_CREATED)


class ItemDetailView(APIView):
    @extend_schema(request=ItemUpdateSerializer, responses=ItemSerializer)
    def patch(self, request, pk):
        """GM: change the fields given. 409 if it was saved since ``version``."""
        item = _row(request, Item, pk)
        data = ItemUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        item = services.item_update(item=item, actor=request.user, **data.validated_data)
        return Response(ItemSerializer(item).data)

    @extend_schema(request=ReputationDeleteSerializer, responses={204: None})
    def delete(self, request, pk):
        """GM: remove it. 409 if it changed since ``version``."""
        item = _row(request, Item, pk)
        data = ReputationDeleteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.item_delete(item=item, actor=request.user, **data.validated_data)
        return Response(status=status.HTTP_204_NO_CONTENT)


class HistoryEntrySerializer(serializers.Serializer):
    at = serializers.DateTimeField()
    actor = serializers.CharField(allow_null=True)
    changes = serializers.JSONField(help_text="{field: [old, new]}")


class CharacterHistoryView(APIView):
    @extend_schema(responses=HistoryEntrySerializer(many=True))
    def get(self, request, pk):
        """Who changed the sheet, when, and each field's old and new value, newest first:
        for the PC's player (without the GM-only fields) and the GM."""
        character = selectors.character_for_user(request.user, pk)
        return Response(HistoryEntrySerializer(
            selectors.character_history(request.user, character), many=True).data)


class CharacterExportSerializer(serializers.Serializer):
    format = serializers.CharField(help_text="\"quarterdeck-character\"")
    version = serializers.IntegerField(help_text="The schema version: 2.")
    character = serializers.DictField(help_text="The sheet's fields.")


class CharacterExportView(APIView):
    @extend_schema(responses=CharacterExportSerializer)
    def get(self, request, pk):
        """The sheet as JSON (``{"format", "version": 2, "character"}``), for the PC's
        player and the GM; the GM notes for the GM only."""
        character = selectors.character_for_user(request.user, pk)
        return Response(selectors.character_export(request.user, character))


class CharacterImportSerializer(InputSerializer):
    data = serializers.DictField(help_text="An export, schema version 1 or 2.")
    owner = serializers.CharField(required=False, allow_null=True, max_length=150,
                                  help_text="The username of the player of a PC.")


class CampaignCharacterImportView(APIView):
    @extend_schema(request=CharacterImportSerializer, responses={201: CharacterGMSerializer})
    def post(self, request, pk):
        """GM: a new character from an export (schema version 1 or 2)."""
        campaign = campaign_for_user(request.user, pk)
        require_gm(request.user, campaign)
        data = CharacterImportSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        owner = data.validated_data.get("owner")
        character = services.character_import(
            campaign=campaign, actor=request.user, data=data.validated_data["data"],
            owner=owner or None)
        return Response(_render(request, character), status=status.HTTP_201_CREATED)


class HealRecordSerializer(InputSerializer):
    area = serializers.ChoiceField(choices=["health", "wealth", "reputation"])
    reputation = serializers.IntegerField(required=False, allow_null=True)
    how = serializers.ChoiceField(choices=["challenge", "mission"],
                                  help_text="A Maimed area heals through a challenge, a Dead "
                                            "one through a Mission.")


class CharacterHealRecordView(APIView):
    @extend_schema(request=HealRecordSerializer, responses=_for_viewer())
    def post(self, request, pk):
        """GM: a successful challenge (a Maimed area) or a Mission (a Dead one) healed an area
        one step. An Injured area heals by a simple test: ``POST .../heal-test/``."""
        character = selectors.character_for_user(request.user, pk)
        data = HealRecordSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        reputation = _reputation_of(character, data.validated_data.get("reputation"))
        services.character_heal(character=character, actor=request.user,
                                area=data.validated_data["area"],
                                how=data.validated_data["how"], reputation=reputation)
        return Response(_render(request, Character.objects.get(pk=character.pk)))


class CharacterChallengeDoneView(APIView):
    @extend_schema(request=None, responses=_for_viewer())
    def post(self, request, pk):
        """GM: the character completed another challenge, so failed heals may be tried
        again."""
        character = selectors.character_for_user(request.user, pk)
        services.character_heal_unlock(character=character, actor=request.user)
        return Response(_render(request, Character.objects.get(pk=character.pk)))


class HardshipSerializer(InputSerializer):
    measure = serializers.ChoiceField(choices=list(MEASURES), required=False)
    end = serializers.BooleanField(required=False, help_text="GM: the Naval Mission ended; "
                                                             "every Measure back to full.")


class CharacterHardshipView(APIView):
    @extend_schema(request=HardshipSerializer, responses=_for_viewer())
    def post(self, request, pk):
        """Overcoming Great Hardship: spend 1 point of ``measure`` (the PC's player or the
        GM), or, GM, ``end`` it with the Naval Mission."""
        character = selectors.character_for_user(request.user, pk)
        data = HardshipSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        if data.validated_data.get("end"):
            services.character_hardship_end(character=character, actor=request.user)
        elif "measure" in data.validated_data:
            services.character_hardship_spend(character=character, actor=request.user,
                                              measure=data.validated_data["measure"])
        else:
            raise ApiValidationError({"measure": "Name the Measure spent, or end."})
        return Response(_render(request, Character.objects.get(pk=character.pk)))


def _sheet(request, pk) -> Character:
    character = selectors.character_for_user(request.user, pk)
    if selectors.character_access(request.user, character) == "public":
        raise Http404("No such character.")
    return character


def _row(request, model, pk):
    """A trait row or item of a character whose sheet the user may see; 404 otherwise."""
    row = model.objects.select_related("character").filter(pk=pk).first()
    if row is None:
        raise Http404("Not found.")
    _sheet(request, row.character_id)
    return row


def _reputation_of(character: Character, pk) -> Reputation | None:
    if pk is None:
        return None
    found = character.reputations.filter(pk=pk).first()
    if found is None:
        raise ApiValidationError({"reputation": "Not one of the character's reputations."})
    return found


urlpatterns = [
    path("traits/", TraitReferenceView.as_view(), name="api-traits"),
    path("characters/<int:pk>/traits/", CharacterTraitsView.as_view(),
         name="api-character-traits"),
    path("characters/<int:pk>/trait-uses/", CharacterTraitUsesView.as_view(),
         name="api-character-trait-uses"),
    path("character-traits/<int:pk>/", CharacterTraitDetailView.as_view(),
         name="api-character-trait-detail"),
    path("characters/<int:pk>/items/", CharacterItemsView.as_view(), name="api-character-items"),
    path("items/<int:pk>/", ItemDetailView.as_view(), name="api-item-detail"),
    path("characters/<int:pk>/history/", CharacterHistoryView.as_view(),
         name="api-character-history"),
    path("characters/<int:pk>/export/", CharacterExportView.as_view(),
         name="api-character-export"),
    path("campaigns/<int:pk>/characters/import/", CampaignCharacterImportView.as_view(),
         name="api-character-import"),
    path("characters/<int:pk>/heal-record/", CharacterHealRecordView.as_view(),
         name="api-character-heal-record"),
    path("characters/<int:pk>/challenge-done/", CharacterChallengeDoneView.as_view(),
         name="api-character-challenge-done"),
    path("characters/<int:pk>/hardship/", CharacterHardshipView.as_view(),
         name="api-character-hardship"),
    path("campaigns/<int:pk>/characters/", CampaignCharactersView.as_view(),
         name="api-campaign-characters"),
    path("characters/<int:pk>/", CharacterDetailView.as_view(), name="api-character-detail"),
    path("characters/<int:pk>/reputations/", CharacterReputationsView.as_view(),
         name="api-character-reputations"),
    path("reputations/<int:pk>/", ReputationDetailView.as_view(),
         name="api-reputation-detail"),
]
