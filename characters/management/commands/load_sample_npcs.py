from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from campaigns.models import Campaign
from characters.samples import sample_npcs_load


class Command(BaseCommand):
    help = ("Add the 21 sample characters of Beat to Quarters (Friends and Foes) to a campaign "
            "as NPCs, hidden from its players (safe to run again).")

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
        added = sample_npcs_load(campaign=target, actor=gm)
        self.stdout.write(f"Sample characters: {len(added)} added to “{target}”"
                          + (f": {', '.join(map(str, added))}." if added else "."))
