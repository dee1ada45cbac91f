"""REST API of character creation, included by ``combat.api``: start a draft (a player),
read one (what the viewer may see: ``combat.creation.selectors.draft_view``), make a
decision. The same permissions as the pages: a draft is its player's and the GMs'
(404 for anyone else).

Answers: 400 bad input (a typed step's reasons per field), 403 a decision that is not the
user's, 404 not theirs to see, 409 a stale ``version`` (``{"detail", "version"}``); nothing
is changed then."""

import json

from django.urls import path
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.api_common import InputSerializer
from campaigns.selectors import campaign_for_user
from combat.creation import selectors, services
from combat.forms import MAX_TYPED_INPUT

DraftSerializer = inline_serializer("Draft", {
    "id": serializers.IntegerField(),
    "engine": serializers.CharField(),
    "status": serializers.CharField(help_text="The draft's: drafting, submitted, approved."),
    "version": serializers.IntegerField(help_text="Send it with a decision (409 if stale)."),
    "step": serializers.CharField(allow_null=True, help_text="The step the player is at."),
    "seed_hash": serializers.CharField(),
    "seed": serializers.CharField(allow_null=True, help_text="Once approved."),
    "state": serializers.DictField(help_text="The engine's view for you (the sheet so far)."),
    "decisions": serializers.ListField(child=serializers.DictField(),
                                       help_text="Yours, with their options or fields."),
    "waiting": serializers.ListField(child=serializers.CharField()),
    "events": serializers.ListField(child=serializers.DictField()),
})


class DecideSerializer(InputSerializer):
    kind = serializers.CharField(max_length=100, help_text="creation.concept, ship.origin…")
    choice = serializers.JSONField(help_text="An option's key, or a typed step's fields as "
                                             "an object (or its JSON text).")
    version = serializers.IntegerField(min_value=1, help_text="The version you saw.")


def _detail(user, draft) -> dict:
    view = selectors.draft_view(user, draft)
    events = [{k: v for k, v in e.items() if k != "created_at"} for e in view["events"]]
    return {"id": draft.pk, "engine": draft.engine, "status": view["summary"]["status"],
            "version": draft.version, "step": view["state"].get("step"),
            "seed_hash": draft.seed_hash, "seed": draft.seed if draft.seed_revealed else None,
            "state": view["state"], "decisions": view["mine"], "waiting": view["waiting"],
            "events": events}


class DraftStartView(APIView):
    @extend_schema(request=None, responses={201: DraftSerializer})
    def post(self, request, campaign_id):
        campaign = campaign_for_user(request.user, campaign_id)
        draft = services.creation_start(campaign=campaign, user=request.user)
        return Response(_detail(request.user, draft), status=status.HTTP_201_CREATED)


class DraftDetailView(APIView):
    @extend_schema(responses=DraftSerializer)
    def get(self, request, pk):
        return Response(_detail(request.user, selectors.draft_for_user(request.user, pk)))


class DraftDecideView(APIView):
    @extend_schema(request=DecideSerializer, responses=DraftSerializer)
    def post(self, request, pk):
        draft = selectors.draft_for_user(request.user, pk)
        serializer = DecideSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        choice = data["choice"]
        text = choice if isinstance(choice, str) else json.dumps(choice)
        if len(text) > MAX_TYPED_INPUT:
            return Response({"choice": [f"At most {MAX_TYPED_INPUT} characters."]},
                            status=status.HTTP_400_BAD_REQUEST)
        services.creation_decide(draft=draft, user=request.user, kind=data["kind"],
                                 values=text, version=data["version"])
        draft.refresh_from_db()
        return Response(_detail(request.user, draft))


urlpatterns = [
    path("campaigns/<int:campaign_id>/drafts/", DraftStartView.as_view(),
         name="api-draft-start"),
    path("drafts/<int:pk>/", DraftDetailView.as_view(), name="api-draft-detail"),
    path("drafts/<int:pk>/decide/", DraftDecideView.as_view(), name="api-draft-decide"),
]
