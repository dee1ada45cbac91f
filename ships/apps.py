from django.apps import AppConfig


class ShipsConfig(AppConfig):
    name = "ships"
