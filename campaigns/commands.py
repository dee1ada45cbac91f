"""A base for the management commands that add reference data to one campaign as its GM
(``load_sample_ships``, ``load_sample_npcs``)."""

from collections.abc import Callable

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from campaigns.models import Campaign


class CampaignLoadCommand(BaseCommand):
    """``manage.py <name> CAMPAIGN --as GM``: ``loader(campaign=, actor=)``, a service that
    adds the data as the GM and returns what it added; the command names it after ``noun``
    ("Sample ships: 2 added to ...")."""

    noun = "Items"
    loader: Callable[..., list]

    def add_arguments(self, parser):
        parser.add_argument("campaign", type=int, help="The campaign's id.")
        parser.add_argument("--as", dest="username", required=True,
                            help="The GM of the campaign who adds them.")

    def handle(self, *args, campaign, username, **options):
        try:
            target = Campaign.objects.get(pk=campaign)
            gm = get_user_model().objects.get(username=username)
        except (Campaign.DoesNotExist, get_user_model().DoesNotExist) as exc:
            raise CommandError(str(exc)) from None
        added = type(self).loader(campaign=target, actor=gm)
        self.stdout.write(f"{self.noun}: {len(added)} added to “{target}”"
                          + (f": {', '.join(map(str, added))}." if added else "."))
