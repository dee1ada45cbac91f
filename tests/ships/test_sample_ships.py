"""The sample ships as loadable reference data (TV-N14; ``rules/btq_naval.md`` §5.1): the
service and the management command add them to a campaign once, hidden from its players,
with the figures the kernel computes."""

import pytest
from django.core.exceptions import PermissionDenied
from django.core.management import call_command

from rules.btq.ships import sample_ships
from ships.models import Ship
from ships.services import sample_ships_load, stats_for

pytestmark = pytest.mark.django_db


def test_the_sample_ships_load_once_hidden_with_the_kernels_figures(campaign, gm):
    added = sample_ships_load(campaign=campaign, actor=gm)
    assert [s.name for s in added] == list(sample_ships())
    assert sample_ships_load(campaign=campaign, actor=gm) == []
    for ship in added:
        sample = sample_ships()[ship.name]
        assert ship.side == Ship.Side.ENEMY and ship.is_hidden_from_players
        stats = stats_for(ship_type=ship.ship_type, traits=list(ship.traits.all()),
                          overrides=ship.overrides)
        assert stats.boxes == sample.stats().boxes
        assert (stats.broadside, stats.speed, stats.handling) == (
            sample.stats().broadside, sample.stats().speed, sample.stats().handling)
        assert ship.crew == sample.crew
    president = campaign.ships.get(name="President")
    assert "Jolly Tars makes her Crew 5/5/5" in president.gm_notes
    assert president.tracks["crew"] == ".....|.....|....."


def test_only_the_gm_loads_them_and_the_command_names_what_it_added(campaign, gm, player_a,
                                                                   capsys):
    with pytest.raises(PermissionDenied):
        sample_ships_load(campaign=campaign, actor=player_a)
    call_command("load_sample_ships", str(campaign.pk), "--as", gm.username)
    assert "Sample ships: 10 added" in capsys.readouterr().out
    call_command("load_sample_ships", str(campaign.pk), "--as", gm.username)
    assert "Sample ships: 0 added" in capsys.readouterr().out
