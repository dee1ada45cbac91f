from django.apps import AppConfig


class CombatConfig(AppConfig):
    name = "combat"

    def ready(self):
        """A reputation that a card test not over uses may not be removed: ``characters``
        cannot know of the tests above it, so the refusal is a ``pre_delete`` receiver here
        (``combat.card_tests.services.refuse_removing_a_reputation_in_use``)."""
        from django.db.models.signals import pre_delete

        from characters.models import Reputation
        from combat.card_tests.services import refuse_removing_a_reputation_in_use

        pre_delete.connect(refuse_removing_a_reputation_in_use, sender=Reputation,
                           dispatch_uid="card_tests_keep_their_reputations")
