from campaigns.commands import CampaignLoadCommand
from characters.samples import sample_npcs_load


class Command(CampaignLoadCommand):
    help = ("Add the 21 sample characters of Beat to Quarters (Friends and Foes) to a campaign "
            "as NPCs, hidden from its players (safe to run again).")
    noun = "Sample characters"
    loader = sample_npcs_load
