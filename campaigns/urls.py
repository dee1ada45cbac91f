from django.urls import path

from campaigns import views

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
]
