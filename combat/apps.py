from django.apps import AppConfig


class CombatConfig(AppConfig):
    name = "combat"

    def ready(self):
        from campaigns.panels import Panel, register
        from combat.selectors import campaign_panel

        register(Panel("table", "combat/_campaign_panel.html", campaign_panel, 10))
