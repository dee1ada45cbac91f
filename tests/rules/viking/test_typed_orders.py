"""A vessel's move typed in (distance and facing as numbers, ``rules.viking.orders.fields``)
beside the list of orders: every distance the rules allow, judged by the engine like a key
from the list, a clear reason for one they do not, nothing changed; the list's keys stay
valid."""

import json

import pytest

from rules.engine import FieldErrors, IllegalAction
from rules.viking.engine import ENGINE

from .conftest import make_game, to_orders, vessel


def _game(**kw):
    # 30 in apart: the moves may be doubled
    state, source = make_game([vessel("a1", x=36, y=10), vessel("b1", side="b", x=36, y=40,
                                                               heading=180)], **kw)
    return to_orders(state, source), source


def _typed(**values):
    return json.dumps({k: str(v) for k, v in values.items()})


def test_the_orders_decision_has_the_list_and_the_typed_fields():
    state, _ = _game()
    decision = ENGINE.pending(state)[0]
    assert len(decision.options) > 60 and decision.default in {o.key for o in decision.options}
    fields = {f.name: f for f in decision.fields}
    assert list(fields) == ["level", "distance", "facing", "side"]
    full = next(o for o in fields["level"].options if o.key == "FULL")
    assert full.label == "Go full speed: 6 to 8 in, or doubled, 12 to 16 in; facing up to 8 in"
    assert fields["distance"].kind == "decimal" and fields["distance"].maximum == 16
    decision.check(decision.default)  # a key of the list
    decision.check(_typed(level="FULL", distance="6.5"))  # the fields' answer


def test_a_typed_distance_in_the_range_is_the_order_a_key_would_give():
    state, source = _game(turn_limit=3)
    state, events = ENGINE.apply(state, "side:a", _typed(level="PACED", distance="4.5",
                                                         facing="2", side="L"), source)
    assert state["orders"]["a1"] == "PACED@4.5/L2"
    assert any("go paced, 4.5 in, facing 2 in to the left" in e.text for e in events)


@pytest.mark.parametrize("values,field,reason", [
    ({"level": "FULL", "distance": "10"}, "distance",
     "At full speed A1 moves 6 to 8 in, or doubled, 12 to 16 in."),
    ({"level": "PACED", "distance": "17"}, "distance", "at most 16"),
    ({"level": "PACED", "distance": "lots"}, "distance", "a number"),
    ({"level": "FULL", "distance": "6", "facing": "3.5", "side": "R"}, "facing",
     "may face at most 3"),
    ({"level": "FULL", "distance": "8", "facing": "1"}, "side", "the left or the right"),
    ({"level": "WARP", "distance": "8"}, "level", "not one of the choices"),
    ({"distance": "8"}, "level", "required"),
])
def test_a_typed_move_the_rules_refuse_names_its_field_and_changes_nothing(values, field,
                                                                           reason):
    state, source = _game()
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(FieldErrors) as caught:
        ENGINE.apply(state, "side:a", _typed(**values), source)
    assert reason in caught.value.errors[field]
    assert json.dumps(state, sort_keys=True) == before


def test_a_doubled_move_is_the_stated_distance_or_twice_it_never_between():
    # V-L38 with V-L63, L79: a doubled karfi at full moves 4 or 8 inches
    state, source = make_game([vessel("a1", cls="KARFI", x=36, y=10),
                               vessel("b1", side="b", x=36, y=40, heading=180)])
    state = to_orders(state, source)
    keys = {o.key for o in ENGINE.pending(state)[0].options}
    assert {"FULL@4", "FULL@8"} <= keys and not {"FULL@5", "FULL@6", "FULL@7"} & keys
    with pytest.raises(IllegalAction, match="moves 4 in, or doubled, 8 in"):
        ENGINE.apply(state, "side:a", "FULL@6", source)
