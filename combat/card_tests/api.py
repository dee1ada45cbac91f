"""REST API of card tests, included by ``combat.api``: list and create (a GM calls, a
player proposes), detail with the odds (what the viewer may see:
``combat.card_tests.selectors.card_test_view``), and the steps confirm, joker, accept,
decline, cancel.

Answers: 400 bad input (with the reason per field), 403 a step that is not the user's,
404 not a member, 409 a stale ``version`` or a step the test's status does not allow now
(``{"detail", "version"}``); nothing is changed then."""

from django.core.exceptions import PermissionDenied
from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.api_common import InputSerializer
from campaigns.models import Membership
from campaigns.selectors import campaign_for_user, membership_role
from combat.card_tests import selectors, services, table
from combat.models import Encounter

LIST_LIMIT = 50


class CardTestModifierSerializer(InputSerializer):
    source = serializers.CharField(help_text="The trait, curio or effect: “Storm”.")
    cards = serializers.IntegerField(help_text="Cards added (or taken, negative), -20 to 20.")


class CardTestSetupSerializer(InputSerializer):
    """A test's setup; only the fields given are passed on (``card_test_call`` checks them
    all and says what is wrong with each)."""

    character = serializers.IntegerField(required=False, help_text="The acting PC's id.")
    skill = serializers.CharField(required=False,
                                  help_text="A skill (seamanship), a Measure (guts) or wealth.")
    reputations = serializers.ListField(child=serializers.IntegerField(), required=False,
                                        help_text="At most one reputation id of the PC.")
    ship_reputation = serializers.IntegerField(
        required=False, allow_null=True,
        help_text="In place of a reputation of the PC: one of the ship's they serve on.")
    helpers = serializers.ListField(child=serializers.IntegerField(), required=False,
                                    help_text="Ids of helping PCs.")
    modifiers = CardTestModifierSerializer(many=True, required=False)
    opposition = serializers.ChoiceField(choices=table.Opposition.choices, required=False)
    opponent = serializers.IntegerField(required=False, allow_null=True,
                                        help_text="The opposing NPC's id.")
    opponent_skill = serializers.CharField(required=False, allow_blank=True,
                                           help_text="GM only: the NPC's skill.")
    opponent_modifiers = CardTestModifierSerializer(many=True, required=False,
                                            help_text="GM only.")
    difficulty = serializers.CharField(
        required=False, allow_blank=True,
        help_text="easy, routine, challenging, damned_hard, heroic_effort, or a number of "
                  "cards.")
    intent = serializers.CharField(required=False, allow_blank=True)
    stakes_win = serializers.CharField(required=False, allow_blank=True)
    stakes_lose = serializers.CharField(required=False, allow_blank=True)
    at_risk = serializers.CharField(
        required=False, allow_blank=True,
        help_text="health, ship_morale, wealth or reputation:<id>; empty for nothing.")
    opponent_at_risk = serializers.CharField(required=False, allow_blank=True,
                                             help_text="GM only: health, ship_morale, wealth.")


class CardTestCallSerializer(CardTestSetupSerializer):
    """A new test's setup: what the character attempts is required."""

    intent = serializers.CharField(min_length=1, help_text="What the character attempts.")
    challenge = serializers.IntegerField(
        required=False, allow_null=True,
        help_text="GM only: the challenge of a mission the test is played for.")


class CardTestAcceptSerializer(CardTestSetupSerializer):
    version = serializers.IntegerField(help_text="The version you saw (409 if stale).")


class CardTestVersionSerializer(InputSerializer):
    version = serializers.IntegerField(help_text="The version you saw (409 if stale).")


class CardTestJokerSerializer(CardTestVersionSerializer):
    card = serializers.CharField(required=False, allow_blank=True, allow_null=True,
                                 help_text="One of the 52 cards (7D); empty: the Card of Fate.")


class CardTestDeclineSerializer(CardTestVersionSerializer):
    reason = serializers.CharField(required=False, allow_blank=True, default="")


class CardTestSerializer(serializers.Serializer):
    """A test as the viewer may see it. Players never get the NPC's skill or modifiers, its
    pool before the draw, nor its pool's make-up after (``"pool": {"secret": true,
    "size"}``); against an NPC their ``odds`` are those of their own pool alone."""

    id = serializers.IntegerField()
    campaign = serializers.IntegerField()
    status = serializers.ChoiceField(choices=table.Status.choices)
    status_label = serializers.CharField()
    version = serializers.IntegerField()
    origin = serializers.ChoiceField(choices=table.Origin.choices)
    created_by = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()
    decided_at = serializers.DateTimeField(allow_null=True)
    description = serializers.CharField()
    character = serializers.JSONField(help_text="{id, name}")
    skill = serializers.CharField()
    skill_label = serializers.CharField()
    reputation = serializers.JSONField(allow_null=True, help_text="{id, name}")
    helpers = serializers.JSONField(help_text="[{id, name}]")
    modifiers = serializers.JSONField(help_text="[{source, cards}]")
    opposition = serializers.JSONField(
        help_text="{kind, label, ...}: the opponent, or the difficulty; the NPC's skill and "
                  "modifiers for GMs.")
    intent = serializers.CharField()
    stakes_win = serializers.CharField()
    stakes_lose = serializers.CharField()
    at_risk = serializers.CharField(allow_null=True)
    opponent_at_risk = serializers.CharField(allow_null=True)
    decline_reason = serializers.CharField()
    names = serializers.JSONField(help_text="The kernel's side names -> people's names.")
    actions = serializers.ListField(child=serializers.CharField(),
                                    help_text="The steps you may take now.")
    pool = serializers.JSONField(allow_null=True, help_text="The PC's pool and its make-up.")
    opposition_pool = serializers.JSONField(allow_null=True)
    odds = serializers.JSONField(
        allow_null=True,
        help_text="Before the draw: first_draw {win, lose, tie, both_failed}, final {win, "
                  "lose, stalemate}, win_by_level, lose_by_level, levels (each sums to 1); "
                  "full_tie and retest_fate, the campaign settings the test is drawn under.")
    odds_public = serializers.BooleanField()
    problem = serializers.CharField(allow_null=True)
    pending = serializers.JSONField(allow_null=True,
                                    help_text="The kernel's PendingTest while a Joker waits.")
    record = serializers.JSONField(allow_null=True, help_text="The kernel's TestRecord.")
    outcome = serializers.CharField(allow_null=True)
    gates = serializers.ListField(
        child=serializers.CharField(),
        help_text="The Measure tests a Maimed area requires first.")
    origin_label = serializers.CharField()
    seed_hash = serializers.CharField(
        allow_null=True, help_text="SHA-256 of the test's secret seed, published when it is "
                                   "called (or accepted).")
    seed = serializers.CharField(allow_null=True,
                                 help_text="The seed, revealed once the test is over.")
    replayable = serializers.BooleanField(
        help_text="False for a test recorded before each test had its own seed.")
    events = serializers.JSONField(help_text="[{seq, kind, text}]: the test's event log as "
                                             "you may see it.")


def _view(request, test: Encounter, code=status.HTTP_200_OK) -> Response:
    test = selectors.card_test_for_user(request.user, test.pk)
    return Response(selectors.card_test_view(request.user, test), status=code)


class CampaignCardTestsView(APIView):
    @extend_schema(responses=CardTestSerializer(many=True))
    def get(self, request, pk):
        """The campaign's tests, newest first (at most 50)."""
        campaign = campaign_for_user(request.user, pk)
        role = membership_role(request.user, campaign)
        settings = campaign.rules_settings()
        tests = selectors.card_tests_for_user(request.user, campaign)[:LIST_LIMIT]
        return Response([selectors.card_test_view(request.user, t, role, settings)
                         for t in tests])

    @extend_schema(request=CardTestCallSerializer, responses={201: CardTestSerializer})
    def post(self, request, pk):
        """A GM calls a test (it awaits the player's confirmation); a player proposes one
        for their own PC (it awaits the GM)."""
        campaign = campaign_for_user(request.user, pk)
        data = CardTestCallSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        gm = membership_role(request.user, campaign) == Membership.Role.GM
        values = dict(data.validated_data)
        if not gm and values.pop("challenge", None) is not None:
            raise PermissionDenied("Only the GM plays a test for a challenge.")
        act = services.card_test_call if gm else services.card_test_propose
        test = act(campaign=campaign, actor=request.user, **values)
        return _view(request, test, status.HTTP_201_CREATED)


class CardTestDetailView(APIView):
    @extend_schema(responses=CardTestSerializer)
    def get(self, request, pk):
        """A test as you may see it, with its odds before the draw and its cards after."""
        return _view(request, selectors.card_test_for_user(request.user, pk))


class _StepView(APIView):
    """One step of a test: ``step`` is the service, ``serializer_class`` its input."""

    serializer_class = CardTestVersionSerializer
    step = None

    def post(self, request, pk):
        test = selectors.card_test_for_user(request.user, pk)
        data = self.serializer_class(data=request.data)
        data.is_valid(raise_exception=True)
        test = type(self).step(test=test, actor=request.user, **data.validated_data)
        return _view(request, test)


STEP_RESPONSES = {200: CardTestSerializer}


class CardTestConfirmView(_StepView):
    step = services.card_test_confirm

    @extend_schema(request=CardTestVersionSerializer, responses=STEP_RESPONSES)
    def post(self, request, pk):
        """The PC's player confirms: the cards are turned. The test is then done, or awaits
        the Joker's card."""
        return super().post(request, pk)


class CardTestJokerView(_StepView):
    serializer_class = CardTestJokerSerializer
    step = services.card_test_declare_joker

    @extend_schema(request=CardTestJokerSerializer, responses=STEP_RESPONSES)
    def post(self, request, pk):
        """Name the card the Joker counts as (default: the Card of Fate)."""
        return super().post(request, pk)


class CardTestAcceptView(_StepView):
    serializer_class = CardTestAcceptSerializer
    step = services.card_test_accept

    @extend_schema(request=CardTestAcceptSerializer, responses=STEP_RESPONSES)
    def post(self, request, pk):
        """GM: accept a player's proposal, with any changes to its setup."""
        return super().post(request, pk)


class CardTestDeclineView(_StepView):
    serializer_class = CardTestDeclineSerializer
    step = services.card_test_decline

    @extend_schema(request=CardTestDeclineSerializer, responses=STEP_RESPONSES)
    def post(self, request, pk):
        """GM: decline a player's proposal."""
        return super().post(request, pk)


class CardTestCancelView(_StepView):
    step = services.card_test_cancel

    @extend_schema(request=CardTestVersionSerializer, responses=STEP_RESPONSES)
    def post(self, request, pk):
        """Cancel a test before its cards are turned (the GM; a player their proposal)."""
        return super().post(request, pk)


urlpatterns = [
    path("campaigns/<int:pk>/card-tests/", CampaignCardTestsView.as_view(),
         name="api-campaign-card-tests"),
    path("card-tests/<int:pk>/", CardTestDetailView.as_view(), name="api-card-test-detail"),
    path("card-tests/<int:pk>/confirm/", CardTestConfirmView.as_view(),
         name="api-card-test-confirm"),
    path("card-tests/<int:pk>/joker/", CardTestJokerView.as_view(), name="api-card-test-joker"),
    path("card-tests/<int:pk>/accept/", CardTestAcceptView.as_view(),
         name="api-card-test-accept"),
    path("card-tests/<int:pk>/decline/", CardTestDeclineView.as_view(),
         name="api-card-test-decline"),
    path("card-tests/<int:pk>/cancel/", CardTestCancelView.as_view(),
         name="api-card-test-cancel"),
]
