from django.urls import path

from campaigns.missions import views

app_name = "missions"

urlpatterns = [
    path("campaigns/<int:pk>/missions/", views.mission_list, name="list"),
    path("campaigns/<int:pk>/missions/new/", views.mission_new, name="new"),
    path("campaigns/<int:pk>/missions/sample/", views.mission_sample, name="sample"),
    path("campaigns/<int:pk>/missions/<int:mission_pk>/", views.mission_detail, name="detail"),
    path("campaigns/<int:pk>/missions/<int:mission_pk>/edit/", views.mission_edit,
         name="edit"),
    path("campaigns/<int:pk>/missions/<int:mission_pk>/<slug:action>/", views.mission_step,
         name="step"),
    path("campaigns/<int:pk>/challenges/new/", views.challenge_new, name="challenge_new"),
    path("campaigns/<int:pk>/challenges/<int:challenge_pk>/accept/", views.challenge_proposal,
         {"step": "accept"}, name="challenge_accept"),
    path("campaigns/<int:pk>/challenges/<int:challenge_pk>/decline/", views.challenge_proposal,
         {"step": "decline"}, name="challenge_decline"),
    path("campaigns/<int:pk>/challenges/<int:challenge_pk>/result/", views.challenge_result,
         name="challenge_result"),
    path("campaigns/<int:pk>/sessions/", views.sessions, name="sessions"),
    path("campaigns/<int:pk>/sessions/<int:session_pk>/end/", views.session_end,
         name="session_end"),
    path("campaigns/<int:pk>/voyages/<int:voyage_pk>/recall/", views.voyage_recall,
         name="voyage_recall"),
    path("campaigns/<int:pk>/dashboard/", views.dashboard, name="dashboard"),
]
