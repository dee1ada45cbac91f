"""REST API of missions, challenges, voyages and sessions: what the pages offer, with the
same permissions (``campaigns.missions.selectors`` decides what a viewer may see; GM-only
fields are left out for players), changes through ``campaigns.missions.services``."""

from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404
from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns import directory
from campaigns.api_common import InputSerializer, id_field
from campaigns.missions import selectors, services
from campaigns.missions.models import STATIONS, Challenge, Mission, Session, Voyage
from campaigns.missions.targets import resolve_entries
from campaigns.selectors import campaign_for_user, is_gm, require_gm
from rules.btq import missions as kernel


class EntrySerializer(InputSerializer):
    kind = serializers.CharField(max_length=20, help_text="A row of the purchase table.")
    amount = serializers.IntegerField(min_value=1, max_value=20, default=1)
    target = serializers.CharField(max_length=200, required=False, allow_blank=True,
                                   default="")
    scope = serializers.ChoiceField(choices=list(kernel.SCOPES), default="all")
    character = serializers.IntegerField(required=False, allow_null=True, default=None)
    note = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


class MissionSerializer(serializers.ModelSerializer):
    characters = serializers.SerializerMethodField()
    rewards = EntrySerializer(many=True, read_only=True)
    failures = EntrySerializer(many=True, read_only=True)

    class Meta:
        model = Mission
        fields = ["id", "name", "kind", "intent", "challenges_required", "deadline_failures",
                  "deadline_narrative", "rewards", "failures", "status", "successes",
                  "failed", "characters", "planning_notes", "voyage", "template", "version",
                  "created_at", "ended_at"]

    def get_characters(self, obj) -> list[int]:
        return sorted(c.character_id for c in obj.cast.all())


class MissionGMSerializer(MissionSerializer):
    class Meta(MissionSerializer.Meta):
        fields = [*MissionSerializer.Meta.fields, "hidden", "gm_notes", "proposed_by"]


def _read_targets(campaign, values: dict, cast_ids) -> None:
    """The targets of ``values``' ``rewards`` and ``failures`` read as the mission pages
    read them (:func:`campaigns.missions.targets.resolve_entries`): a reputation by its name
    among those of the characters ``cast_ids`` ("Feared by Smugglers"), besides the target
    syntax. A name none of them has is a 400 on that row's target naming the reputations
    they have."""
    every = directory.player_characters(campaign)
    cast = {pk: every[pk] for pk in cast_ids if pk in every}
    errors = {}
    for field, side in (("rewards", kernel.REWARD), ("failures", kernel.FAILURE)):
        if field in values:
            values[field] = [dict(entry) for entry in values[field]]
            refused = resolve_entries(values[field], side, cast, every)
            if refused:
                errors[field] = {i: {"target": [why]} for i, why in refused.items()}
    if errors:
        raise serializers.ValidationError(errors)


def _mission_data(request, mission) -> dict:
    cls = MissionGMSerializer if is_gm(request.user, mission.campaign) else MissionSerializer
    return cls(mission).data


class MissionCreateSerializer(InputSerializer):
    name = serializers.CharField(max_length=200)
    kind = serializers.ChoiceField(choices=list(kernel.KINDS), default="naval")
    intent = serializers.CharField(required=False, allow_blank=True, default="")
    challenges_required = serializers.IntegerField(min_value=0, max_value=1000)
    deadline_failures = serializers.IntegerField(min_value=0, max_value=1000, required=False,
                                                 allow_null=True, default=None)
    deadline_narrative = serializers.CharField(max_length=300, required=False,
                                               allow_blank=True, default="")
    rewards = serializers.ListField(child=serializers.DictField(), required=False, default=list,
                                    max_length=20)
    failures = serializers.ListField(child=serializers.DictField(), required=False,
                                     default=list, max_length=20)
    characters = serializers.ListField(child=id_field(), required=False,
                                       default=list, max_length=50)
    planning_notes = serializers.CharField(required=False, allow_blank=True, default="")
    hidden = serializers.BooleanField(required=False, default=False)
    gm_notes = serializers.CharField(required=False, allow_blank=True, default="")


class MissionUpdateSerializer(InputSerializer):
    version = serializers.IntegerField(help_text="The version you edited (409 if stale).")
    name = serializers.CharField(max_length=200, required=False)
    kind = serializers.ChoiceField(choices=list(kernel.KINDS), required=False)
    intent = serializers.CharField(required=False, allow_blank=True)
    challenges_required = serializers.IntegerField(min_value=0, max_value=1000, required=False)
    deadline_failures = serializers.IntegerField(min_value=0, max_value=1000, required=False)
    deadline_narrative = serializers.CharField(max_length=300, required=False,
                                               allow_blank=True)
    rewards = serializers.ListField(child=serializers.DictField(), required=False,
                                    max_length=20)
    failures = serializers.ListField(child=serializers.DictField(), required=False,
                                     max_length=20)
    characters = serializers.ListField(child=id_field(), required=False,
                                       max_length=50)
    planning_notes = serializers.CharField(required=False, allow_blank=True)
    hidden = serializers.BooleanField(required=False)
    gm_notes = serializers.CharField(required=False, allow_blank=True)


class StepSerializer(InputSerializer):
    version = serializers.IntegerField(help_text="The version you saw (409 if stale).")
    reason = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")


class SampleSerializer(InputSerializer):
    sample = serializers.ChoiceField(choices=sorted(kernel.sample_missions()))
    characters = serializers.ListField(child=id_field(), required=False,
                                       default=list, max_length=50)
    hidden = serializers.BooleanField(required=False, default=False)


class MissionListView(APIView):
    @extend_schema(responses=MissionSerializer(many=True))
    def get(self, request, pk):
        """The missions you may see (a GM: every one, with the hidden flag and GM notes)."""
        campaign = campaign_for_user(request.user, pk)
        return Response([_mission_data(request, m)
                         for m in selectors.missions_for_user(request.user, campaign)])

    @extend_schema(request=MissionCreateSerializer, responses={201: MissionSerializer})
    def post(self, request, pk):
        """A GM opens a mission; a player proposes one for his own characters."""
        campaign = campaign_for_user(request.user, pk)
        data = MissionCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        _read_targets(campaign, values, values["characters"])
        mission, _ = services.mission_create(campaign=campaign, actor=request.user, **values)
        return Response(_mission_data(request, mission), status=status.HTTP_201_CREATED)


class MissionSampleView(APIView):
    @extend_schema(request=SampleSerializer, responses={201: MissionSerializer})
    def post(self, request, pk):
        """GM: open one of the book's missions."""
        campaign = campaign_for_user(request.user, pk)
        require_gm(request.user, campaign)
        data = SampleSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        mission = services.mission_load_sample(
            campaign=campaign, actor=request.user, key=data.validated_data["sample"],
            characters=data.validated_data["characters"],
            hidden=data.validated_data["hidden"])
        return Response(_mission_data(request, mission), status=status.HTTP_201_CREATED)


class MissionDetailView(APIView):
    @extend_schema(responses=MissionSerializer)
    def get(self, request, pk, mission_pk):
        return Response(_mission_data(request, selectors.mission_for_user(
            request.user, pk, mission_pk)))

    @extend_schema(request=MissionUpdateSerializer, responses=MissionSerializer)
    def patch(self, request, pk, mission_pk):
        """GM: change the fields given of a mission not over."""
        campaign = campaign_for_user(request.user, pk)
        require_gm(request.user, campaign)
        data = MissionUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        mission = selectors.mission_for_user(request.user, pk, mission_pk)
        values = dict(data.validated_data)
        version = values.pop("version")
        _read_targets(campaign, values, values["characters"] if "characters" in values
                      else mission.cast.values_list("character_id", flat=True))
        mission, _ = services.mission_update(mission=mission, actor=request.user,
                                             version=version, **values)
        return Response(_mission_data(request, mission))


STEPS = {
    "approve": lambda m, u, d: services.mission_approve(mission=m, actor=u, version=d["version"]),
    "decline": lambda m, u, d: services.mission_decline(mission=m, actor=u, version=d["version"],
                                                        reason=d["reason"]),
    "complete": lambda m, u, d: services.mission_complete(mission=m, actor=u,
                                                          version=d["version"]),
    "fail": lambda m, u, d: services.mission_fail(mission=m, actor=u, version=d["version"],
                                                  reason=d["reason"]),
    "abandon": lambda m, u, d: services.mission_fail(mission=m, actor=u, version=d["version"],
                                                     abandoned=True, reason=d["reason"]),
}


def _step_view(action: str):
    class MissionStepView(APIView):
        @extend_schema(request=StepSerializer, responses=MissionSerializer,
                       operation_id=f"mission_{action}")
        def post(self, request, pk, mission_pk):
            campaign_for_user(request.user, pk)
            data = StepSerializer(data=request.data)
            data.is_valid(raise_exception=True)
            mission = selectors.mission_for_user(request.user, pk, mission_pk)
            mission = STEPS[action](mission, request.user, data.validated_data)
            return Response(_mission_data(request, mission))

    MissionStepView.__name__ = f"Mission{action.capitalize()}View"
    MissionStepView.post.__doc__ = {
        "approve": "GM: accept a player's proposed mission.",
        "decline": "GM: turn a proposed mission down.",
        "complete": "GM: confirm that a mission whose challenges are met is completed.",
        "fail": "GM: the narrative deadline passed; the mission fails.",
        "abandon": "The GM or a player of a character on it abandons the mission.",
    }[action]
    return MissionStepView.as_view()


class ResultSerializer(serializers.Serializer):
    met = serializers.BooleanField()
    encounter = serializers.IntegerField(source="encounter_id", allow_null=True)
    summary = serializers.CharField()
    recorded_at = serializers.DateTimeField()


class ChallengeSerializer(serializers.ModelSerializer):
    missions = serializers.SerializerMethodField()
    result = serializers.SerializerMethodField()

    class Meta:
        model = Challenge
        fields = ["id", "description", "kind", "status", "missions", "session", "result",
                  "created_at"]

    def get_missions(self, obj) -> list[int]:
        return sorted(m.pk for m in obj.visible_missions)

    def get_result(self, obj) -> ResultSerializer(allow_null=True):
        result = getattr(obj, "result", None)
        return None if result is None else ResultSerializer(result).data


class ChallengeGMSerializer(ChallengeSerializer):
    class Meta(ChallengeSerializer.Meta):
        fields = [*ChallengeSerializer.Meta.fields, "gm_notes"]


class ChallengeCreateSerializer(InputSerializer):
    missions = serializers.ListField(child=id_field(), max_length=50)
    description = serializers.CharField(max_length=300)
    kind = serializers.ChoiceField(choices=list(Challenge.KINDS), default="test")
    gm_notes = serializers.CharField(required=False, allow_blank=True, default="")
    session = serializers.IntegerField(required=False, allow_null=True, default=None)


class ChallengeRecordSerializer(InputSerializer):
    met = serializers.BooleanField()
    summary = serializers.CharField(max_length=300, required=False, allow_blank=True,
                                    default="")


def _challenges(request, campaign):
    rows = selectors.challenges_for_user(request.user, campaign)
    cls = ChallengeGMSerializer if is_gm(request.user, campaign) else ChallengeSerializer
    return rows, cls


class ChallengeListView(APIView):
    @extend_schema(responses=ChallengeSerializer(many=True))
    def get(self, request, pk):
        """The challenges you may see, with their results."""
        campaign = campaign_for_user(request.user, pk)
        rows, cls = _challenges(request, campaign)
        return Response(cls(rows, many=True).data)

    @extend_schema(request=ChallengeCreateSerializer, responses={201: ChallengeSerializer})
    def post(self, request, pk):
        """GM: call a challenge for one or more missions under way. A player proposes one
        (``status`` ``proposed``, without GM notes) for missions he sees; the GM accepts or
        declines it."""
        campaign = campaign_for_user(request.user, pk)
        data = ChallengeCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        session = values.pop("session")
        if session is not None:
            session = get_object_or_404(Session, pk=session, campaign=campaign)
        challenge = services.challenge_create(campaign=campaign, actor=request.user,
                                              session=session, **values)
        rows, cls = _challenges(request, campaign)
        return Response(cls(rows.get(pk=challenge.pk)).data, status=status.HTTP_201_CREATED)


class ChallengeRecordView(APIView):
    @extend_schema(request=ChallengeRecordSerializer, responses={201: ChallengeSerializer,
                                                                 200: ChallengeSerializer})
    def post(self, request, pk, challenge_pk):
        """GM: a challenge's result without an encounter. A challenge has one result: a
        second answers 200 with the first."""
        campaign = campaign_for_user(request.user, pk)
        require_gm(request.user, campaign)
        data = ChallengeRecordSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        challenge = get_object_or_404(Challenge, pk=challenge_pk, campaign=campaign)
        recorded = services.challenge_record(challenge=challenge, actor=request.user,
                                             **data.validated_data)
        rows, cls = _challenges(request, campaign)
        return Response(cls(rows.get(pk=challenge.pk)).data,
                        status=status.HTTP_201_CREATED if recorded else status.HTTP_200_OK)


class ChallengeAcceptSerializer(InputSerializer):
    description = serializers.CharField(max_length=300, required=False,
                                        help_text="The GM's changed wording, if any.")
    kind = serializers.ChoiceField(choices=list(Challenge.KINDS), required=False)
    gm_notes = serializers.CharField(required=False, allow_blank=True, default="")


class ChallengeDeclineSerializer(InputSerializer):
    reason = serializers.CharField(max_length=200, required=False, allow_blank=True,
                                   default="")


def _proposal_step(request, pk, challenge_pk, serializer_class, service):
    campaign = campaign_for_user(request.user, pk)
    require_gm(request.user, campaign)
    data = serializer_class(data=request.data)
    data.is_valid(raise_exception=True)
    challenge = get_object_or_404(Challenge, pk=challenge_pk, campaign=campaign)
    service(challenge=challenge, actor=request.user, **data.validated_data)
    rows, cls = _challenges(request, campaign)
    return Response(cls(rows.get(pk=challenge.pk)).data)


class ChallengeAcceptView(APIView):
    @extend_schema(request=ChallengeAcceptSerializer, responses={200: ChallengeSerializer})
    def post(self, request, pk, challenge_pk):
        """GM: accept a player's proposed challenge, as proposed or changed; it is then
        called. 409 if it is no longer proposed."""
        return _proposal_step(request, pk, challenge_pk, ChallengeAcceptSerializer,
                              services.challenge_accept)


class ChallengeDeclineView(APIView):
    @extend_schema(request=ChallengeDeclineSerializer, responses={200: ChallengeSerializer})
    def post(self, request, pk, challenge_pk):
        """GM: decline a player's proposed challenge. 409 if it is no longer proposed."""
        return _proposal_step(request, pk, challenge_pk, ChallengeDeclineSerializer,
                              services.challenge_decline)


class VoyageSerializer(serializers.ModelSerializer):
    class Meta:
        model = Voyage
        fields = ["id", "name", "station", "naval_missions_planned", "status", "started_on",
                  "recalled_on", "version"]


class VoyageCreateSerializer(InputSerializer):
    name = serializers.CharField(max_length=200)
    station = serializers.ChoiceField(choices=list(STATIONS), default="channel")
    naval_missions_planned = serializers.IntegerField(min_value=3, max_value=6, default=3)
    started_on = serializers.DateField(required=False, allow_null=True, default=None)


class VoyageListView(APIView):
    @extend_schema(responses=VoyageSerializer(many=True))
    def get(self, request, pk):
        campaign = campaign_for_user(request.user, pk)
        return Response(VoyageSerializer(selectors.voyages_for_user(request.user, campaign),
                                         many=True).data)

    @extend_schema(request=VoyageCreateSerializer, responses={201: VoyageSerializer})
    def post(self, request, pk):
        """GM: begin a voyage of 3 to 6 Naval Missions."""
        campaign = campaign_for_user(request.user, pk)
        require_gm(request.user, campaign)
        data = VoyageCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        voyage = services.voyage_create(campaign=campaign, actor=request.user,
                                        **data.validated_data)
        return Response(VoyageSerializer(voyage).data, status=status.HTTP_201_CREATED)


class VoyageRecallView(APIView):
    @extend_schema(request=StepSerializer, responses=VoyageSerializer)
    def post(self, request, pk, voyage_pk):
        """GM: the voyage ends; the ship is recalled to Britain."""
        campaign = campaign_for_user(request.user, pk)
        require_gm(request.user, campaign)
        data = StepSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        voyage = get_object_or_404(Voyage, pk=voyage_pk, campaign=campaign)
        voyage = services.voyage_recall(voyage=voyage, actor=request.user,
                                        version=data.validated_data["version"])
        return Response(VoyageSerializer(voyage).data)


class SessionSerializer(serializers.ModelSerializer):
    class Meta:
        model = Session
        fields = ["id", "title", "played_on", "voyage", "attendance", "denouement", "ended_at",
                  "version"]


class SessionGMSerializer(SessionSerializer):
    class Meta(SessionSerializer.Meta):
        fields = [*SessionSerializer.Meta.fields, "gm_notes"]


class SessionCreateSerializer(InputSerializer):
    title = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    played_on = serializers.DateField(required=False, allow_null=True, default=None)
    attendance = serializers.ListField(child=id_field(), required=False,
                                       default=list, max_length=50)
    gm_notes = serializers.CharField(required=False, allow_blank=True, default="")


class SessionEndSerializer(StepSerializer):
    denouement = serializers.CharField(required=False, allow_blank=True, default="")


class SessionListView(APIView):
    @extend_schema(responses=SessionSerializer(many=True))
    def get(self, request, pk):
        campaign = campaign_for_user(request.user, pk)
        cls = SessionGMSerializer if is_gm(request.user, campaign) else SessionSerializer
        return Response(cls(selectors.sessions_for_user(request.user, campaign),
                            many=True).data)

    @extend_schema(request=SessionCreateSerializer, responses={201: SessionGMSerializer})
    def post(self, request, pk):
        """GM: plan a session with the members who attend."""
        campaign = campaign_for_user(request.user, pk)
        require_gm(request.user, campaign)
        data = SessionCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        session = services.session_create(campaign=campaign, actor=request.user,
                                          **data.validated_data)
        return Response(SessionGMSerializer(session).data, status=status.HTTP_201_CREATED)


class SessionEndView(APIView):
    @extend_schema(request=SessionEndSerializer, responses=SessionGMSerializer)
    def post(self, request, pk, session_pk):
        """GM: end the session with its denouement."""
        campaign = campaign_for_user(request.user, pk)
        require_gm(request.user, campaign)
        data = SessionEndSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        session = get_object_or_404(Session, pk=session_pk, campaign=campaign)
        session = services.session_end(session=session, actor=request.user,
                                       version=data.validated_data["version"],
                                       denouement=data.validated_data["denouement"])
        return Response(SessionGMSerializer(session).data)


class DashboardSerializer(serializers.Serializer):
    open_missions = MissionGMSerializer(many=True)
    proposed = serializers.ListField(child=id_field())
    proposed_challenges = serializers.ListField(child=id_field())
    to_confirm = serializers.ListField(child=id_field())
    missing_initial_missions = serializers.ListField(child=serializers.DictField())


class DashboardView(APIView):
    @extend_schema(responses=DashboardSerializer)
    def get(self, request, pk):
        """GM: the open missions and what waits for the GM."""
        campaign = campaign_for_user(request.user, pk)
        if not is_gm(request.user, campaign):
            raise PermissionDenied("Only the campaign's GMs see the dashboard.")
        waiting = selectors.gm_waiting(campaign)
        return Response({
            "open_missions": MissionGMSerializer(Mission.objects.filter(
                campaign=campaign, status__in=Mission.OPEN).prefetch_related("cast"),
                many=True).data,
            "proposed": [m.pk for m in waiting["proposed"]],
            "proposed_challenges": [c.pk for c in waiting["proposed_challenges"]],
            "to_confirm": [m.pk for m in waiting["to_confirm"]],
            "missing_initial_missions": [
                {"character": row["character"].id, "missing": row["missing"]}
                for row in waiting["missing"]],
        })


class TablesView(APIView):
    @extend_schema(responses=serializers.DictField())
    def get(self, request, pk):
        """The reward and failure tables as this campaign prices them, and the book's
        missions."""
        campaign = campaign_for_user(request.user, pk)
        tables = services.purchase_tables(campaign)
        return Response({
            side: [{"kind": p.kind, "label": p.label, "cost": p.cost, "chooser": p.chooser}
                   for p in rows.values()] for side, rows in tables.items()
        } | {"samples": {k: t.as_dict() for k, t in kernel.sample_missions().items()},
             "characters": {pk: ref.name for pk, ref in directory.player_characters(
                 campaign).items()}})


urlpatterns = [
    path("campaigns/<int:pk>/missions/", MissionListView.as_view(), name="api-mission-list"),
    path("campaigns/<int:pk>/missions/sample/", MissionSampleView.as_view(),
         name="api-mission-sample"),
    path("campaigns/<int:pk>/missions/tables/", TablesView.as_view(), name="api-mission-tables"),
    path("campaigns/<int:pk>/missions/<int:mission_pk>/", MissionDetailView.as_view(),
         name="api-mission-detail"),
    *[path(f"campaigns/<int:pk>/missions/<int:mission_pk>/{action}/", _step_view(action),
           name=f"api-mission-{action}") for action in STEPS],
    path("campaigns/<int:pk>/challenges/", ChallengeListView.as_view(),
         name="api-challenge-list"),
    path("campaigns/<int:pk>/challenges/<int:challenge_pk>/accept/",
         ChallengeAcceptView.as_view(), name="api-challenge-accept"),
    path("campaigns/<int:pk>/challenges/<int:challenge_pk>/decline/",
         ChallengeDeclineView.as_view(), name="api-challenge-decline"),
    path("campaigns/<int:pk>/challenges/<int:challenge_pk>/result/",
         ChallengeRecordView.as_view(), name="api-challenge-result"),
    path("campaigns/<int:pk>/voyages/", VoyageListView.as_view(), name="api-voyage-list"),
    path("campaigns/<int:pk>/voyages/<int:voyage_pk>/recall/", VoyageRecallView.as_view(),
         name="api-voyage-recall"),
    path("campaigns/<int:pk>/sessions/", SessionListView.as_view(), name="api-session-list"),
    path("campaigns/<int:pk>/sessions/<int:session_pk>/end/", SessionEndView.as_view(),
         name="api-session-end"),
    path("campaigns/<int:pk>/dashboard/", DashboardView.as_view(), name="api-dashboard"),
]
