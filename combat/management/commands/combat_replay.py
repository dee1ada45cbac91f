"""``manage.py combat_replay ID``: replay a finished battle from its revealed seed and check
that it ends as recorded (provably fair draws, DESIGN.md "Roles and trust")."""

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from combat.models import Encounter
from combat.services import encounter_replay, seed_hash


class Command(BaseCommand):
    help = "Replay a finished battle from its seed, stacked cards and decisions; compare."

    def add_arguments(self, parser):
        parser.add_argument("encounter_id", type=int)

    def handle(self, *args, encounter_id, **options):
        encounter = Encounter.objects.filter(pk=encounter_id).first()
        if encounter is None:
            raise CommandError(f"No battle {encounter_id}.")
        try:
            replay = encounter_replay(encounter=encounter)
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from None
        hash_ok = seed_hash(encounter.seed) == encounter.seed_hash
        self.stdout.write(f"seed {encounter.seed}: SHA-256 "
                          f"{'matches' if hash_ok else 'DOES NOT match'} the published hash")
        self.stdout.write(f"{len(encounter.choices)} decisions replayed; outcome: "
                          f"{(replay['outcome'] or {}).get('summary', 'none')}")
        if not (hash_ok and replay["matches"]):
            raise CommandError("The replay does not match the recorded battle.")
        self.stdout.write(self.style.SUCCESS("The replay matches the recorded battle."))
