"""Forms that prepare a fight: a skirmish, a duel, a boarding. They check the input's shape
and build the engine's setup from the campaign's records (``combat.fights.setups``); the
engine's own check (``validate_setup``) runs in the service, and its reason lands on the
form."""

from __future__ import annotations

from django import forms

from campaigns.forms import Form
from characters.models import Character
from combat.challenges import add_challenge_field
from combat.fights import setups
from combat.forms import ship_label
from rules.btq.characters import DamageState
from rules.btq.personal_combat import (
    BAND_LABELS,
    BANDS,
    MELEE,
    MODES,
    PRECIPITATION,
    WEAPONS,
    WIND,
    CombatError,
    usable,
)
from ships.models import Ship

WEAPON_CHOICES = [(key, w.label) for key, w in WEAPONS.items()]
WIND_CHOICES = [(key, f"{name} ({mod:+d})" if mod else name) for key, (name, mod) in WIND.items()]
RAIN_CHOICES = [(key, f"{name} ({mod:+d})" if mod else name)
                for key, (name, mod) in PRECIPITATION.items()]
BAND_CHOICES = [(MELEE, "Hand to hand")] + [(b, f"{BAND_LABELS[b]} range") for b in BANDS]
MODE_CHOICES = [(key, label[:1].upper() + label[1:]) for key, label in MODES.items()]
TRAITS_HELP = ("Comma-separated, as on the sheet: “Duellist (2), Cheat Death!”. The fights "
               "apply: " + ", ".join(setups.TRAIT_NAMES.values()) + ".")


def _characters(campaign, kind=None):
    qs = (Character.objects.filter(campaign=campaign).prefetch_related("traits")
          .order_by("kind", "-seniority", "name"))
    return qs.filter(kind=kind) if kind else qs


class _FightForm(Form):
    title = forms.CharField(max_length=200, required=False)
    wind = forms.ChoiceField(choices=WIND_CHOICES, initial="light")
    precipitation = forms.ChoiceField(choices=RAIN_CHOICES, initial="none",
                                      label="Rain or snow")
    stakes_win = forms.CharField(max_length=300, required=False, label="If they win")
    stakes_lose = forms.CharField(max_length=300, required=False, label="If they lose")

    trait_owners: list[Character]

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        add_challenge_field(self, campaign)
        self.trait_owners = list(_characters(campaign))
        for character in self.trait_owners:
            self.fields[f"traits_{character.pk}"] = forms.CharField(
                max_length=300, required=False, label=f"Combat traits of {character}",
                initial=setups.sheet_traits(character),
                help_text=TRAITS_HELP if character is self.trait_owners[0] else "")

    def trait_fields(self):
        return [self[f"traits_{c.pk}"] for c in self.trait_owners]

    def main_fields(self):
        return [f for f in self if not f.name.startswith("traits_")]

    def traits_of(self, character: Character) -> dict:
        return self.cleaned_data.get(f"_traits_{character.pk}", {})

    def clean(self):
        data = super().clean()
        for character in self.trait_owners:
            name = f"traits_{character.pk}"
            # Not sent at all (an API call that names no traits for him): his sheet's.
            text = data.get(name, "") if name in self.data else setups.sheet_traits(character)
            try:
                data[f"_traits_{character.pk}"] = setups.parse_traits(text)
            except CombatError as exc:
                self.add_error(name, str(exc))
        data["weather"] = {"wind": data.get("wind", "light"),
                           "precipitation": data.get("precipitation", "none")}
        data["stakes"] = {"win": data.get("stakes_win", ""), "lose": data.get("stakes_lose", "")}
        data["settings"] = dict(self.campaign.settings)
        return data

    def _fighter(self, field, builder, **kw):
        """``builder(character, ...)`` for the character in ``field``; its refusal (a Dead
        character) is that field's error."""
        character = self.cleaned_data[field] if isinstance(field, str) else field
        try:
            return builder(character, traits=self.traits_of(character), **kw)
        except CombatError as exc:
            self.add_error(field if isinstance(field, str) else None, str(exc))
            return None


class SkirmishForm(_FightForm):
    """A skirmish (BtQ L1627-1690): the PCs, the foes they may fight and their range, the
    opposing commander, the crew and the weather."""

    pcs = forms.ModelMultipleChoiceField(queryset=Character.objects.none(), label="The PCs",
                                         widget=forms.CheckboxSelectMultiple)
    pc_weapons = forms.MultipleChoiceField(choices=WEAPON_CHOICES, initial=["pistol", "cutlass"],
                                           widget=forms.CheckboxSelectMultiple,
                                           label="Weapons the PCs carry")
    foes = forms.ModelMultipleChoiceField(queryset=Character.objects.none(), required=False,
                                          widget=forms.CheckboxSelectMultiple,
                                          label="Foes the PCs may fight (NPCs)")
    foe_weapon = forms.ChoiceField(choices=WEAPON_CHOICES, initial="musket",
                                   label="The foes' weapon")
    foe_band = forms.ChoiceField(choices=BAND_CHOICES, initial="normal", label="The foes' range")
    opposing_commander = forms.ModelChoiceField(
        queryset=Character.objects.none(), required=False,
        label="Opposing commander (his Command)",
        help_text="Or leave empty and give the cards of the opposing commander below.")
    opposing_command = forms.IntegerField(
        min_value=0, max_value=20, initial=3, required=False,
        label="Opposing commander's cards (without an NPC; with one, his second's)",
        help_text="An NPC in command tests his own Command. If he fights among the foes and "
                  "is Maimed or Dead by the final test, his second leads them with these "
                  "cards.")
    opposing_commander_name = forms.CharField(
        max_length=100, required=False, label="Opposing commander's name (without an NPC)",
        help_text="“the sergeant of the guard”; left empty, the first of the foes leads them.")
    with_crew = forms.BooleanField(required=False, label="Fought with the crew (Ship Morale "
                                   "counts)")

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, campaign=campaign, **kwargs)
        self.fields["pcs"].queryset = _characters(campaign, Character.Kind.PC)
        npcs = _characters(campaign, Character.Kind.NPC)
        self.fields["foes"].queryset = npcs
        self.fields["opposing_commander"].queryset = npcs
        self.order_fields(["title", "pcs", "pc_weapons", "foes", "foe_weapon", "foe_band",
                           "opposing_commander", "opposing_command",
                           "opposing_commander_name", "with_crew"])

    def clean(self):
        data = super().clean()
        if self.errors or not data.get("pcs"):
            return data
        weapons = data.get("pc_weapons") or []
        pcs = [self._fighter(pc, setups.skirmish_pc, weapons=weapons) for pc in data["pcs"]]
        foes = [self._fighter(npc, setups.fighter_of, weapons=[data["foe_weapon"]])
                for npc in data.get("foes") or []]
        if self.errors:  # a fighter who cannot fight (a dead one, say): the form says why
            return data
        for foe in foes:
            if foe is not None:
                foe["band"] = data["foe_band"]
        co = max(data["pcs"], key=lambda c: c.seniority)
        ship = co.ship
        commander = data.get("opposing_commander")
        named = (data.get("opposing_commander_name") or "").strip() or (
            data["foes"][0].title if data.get("foes") else "the enemy's leader")
        typed = data.get("opposing_command") or 0
        if commander is None:
            opposing = {"name": named, "command": typed}
        elif commander.health_state == DamageState.DEAD:
            self.add_error("opposing_commander", f"{commander} is Dead and commands no one: "
                           "leave this empty and give the cards of whoever leads in his "
                           "place.")
            return data
        else:
            opposing = {"name": commander.title, "command": commander.skill("command")}
            if commander in (data.get("foes") or []):
                opposing.update(id=setups.fighter_id(commander), second=typed)
        data["setup"] = {
            "pcs": pcs, "opposition": foes, "weather": data["weather"],
            "stakes": data["stakes"], "with_crew": bool(data.get("with_crew")),
            "ship_morale": "healthy" if ship is None else
            ["healthy", "injured", "maimed", "dead"][ship.morale_state],
            "opposing_commander": opposing,
            "settings": data["settings"],
        }
        data["characters"] = [*data["pcs"], *(data.get("foes") or [])]
        data["title"] = data.get("title") or "Skirmish: " + ", ".join(
            c.name for c in data["pcs"])
        return data


class DuelForm(_FightForm):
    """A Combat Challenge between two characters (BtQ L1565-1621): a duel of honour, a
    fight in the street."""

    attacker = forms.ModelChoiceField(queryset=Character.objects.none())
    attacker_weapons = forms.MultipleChoiceField(choices=WEAPON_CHOICES, initial=["pistol"],
                                                 widget=forms.CheckboxSelectMultiple,
                                                 label="The attacker's weapons")
    defender = forms.ModelChoiceField(queryset=Character.objects.none(), label="His foe")
    defender_weapons = forms.MultipleChoiceField(choices=WEAPON_CHOICES, initial=["pistol"],
                                                 widget=forms.CheckboxSelectMultiple,
                                                 label="The foe's weapons")
    mode = forms.ChoiceField(
        choices=MODE_CHOICES, initial="fire", label="The fight",
        help_text="Hand to hand is fought with a hand-to-hand weapon (sword, cutlass, axe, "
                  "knives, boarding weapons, bayonet, fists); an exchange of fire, a shot or "
                  "an attack at range with a gun or a thrown knife, at the range below. Each "
                  "fighter uses the best of his weapons that the fight allows.")
    band = forms.ChoiceField(choices=BAND_CHOICES, initial="normal", label="Range")
    difficulty = forms.IntegerField(min_value=1, max_value=12, required=False,
                                    label="Cover (cards against a shot)")

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, campaign=campaign, **kwargs)
        for name in ("attacker", "defender"):
            self.fields[name].queryset = _characters(campaign)
        self.order_fields(["title", "attacker", "attacker_weapons", "defender",
                           "defender_weapons", "mode", "band", "difficulty"])

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        if data["attacker"] == data["defender"]:
            self.add_error("defender", "A character cannot fight himself.")
            return data
        a = self._fighter("attacker", setups.fighter_of, weapons=data["attacker_weapons"])
        b = self._fighter("defender", setups.fighter_of, weapons=data["defender_weapons"])
        if self.errors:  # a fighter who cannot fight (a dead one, say): the field says why
            return data
        ranged = data["mode"] in ("fire", "shot") or (data["mode"] == "unengaged"
                                                      and data["band"] != MELEE)
        if ranged:
            self._refuse_hand_to_hand(data)
            if self.errors:
                return data
        data["setup"] = {"fighters": [a, b], "mode": data["mode"],
                         "band": data["band"] if ranged else None,
                         "difficulty": data.get("difficulty") if data["mode"] == "shot"
                         else None,
                         "weather": data["weather"], "stakes": data["stakes"],
                         "settings": data["settings"]}
        data["characters"] = [data["attacker"], data["defender"]]
        data["title"] = data.get("title") or f"{data['attacker'].title} against " \
                                              f"{data['defender'].title}"
        return data


    def _refuse_hand_to_hand(self, data: dict) -> None:
        """A fight at range uses guns and thrown knives only (BtQ L1576, L1584-1618): the
        hand-to-hand weapons ticked for a fighter who attacks in it (the defender only in
        an exchange of fire) would be left out without a word, and the fight would not be
        the one the GM meant (the form opens on an exchange of fire, the pistol ticked), so
        they are refused with the reason. A gun ticked for a fight hand to hand is only
        carried: the fighter uses his hand-to-hand weapon."""
        what = MODES[data["mode"]] if data["mode"] != "unengaged" else "an attack at range"
        sides = ("attacker", "defender") if data["mode"] == "fire" else ("attacker",)
        for side in sides:
            melee = [WEAPONS[w].label for w in data[f"{side}_weapons"]
                     if not any(usable(w, band) for band in BANDS)]
            if melee:
                kind = "hand-to-hand weapons" if len(melee) > 1 else "a hand-to-hand weapon"
                self.add_error(f"{side}_weapons", f"{', '.join(melee)}: {kind}, of no use in "
                               f"{what}. Untick {'them' if len(melee) > 1 else 'it'}, or "
                               "make the fight hand to hand.")


class BoardingForm(_FightForm):
    """A boarding action at Distance 0 (BtQ L2512-2533): the attacking and the boarded
    ship, the PCs aboard them (each on the ship of his posting), the NPC officers posted on
    both, their weapons and the crews' cards in the Grand Melee."""

    attacker = forms.ModelChoiceField(queryset=Ship.objects.none(), label="The boarding ship")
    defender = forms.ModelChoiceField(queryset=Ship.objects.none(), label="The boarded ship")
    pcs = forms.ModelMultipleChoiceField(queryset=Character.objects.none(), required=False,
                                         widget=forms.CheckboxSelectMultiple,
                                         label="The PCs who fight (aboard their ship)")
    pc_weapons = forms.MultipleChoiceField(choices=WEAPON_CHOICES, initial=["cutlass"],
                                           widget=forms.CheckboxSelectMultiple,
                                           label="Weapons the PCs carry")
    officer_weapon = forms.ChoiceField(choices=WEAPON_CHOICES, initial="cutlass",
                                       label="The NPC officers' weapon")
    attacker_crew_pool = forms.IntegerField(min_value=0, max_value=12, initial=4,
                                            label="Cards of the boarders' crew")
    defender_crew_pool = forms.IntegerField(min_value=0, max_value=12, initial=4,
                                            label="Cards of the defenders' crew")

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, campaign=campaign, **kwargs)
        ships = Ship.objects.filter(campaign=campaign).select_related("ship_type")
        labelled = ship_label(campaign)
        for name in ("attacker", "defender"):
            self.fields[name].queryset = ships
            self.fields[name].label_from_instance = labelled
        self.fields["pcs"].queryset = _characters(campaign, Character.Kind.PC)
        for name in ("wind", "precipitation"):
            del self.fields[name]  # at sea the ship-combat weather governs (D15)
        self.order_fields(["title", "attacker", "defender", "pcs", "pc_weapons"])

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        att, dfd = data["attacker"], data["defender"]
        if att == dfd:
            self.add_error("defender", "A ship cannot board herself.")
            return data
        pcs = []
        for pc in data.get("pcs") or []:
            ship = pc.ship
            if ship not in (att, dfd):
                self.add_error("pcs", f"{pc} serves on neither ship: post him aboard first.")
                continue
            fighter = self._fighter(pc, setups.fighter_of, weapons=data["pc_weapons"])
            if fighter is not None:
                pcs.append({**fighter, "ship": str(ship.pk), "seniority": pc.seniority,
                            "command": pc.skill("command")})
        weapons = [data["officer_weapon"]]
        data["setup"] = {
            "attacker": str(att.pk),
            "ships": {str(att.pk): setups.boarding_ship(att, crew_pool=data["attacker_crew_pool"],
                                                        officer_weapons=weapons),
                      str(dfd.pk): setups.boarding_ship(dfd, crew_pool=data["defender_crew_pool"],
                                                        officer_weapons=weapons)},
            "pcs": pcs, "settings": data["settings"],
        }
        officers = [o for s in data["setup"]["ships"].values() for o in s["officers"]]
        data["characters"] = [*(data.get("pcs") or []), *Character.objects.filter(
            pk__in=[int(o["id"].partition(":")[2]) for o in officers])]
        data["ships"] = [att, dfd]
        data["title"] = data.get("title") or f"{att.name} boards {dfd.name}"
        return data


KINDS = {
    "skirmish": ("btq_skirmish", SkirmishForm, "New skirmish",
                 "The PCs act as a group: each has one action, the commanding officer hands "
                 "out his Discipline, and his final Command test decides it."),
    "duel": ("btq_personal_combat", DuelForm, "New duel or fight",
             "Two characters, one Combat Challenge: the whole fight in one turn of the cards."),
    "boarding": ("btq_boarding", BoardingForm, "New boarding",
                 "Two ships at Distance 0: the Grand Melee, the officers, and a Command test "
                 "at the end of every round."),
}
"""The kinds of fight a GM prepares, by the word of its page's address: (engine, form,
heading, intro). The page and the API build the setup with the same form."""
