"""Forms of the shipboard page: each one a use case of ``combat.shipboard.services`` or
``characters.shipboard``. Fields only the GM sets are left out of a player's form."""

from django import forms

from campaigns.forms import Form, VersionedForm
from characters.models import Character, Reputation
from rules.btq import promotion, shipboard, wealth
from rules.btq.characters import SKILLS, DamageState
from rules.btq.tests import DIFFICULTY_LABELS

BLANK = [("", "—")]
SKILL_CHOICES = list(SKILLS.items())
DIFFICULTY_CHOICES = [(k, f"{v}") for k, v in DIFFICULTY_LABELS.items()]
PROFESSION_CHOICES = [(k, k.replace("_", " ").capitalize()) for k in promotion.PROFESSIONS]


def _price_choices():
    groups = {}
    for item in wealth.PRICE_LIST:
        groups.setdefault(item.category, []).append((item.key, f"{item.name} (cost {item.cost})"))
    return [("", "Choose…"), *groups.items()]


def _reputation_field(character: Character):
    return forms.ChoiceField(
        label="Add a reputation", required=False,
        choices=BLANK + [(str(r.pk), f"{r.name} +{r.value}")
                         for r in character.reputations.all()])


class BuyForm(Form):
    item = forms.ChoiceField(label="Item", required=False, choices=_price_choices)
    reputation = forms.ChoiceField(required=False)
    use_prize = forms.BooleanField(label="Use my best prize share", required=False,
                                   initial=True)
    name = forms.CharField(label="Or anything else (GM)", required=False, max_length=100)
    cost = forms.IntegerField(label="Its cost (GM)", required=False, min_value=0, max_value=10)
    available = forms.BooleanField(label="Readily available", required=False, initial=True)
    rarity = forms.ChoiceField(choices=[(k, k.capitalize()) for k in wealth.RARITY],
                               initial="ordinary", required=False)
    opposition = forms.IntegerField(label="Opposition cards (GM; empty: the cost and rarity)",
                                    required=False, min_value=0, max_value=51)

    GM_ONLY = ("name", "cost", "available", "rarity", "opposition")

    def __init__(self, *args, character: Character, gm: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["reputation"] = _reputation_field(character)
        if not gm:
            for name in self.GM_ONLY:
                del self.fields[name]

    def arguments(self) -> dict:
        data = dict(self.cleaned_data)
        if "available" in self.fields:
            data["rarity"] = data.get("rarity") or "ordinary"
        data["name"] = data.get("name") or ""
        if data.get("cost") is None:
            data.pop("cost", None)
        return data


class SupplyForm(Form):
    skill = forms.ChoiceField(choices=[(k, v["label"]) for k, v in wealth.SUPPLY_TESTS.items()])
    items = forms.CharField(label="What is sought", max_length=200)
    reputation = forms.ChoiceField(required=False)
    difficulty = forms.ChoiceField(label="Difficulty (GM)", required=False,
                                   choices=BLANK + DIFFICULTY_CHOICES)

    def __init__(self, *args, character: Character, gm: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["reputation"] = _reputation_field(character)
        if not gm:
            del self.fields["difficulty"]


class GrogForm(Form):
    drink = forms.ChoiceField(choices=[(k, f"{n} (Grog Rating {r})")
                                       for k, (n, r) in shipboard.DRINKS.items()])
    challenge = forms.CharField(label="The scene's challenge", max_length=200)
    iron_stomach = forms.BooleanField(label="Iron Stomach (+1 card)", required=False)

    def __init__(self, *args, character: Character, gm: bool, **kwargs):
        super().__init__(*args, **kwargs)


class SceneForm(Form):
    """The GM's scene test: everyone who takes part, one contested test (BtQ L1872-1910)."""

    scene = forms.ChoiceField(choices=[(k, v["label"]) for k, v in shipboard.SCENES.items()])
    topic = forms.CharField(max_length=200)
    skill = forms.ChoiceField(label="Sponsored skill", choices=SKILL_CHOICES)
    others = forms.ModelMultipleChoiceField(
        queryset=Character.objects.none(), required=False, widget=forms.CheckboxSelectMultiple,
        label="Who else takes part", help_text="The PCs who join in, the officers and guests.")
    captain = forms.ModelChoiceField(
        queryset=Character.objects.none(), required=False, label="The Captain, if he joins in",
        help_text="At his own table he may test any skill he likes.")
    captain_skill = forms.ChoiceField(label="The Captain's skill", required=False,
                                      choices=BLANK + SKILL_CHOICES)
    reputations = forms.ModelMultipleChoiceField(
        queryset=Reputation.objects.none(), required=False, widget=forms.CheckboxSelectMultiple,
        label="Reputations used", help_text="One at most for each who takes part; it is "
                                            "damaged if he loses.")

    def __init__(self, *args, character: Character, gm: bool, **kwargs):
        super().__init__(*args, **kwargs)
        crew = character.campaign.characters.exclude(health_state=DamageState.DEAD)
        self.fields["others"].queryset = crew.exclude(pk=character.pk)
        self.fields["others"].label_from_instance = lambda c: c.title
        self.fields["captain"].queryset = crew.filter(kind=Character.Kind.NPC)
        self.fields["captain"].label_from_instance = lambda c: c.title
        self.fields["reputations"].queryset = Reputation.objects.filter(
            character__campaign=character.campaign).select_related("character")
        self.fields["reputations"].label_from_instance = (
            lambda r: f"{r.character.title}: {r.name} +{r.value}")

    def arguments(self) -> dict:
        data = dict(self.cleaned_data)
        data["others"] = list(data["others"])
        data["reputations"] = [r.pk for r in data["reputations"]]
        return data


class ExaminationForm(Form):
    reputation = forms.ChoiceField(label="A reputation with an officer of the panel",
                                   required=False)
    reputation_challenge = forms.TypedChoiceField(
        label="Used on", coerce=int, initial=0,
        choices=[(i, f"Challenge {i + 1}: {SKILLS[s]}")
                 for i, s in enumerate(promotion.EXAMINATION)])

    def __init__(self, *args, character: Character, gm: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["reputation"] = _reputation_field(character)


class PromoteForm(VersionedForm):
    step = forms.ChoiceField(choices=[(k, f"{p.from_rank} to {p.to_rank}")
                                      for k, p in promotion.PATHS.items() if k != "lieutenant"])
    profession = forms.ChoiceField(required=False, choices=BLANK + PROFESSION_CHOICES,
                                   label="Profession of the post")
    post = forms.CharField(required=False, max_length=100, label="The post (Gunner's Mate)")
    vacancy = forms.BooleanField(required=False, label="There is a vacancy")

    def __init__(self, *args, character: Character, gm: bool, **kwargs):
        super().__init__(*args, **kwargs)


class CareerForm(VersionedForm):
    voyages_completed = forms.IntegerField(min_value=0, max_value=99)
    voyages_since_promotion = forms.IntegerField(min_value=0, max_value=99,
                                                 label="Voyages since the last promotion")
    profession = forms.ChoiceField(required=False, choices=BLANK + PROFESSION_CHOICES)
    examination_barred = forms.BooleanField(required=False,
                                            label="A failed examination bars a retry")

    def __init__(self, *args, character: Character, gm: bool, **kwargs):
        super().__init__(*args, **kwargs)


class ChargeForm(Form):
    article = forms.TypedChoiceField(coerce=int, choices=[
        (a.number, f"{a.number}. {a.text}") for a in shipboard.ARTICLES])
    punishment = forms.ChoiceField(choices=list(shipboard.PUNISHMENTS.items()))
    lashes = forms.IntegerField(required=False, min_value=0, initial=0,
                                help_text="At most 12 for one crime (Captain's Discretion).")
    broken_on_ship = forms.TypedChoiceField(
        required=False, coerce=int, empty_value=None, label="Article broken (off the ship)",
        choices=BLANK + [(a.number, str(a.number)) for a in shipboard.ARTICLES[:33]])
    details = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}),
                              label="What was done (seen by the players)")
    gm_notes = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}),
                               label="GM notes (never shown to players)")

    def __init__(self, *args, character: Character, gm: bool, **kwargs):
        super().__init__(*args, **kwargs)

    def arguments(self) -> dict:
        data = dict(self.cleaned_data)
        data["lashes"] = data.get("lashes") or 0
        return data


class TokenForm(Form):
    token = forms.IntegerField(widget=forms.HiddenInput)
    challenge = forms.CharField(max_length=200, label="On the challenge")

    def __init__(self, *args, character: Character, gm: bool, **kwargs):
        super().__init__(*args, **kwargs)
