"""A new ship battle's terms in the API: the fields and the checks that the battles' API
(``combat.api``, a battle to prepare) and the odds' (``combat.odds.api``, a battle to play
for its odds) share, so that both take the same ships and refuse the same input."""

from rest_framework import serializers

from campaigns.api_common import MAX_ID, InputSerializer, id_field
from combat.forms import (
    GENERAL_PRECIPITATION_CHOICES,
    GENERAL_WIND_CHOICES,
    WEATHER_CHOICES,
    NewBattle,
    already_in_battle,
    general_weather,
)
from ships.models import Ship, ShipReputation


class NewBattleSerializer(InputSerializer):
    """A new Beat to Quarters ship battle: the players' ship (with any allies) against an
    enemy ship (with any others)."""

    title = serializers.CharField(max_length=200, required=False, allow_blank=True)
    pc_ship = id_field()
    enemy_ship = id_field()
    weather = serializers.ChoiceField(choices=WEATHER_CHOICES)
    start_distance = serializers.IntegerField(required=False, allow_null=True, min_value=3,
                                              max_value=5,
                                              help_text="3-5; omit for an Awareness test.")
    allies = serializers.ListField(child=id_field(), required=False, max_length=20,
                                   help_text="More ships of the players' side.")
    enemies = serializers.ListField(child=id_field(), required=False, max_length=20,
                                    help_text="More enemy ships.")
    ship_reputation = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=MAX_ID,
        help_text="A reputation of a ship of the players' side that fits this enemy: its "
                  "cards go to the tests of the PCs aboard her; lost battle, it is damaged.")
    wind = serializers.ChoiceField(
        choices=GENERAL_WIND_CHOICES, required=False,
        help_text="The general weather's wind; counts only if the campaign's settings apply "
                  "the general weather to ship battles. Omit both wind and precipitation "
                  "for none.")
    precipitation = serializers.ChoiceField(
        choices=GENERAL_PRECIPITATION_CHOICES, required=False,
        help_text="The general weather's rain (as wind).")


def new_battle_of(campaign, data: dict) -> NewBattle:
    """The battle ``data`` (validated by :class:`NewBattleSerializer`) asks for in
    ``campaign``. ``serializers.ValidationError`` (400, the reason by each field) for a ship
    or a ship reputation that is not the campaign's, or a main ship named again among her
    side's more ships (as the New battle form refuses her)."""
    allies, enemies = data.get("allies", []), data.get("enemies", [])
    ships = {s.pk: s for s in Ship.objects.filter(
        campaign=campaign, pk__in=[data["pc_ship"], data["enemy_ship"], *allies, *enemies])}
    refused = {f: "No such ship in this campaign." for f in ("pc_ship", "enemy_ship")
               if data[f] not in ships}
    refused.update({f: "No such ship in this campaign." for f, ids in
                    (("allies", allies), ("enemies", enemies)) if any(i not in ships for i in ids)})
    reputation = None
    if data.get("ship_reputation") is not None:
        reputation = ShipReputation.objects.filter(pk=data["ship_reputation"],
                                                   ship__campaign=campaign).first()
        if reputation is None:
            refused["ship_reputation"] = "No such ship reputation in this campaign."
    if refused:
        raise serializers.ValidationError(refused)
    pc_ship, enemy_ship = ships[data["pc_ship"]], ships[data["enemy_ship"]]
    more = {"allies": tuple(ships[i] for i in allies),
            "enemies": tuple(ships[i] for i in enemies)}
    refused = {f: refusal for f, main in (("allies", pc_ship), ("enemies", enemy_ship))
               if (refusal := already_in_battle(main, list(more[f])))}
    if refused:
        raise serializers.ValidationError(refused)
    return NewBattle(pc_ship=pc_ship, enemy_ship=enemy_ship, weather=data["weather"],
                     start_distance=data.get("start_distance"), ship_reputation=reputation,
                     general_weather=general_weather(data.get("wind"),
                                                     data.get("precipitation")),
                     title=data.get("title", ""), **more)
