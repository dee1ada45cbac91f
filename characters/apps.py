from django.apps import AppConfig


class CharactersConfig(AppConfig):
    name = "characters"

    def ready(self):
        from campaigns.panels import Panel, register
        from campaigns.signals import member_removed
        from characters.selectors import campaign_panel
        from characters.services import characters_release

        register(Panel("characters", "characters/_campaign_panel.html", campaign_panel, 30))
        member_removed.connect(characters_release, dispatch_uid="characters_release")
