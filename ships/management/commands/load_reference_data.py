from django.core.management.base import BaseCommand

from ships.services import reference_data_load


class Command(BaseCommand):
    help = "Load the ship types and ship traits of rules.btq.ships (safe to run again)."

    def handle(self, *args, **options):
        types, traits = reference_data_load()
        self.stdout.write(f"Reference data: {types} ship types, {traits} ship traits.")
