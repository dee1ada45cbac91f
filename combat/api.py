"""REST API of battles, under ``/api/`` (everything the battle pages offer).

Errors are ``{"detail": reason}``: 404 for a battle the user may not see (outsiders cannot
learn that it exists), 403 for a decision that is not the user's to make, 400 for an illegal
choice or a battle that is not running, 409 for a step taken from a stale version (with the
``version`` now saved). A decision sent with an older version is taken if that decision has
been pending unchanged since (another participant's came in first: the sides' written
orders); a decision made or changed since is the 409.
"""

from django.urls import path
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.api_common import InputSerializer, id_field
from campaigns.selectors import campaign_for_user, membership_role, require_gm
from combat import healing_api, selectors, services
from combat.card_tests import api as card_tests_api
from combat.creation import api as creation_api
from combat.forms import DECISION_TIMEOUT, MAX_ID, MAX_TYPED_INPUT
from combat.models import Encounter, Job
from combat.new_battle_api import NewBattleSerializer, new_battle_of
from combat.odds import api as odds_api
from combat.wargames import GM_COMMANDS, commanded_sides, wargame_create, wargame_scenarios


class EncounterSummarySerializer(serializers.ModelSerializer):
    status = serializers.CharField(read_only=True,
                                   help_text="setup, active, finished or cancelled.")

    class Meta:
        model = Encounter
        fields = ["id", "title", "engine", "status", "version", "seed_hash", "created_at",
                  "started_at", "finished_at", "outcome"]


class EncounterCreateSerializer(NewBattleSerializer):
    """A new Beat to Quarters ship battle between the players' ship and an enemy ship."""

    stacked_cards = serializers.CharField(required=False, allow_blank=True,
                                          help_text="GM-only cards drawn first, e.g. '6C 4C'.")
    challenge = serializers.IntegerField(
        required=False, allow_null=True,
        help_text="The challenge of a mission the battle is played for (its result meets or "
                  "fails it).")
    decision_timeout = serializers.IntegerField(
        required=False, allow_null=True, min_value=DECISION_TIMEOUT[0],
        max_value=DECISION_TIMEOUT[1],
        help_text="Seconds after which a pending decision takes its default; omit to wait.")


class DecisionSerializer(serializers.Serializer):
    actor = serializers.CharField()
    actor_name = serializers.CharField()
    kind = serializers.CharField()
    prompt = serializers.CharField()
    options = serializers.ListField(child=serializers.DictField())
    default = serializers.CharField()
    for_player = serializers.BooleanField(
        help_text="True for a player's decision the GM may make for him (GM only).")


class EventSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    kind = serializers.CharField()
    text = serializers.CharField()
    data = serializers.DictField()
    round = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()
    gm_data = serializers.DictField(required=False, help_text="GM only.")
    visible_to = serializers.ListField(child=serializers.CharField(), required=False,
                                       allow_null=True, help_text="GM only.")


class JobSerializer(serializers.ModelSerializer):
    """A background job, as you may see it."""

    # context["participants"]: whom the user plays in the job's battle (selectors).

    kind = serializers.CharField(read_only=True, help_text="resolve_rest.")
    status = serializers.CharField(read_only=True,
                                   help_text="queued, running, done, failed or cancelled.")
    steps = serializers.IntegerField(read_only=True, help_text="Decisions played so far (how "
                                     "many are left is not known before they are played).")
    error = serializers.SerializerMethodField(help_text="Why it failed; GM only.")
    outcome = serializers.SerializerMethodField(help_text="The battle's outcome once done, as "
                                                "you may see it (the same as the battle's).")

    class Meta:
        model = Job
        fields = ["id", "encounter", "kind", "status", "steps", "created_at", "claimed_at",
                  "finished_at", "error", "outcome"]

    def get_error(self, job: Job) -> str:
        return job.error if "gm" in self.context["participants"] else ""

    def get_outcome(self, job: Job) -> dict | None:
        if job.status != Job.Status.DONE:
            return None
        return selectors.outcome_for(job.encounter, self.context["participants"])


def _job(user, job: Job) -> dict:
    participants = selectors.participant_ids_for(user, job.encounter)
    return JobSerializer(job, context={"participants": participants}).data


class EncounterDetailSerializer(EncounterSummarySerializer):
    """The battle as the requesting user may see it."""

    participants = serializers.ListField(child=serializers.CharField(),
                                         help_text="The participants you act as.")
    view = serializers.DictField(allow_null=True, help_text="The engine's view of the state "
                                 "for you.")
    decisions = DecisionSerializer(many=True, help_text="Pending decisions you may make.")
    waiting_for = serializers.ListField(child=serializers.CharField())
    last_seq = serializers.IntegerField()
    seed = serializers.CharField(
        allow_null=True, help_text="Revealed when the battle ends or is called off after it began.")
    stacked_cards = serializers.ListField(child=serializers.CharField(), allow_null=True,
                                          help_text="GM only until the seed is revealed.")

    class Meta(EncounterSummarySerializer.Meta):
        fields = EncounterSummarySerializer.Meta.fields + [
            "participants", "view", "decisions", "waiting_for", "last_seq", "seed",
            "stacked_cards",
        ]


def _detail(user, encounter: Encounter) -> dict:
    participants = selectors.participant_ids_for(user, encounter)
    mine, waiting = selectors.decisions_for(encounter, participants)
    data = EncounterSummarySerializer(encounter).data
    data.update({
        "outcome": selectors.outcome_for(encounter, participants),
        "participants": participants,
        "view": selectors.view_for(encounter, participants),
        "decisions": mine,
        "waiting_for": waiting,
        "last_seq": selectors.last_seq(encounter),
        "seed": encounter.seed if encounter.seed_revealed else None,
        "stacked_cards": encounter.stacked_cards
        if encounter.seed_revealed or "gm" in participants else None,
    })
    return data


class EncounterListView(APIView):
    @extend_schema(responses=EncounterSummarySerializer(many=True))
    def get(self, request, campaign_id):
        campaign = campaign_for_user(request.user, campaign_id)
        encounters = selectors.encounters_for_user(request.user, campaign)
        participants = ["gm"] if membership_role(request.user, campaign) == "gm" else []
        data = EncounterSummarySerializer(encounters, many=True).data
        for row, encounter in zip(data, encounters):
            row["outcome"] = selectors.outcome_for(encounter, participants)
        return Response(data)

    @extend_schema(request=EncounterCreateSerializer, responses={201: EncounterDetailSerializer})
    def post(self, request, campaign_id):
        campaign = campaign_for_user(request.user, campaign_id)
        data = _valid(EncounterCreateSerializer, request.data)
        battle = new_battle_of(campaign, data)
        encounter = services.encounter_create(
            campaign=campaign, user=request.user, engine="btq_naval", title=battle.name(),
            setup=battle.setup(), stacked_cards=data.get("stacked_cards") or None,
            ships=battle.ships, challenge=data.get("challenge"),
            decision_timeout=data.get("decision_timeout"),
        )
        return Response(_detail(request.user, encounter), status=status.HTTP_201_CREATED)


def _valid(serializer_class, data) -> dict:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class EncounterDetailView(APIView):
    @extend_schema(responses=EncounterDetailSerializer)
    def get(self, request, pk):
        encounter = selectors.encounter_for_user(request.user, pk)
        return Response(_detail(request.user, encounter))


class VersionSerializer(InputSerializer):
    version = id_field(help_text="The version of the battle you saw.")


class EncounterStartView(APIView):
    @extend_schema(request=VersionSerializer, responses=EncounterDetailSerializer)
    def post(self, request, pk):
        encounter = selectors.encounter_for_user(request.user, pk)
        data = _valid(VersionSerializer, request.data)
        encounter = services.encounter_start(encounter=encounter, user=request.user,
                                             expected_version=data["version"])
        return Response(_detail(request.user, encounter))


class EncounterCancelView(APIView):
    @extend_schema(request=VersionSerializer, responses=EncounterDetailSerializer)
    def post(self, request, pk):
        encounter = selectors.encounter_for_user(request.user, pk)
        data = _valid(VersionSerializer, request.data)
        encounter = services.encounter_cancel(encounter=encounter, user=request.user,
                                              expected_version=data["version"])
        return Response(_detail(request.user, encounter))


class EncounterEventsView(APIView):
    @extend_schema(
        parameters=[inline_serializer("EventsQuery", {"after": serializers.IntegerField(
            required=False, min_value=0, max_value=MAX_ID,
            help_text="Only events after this sequence number.")})],
        responses=EventSerializer(many=True),
    )
    def get(self, request, pk):
        encounter = selectors.encounter_for_user(request.user, pk)
        try:
            after = int(request.query_params.get("after", 0))
        except ValueError:
            after = -1
        if not 0 <= after <= MAX_ID:
            return Response({"after": f"A whole number from 0 to {MAX_ID}."},
                            status=status.HTTP_400_BAD_REQUEST)
        participants = selectors.participant_ids_for(request.user, encounter)
        events = selectors.events_for(encounter, participants, after=after)
        return Response(EventSerializer(events, many=True).data)


class ActSerializer(InputSerializer):
    actor = serializers.CharField(max_length=100)
    kind = serializers.CharField(max_length=100)
    choice = serializers.CharField(
        max_length=MAX_TYPED_INPUT,
        help_text="An option's key; for a typed decision (one with fields) the JSON text of "
                  "its fields.")
    version = id_field()


class EncounterActView(APIView):
    @extend_schema(
        request=ActSerializer,
        responses={200: inline_serializer("ActResult", {
            "version": serializers.IntegerField(),
            "status": serializers.CharField(),
            "events": EventSerializer(many=True),
        })},
    )
    def post(self, request, pk):
        encounter = selectors.encounter_for_user(request.user, pk)
        data = _valid(ActSerializer, request.data)
        new = services.encounter_act(
            encounter=encounter, user=request.user, actor=data["actor"],
            decision_kind=data["kind"], choice=data["choice"], expected_version=data["version"],
        )
        encounter.refresh_from_db()
        participants = selectors.participant_ids_for(request.user, encounter)
        after = new[0].seq - 1 if new else selectors.last_seq(encounter)
        events = selectors.events_for(encounter, participants, after=after)
        return Response({"version": encounter.version, "status": encounter.status,
                         "events": EventSerializer(events, many=True).data})


class EncounterResolveView(APIView):
    @extend_schema(request=None, responses={202: JobSerializer})
    def post(self, request, pk):
        encounter = selectors.encounter_for_user(request.user, pk)
        job = services.encounter_resolve_rest(encounter=encounter, user=request.user)
        return Response(_job(request.user, job), status=status.HTTP_202_ACCEPTED)


class JobView(APIView):
    @extend_schema(responses=JobSerializer)
    def get(self, request, pk):
        return Response(_job(request.user, selectors.job_for_user(request.user, pk)))


# Starting a wargame (combat.wargames), as the campaign's "New wargame" page does: the GMs of
# the campaign only (403 for a player, 404 for an outsider); bad input is a 400 naming the
# field and the reason, and nothing is written.

WARGAME_MAX_SIDES = 16
"""More commanders than any scenario has sides is refused before it is read."""


class WargameSideSerializer(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()


class WargameScenarioSerializer(serializers.Serializer):
    """A scenario a wargame may be started from."""

    key = serializers.CharField(help_text="``<engine>/<scenario>``, what ``scenario`` takes.")
    engine = serializers.CharField()
    engine_title = serializers.CharField()
    title = serializers.CharField()
    sides = WargameSideSerializer(many=True, help_text="The sides that take a commander.")


class WargameCreateSerializer(InputSerializer):
    """A new wargame: a scenario, who commands each side, and optionally a title and the
    mission challenge it is played for."""

    scenario = serializers.CharField(max_length=200,
                                     help_text="A scenario's ``key`` from the GET list.")
    commanders = serializers.DictField(
        child=serializers.CharField(max_length=40), required=False,
        help_text=f"Side id -> `{GM_COMMANDS}` (the GM commands it) or `pc:<pk>` "
                  "(one of the campaign's player characters; a PC commands one side only). "
                  "A side not named is the GM's.")
    title = serializers.CharField(max_length=200, required=False, allow_blank=True,
                                  help_text="Empty or left out: the scenario's title.")
    challenge = serializers.IntegerField(
        required=False, allow_null=True, min_value=1,
        help_text="The challenge of a mission the game is played for (its result meets or "
                  "fails it).")

    def validate_commanders(self, value):
        if len(value) > WARGAME_MAX_SIDES:
            raise serializers.ValidationError(f"At most {WARGAME_MAX_SIDES} sides.")
        return value


class WargameListView(APIView):
    @extend_schema(responses=WargameScenarioSerializer(many=True))
    def get(self, request, campaign_id):
        campaign = campaign_for_user(request.user, campaign_id)
        require_gm(request.user, campaign)
        rows = [{"key": key, "engine": engine.name, "engine_title": engine.title,
                 "title": scenario.title,
                 "sides": [{"id": s["id"], "name": s["name"]}
                           for s in commanded_sides(scenario)]}
                for key, (engine, scenario) in wargame_scenarios().items()]
        return Response(WargameScenarioSerializer(rows, many=True).data)

    @extend_schema(request=WargameCreateSerializer, responses={201: EncounterDetailSerializer})
    def post(self, request, campaign_id):
        campaign = campaign_for_user(request.user, campaign_id)
        require_gm(request.user, campaign)
        data = _valid(WargameCreateSerializer, request.data)
        encounter = wargame_create(campaign=campaign, user=request.user,
                                   scenario_key=data["scenario"],
                                   commanders=dict(data.get("commanders") or {}),
                                   title=data.get("title") or "",
                                   challenge=data.get("challenge"))
        return Response(_detail(request.user, encounter), status=status.HTTP_201_CREATED)


urlpatterns = [
    *card_tests_api.urlpatterns,
    *creation_api.urlpatterns,
    *healing_api.urlpatterns,
    *odds_api.urlpatterns,
    path("campaigns/<int:campaign_id>/encounters/", EncounterListView.as_view(),
         name="api-encounter-list"),
    path("encounters/<int:pk>/", EncounterDetailView.as_view(), name="api-encounter-detail"),
    path("encounters/<int:pk>/start/", EncounterStartView.as_view(), name="api-encounter-start"),
    path("encounters/<int:pk>/cancel/", EncounterCancelView.as_view(),
         name="api-encounter-cancel"),
    path("encounters/<int:pk>/events/", EncounterEventsView.as_view(),
         name="api-encounter-events"),
    path("encounters/<int:pk>/act/", EncounterActView.as_view(), name="api-encounter-act"),
    path("encounters/<int:pk>/resolve-rest/", EncounterResolveView.as_view(),
         name="api-encounter-resolve"),
    path("jobs/<int:pk>/", JobView.as_view(), name="api-job"),
    path("campaigns/<int:campaign_id>/wargames/", WargameListView.as_view(),
         name="api-wargame-list"),
]
