"""Forms of the mission pages. A mission's reward and failure are rows of the purchase tables
(one formset each); the rules themselves are the kernel's, checked by the services, whose
refusals land on the fields they name (``campaigns.forms.PicoMixin``)."""

from __future__ import annotations

from django import forms

from campaigns.forms import Form, VersionedForm
from campaigns.missions.models import STATIONS, Challenge, Mission, Voyage
from campaigns.missions.selectors import missions_for_user
from campaigns.missions.targets import resolve_entries
from campaigns.selectors import is_gm
from rules.btq import missions as kernel

ENTRY_ROWS = 4
"""Empty rows offered for the reward and for the failure of a new mission."""


def _kind_choices(tables: dict, side: str) -> list:
    return [("", "—")] + [(p.kind, f"{p.label} (costs {p.cost})")
                          for p in tables[side].values()]


class EntryForm(Form):
    """One thing bought for a reward or a failure (``rules.btq.missions.Entry``). Its target
    is picked from the list of the ``side``'s :func:`target_choices` (or typed in the same
    words); a reward row may instead name a new reputation in its own fields."""

    kind = forms.ChoiceField(required=False)
    amount = forms.IntegerField(min_value=1, max_value=20, initial=1, required=False)
    target = forms.CharField(
        max_length=200, required=False,
        help_text="Optional: pick a Measure, skill, damage area or one of the characters' "
                  "reputations from the list. Empty: chosen when it is applied.")
    new_kind = forms.ChoiceField(label="Or a new reputation", required=False,
                                 choices=[("personal", "Personal"),
                                          ("institution", "Institution")])
    new_descriptor = forms.CharField(label="Descriptor", max_length=100, required=False,
                                     help_text="“Loved by”, “Feared by”")
    new_subject = forms.CharField(label="Subject", max_length=100, required=False,
                                  help_text="“Lady Sophia”, “the Smugglers”")
    scope = forms.ChoiceField(choices=list(kernel.SCOPES.items()), initial="all",
                              required=False)
    character = forms.TypedChoiceField(coerce=int, empty_value=None, required=False)
    note = forms.CharField(max_length=200, required=False)

    NEW = ("new_kind", "new_descriptor", "new_subject")

    def __init__(self, *args, side: str, tables: dict, characters: dict, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = _kind_choices(tables, side)
        self.fields["character"].choices = [("", "—")] + [
            (pk, ref.name) for pk, ref in sorted(characters.items(), key=lambda i: i[1].name)]
        self.fields["target"].widget.attrs["list"] = f"{side}-targets"
        if side != kernel.REWARD:  # a failure damages what is there; only a reward makes one
            for name in self.NEW:
                del self.fields[name]

    def clean(self):
        data = super().clean()
        descriptor, subject = data.get("new_descriptor", ""), data.get("new_subject", "")
        if descriptor or subject:
            if data.get("kind") != "reputation":
                self.add_error("new_descriptor", "A new reputation is a “+1 to a Reputation” "
                                                 "reward: choose that kind.")
            elif not (descriptor and subject):
                self.add_error("new_subject" if descriptor else "new_descriptor",
                               "A new reputation needs both its descriptor and its subject.")
            elif data.get("target"):
                self.add_error("target", "Pick a reputation or write a new one, not both.")
            else:
                data["target"] = f"{data['new_kind'] or 'personal'}:{descriptor}:{subject}"
        return data

    def entry(self) -> dict | None:
        data = self.cleaned_data
        if not data.get("kind"):
            return None
        target = "" if "target" in self.errors else data.get("target", "")
        return {"kind": data["kind"], "amount": data.get("amount") or 1,
                "target": target, "scope": data.get("scope") or "all",
                "character": data.get("character"), "note": data.get("note", "")}


EntryFormSet = forms.formset_factory(EntryForm, extra=0, max_num=20, absolute_max=20)


def entry_formset(side: str, *, data=None, initial=(), tables: dict, characters: dict):
    """The rows of a mission's ``side`` (``"reward"`` or ``"failure"``): those of
    ``initial`` and :data:`ENTRY_ROWS` empty ones."""
    initial = list(initial) + [{"scope": "all", "amount": 1}] * ENTRY_ROWS
    return EntryFormSet(data, initial=initial, prefix=side,
                        form_kwargs={"side": side, "tables": tables, "characters": characters})


def entries_of(formset) -> list[dict]:
    """The rows that buy something, as ``rules.btq.missions.Entry`` JSON (a target refused
    on its row left empty, for the kernel to check the rest)."""
    return [e for e in (f.entry() for f in formset.forms) if e is not None]


def resolve_targets(formset, side: str, cast: dict, every: dict) -> bool:
    """:func:`campaigns.missions.targets.resolve_entries` on the rows of ``formset``: each
    refusal lands on its row's target; False if there was one."""
    errors = resolve_entries([form.cleaned_data for form in formset.forms], side, cast, every)
    for index, message in errors.items():
        formset.forms[index].add_error("target", message)
    return not errors


class MissionForm(Form):
    """A mission's six parts, its kind and characters; a GM's form adds the voyage, the
    hidden flag and the GM notes."""

    name = forms.CharField(max_length=200)
    kind = forms.ChoiceField(choices=list(kernel.KINDS.items()))
    intent = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}),
                             help_text="Its broad intent.")
    challenges_required = forms.IntegerField(
        label="Challenges", min_value=1, max_value=100, initial=kernel.MIN_CHALLENGES,
        help_text="Successful challenges needed (at least 2). It is also the budget of the "
                  "reward and of the failure.")
    deadline_failures = forms.IntegerField(
        label="Deadline: failed challenges", min_value=0, max_value=100, required=False,
        help_text="How many failed challenges end it; empty: as many as its challenges.")
    deadline_narrative = forms.CharField(label="Deadline in the story", max_length=300,
                                         required=False,
                                         help_text="“Before the French fleet sorties”, or "
                                                   "“No deadline”.")
    characters = forms.TypedMultipleChoiceField(coerce=int, required=False,
                                                widget=forms.CheckboxSelectMultiple)
    planning_notes = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}),
                                     help_text="The scenes the players would like to see.")
    voyage = forms.ModelChoiceField(queryset=Voyage.objects.none(), required=False)
    hidden = forms.BooleanField(required=False, label="Hidden from the players")
    gm_notes = forms.CharField(label="GM notes", required=False,
                               widget=forms.Textarea(attrs={"rows": 2}))

    GM_ONLY = ("voyage", "hidden", "gm_notes")

    def __init__(self, *args, campaign, characters: dict, gm: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["characters"].choices = [
            (pk, ref.name) for pk, ref in sorted(characters.items(), key=lambda i: i[1].name)]
        if gm:
            self.fields["voyage"].queryset = Voyage.objects.filter(campaign=campaign)
        else:
            for name in self.GM_ONLY:
                del self.fields[name]
            self.fields["kind"].initial = "personal"

    def values(self) -> dict:
        return {k: v for k, v in self.cleaned_data.items() if k != "version"}


class MissionEditForm(MissionForm, VersionedForm):
    pass


class SampleForm(Form):
    sample = forms.ChoiceField(label="The book's mission")
    characters = forms.TypedMultipleChoiceField(coerce=int, required=False,
                                                widget=forms.CheckboxSelectMultiple)
    hidden = forms.BooleanField(required=False, label="Hidden from the players")

    def __init__(self, *args, characters: dict, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["sample"].choices = [
            (key, f"{t.name} ({t.challenges_required} challenges)")
            for key, t in kernel.sample_missions().items()]
        self.fields["characters"].choices = [
            (pk, ref.name) for pk, ref in sorted(characters.items(), key=lambda i: i[1].name)]


class ChallengeForm(Form):
    missions = forms.ModelMultipleChoiceField(queryset=Mission.objects.none(),
                                              widget=forms.CheckboxSelectMultiple,
                                              help_text="One challenge may count for several.")
    description = forms.CharField(max_length=300, label="The challenge",
                                  help_text="What is at stake, in the story.")
    kind = forms.ChoiceField(choices=list(Challenge.KINDS.items()))
    gm_notes = forms.CharField(label="GM notes", required=False,
                               widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, campaign, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["missions"].queryset = missions_for_user(user, campaign).filter(
            status=Mission.Status.ACTIVE)
        if not is_gm(user, campaign):
            del self.fields["gm_notes"]


class ChallengeAcceptForm(Form):
    """The GM's acceptance of a proposed challenge, with its wording as the GM wants it."""

    description = forms.CharField(max_length=300)
    kind = forms.ChoiceField(choices=list(Challenge.KINDS.items()))
    gm_notes = forms.CharField(required=False, max_length=2000)


class ChallengeDeclineForm(Form):
    reason = forms.CharField(max_length=200, required=False)


class ResultForm(Form):
    met = forms.TypedChoiceField(choices=[("1", "Met"), ("0", "Failed")],
                                 coerce=lambda v: v == "1", widget=forms.RadioSelect,
                                 label="The challenge was")
    summary = forms.CharField(max_length=300, required=False, label="How")


class EndForm(VersionedForm):
    reason = forms.CharField(max_length=300, required=False)


class VoyageForm(Form):
    name = forms.CharField(max_length=200)
    station = forms.ChoiceField(choices=list(STATIONS.items()))
    naval_missions_planned = forms.IntegerField(
        label="Naval Missions", min_value=Voyage.MIN_MISSIONS, max_value=Voyage.MAX_MISSIONS,
        initial=3, help_text="A voyage lasts 3 to 6 Naval Missions.")
    started_on = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))


class SessionForm(Form):
    title = forms.CharField(max_length=200, required=False)
    played_on = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    attendance = forms.TypedMultipleChoiceField(coerce=int, required=False,
                                                widget=forms.CheckboxSelectMultiple)
    voyage = forms.ModelChoiceField(queryset=Voyage.objects.none(), required=False)
    gm_notes = forms.CharField(label="GM notes", required=False,
                               widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["attendance"].choices = [
            (m.user_id, str(m.user)) for m in campaign.memberships.select_related("user")]
        self.fields["voyage"].queryset = Voyage.objects.filter(campaign=campaign)


class SessionEndForm(VersionedForm):
    denouement = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 3}),
                                 help_text="The recap of the evening.")
