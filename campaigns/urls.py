from django.urls import path

from campaigns import views, views_card_tests

app_name = "campaigns"

urlpatterns = [
    path("", views.campaign_list, name="list"),
    path("signup/", views.signup, name="signup"),
    path("campaigns/new/", views.campaign_new, name="new"),
    path("campaigns/<int:pk>/", views.campaign_detail, name="detail"),
    path("campaigns/<int:pk>/settings/", views.campaign_settings, name="settings"),
    path("campaigns/<int:pk>/log/", views.campaign_log, name="log"),
    path("campaigns/<int:pk>/invite/", views.invite_manage, name="invite"),
    path("campaigns/<int:pk>/members/<int:membership_pk>/", views.member_manage, name="member"),
    path("join/<str:token>/", views.join, name="join"),
    path("campaigns/<int:pk>/tests/", views_card_tests.card_tests, name="card_tests"),
    path("campaigns/<int:pk>/tests/new/", views_card_tests.card_test_new, name="card_test_new"),
    path("campaigns/<int:pk>/tests/preview/", views_card_tests.card_test_preview,
         name="card_test_preview"),
    path("campaigns/<int:pk>/tests/<int:test_pk>/", views_card_tests.card_test_detail,
         name="card_test"),
    path("campaigns/<int:pk>/tests/<int:test_pk>/live/", views_card_tests.card_test_live,
         name="card_test_live"),
    path("campaigns/<int:pk>/tests/<int:test_pk>/accept/", views_card_tests.card_test_accept,
         name="card_test_accept"),
    path("campaigns/<int:pk>/tests/<int:test_pk>/<slug:action>/",
         views_card_tests.card_test_step, name="card_test_step"),
]
