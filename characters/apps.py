from django.apps import AppConfig


class CharactersConfig(AppConfig):
    name = "characters"

    def ready(self):
        """The characters' sections of the campaign page and the GM's dashboard
        (``campaigns.panels``), who the characters are for the records of ``campaigns``
        (``campaigns.directory``) and the journal's links to them (``campaigns.journal``),
        their release when their player leaves, and a Voyage counted in every PC's career
        when it ends."""
        from django.urls import reverse

        from campaigns import directory, journal
        from campaigns.panels import Panel, register, register_dashboard
        from campaigns.signals import member_removed, session_ended, voyage_recalled
        from characters.selectors import campaign_panel, dashboard_panel, directory_lookup
        from characters.services import characters_release, scratches_restore
        from characters.shipboard import voyage_completed

        register(Panel("characters", "characters/_campaign_panel.html", campaign_panel, 30))
        register_dashboard(Panel("characters", "characters/_dashboard_panel.html",
                                 dashboard_panel, 10))
        directory.register(directory_lookup)
        journal.register_link("character",
                              lambda campaign_id, pk: reverse("characters:detail", args=[pk]))
        member_removed.connect(characters_release, dispatch_uid="characters_release")
        voyage_recalled.connect(voyage_completed, dispatch_uid="characters_voyage_completed")
        session_ended.connect(scratches_restore, dispatch_uid="characters_scratches_restore")
