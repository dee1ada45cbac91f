"""``manage.py combat_replay ID``: replay a finished battle from its revealed seed and check
every recorded event, then the final state and outcome, against the replay (provably fair
draws, DESIGN.md "Roles and trust"). Exits non-zero, naming the first event that differs,
if anything does."""

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from combat.models import Encounter
from combat.services import encounter_noun, encounter_replay, seed_hash


def describe(mismatch: dict) -> str:
    """The first difference of a replay (``encounter_replay``'s ``mismatch``), for a person."""
    where = (f"event #{mismatch['seq']} ({mismatch['kind']})" if mismatch["seq"] is not None
             else "the final result")
    return (f"{where} differs in {mismatch['field']}: recorded {mismatch['recorded']!r}, "
            f"replayed {mismatch['replayed']!r}")


class Command(BaseCommand):
    help = ("Replay a finished (or called off) battle or card test from its seed, stacked cards "
            "and decisions; compare every event, the final state and the outcome.")

    def add_arguments(self, parser):
        parser.add_argument("encounter_id", type=int)

    def handle(self, *args, encounter_id, **options):
        encounter = Encounter.objects.filter(pk=encounter_id).first()
        if encounter is None:
            raise CommandError(f"No battle or test {encounter_id}.")
        try:
            replay = encounter_replay(encounter=encounter)
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from None
        noun = encounter_noun(encounter)
        hash_ok = seed_hash(encounter.seed) == encounter.seed_hash
        self.stdout.write(f"seed {encounter.seed}: SHA-256 "
                          f"{'matches' if hash_ok else 'DOES NOT match'} the published hash")
        decisions = len(encounter.choices)
        self.stdout.write(f"{decisions} decision{'' if decisions == 1 else 's'} replayed, "
                          f"{replay['events']} events compared; outcome: "
                          f"{(replay['outcome'] or {}).get('summary', 'none')}")
        if replay["mismatch"] is not None:
            raise CommandError(f"The replay does not match the recorded {noun}: "
                               + describe(replay["mismatch"]))
        if not hash_ok:
            raise CommandError(f"The replay does not match the recorded {noun}: the seed is "
                               "not the one whose hash was published.")
        self.stdout.write(self.style.SUCCESS(f"The replay matches the recorded {noun}, event by "
                                             "event."))
