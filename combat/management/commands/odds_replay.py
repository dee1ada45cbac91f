"""``manage.py odds_replay ID``: play every game of an ended simulation (the odds of a
battle) again in this one process from its revealed seed, and compare the summaries with
those its workers stored and merged. Exits non-zero, naming the first option that differs,
if anything does, or if the seed is not the one whose hash was published."""

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from combat.models import Simulation
from combat.odds.services import simulation_replay
from combat.services import seed_hash


class Command(BaseCommand):
    help = ("Play an ended simulation's games again from its seed in one process and compare "
            "them with the results its workers merged.")

    def add_arguments(self, parser):
        parser.add_argument("simulation_id", type=int)

    def handle(self, *args, simulation_id, **options):
        simulation = Simulation.objects.filter(pk=simulation_id).first()
        if simulation is None:
            raise CommandError(f"No simulation {simulation_id}.")
        try:
            replay = simulation_replay(simulation=simulation)
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from None
        hash_ok = seed_hash(simulation.seed) == simulation.seed_hash
        self.stdout.write(f"seed {simulation.seed}: SHA-256 "
                          f"{'matches' if hash_ok else 'DOES NOT match'} the published hash")
        games = sum(r["games"] for r in replay["results"].values())
        self.stdout.write(f"{games:,} games played again")
        if replay["mismatch"] is not None:
            option = replay["mismatch"] or "the battle"
            raise CommandError(f"The replay does not match the stored results for {option}: "
                               f"stored {simulation.results.get(replay['mismatch'])}, "
                               f"replayed {replay['results'][replay['mismatch']]}")
        if not hash_ok:
            raise CommandError("The seed is not the one whose hash was published.")
        self.stdout.write(self.style.SUCCESS("The replay matches the stored results, game "
                                             "for game."))
