"""REST API of the fights of men, under ``/api/``: prepare a skirmish, a duel or a boarding
(the same checks as the pages: each body is read into the page's form), and the
step-through replay of any finished encounter. A prepared fight is then begun, played and
followed through the encounter API (``combat.api``). Errors as ``config.api`` shapes them."""

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.api_common import InputSerializer
from campaigns.selectors import campaign_for_user, require_gm
from combat import selectors
from combat.api import EncounterSummarySerializer
from combat.fights import forms, services
from combat.forms import MAX_ID
from combat.replay import replay_encounter_for_user, replay_export
from config.schema import ERRORS


def _id(**kwargs):
    return serializers.IntegerField(min_value=1, max_value=MAX_ID, **kwargs)


def _ids(**kwargs):
    return serializers.ListField(child=_id(), max_length=100, **kwargs)


def _weapons(**kwargs):
    return serializers.ListField(child=serializers.ChoiceField(choices=forms.WEAPON_CHOICES),
                                 min_length=1, max_length=len(forms.WEAPON_CHOICES), **kwargs)


class _FightSerializer(InputSerializer):
    title = serializers.CharField(max_length=200, required=False, allow_blank=True)
    stakes_win = serializers.CharField(max_length=300, required=False, allow_blank=True)
    stakes_lose = serializers.CharField(max_length=300, required=False, allow_blank=True)
    traits = serializers.DictField(
        child=serializers.CharField(max_length=300, allow_blank=True), required=False,
        help_text="A character's id -> his combat traits as the sheet writes them, "
                  "“Duellist (2), Cheat Death!”.")

    def validate_traits(self, value):
        bad = [key for key in value if not key.isdigit()]
        if bad:
            raise serializers.ValidationError(f"{bad[0]!r} is not a character's id.")
        return value


class _WeatherSerializer(_FightSerializer):
    wind = serializers.ChoiceField(choices=forms.WIND_CHOICES, required=False, default="light")
    precipitation = serializers.ChoiceField(choices=forms.RAIN_CHOICES, required=False,
                                            default="none")


class SkirmishCreateSerializer(_WeatherSerializer):
    """A skirmish: the PCs, the weapons they carry, the NPC foes, their weapon and range,
    the opposing commander (an NPC, whose Command counts, or a number of cards)."""

    pcs = _ids(min_length=1)
    pc_weapons = _weapons()
    foes = _ids(required=False)
    foe_weapon = serializers.ChoiceField(choices=forms.WEAPON_CHOICES, required=False,
                                         default="musket")
    foe_band = serializers.ChoiceField(choices=forms.BAND_CHOICES, required=False,
                                       default="normal")
    opposing_commander = _id(required=False, allow_null=True)
    opposing_command = serializers.IntegerField(min_value=0, max_value=20, required=False)
    with_crew = serializers.BooleanField(required=False, default=False)


class DuelCreateSerializer(_WeatherSerializer):
    """A Combat Challenge between two characters."""

    attacker = _id()
    attacker_weapons = _weapons()
    defender = _id()
    defender_weapons = _weapons()
    mode = serializers.ChoiceField(choices=forms.MODE_CHOICES)
    band = serializers.ChoiceField(choices=forms.BAND_CHOICES, required=False, default="melee")
    difficulty = serializers.IntegerField(min_value=1, max_value=12, required=False,
                                          allow_null=True)


class BoardingCreateSerializer(_FightSerializer):
    """A boarding: the boarding and the boarded ship, the PCs who fight."""

    attacker = _id()
    defender = _id()
    pcs = _ids(required=False)
    pc_weapons = _weapons(required=False, default=["cutlass"])
    officer_weapon = serializers.ChoiceField(choices=forms.WEAPON_CHOICES, required=False,
                                             default="cutlass")
    attacker_crew_pool = serializers.IntegerField(min_value=0, max_value=12, required=False,
                                                  default=4)
    defender_crew_pool = serializers.IntegerField(min_value=0, max_value=12, required=False,
                                                  default=4)


def _form_data(data: dict) -> dict:
    out = {k: v for k, v in data.items() if k != "traits" and v is not None}
    out.update({f"traits_{pk}": text for pk, text in (data.get("traits") or {}).items()})
    return out


def _form_errors(form) -> dict:
    errors = {}
    for name, messages in form.errors.items():
        if name == "__all__":
            errors["detail"] = " ".join(messages)
        elif name.startswith("traits_"):
            errors.setdefault("traits", {})[name[len("traits_"):]] = list(messages)
        else:
            errors[name] = list(messages)
    return errors


class _FightCreateView(APIView):
    kind = ""
    serializer_class = InputSerializer

    def post(self, request, campaign_id):
        campaign = campaign_for_user(request.user, campaign_id)
        require_gm(request.user, campaign)
        serializer = self.serializer_class(data=request.data)
        serializer.is_valid(raise_exception=True)
        engine, form_class, _, _ = forms.KINDS[self.kind]
        form = form_class(_form_data(serializer.validated_data), campaign=campaign)
        if not form.is_valid():
            return Response(_form_errors(form), status=status.HTTP_400_BAD_REQUEST)
        data = form.cleaned_data
        encounter = services.fight_create(
            campaign=campaign, user=request.user, engine=engine, setup=data["setup"],
            title=data["title"], characters=data["characters"], ships=data.get("ships", ()))
        return Response(EncounterSummarySerializer(encounter).data,
                        status=status.HTTP_201_CREATED)


class SkirmishCreateView(_FightCreateView):
    kind = "skirmish"
    serializer_class = SkirmishCreateSerializer

    @extend_schema(request=SkirmishCreateSerializer,
                   responses={201: EncounterSummarySerializer})
    def post(self, request, campaign_id):
        return super().post(request, campaign_id)


class DuelCreateView(_FightCreateView):
    kind = "duel"
    serializer_class = DuelCreateSerializer

    @extend_schema(request=DuelCreateSerializer, responses={201: EncounterSummarySerializer})
    def post(self, request, campaign_id):
        return super().post(request, campaign_id)


class BoardingCreateView(_FightCreateView):
    kind = "boarding"
    serializer_class = BoardingCreateSerializer

    @extend_schema(request=BoardingCreateSerializer,
                   responses={201: EncounterSummarySerializer})
    def post(self, request, campaign_id):
        return super().post(request, campaign_id)


class ReplayStepSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    event = serializers.DictField(help_text="seq, kind, text, data, round (and gm_data for "
                                            "the GM).")
    view = serializers.DictField(help_text="The engine's view of the state after the event, "
                                           "for you.")


class ReplaySerializer(serializers.Serializer):
    encounter = serializers.IntegerField()
    engine = serializers.CharField()
    title = serializers.CharField()
    status = serializers.CharField()
    seed_hash = serializers.CharField()
    seed = serializers.CharField()
    outcome = serializers.DictField(allow_null=True)
    matches = serializers.BooleanField(help_text="Whether the replay gives the recorded "
                                                 "events again.")
    steps = ReplayStepSerializer(many=True)
    setup = serializers.DictField(required=False, help_text="GM only.")
    stacked_cards = serializers.ListField(child=serializers.CharField(), required=False,
                                          help_text="GM only.")
    choices = serializers.ListField(child=serializers.DictField(), required=False,
                                    help_text="GM only.")


class EncounterReplayView(APIView):
    @extend_schema(responses={200: ReplaySerializer, 409: ERRORS["409"]})
    def get(self, request, pk):
        """The step-through replay of a finished encounter (``combat.replay``): 409 while its
        seed is secret."""
        encounter = replay_encounter_for_user(request.user, pk)
        participants = selectors.participant_ids_for(request.user, encounter)
        if not encounter.seed_revealed or not encounter.seed:
            return Response({"detail": "It can be replayed once it has ended and its seed "
                                       "is known.", "version": encounter.version},
                            status=status.HTTP_409_CONFLICT)
        return Response(replay_export(encounter, participants))


urlpatterns = [
    path("campaigns/<int:campaign_id>/skirmishes/", SkirmishCreateView.as_view(),
         name="api-skirmish-create"),
    path("campaigns/<int:campaign_id>/duels/", DuelCreateView.as_view(),
         name="api-duel-create"),
    path("campaigns/<int:campaign_id>/boardings/", BoardingCreateView.as_view(),
         name="api-boarding-create"),
    path("encounters/<int:pk>/replay/", EncounterReplayView.as_view(),
         name="api-encounter-replay"),
]
