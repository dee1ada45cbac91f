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
    path("import/<int:campaign_pk>/", views.character_import, name="import"),
    path("<int:pk>/print/", views.character_print, name="print"),
    path("<int:pk>/history/", views.character_history, name="history"),
    path("<int:pk>/export/", views.character_export, name="export"),
    path("<int:pk>/traits/add/", views.trait_add, name="trait_add"),
    path("traits/<int:pk>/remove/", views.trait_remove, name="trait_remove"),
    path("<int:pk>/traits/use/", views.trait_use, name="trait_use"),
    path("<int:pk>/items/add/", views.item_add, name="item_add"),
    path("items/<int:pk>/remove/", views.item_remove, name="item_remove"),
    path("<int:pk>/heal/", views.heal_record, name="heal_record"),
    path("<int:pk>/challenge-done/", views.challenge_done, name="challenge_done"),
    path("<int:pk>/hardship/", views.hardship, name="hardship"),
]
