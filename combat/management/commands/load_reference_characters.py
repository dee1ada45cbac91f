from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from campaigns.models import Campaign
from combat.creation.services import REFERENCE, reference_characters_load


class Command(BaseCommand):
    help = ("Load the book's characters into a campaign as NPCs: Gregory O'Toole, built as the "
            "book builds him, and the template Captains of Appendix IV (each once; safe to run "
            "again).")

    def add_arguments(self, parser):
        parser.add_argument("campaign_id", type=int)
        parser.add_argument("--gm", required=True, help="The username of one of its GMs.")
        parser.add_argument("--only", nargs="+", choices=REFERENCE, default=list(REFERENCE))

    def handle(self, *args, campaign_id, gm, only, **options):
        campaign = Campaign.objects.filter(pk=campaign_id).first()
        user = get_user_model().objects.filter(username=gm).first()
        if campaign is None or user is None:
            raise CommandError("No such campaign or user.")
        try:
            made = reference_characters_load(campaign=campaign, actor=user, which=only)
        except Exception as exc:  # a refusal of the service (not the campaign's GM, say)
            raise CommandError(str(exc)) from None
        self.stdout.write(("Loaded: " + ", ".join(c.name for c in made) + ".") if made
                          else "Nothing to load: they are all in the campaign already.")
