from django.apps import AppConfig


class ShipsConfig(AppConfig):
    name = "ships"

    def ready(self):
        from campaigns.panels import Panel, register
        from ships.selectors import campaign_panel

        register(Panel("ships", "ships/_campaign_panel.html", campaign_panel, 40))
