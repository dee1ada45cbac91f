from django.urls import path

from ships import views

app_name = "ships"

urlpatterns = [
    path("new/<int:campaign_pk>/", views.ship_new, name="new"),
    path("<int:pk>/", views.ship_detail, name="detail"),
    path("<int:pk>/edit/", views.ship_edit, name="edit"),
    path("<int:pk>/reveal/", views.ship_reveal, name="reveal"),
    path("<int:pk>/refit/", views.ship_refit, name="refit"),
    path("<int:pk>/postings/", views.posting_add, name="posting_add"),
    path("<int:pk>/postings/<int:posting_pk>/remove/", views.posting_remove,
         name="posting_remove"),
    path("<int:pk>/reputations/", views.reputation_add, name="reputation_add"),
    path("<int:pk>/reputations/<int:reputation_pk>/", views.reputation_edit,
         name="reputation_edit"),
    path("<int:pk>/reputations/<int:reputation_pk>/remove/", views.reputation_remove,
         name="reputation_remove"),
    path("<int:pk>/renowned-name/", views.renowned_name, name="renowned_name"),
]
