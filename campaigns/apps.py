from django.apps import AppConfig


class CampaignsConfig(AppConfig):
    name = "campaigns"

    def ready(self):
        """The missions' section of the campaign page (``campaigns.panels``) and the journal's
        links to the records of this app (``campaigns.journal``)."""
        from django.urls import reverse

        from campaigns import journal
        from campaigns.missions.selectors import campaign_panel
        from campaigns.panels import Panel, register

        register(Panel("missions", "campaigns/missions/_campaign_panel.html", campaign_panel, 5))

        def mission(campaign_id, pk):
            return reverse("missions:detail", args=[campaign_id, pk])

        def sessions(campaign_id, pk):
            return reverse("missions:sessions", args=[campaign_id])

        journal.register_link("mission", mission)
        journal.register_link("session", sessions)
        journal.register_link("voyage", sessions)
