"""REST API of campaigns: list, create, detail and settings, members, invitation, log.
Access through ``campaigns.selectors``
(outsiders get 404), changes through ``campaigns.services``."""

from django.urls import path, reverse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns import selectors, services
from campaigns.api_common import InputSerializer
from campaigns.models import Campaign, CampaignLogEntry, Membership


class CampaignSerializer(serializers.ModelSerializer):
    role = serializers.SerializerMethodField()
    settings = serializers.SerializerMethodField()

    class Meta:
        model = Campaign
        fields = ["id", "name", "description", "role", "settings", "version", "created_at"]

    def get_role(self, obj) -> str | None:
        return selectors.membership_role(self.context["request"].user, obj)

    def get_settings(self, obj) -> dict:
        """Every campaign setting, the campaign's choices over the defaults."""
        return obj.rules_settings()


class CampaignCreateSerializer(InputSerializer):
    name = serializers.CharField(max_length=200)
    description = serializers.CharField(required=False, allow_blank=True, default="")


class CampaignUpdateSerializer(InputSerializer):
    version = serializers.IntegerField(help_text="The version you edited (409 if stale).")
    name = serializers.CharField(max_length=200, required=False)
    description = serializers.CharField(required=False, allow_blank=True)
    settings = serializers.DictField(
        required=False, help_text="The full set of campaign settings you want (name: value)."
    )


class MemberSerializer(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username", read_only=True)

    class Meta:
        model = Membership
        fields = ["id", "user", "username", "role", "joined_at"]


class InviteSerializer(serializers.Serializer):
    token = serializers.CharField(allow_null=True)
    url = serializers.CharField(allow_null=True)


class LogEntrySerializer(serializers.ModelSerializer):
    actor = serializers.SlugRelatedField(slug_field="username", read_only=True)

    class Meta:
        model = CampaignLogEntry
        fields = ["id", "created_at", "actor", "kind", "text", "data", "gm_only"]


class CampaignListView(APIView):
    @extend_schema(responses=CampaignSerializer(many=True))
    def get(self, request):
        """The campaigns you are a member of."""
        campaigns = selectors.campaigns_for_user(request.user)
        return Response(CampaignSerializer(campaigns, many=True, context={"request": request}).data)

    @extend_schema(request=CampaignCreateSerializer, responses={201: CampaignSerializer})
    def post(self, request):
        """Start a campaign; you are its GM."""
        data = CampaignCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        campaign = services.campaign_create(gm=request.user, **data.validated_data)
        return Response(CampaignSerializer(campaign, context={"request": request}).data,
                        status=status.HTTP_201_CREATED)


class CampaignDetailView(APIView):
    @extend_schema(responses=CampaignSerializer)
    def get(self, request, pk):
        campaign = selectors.campaign_for_user(request.user, pk)
        return Response(CampaignSerializer(campaign, context={"request": request}).data)

    @extend_schema(request=CampaignUpdateSerializer, responses=CampaignSerializer)
    def patch(self, request, pk):
        """GM: change the name, description or settings (only those given)."""
        campaign = selectors.campaign_for_user(request.user, pk)
        selectors.require_gm(request.user, campaign)
        data = CampaignUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        campaign = services.campaign_update(
            campaign=campaign, actor=request.user, **data.validated_data
        )
        return Response(CampaignSerializer(campaign, context={"request": request}).data)


class CampaignMembersView(APIView):
    @extend_schema(responses=MemberSerializer(many=True))
    def get(self, request, pk):
        campaign = selectors.campaign_for_user(request.user, pk)
        return Response(MemberSerializer(selectors.campaign_members(campaign), many=True).data)


def _invite(request, campaign: Campaign) -> dict:
    token = campaign.invite_token
    url = request.build_absolute_uri(reverse("campaigns:join", args=[token])) if token else None
    return {"token": token, "url": url}


class CampaignInviteView(APIView):
    @extend_schema(responses=InviteSerializer)
    def get(self, request, pk):
        """GM: the live invitation link, if any."""
        campaign = selectors.campaign_for_user(request.user, pk)
        selectors.require_gm(request.user, campaign)
        return Response(_invite(request, campaign))

    @extend_schema(request=None, responses={201: InviteSerializer})
    def post(self, request, pk):
        """GM: issue a new invitation link (the previous one stops working)."""
        campaign = selectors.campaign_for_user(request.user, pk)
        selectors.require_gm(request.user, campaign)
        services.campaign_invite_regenerate(campaign=campaign, actor=request.user)
        campaign.refresh_from_db()
        return Response(_invite(request, campaign), status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request, pk):
        """GM: revoke the invitation link."""
        campaign = selectors.campaign_for_user(request.user, pk)
        selectors.require_gm(request.user, campaign)
        services.campaign_invite_revoke(campaign=campaign, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class InviteJoinView(APIView):
    @extend_schema(request=None, responses={
        201: MemberSerializer, 200: OpenApiResponse(MemberSerializer, "already a member"),
    })
    def post(self, request, token):
        """Join the campaign of an invitation link as a player."""
        if selectors.campaign_for_invite(token) is None:
            return Response({"detail": "This invitation link is not valid."},
                            status=status.HTTP_404_NOT_FOUND)
        membership, joined = services.campaign_join(token=token, user=request.user)
        return Response(MemberSerializer(membership).data,
                        status=status.HTTP_201_CREATED if joined else status.HTTP_200_OK)


class CampaignLogView(APIView):
    @extend_schema(responses=LogEntrySerializer(many=True))
    def get(self, request, pk):
        """The campaign log, newest first (GM-only entries for GMs alone); at most 200."""
        campaign = selectors.campaign_for_user(request.user, pk)
        entries = selectors.log_for_user(request.user, campaign)[:200]
        return Response(LogEntrySerializer(entries, many=True).data)


urlpatterns = [
    path("campaigns/", CampaignListView.as_view(), name="api-campaign-list"),
    path("campaigns/<int:pk>/", CampaignDetailView.as_view(), name="api-campaign-detail"),
    path("campaigns/<int:pk>/members/", CampaignMembersView.as_view(),
         name="api-campaign-members"),
    path("campaigns/<int:pk>/invite/", CampaignInviteView.as_view(), name="api-campaign-invite"),
    path("campaigns/<int:pk>/log/", CampaignLogView.as_view(), name="api-campaign-log"),
    path("invites/<str:token>/join/", InviteJoinView.as_view(), name="api-invite-join"),
]
