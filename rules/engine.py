"""The interface every encounter engine implements (DESIGN.md, "The rules kernel").

An engine is a set of pure functions over plain, JSON-serialisable state (a ``dict``). The
same interface serves step-by-step play at the table, a single automatic resolution and a
Monte Carlo of thousands of games, and it says nothing about cards, ships or Beat to
Quarters: the wargame engines (Brethren of the Coast, Horse Foot and Guns, the Viking
wargame, British vs Pirates) implement it too.

The flow of a game::

    state, events = engine.start(setup, source)
    while engine.outcome(state) is None:
        decision = engine.pending(state)[0]           # whose turn is it, and to choose what?
        choice = engine.default_choice(state, decision)   # or a human's choice
        state, events = engine.apply(state, decision.actor, choice, source)

Participants. Every decision belongs to a participant, named by a string the engine
defines in its setup: a side (``"side:enemy"``) or one character on it (``"pc:otoole"``).
The web layer maps users to participants; the engine says what each may see
(:meth:`Engine.view`) and tags each event with who may see it. ``"gm"`` is the referee
and sees everything.

Simultaneous decisions (orders written secretly, then revealed) appear together in
:meth:`Engine.pending`; the engine stores each choice hidden until all are in.

Typed decisions. Most decisions pick one of their ``options``. Some need typed input (a
name, points shared out among Measures, a trait and its detail): such a decision carries
``fields`` (:class:`Field`) and no options, and its choice is the text of a JSON object of
field name -> value (``'{"name": "Gregory O\'Toole"}'``). A decision may carry both: its
choice is then one of its options' keys or the JSON of its fields (a Viking vessel's orders:
a list of moves, or a distance typed in). :meth:`Decision.parse` checks the
object against the fields (unknown names, types, bounds, choices, required) and the engine
checks what only the rules know; either refuses with :class:`FieldErrors`, an
:class:`IllegalAction` that names the reason per field, so a form can show each beside its
input. A decision without fields behaves exactly as before.

Scenarios. Every engine ships the book's worked examples as named setups
(:meth:`Engine.scenarios`, :class:`Scenario`): JSON files in its package, read by
:func:`load_scenarios`, with the book's cards and decisions where it gives them, so tests,
demos, the Monte Carlo and independent checks play the same examples
(:func:`play_scenario`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Protocol, runtime_checkable

from mypy_extensions import mypyc_attr

from rules.random import RandomSource

GM = "gm"
"""The referee's participant id: sees every event and all of the state."""

State = dict[str, Any]


@mypyc_attr(native_class=False)  # mypyc compiles no subclass of a built-in error
class IllegalAction(ValueError):
    """An action that the rules do not allow now: wrong participant, unknown choice, or a game
    that is over. The message says why; the state is unchanged."""


class FieldErrors(IllegalAction):
    """A typed decision refused: ``errors`` maps a field name (``""`` for the whole input)
    to the reason, in words a player reads. The message joins them."""

    def __init__(self, errors: dict[str, str]):
        self.errors = dict(errors)
        super().__init__(" ".join(f"{reason}" for reason in self.errors.values()))


FIELD_KINDS = ("text", "textarea", "int", "decimal", "choice")
"""The kinds of :class:`Field`: one line of text, several lines, a whole number, a number
with decimals (inches), one of its options."""


@dataclass(frozen=True, slots=True)
class Field:
    """One typed input of a decision (see "Typed decisions" above).

    ``name`` is its key in the choice's JSON object, ``label`` what a person reads, ``kind``
    one of :data:`FIELD_KINDS`; ``options`` the legal values of a ``"choice"`` (``""`` is
    "none" when the field is not ``required``); ``minimum`` and ``maximum`` bound an
    ``"int"`` or a ``"decimal"``; ``default`` the value the form starts with; ``help`` one
    line of guidance; ``suggestions`` values a text field offers (a datalist);
    ``max_length`` bounds a text.
    """

    name: str
    label: str
    kind: str = "text"
    options: tuple[Option, ...] = ()
    required: bool = False
    minimum: float | None = None
    maximum: float | None = None
    default: object = None
    help: str = ""
    suggestions: tuple[str, ...] = ()
    max_length: int = 200

    def clean(self, value):
        """``value`` checked and normalised (text stripped, ``None`` for an empty optional
        field); raises ``ValueError`` with the reason."""
        if value is None or value == "":
            if self.required:
                raise ValueError(f"{self.label}: this is required.")
            return None
        if self.kind == "int":
            if isinstance(value, str) and value.strip().lstrip("-").isdigit():
                value = int(value.strip())
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{self.label}: a whole number, please.")
            if self.minimum is not None and value < self.minimum:
                raise ValueError(f"{self.label}: at least {self.minimum}.")
            if self.maximum is not None and value > self.maximum:
                raise ValueError(f"{self.label}: at most {self.maximum}.")
            return value
        if self.kind == "decimal":
            return self._decimal(value)
        if not isinstance(value, str):
            raise ValueError(f"{self.label}: text, please.")
        if any(c == "\x00" or "\ud800" <= c <= "\udfff" for c in value):
            # A NUL or half a surrogate pair: no database or JSON text can keep it.
            raise ValueError(f"{self.label}: it holds a character that cannot be stored "
                             "(a NUL, or half of a surrogate pair).")
        value = value.strip()
        if not value:
            return self.clean(None)
        if self.kind == "choice" and value not in {o.key for o in self.options}:
            raise ValueError(f"{self.label}: {value!r} is not one of the choices.")
        if len(value) > self.max_length:
            raise ValueError(f"{self.label}: at most {self.max_length} characters.")
        return value

    def _decimal(self, value) -> float:
        if isinstance(value, str):
            try:
                value = float(value.strip().replace(",", "."))
            except ValueError:
                raise ValueError(f"{self.label}: a number, please.") from None
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
            raise ValueError(f"{self.label}: a number, please.")  # (NaN is not equal to itself)
        if self.minimum is not None and value < self.minimum:
            raise ValueError(f"{self.label}: at least {self.minimum:g}.")
        if self.maximum is not None and value > self.maximum:
            raise ValueError(f"{self.label}: at most {self.maximum:g}.")
        if not abs(value) < 1e9:  # (and infinity)
            raise ValueError(f"{self.label}: a number under a billion, please.")
        return float(value)

    def as_dict(self) -> dict:
        return {"name": self.name, "label": self.label, "kind": self.kind,
                "options": [{"key": o.key, "label": o.label} for o in self.options],
                "required": self.required, "minimum": self.minimum, "maximum": self.maximum,
                "default": self.default, "help": self.help,
                "suggestions": list(self.suggestions), "max_length": self.max_length}


@dataclass(frozen=True, slots=True)
class Option:
    """One choice of a decision: ``key`` is what :meth:`Engine.apply` takes, ``label`` what a
    person reads, ``group`` (optional) the heading it is listed under where a decision has
    many options (a wargame's orders: "Sail, then fire"), ``""`` for none; ``spends``
    (optional) what taking it gives up beyond the order itself, in words (BvP's "a skill
    card"), so that a page pre-selects an option that keeps it; ``""`` for nothing."""

    key: str
    label: str
    group: str = ""
    spends: str = ""

    def as_dict(self) -> dict:
        """JSON: ``{"key", "label"}``, and ``"group"`` and ``"spends"`` when it has them."""
        data = {"key": self.key, "label": self.label}
        if self.group:
            data["group"] = self.group
        if self.spends:
            data["spends"] = self.spends
        return data


@dataclass(frozen=True, slots=True)
class Decision:
    """A choice the game is waiting for.

    ``actor`` is the participant who makes it; ``kind`` a stable machine name
    (``"positioning.move"``); ``prompt`` the question in the book's words; ``options`` the
    legal choices; ``default`` the key of the option the default policy would take.
    ``fields`` makes it a typed decision (module docstring, "Typed decisions"): the choice a
    JSON object text, ``default`` the JSON of the fields' defaults; or, with options too, an
    option's key (``default`` one of them) or that JSON.
    """

    actor: str
    kind: str
    prompt: str
    options: tuple[Option, ...]
    default: str
    fields: tuple[Field, ...] = ()

    def parse(self, choice: str) -> dict:
        """The choice of a typed decision as ``{field name: cleaned value}`` (every field,
        ``None`` where empty). Raises :class:`FieldErrors`: not a JSON object, an unknown
        field, or each field's own reason (:meth:`Field.clean`)."""
        try:
            data = json.loads(choice) if isinstance(choice, str) else None
        except (json.JSONDecodeError, RecursionError):
            data = None
        if not isinstance(data, dict):
            raise FieldErrors({"": f"The answer to “{self.prompt}” is a JSON object of its "
                                  "fields."})
        known = {f.name: f for f in self.fields}
        errors = {name: f"{name!r} is not a field of this step." for name in data
                  if name not in known}
        cleaned = {}
        for name, field_ in known.items():
            try:
                cleaned[name] = field_.clean(data.get(name))
            except ValueError as exc:
                errors[name] = str(exc)
        if errors:
            raise FieldErrors(errors)
        return cleaned

    def option(self, key: str) -> Option:
        """The option with ``key``; raises :class:`IllegalAction` if there is none."""
        for opt in self.options:
            if opt.key == key:
                return opt
        raise IllegalAction(f"'{key}' is not one of the choices for: {self.prompt}")

    def check(self, choice: str) -> None:
        """Refuse a ``choice`` this decision cannot take: not one of its options
        (:meth:`option`), or for a typed decision input that :meth:`parse` refuses
        (:class:`FieldErrors`); with both, a JSON object is the fields' answer and
        anything else must be an option's key. What only the rules know is the engine's to check."""
        if self.fields and (not self.options or (
                isinstance(choice, str) and choice.lstrip().startswith("{"))):
            self.parse(choice)
        else:
            self.option(choice)

    def as_dict(self) -> dict:
        """JSON; ``"fields"`` only for a typed decision, so other decisions read as before."""
        data = {
            "actor": self.actor,
            "kind": self.kind,
            "prompt": self.prompt,
            "options": [o.as_dict() for o in self.options],
            "default": self.default,
        }
        if self.fields:
            data["fields"] = [f.as_dict() for f in self.fields]
        return data


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, for the event log.

    ``kind`` a stable machine name, ``text`` one line a person reads, ``data`` JSON details
    that every participant in ``visible_to`` may see (``None``: everyone), and ``gm_data``
    details only the referee sees (an NPC's skill values, say).
    """

    kind: str
    text: str
    data: dict = field(default_factory=dict)
    gm_data: dict = field(default_factory=dict)
    visible_to: frozenset[str] | None = None

    def visible(self, participant: str) -> bool:
        return participant == GM or self.visible_to is None or participant in self.visible_to

    def as_dict(self) -> dict:
        return {
            "kind": self.kind,
            "text": self.text,
            "data": self.data,
            "gm_data": self.gm_data,
            "visible_to": None if self.visible_to is None else sorted(self.visible_to),
        }


class EventLog:
    """Collects the events of a step as an engine writes them: ``log(kind, text, data,
    visible, gm)`` appends an :class:`Event` (``visible``: the participants who may see it,
    ``None`` for everyone; ``gm``: its referee-only details). Made with ``None`` instead of a
    list (a Monte Carlo's auto-play, which reads no events), it builds nothing."""

    def __init__(self, events: list[Event] | None):
        self.events = events

    def __call__(self, kind: str, text: str, data: dict | None = None,
                 visible: set[str] | frozenset[str] | None = None,
                 gm: dict | None = None) -> None:
        if self.events is not None:
            self.events.append(Event(kind, text, data or {}, gm or {},
                                     None if visible is None else frozenset(visible)))


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended: ``winner`` is a side name or ``None`` (a draw, or both
    broke off), ``result`` a stable machine name (``"struck"``, ``"escaped"``), ``summary`` a
    sentence, ``data`` JSON details (final damage, say)."""

    winner: str | None
    result: str
    summary: str
    data: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {"winner": self.winner, "result": self.result, "summary": self.summary,
                "data": self.data}


@dataclass(frozen=True, slots=True)
class Scenario:
    """A named setup from a rule book: a worked example to replay, demo or check against.

    ``name`` the registry key (``"hermes_vs_corsair"``), ``title`` what a person reads,
    ``setup`` a setup the engine's :meth:`Engine.validate_setup` accepts, ``cards`` the book's
    cards in the order the engine draws them, for a :class:`rules.random.ScriptedSource`
    (``""`` if the book gives none), ``choices`` the book's decisions in the order the engine
    asks for them, each ``{"actor", "kind", "choice"}`` (``()`` if none; see
    :func:`play_scenario`), ``source`` the book and lines it comes from (for docs and tests,
    never shown on a player's page).
    """

    name: str
    title: str
    setup: dict
    cards: str = ""
    choices: tuple[dict, ...] = ()
    source: str = ""


@runtime_checkable
class Engine(Protocol):
    """What an encounter engine provides. ``state`` is JSON-serialisable and never mutated
    in place by the caller; every function is deterministic given its arguments."""

    name: str
    """Registry key, e.g. ``"btq_naval"``."""

    title: str
    """Human name, e.g. ``"Beat to Quarters: ship to ship"``."""

    def validate_setup(self, setup: dict) -> dict:
        """Check a setup and return it normalised; raises ``ValueError`` with a reason."""

    def start(self, setup: dict, source: RandomSource) -> tuple[State, list[Event]]:
        """Begin a game from a validated setup."""

    def participants(self, state: State) -> dict[str, str]:
        """Participant id -> display name, ``"gm"`` excluded."""

    def pending(self, state: State) -> list[Decision]:
        """The decisions the game waits for now; empty once it is over."""

    def apply(
        self, state: State, actor: str, choice: str, source: RandomSource
    ) -> tuple[State, list[Event]]:
        """Take ``actor``'s ``choice`` for one pending decision and play on until the next
        decision is needed. Raises :class:`IllegalAction` (state unchanged) if not allowed."""

    def default_choice(self, state: State, decision: Decision) -> str:
        """The option key the default policy takes for ``decision`` (no human needed)."""

    def outcome(self, state: State) -> Outcome | None:
        """The result once the game is over, else ``None``."""

    def view(self, state: State, participant: str) -> dict:
        """What ``participant`` may see of the state, as JSON (the referee sees it all)."""

    def scenarios(self) -> dict[str, Scenario]:
        """The book's worked examples for this engine, name -> :class:`Scenario` (a fresh
        copy on every call: changing one changes nothing for the next caller)."""


_SCENARIO_KEYS = {"name", "title", "setup", "cards", "choices", "source"}
_CHOICE_KEYS = {"actor", "kind", "choice"}


def _scenario(data: object, where: str) -> Scenario:
    """One scenario file's JSON as a :class:`Scenario`; ``ValueError`` naming ``where`` and
    what is wrong. ``cards`` may be one string or a list of strings (one line per test, say),
    each with an optional ``# comment``; a choice may carry a ``note`` for the reader."""
    if not isinstance(data, dict):
        raise ValueError(f"{where}: a scenario is a JSON object, not {type(data).__name__}")
    missing = sorted(_SCENARIO_KEYS - {"cards", "choices"} - set(data))
    if missing:
        raise ValueError(f"{where}: missing key {missing[0]!r}")
    unknown = sorted(set(data) - _SCENARIO_KEYS)
    if unknown:
        raise ValueError(f"{where}: unknown key {unknown[0]!r}")
    for key in ("name", "title", "source"):
        if not isinstance(data[key], str) or not data[key].strip():
            raise ValueError(f"{where}: {key} must be a non-empty string")
    if not isinstance(data["setup"], dict):
        raise ValueError(f"{where}: setup must be a JSON object")
    cards = data.get("cards", "")
    lines = [cards] if isinstance(cards, str) else cards
    if not isinstance(lines, list) or not all(isinstance(line, str) for line in lines):
        raise ValueError(f"{where}: cards must be a string or a list of strings")
    choices = data.get("choices", [])
    if not isinstance(choices, list):
        raise ValueError(f"{where}: choices must be a list")
    kept = []
    for i, choice in enumerate(choices, 1):
        if not isinstance(choice, dict) or not _CHOICE_KEYS <= set(choice) <= _CHOICE_KEYS | {
                "note"} or not all(isinstance(choice[k], str) and choice[k] for k in _CHOICE_KEYS):
            raise ValueError(f"{where}: choice {i} must be an object of non-empty strings "
                             f"actor, kind and choice (and an optional note)")
        kept.append({k: choice[k] for k in ("actor", "kind", "choice")})
    return Scenario(data["name"], data["title"], data["setup"],
                    " ".join(w for line in lines for w in line.split("#", 1)[0].split()),
                    tuple(kept), data["source"])


def load_scenarios(package: str, folder: str = "scenarios") -> dict[str, Scenario]:
    """The scenarios shipped as ``<folder>/*.json`` in the Python package ``package``
    (``load_scenarios("rules.btq", "scenarios/naval")``), name -> :class:`Scenario`, in
    file-name order: the package's own static data, the only reading the kernel does.

    Each file holds one JSON object ``{"name", "title", "setup", "cards", "choices",
    "source"}`` whose ``name`` is the file's name without ``.json``. Raises ``ValueError``
    naming the file for bad JSON or a bad shape. The setup itself is the engine's to check
    (the tests run every scenario through ``validate_setup`` and ``start``).
    """
    found: dict[str, Scenario] = {}
    root = resources.files(package).joinpath(*folder.split("/"))
    for entry in sorted(root.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".json"):
            continue
        where = f"{package}:{folder}/{entry.name}"
        try:
            data = json.loads(entry.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise ValueError(f"{where}: not JSON ({exc})") from None
        scenario = _scenario(data, where)
        if scenario.name != entry.name[:-5]:
            raise ValueError(f"{where}: its name is {scenario.name!r}, not the file's name")
        found[scenario.name] = scenario
    return found


def play_scenario(engine: Engine, scenario: Scenario, source: RandomSource
                  ) -> tuple[State, list[Event]]:
    """Start ``scenario`` and take its choices in order, drawing from ``source`` (a
    :class:`rules.random.ScriptedSource` of ``scenario.cards``, say). Each choice must be one
    the game waits for: same actor and kind as a pending decision, else ``ValueError`` naming
    the choice. Returns the state after the last choice and every event. What is left (a
    game the book does not finish) can go on with :func:`play_out`.
    """
    state, events = engine.start(engine.validate_setup(scenario.setup), source)
    for i, choice in enumerate(scenario.choices, 1):
        waiting = [(d.actor, d.kind) for d in engine.pending(state)]
        if (choice["actor"], choice["kind"]) not in waiting:
            raise ValueError(f"{scenario.name}: choice {i} ({choice['actor']} "
                             f"{choice['kind']}) is not awaited; the game waits for {waiting}")
        state, new = engine.apply(state, choice["actor"], choice["choice"], source)
        events.extend(new)
    return state, events


_REGISTRY: dict[str, Engine] = {}


def register(engine: Engine) -> Engine:
    """Add an engine to the registry under ``engine.name`` (used at import of its package)."""
    _REGISTRY[engine.name] = engine
    return engine


def get_engine(name: str) -> Engine:
    """The registered engine called ``name``; raises ``KeyError`` with the known names."""
    from rules import engines  # noqa: F401  (imports every engine package, which registers)

    try:
        return _REGISTRY[name]
    except KeyError:
        raise KeyError(f"no encounter engine {name!r}; known: {sorted(_REGISTRY)}") from None


def stored(engine: Engine, state: State) -> State:
    """``state`` as ``engine`` kept it, perhaps under an earlier version of the app, brought up
    to this one by the engine's ``upgrade(state) -> state`` (an optional method: an engine
    whose stored states need nothing has none; the Beat to Quarters engines complete the
    settings a game began with, :func:`rules.btq.settings.upgraded`). The caller hands the
    result, not ``state``, to the engine's other methods."""
    upgrade = getattr(engine, "upgrade", None)
    return state if upgrade is None else upgrade(state)


def engines() -> dict[str, Engine]:
    """All registered engines by name."""
    from rules import engines as _all  # noqa: F401

    return dict(_REGISTRY)


def play_out(engine: Engine, state: State, source: RandomSource, *, max_steps: int = 100_000
             ) -> tuple[State, list[Event]]:
    """Play a game to its end with the default policy for every decision.

    Returns the final state and every event produced. Raises ``RuntimeError`` if the game
    has not ended after ``max_steps`` decisions (an engine bug, never a rule).
    """
    events: list[Event] = []
    for _ in range(max_steps):
        pending = engine.pending(state)
        if not pending:
            return state, events
        decision = pending[0]
        state, new = engine.apply(state, decision.actor, engine.default_choice(state, decision),
                                  source)
        events.extend(new)
    raise RuntimeError(f"{engine.name}: no end after {max_steps} decisions")
