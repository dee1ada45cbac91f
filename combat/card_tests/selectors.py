"""Who may see and do what with a card test, and what each viewer sees of it: the one place
that decides it for the pages and the API (DESIGN.md, "Roles and trust").

A card test is an encounter of the engine ``btq_test`` (``combat.card_tests.services``).
Every member of its campaign sees it (the cards are turned in front of the whole table);
what a viewer sees of its state and events is what ``combat.selectors`` gives them, from
the engine's ``view`` and each event's visibility, as for a battle. Before the draw, the
pools and the exact odds come from the characters as they are now (the GM alone sees the
NPC's side; a player facing a secret NPC sees the odds of their own pool only).
"""

from django.db.models import QuerySet
from django.http import Http404

from campaigns.models import Campaign, Membership
from campaigns.selectors import campaigns_for_user, membership_role
from characters.models import Character, Reputation
from combat.card_tests import table
from combat.models import Encounter
from combat.selectors import PC_PREFIX, events_for, participant_ids_for, view_for
from rules.btq.settings import completed
from rules.btq.tests import DIFFICULTY, Side, TestError, TestRecord
from ships.models import ShipReputation

ENGINE = table.ENGINE

_S = table.Status
ACTION_STATUSES = {
    "accept": {"gm": (_S.PROPOSED,)},
    "decline": {"gm": (_S.PROPOSED,)},
    "cancel": {"gm": (_S.PROPOSED, _S.AWAITING_CONFIRMATION), "proposer": (_S.PROPOSED,)},
    "confirm": {"player": (_S.AWAITING_CONFIRMATION,)},
    "joker": {"player": (_S.AWAITING_JOKER,), "gm": (_S.AWAITING_JOKER,)},
}
"""Who may take each step of a card test, and in which statuses. ``"player"`` is the acting
PC's player (the GM confirms for a PC without one), ``"proposer"`` the player who proposed
the test. The GM may name a Joker for a player who is away: its default is the Card of
Fate (D5)."""

ACTION_VERBS = {"accept": "accepted", "decline": "declined", "cancel": "cancelled",
                "confirm": "confirmed", "joker": "given a Joker's card"}


def card_test_status(test: Encounter) -> str:
    """Where ``test`` stands (a ``table.Status`` value): ``proposed`` while its encounter is
    being set up, ``awaiting_confirmation`` or ``awaiting_joker`` by the engine's phase while
    it runs, ``done`` once finished, ``declined`` or ``cancelled`` once cancelled."""
    if test.status == Encounter.Status.SETUP:
        return _S.PROPOSED
    if test.status == Encounter.Status.CANCELLED:
        return _S.DECLINED if "declined" in test.terms else _S.CANCELLED
    if test.status == Encounter.Status.FINISHED:
        return _S.DONE
    if (test.state or {}).get("phase") == "awaiting_joker":
        return _S.AWAITING_JOKER
    return _S.AWAITING_CONFIRMATION


def card_test_is_open(test: Encounter) -> bool:
    """Whether ``test`` is not over (proposed, awaiting confirmation or a Joker)."""
    return test.status in Encounter.UNFINISHED


def card_tests_for_user(user, campaign: Campaign) -> QuerySet[Encounter]:
    """The card tests of ``campaign``, newest first, for a member (all of them: the cards are
    turned in front of the whole table); none for anyone else."""
    if membership_role(user, campaign) is None:
        return Encounter.objects.none()
    return Encounter.objects.filter(campaign=campaign, engine=ENGINE).select_related(
        "campaign", "created_by").order_by("-created_at", "-id")


def card_test_for_user(user, pk, campaign: Campaign | None = None) -> Encounter:
    """The card test ``pk`` (of ``campaign``, if given) if ``user`` is a member of its
    campaign; ``Http404("No such test.")`` otherwise, whether it exists or not."""
    tests = Encounter.objects.filter(engine=ENGINE, campaign__in=campaigns_for_user(user))
    if campaign is not None:
        tests = tests.filter(campaign=campaign)
    try:
        return tests.select_related("campaign", "created_by").get(pk=pk)
    except (Encounter.DoesNotExist, ValueError, TypeError, OverflowError):
        raise Http404("No such test.") from None


def card_tests_awaiting(user, campaign: Campaign) -> list[Encounter]:
    """The open card tests of ``campaign`` that wait for ``user``: his PCs' tests awaiting
    confirmation or a Joker, and for a GM also the proposed ones and those of PCs without a
    player. (The campaign page's "tests waiting for you".)"""
    role = membership_role(user, campaign)
    if role is None:
        return []
    owners = dict(campaign.characters.filter(kind=Character.Kind.PC).values_list(
        "pk", "owner_id"))
    found = []
    for test in card_tests_for_user(user, campaign).filter(
            status__in=Encounter.UNFINISHED).order_by("pk"):
        owner = owners.get(test.terms.get("character"))
        status = card_test_status(test)
        if status != _S.PROPOSED and (owner == user.pk or (
                owner is None and role == Membership.Role.GM)):
            found.append(test)
        elif status == _S.PROPOSED and role == Membership.Role.GM:
            found.append(test)
    return found


def campaign_panel(request, campaign: Campaign, role: str) -> dict:
    """The card tests' section of the campaign page (``campaigns.panels``): the tests
    ``waiting`` for the viewer (:func:`card_tests_awaiting`) and the other tests not over
    (``at_table``: the whole table watches them), each as ``{"test", "name", "status"}``."""
    waiting = card_tests_awaiting(request.user, campaign)
    others = card_tests_for_user(request.user, campaign).filter(
        status__in=Encounter.UNFINISHED).exclude(pk__in=[t.pk for t in waiting]).order_by("pk")

    def row(test):
        names = card_test_names(campaign, test.terms)
        return {"test": test, "name": names.get(f"{PC_PREFIX}{test.terms['character']}"),
                "status": table.Status(card_test_status(test)).label.lower()}
    return {"waiting": [row(t) for t in waiting], "at_table": [row(t) for t in others]}


def card_test_owner_id(test: Encounter) -> int | None:
    """The id of the user who plays ``test``'s character, ``None`` for none (an NPC, a PC
    without a player, a removed character)."""
    return Character.objects.filter(pk=test.terms.get("character")).values_list(
        "owner_id", flat=True).first()


def _capacities(user, test: Encounter, role: str | None) -> set[str]:
    if role is None:
        return set()
    found = set()
    if role == Membership.Role.GM:
        found.add("gm")
    owner = card_test_owner_id(test)
    if (owner is not None and owner == user.pk) or (owner is None and "gm" in found):
        found.add("player")
    if test.terms.get("origin") == table.Origin.PLAYER and test.created_by_id == user.pk:
        found.add("proposer")
    return found


def card_test_may(user, test: Encounter, action: str, role: str | None = None) -> bool:
    """Whether ``user`` may take ``action`` (a key of :data:`ACTION_STATUSES`) on ``test``
    in some status, whatever its status now."""
    role = role if role is not None else membership_role(user, test.campaign)
    return bool(_capacities(user, test, role) & set(ACTION_STATUSES[action]))


def _allowed(capacities: set[str], status: str, action: str) -> bool:
    rules = ACTION_STATUSES[action]
    return any(status in rules[c] for c in capacities if c in rules)


def card_test_allows(user, test: Encounter, action: str, role: str | None = None) -> bool:
    """Whether ``user`` may take ``action`` on ``test`` in its status now."""
    role = role if role is not None else membership_role(user, test.campaign)
    return _allowed(_capacities(user, test, role), card_test_status(test), action)


def card_test_actions(user, test: Encounter, role: str | None = None) -> list[str]:
    """The steps ``user`` may take on ``test`` now, in :data:`ACTION_STATUSES` order."""
    role = role if role is not None else membership_role(user, test.campaign)
    capacities, status = _capacities(user, test, role), card_test_status(test)
    return [a for a in ACTION_STATUSES if _allowed(capacities, status, a)]


def card_test_names(campaign: Campaign, terms: dict) -> dict[str, str]:
    """The kernel's side names of a test with ``terms`` and what to call them: ``"pc:3"`` ->
    "Lieutenant Anne Able", ``"difficulty"`` -> "Challenging (5 cards)"."""
    ids = [pk for pk in (terms.get("character"), terms.get("opponent")) if pk]
    names = {f"{c.kind}:{c.pk}": c.title
             for c in Character.objects.filter(campaign=campaign, pk__in=ids)}
    if terms.get("opposition") == table.Opposition.DIFFICULTY:
        try:
            names[DIFFICULTY] = table.difficulty_label(terms.get("difficulty", ""))
        except TestError:
            names[DIFFICULTY] = terms.get("difficulty", "")
    return names


def card_test_odds_public(terms: dict) -> bool:
    """Whether players see the full odds of a test with ``terms``: when the opposition is
    public (a difficulty, or none). Against an NPC the odds would betray its pool, so
    players see only those of their own pool (the chance of each success level); the GM sees
    all."""
    return terms.get("opposition") != table.Opposition.NPC


def _person(campaign, pk) -> dict | None:
    if not pk:
        return None
    found = Character.objects.filter(campaign=campaign, pk=pk).first()
    return {"id": pk, "name": found.title if found else "(removed)"}


def _opposition(campaign, terms: dict, names: dict, gm: bool) -> dict:
    kind = terms.get("opposition")
    if kind == table.Opposition.NPC:
        opponent = _person(campaign, terms.get("opponent"))
        data = {"kind": kind, "label": opponent["name"] if opponent else "an NPC",
                "opponent": opponent}
        if gm:
            data.update(skill=terms.get("opponent_skill", ""),
                        skill_label=table.POOL_LABELS.get(terms.get("opponent_skill"), ""),
                        modifiers=terms.get("opponent_modifiers", []))
        return data
    if kind == table.Opposition.DIFFICULTY:
        return {"kind": kind, "label": names.get(DIFFICULTY),
                "difficulty": terms.get("difficulty", "")}
    return {"kind": kind, "label": "No opposition: a simple test against the Card of Fate"}


def _at_risk_label(campaign, terms: dict) -> str | None:
    """What the acting character stands to lose, in words, or ``None`` for nothing: the
    declared area (or reputation) at risk, and the reputation in his pool, which is damaged
    if he loses (BtQ L1241-1242; DECISIONS.md D1) even with no area declared."""
    at_risk = terms.get("at_risk") or ""
    risks = []
    if at_risk.startswith("reputation:"):
        rep = Reputation.objects.filter(pk=at_risk.partition(":")[2]).first()
        risks.append(f"the reputation “{rep.name}”" if rep else "a reputation (since removed)")
    elif at_risk:
        risks.append(table.Area(at_risk).label)
    used = _reputation(terms)
    if used is not None:
        whose = "the ship's reputation" if "ship" in used else "the reputation"
        label = f"{whose} “{used['name']}”"
        if label not in risks:
            risks.append(f"{label} (in the pool: damaged if the test is lost)")
    return "; ".join(risks) or None


def _reputation(terms: dict) -> dict | None:
    ids = terms.get("reputations") or []
    rep = Reputation.objects.filter(pk=ids[0]).first() if ids else None
    if rep is not None:
        return {"id": rep.pk, "name": rep.name}
    ship_id = terms.get("ship_reputation")
    ship_rep = ShipReputation.objects.filter(pk=ship_id).first() if ship_id else None
    return None if ship_rep is None else {"id": ship_rep.pk, "name": str(ship_rep),
                                          "ship": ship_rep.ship_id}


def card_test_view(user, test: Encounter, role: str | None = None,
                   settings: dict | None = None) -> dict:
    """What ``user`` sees of ``test``, as JSON-ready data, for the pages and the API.

    Everyone in the campaign sees the acting PC's pool, the stakes and, once turned, every
    card. The GM alone sees the NPC's skill, its modifiers and its pool before the draw, and
    its pool's make-up after it (players get the engine's view: its size, which the turned
    cards show anyway); the odds as :func:`card_test_odds_public` says. Fairness: the seed's
    ``seed_hash`` once the test is called, its ``seed`` once it is over or called off after
    the call (``replayable``
    unless it was recorded before tests had seeds); ``events`` the test's event log as the
    viewer may see it (``combat.selectors.events_for``). ``settings``: the campaign's, if
    already resolved.
    """
    campaign = test.campaign
    role = role if role is not None else membership_role(user, campaign)
    gm = role == Membership.Role.GM
    settings = settings if settings is not None else campaign.rules_settings()
    terms = test.terms
    names = card_test_names(campaign, terms)
    status = card_test_status(test)
    started = test.status != Encounter.Status.SETUP and test.started_at is not None
    participants = participant_ids_for(user, test)
    view = {
        "id": test.pk,
        "campaign": test.campaign_id,
        "status": status,
        "status_label": table.Status(status).label,
        "version": test.version,
        "origin": terms.get("origin", table.Origin.GM),
        "origin_label": table.Origin(terms.get("origin", table.Origin.GM)).label,
        "created_by": test.created_by.username if test.created_by else None,
        "created_at": test.created_at.isoformat(),
        "decided_at": test.finished_at.isoformat() if test.finished_at else None,
        "character": _person(campaign, terms.get("character")),
        "skill": terms.get("skill", ""),
        "skill_label": table.POOL_LABELS.get(terms.get("skill"), terms.get("skill", "")),
        "reputation": _reputation(terms),
        "helpers": [_person(campaign, pk) for pk in terms.get("helpers", ())],
        "modifiers": terms.get("modifiers", []),
        "opposition": _opposition(campaign, terms, names, gm),
        "intent": terms.get("intent", ""),
        "stakes_win": terms.get("stakes_win", ""),
        "stakes_lose": terms.get("stakes_lose", ""),
        "at_risk": _at_risk_label(campaign, terms),
        "opponent_at_risk": table.Area(terms["opponent_at_risk"]).label
        if terms.get("opponent_at_risk") else None,
        "decline_reason": terms.get("declined", ""),
        "names": names,
        "actions": card_test_actions(user, test, role),
        "pool": None,
        "opposition_pool": None,
        "odds": None,
        "odds_public": card_test_odds_public(terms),
        "problem": None,
        "pending": None,
        "record": None,
        "outcome": None,
        "description": card_test_describe(campaign, terms),
        "gates": [],
        "seed_hash": test.seed_hash if started else None,
        "seed": test.seed if test.seed_revealed and test.seed else None,
        "replayable": bool(test.seed) and not test.terms.get("migrated"),
        "events": [{"seq": e["seq"], "kind": e["kind"], "text": e["text"]}
                   for e in events_for(test, participants or ["observer"])],
    }
    floor = settings["personal_pool_floor"]
    if test.state is None:  # not begun: proposed, or declined or cancelled before the call
        try:
            setup = table.Setup.of(campaign, terms)
        except Character.DoesNotExist:
            view["problem"] = "The character of this test was removed."
            return view
        try:
            built = table.build(setup)
        except table.OppositionError as exc:
            view["problem"] = sentence(str(exc)) if gm else (
                "The GM has still to settle the opposition.")
        except TestError as exc:
            view["problem"] = sentence(str(exc))
        else:
            _pools(view, built, floor, gm)
            if status == _S.PROPOSED:
                view["gates"] = table.gates(setup)
                view["odds"] = _odds(built, settings, gm or view["odds_public"])
    else:
        seen = view_for(test, participants)
        drawn = seen.get("pending") or seen.get("record")
        pools = [side["pool"] for side in drawn["sides"]] if drawn else [
            {"secret": True} if side.secret and not gm else side.pool.as_dict(floor)
            for side in map(Side.from_dict, test.setup["sides"])]
        view["pool"] = pools[0]
        if len(pools) > 1 and not pools[1].get("secret"):
            view["opposition_pool"] = pools[1]  # the GM's, or a difficulty's
        if status == _S.AWAITING_CONFIRMATION:
            try:
                setup = table.Setup.of(campaign, terms)
                built = table.build(setup)
            except (Character.DoesNotExist, TestError):
                view["problem"] = "The test can no longer be drawn as it was called: the GM " \
                                  "cancels it and calls it again."
            else:
                view["gates"] = table.gates(setup)
                # Drawn under the settings of its call, which the campaign's may have left.
                view["odds"] = _odds(built, completed(test.setup["settings"]),
                                     gm or view["odds_public"])
                if table.sides_changed(built, test.setup):
                    view["problem"] = table.CHANGED
        elif status == _S.AWAITING_JOKER and seen.get("pending"):
            view["pending"] = seen["pending"]
        elif seen.get("record"):
            view["record"] = seen["record"]
            view["outcome"] = card_test_outcome(TestRecord.from_dict(test.state["record"]),
                                                names)
    return view


def _pools(view: dict, built: table.Table, floor: int, gm: bool) -> None:
    """The pools of a test not begun: the acting PC's, and the opposition's as the viewer may
    see it (an NPC's to the GM alone, a difficulty's size to everyone)."""
    view["pool"] = built.side.pool.as_dict(floor)
    if gm and built.opponent is not None:
        view["opposition_pool"] = built.opponent.pool.as_dict(floor)
    elif built.opponent is None:
        view["opposition_pool"] = {"size": built.opposition_size(floor)}


def _odds(built: table.Table, settings: dict, full: bool) -> dict | None:
    """The exact odds, or only those of the character's own pool when the opposition's is
    hidden from the viewer."""
    return table.odds(built, settings) if full else table.own_odds(built, settings)


def sentence(text: str) -> str:
    """A kernel's message ("a Dead area cannot be at risk") as a sentence for people."""
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", ")")) else ".")


def card_test_describe(campaign: Campaign, terms: dict) -> str:
    """One line for the log and the lists: "Lieutenant Anne Able's Seamanship against
    Captain Nemo Nobody: to reach Portsmouth first". Nothing GM-only (no NPC skill)."""
    names = card_test_names(campaign, terms)
    if terms.get("opposition") == table.Opposition.NPC:
        opponent = names.get(f"npc:{terms.get('opponent')}")
        against = f" against {opponent}" if opponent else ""
    elif terms.get("opposition") == table.Opposition.DIFFICULTY:
        against = f" against {names.get(DIFFICULTY)}"
    else:
        against = " (a simple test)"
    skill = table.POOL_LABELS.get(terms.get("skill"), terms.get("skill", ""))
    name = names.get(PC_PREFIX + str(terms.get("character")), "(a removed character)")
    return f"{name}'s {skill}{against}: {terms.get('intent', '')}"


def card_test_outcome(record: TestRecord, names: dict[str, str]) -> str:
    """The result of a finished test in a sentence (BtQ L1238-1241; D3, D4)."""
    plural = "s" if record.retests > 1 else ""
    retests = f" after {record.retests} retest{plural}" if record.retests else ""
    best = record.result.name.capitalize() if record.result is not None else ""
    article = "an" if best == "Ordinary" else "a"
    if record.outcome == "won":
        return f"{names[record.winner]} won with {article} {best} success{retests}."
    if record.outcome == "passed":
        return f"{names[record.winner]} passed with {article} {best} success."
    if record.outcome == "failed":
        return f"{names[record.sides[0].who]} failed: no success."
    return f"A stalemate{retests}: nobody wins, nothing changes."


def log_rounds(rounds: list[dict], names: dict[str, str]) -> list[dict]:
    """The rounds of a test (``Round`` JSON) as the campaign log keeps them: the turned cards
    (public once turned) with the people's names, never a pool's make-up."""
    return [{
        "number": rnd["number"],
        "fate": rnd["fate"],
        "hands": [{"who": names.get(hand["who"], hand["who"]), "cards": hand["cards"],
                   "levels": hand["levels"]} for hand in rnd["hands"]],
        "comparison": rnd.get("comparison"),
    } for rnd in rounds]


def card_test_summary(test: Encounter) -> dict:
    """A row of the list of tests: the test, its status, description and result if over."""
    status = card_test_status(test)
    result = ""
    if status == _S.DONE and (test.state or {}).get("record"):
        result = card_test_outcome(TestRecord.from_dict(test.state["record"]),
                                   card_test_names(test.campaign, test.terms))
    elif status == _S.DECLINED:
        result = test.terms.get("declined", "")
    return {"test": test, "status": status, "status_label": table.Status(status).label,
            "description": card_test_describe(test.campaign, test.terms), "result": result}
