from django.urls import path

from characters import advancement_views, views

app_name = "characters"

urlpatterns = [
    path("new/<int:campaign_pk>/", views.character_new, name="new"),
    path("<int:pk>/", views.character_detail, name="detail"),
    path("<int:pk>/edit/", views.character_edit, name="edit"),
    path("<int:pk>/reveal/", views.character_reveal, name="reveal"),
    path("<int:pk>/missions/", advancement_views.character_missions, name="missions"),
    path("<int:character_pk>/reputations/new/", views.reputation_new, name="reputation_new"),
    path("reputations/<int:pk>/edit/", views.reputation_edit, name="reputation_edit"),
    path("reputations/<int:pk>/delete/", views.reputation_delete, name="reputation_delete"),
]
