from campaigns.commands import CampaignLoadCommand
from ships.services import sample_ships_load


class Command(CampaignLoadCommand):
    help = ("Add the sample ships of Beat to Quarters (Friends and Foes, and the book's "
            "examples) to a campaign, hidden from its players (safe to run again).")
    noun = "Sample ships"
    loader = sample_ships_load
