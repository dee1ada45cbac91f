from django.apps import AppConfig


class ShipsConfig(AppConfig):
    name = "ships"

    def ready(self):
        """The ships' section of the campaign page (``campaigns.panels``), the journal's links
        to a ship (``campaigns.journal``), and the Ship Morale of a character's ship for
        the missions' failures paid on a character's page (``characters.advancement``)."""
        from django.urls import reverse

        from campaigns import journal
        from campaigns.panels import Panel, register
        from characters.advancement import ShipArea, register_ship_area
        from ships.selectors import campaign_panel
        from ships.services import ship_morale_of, ship_morale_pay

        register(Panel("ships", "ships/_campaign_panel.html", campaign_panel, 40))
        journal.register_link("ship", lambda campaign_id, pk: reverse("ships:detail", args=[pk]))
        register_ship_area(ShipArea(of=ship_morale_of, set=ship_morale_pay))
