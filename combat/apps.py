from django.apps import AppConfig


class CombatConfig(AppConfig):
    name = "combat"

    def ready(self):
        """The card tests' and battles' sections of the campaign page (``campaigns.panels``),
        and a guard: a reputation (a character's or a ship's) that a card test not over
        uses may not be removed (``characters`` and ``ships`` cannot know of the tests
        above them, so the refusal is a ``pre_delete`` receiver here); the shipboard
        sections of the campaign's and each character's page; the wake-ups of the open
        event streams (``combat.push``) whenever an encounter, a job or a mission is saved;
        and the journal's links to encounters (``campaigns.journal``)."""
        from django.db.models.signals import post_save, pre_delete
        from django.urls import reverse

        from campaigns import journal
        from campaigns.missions.models import Challenge, ChallengeResult, Mission
        from campaigns.panels import Panel, register, register_dashboard
        from characters.models import Reputation
        from characters.sections import register as register_section
        from combat import push, selectors
        from combat.card_tests import selectors as card_test_selectors
        from combat.card_tests.services import (
            refuse_removing_a_reputation_in_use,
            refuse_removing_a_ship_reputation_in_use,
        )
        from combat.creation import selectors as creation_selectors
        from combat.models import Encounter, Job
        from combat.shipboard import selectors as shipboard_selectors
        from ships.models import ShipReputation

        register(Panel("card_tests", "combat/card_tests/_campaign_panel.html",
                       card_test_selectors.campaign_panel, 10))
        register(Panel("battles", "combat/_campaign_panel.html", selectors.campaign_panel, 20))
        register(Panel("shipboard", "combat/shipboard/_campaign_panel.html",
                       shipboard_selectors.campaign_panel, 40))
        register_section(Panel("shipboard", "combat/shipboard/_character_section.html",
                               shipboard_selectors.character_section, 10))
        register(Panel("drafts", "combat/creation/_campaign_panel.html",
                       creation_selectors.campaign_panel, 5))
        # The tests waiting for the GM (proposed, or for a PC without a player) on the
        # dashboard too: the same section as on the campaign page.
        register_dashboard(Panel("card_tests", "combat/card_tests/_campaign_panel.html",
                                 card_test_selectors.campaign_panel, 5))
        pre_delete.connect(refuse_removing_a_reputation_in_use, sender=Reputation,
                           dispatch_uid="card_tests_keep_their_reputations")
        pre_delete.connect(refuse_removing_a_ship_reputation_in_use, sender=ShipReputation,
                           dispatch_uid="card_tests_keep_their_ship_reputations")
        post_save.connect(push.on_encounter_saved, sender=Encounter,
                          dispatch_uid="push_encounter")
        post_save.connect(push.on_job_saved, sender=Job, dispatch_uid="push_job")
        # A mission's counters are shown live on the pages watching the campaign's stream.
        post_save.connect(push.on_campaign_record_saved, sender=Mission,
                          dispatch_uid="push_mission")
        # ... and its challenges as they are proposed, accepted, declined and played.
        post_save.connect(push.on_campaign_record_saved, sender=Challenge,
                          dispatch_uid="push_challenge")
        post_save.connect(push.on_challenge_result_saved, sender=ChallengeResult,
                          dispatch_uid="push_challenge_result")
        journal.register_link("encounter", lambda campaign_id, pk: reverse(
            "combat:open", args=[pk]))
        journal.register_link("card_test", lambda campaign_id, pk: reverse(
            "card_tests:detail", args=[campaign_id, pk]))
