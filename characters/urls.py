from django.urls import path

from characters import views

app_name = "characters"

urlpatterns = [
    path("new/<int:campaign_pk>/", views.character_new, name="new"),
    path("<int:pk>/", views.character_detail, name="detail"),
    path("<int:pk>/edit/", views.character_edit, name="edit"),
]
