from django.apps import AppConfig


class CombatConfig(AppConfig):
    name = "combat"
