from django.core.management.base import BaseCommand

from combat.demo import DEMO_PASSWORD, demo_load


class Command(BaseCommand):
    help = ("Load the demo campaign 'The Cruise of the Hermes' with users gm, otoole, bosworth "
            "and smith (safe to run again: an existing demo campaign is left as it is).")

    def handle(self, *args, **options):
        campaign, created = demo_load()
        state = "created" if created else "already there, left unchanged"
        self.stdout.write(f"Demo campaign “{campaign}”: {state}. "
                          f"Logins gm, otoole, bosworth, smith; password {DEMO_PASSWORD}.")
