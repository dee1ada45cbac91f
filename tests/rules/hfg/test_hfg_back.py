"""Moving back after combat (``rules/hfg.md`` §11.6; HFG L316-321, L254-256): a recoil
pushes back the friends behind it that it cannot pass through, passes through those it can,
and is destroyed, not shortened, when enemy or ground it cannot cross is in the way; a
repulse passes through every friend. Close combats with scripted dice in a's bound: a's
Bayonets 2 + 2 against b's Muskets 3 + 3, foot beaten by Muskets recoil their depth."""

from rules.hfg.engine import ENGINE, validate_setup
from rules.random import ScriptedSource
from tests.rules.hfg.test_hfg_engine import duel

RECOIL = [3, 2, 3, 1]  # a's PIPs 3; the dice: Bayonets 2, Muskets 3; b's PIPs 1


def behind_bay(*others, terrain=None):
    """The duel with ``others`` of a behind the Bayonets (front edge at y 3000, rear at
    2800), played to the close combat with :data:`RECOIL`."""
    elements = [{"side": "a", "command": "a", "x": 6000, **o} for o in others]
    setup = duel(*elements)
    if terrain:
        setup["terrain"] = terrain
    source = ScriptedSource(rolls=list(RECOIL))
    state, _ = ENGINE.start(setup, source)
    state, events = ENGINE.apply(state, "side:a", "end", source)
    return state["elements"], [e.text for e in events]


def test_a_recoil_with_nothing_behind_moves_its_depth():
    els, texts = behind_bay()
    assert els["bay"]["y"] == 3000 - 200 and els["bay"]["state"] == "ok"
    # the combat's own line says what it did, the move follows
    assert "Bayonets (bay) and Muskets (mus) fight hand to hand: 4 to 6 (dice 2 and 3): " \
        "Bayonets (bay) must recoil and Muskets (mus) may press forward." in texts
    assert "Bayonets (bay) recoils 200 paces." in texts


def test_a_recoil_pushes_back_foot_it_cannot_pass_through():
    """L316: "pushing back friends whom it cannot interpenetrate": foot pass through no
    foot (L254-255), so the Muskets touching the Bayonets' rear go back 200p with them,
    and so do the Muskets behind those (each pushes what it cannot pass)."""
    els, texts = behind_bay({"id": "m1", "type": "MUS", "y": 2800},
                            {"id": "m2", "type": "MUS", "y": 2550})
    assert els["bay"]["y"] == 2800
    assert (els["m1"]["y"], els["m1"]["heading"]) == (2600, 0)
    assert els["m2"]["y"] == 2400  # 50p clear before: pushed the 150p it had to go
    assert "Bayonets (bay) pushes Muskets (m1) back 200 paces." in texts
    assert "Bayonets (bay) pushes Muskets (m2) back 150 paces." in texts
    assert "Bayonets (bay) recoils 200 paces." in texts


def test_a_recoil_passes_through_artillery_and_ends_beyond_it():
    """L255: any troops move through friendly artillery facing the same way; L256: an
    interpenetrating element that cannot get clear ends immediately beyond the first
    element met. The guns (400p deep) stay where they are."""
    els, texts = behind_bay({"id": "guns", "type": "SBA", "y": 2800})
    assert els["guns"]["y"] == 2800
    assert els["bay"]["y"] == 2400  # its front clear of the guns' rear edge
    assert "Bayonets (bay) recoils 600 paces." in texts


def test_artillery_facing_across_is_pushed():
    """L255: through artillery facing the same or the opposite way only: guns facing
    across the recoil, their flank 100p into its way, are pushed 100p."""
    els, _ = behind_bay({"id": "guns", "type": "SBA", "y": 2500, "heading": 90,
                         "x": 6200})
    assert els["bay"]["y"] == 2800 and els["guns"]["state"] == "ok"
    assert (els["guns"]["x"], els["guns"]["y"], els["guns"]["heading"]) == (6200, 2400, 90)


def test_a_recoil_into_the_enemy_destroys_the_recoiler_and_moves_nobody():
    """L320-321: a recoiling element that reaches enemy other than Skirmishers is
    destroyed; the friend it would have pushed into them stays put."""
    els, texts = behind_bay({"id": "m1", "type": "MUS", "y": 2800},
                            {"id": "hus", "side": "b", "command": "b", "type": "HC",
                             "y": 2550})
    assert els["bay"]["state"] == "destroyed" and els["bay"]["y"] == 3000
    assert els["m1"]["y"] == 2800 and els["m1"]["state"] == "ok"
    assert "Bayonets (bay) runs into the enemy and is destroyed." in texts


def test_enemy_skirmishers_are_burst_through():
    """L321: enemy Skirmishers in the way are burst through: the recoil goes on until
    clear of them (their 400p depth from 2350 to 2750)."""
    els, texts = behind_bay({"id": "sk", "side": "b", "command": "b", "type": "SK",
                             "y": 2750})
    assert els["bay"]["state"] == "ok" and els["sk"]["state"] == "ok"
    assert els["bay"]["y"] == 2350 + 200
    # and they turn to face the way the Bayonets went (about their centre: same ground)
    assert (els["sk"]["y"], els["sk"]["heading"]) == (2550, 180)
    assert "Bayonets (bay) bursts through Skirmishers (sk), which turns to face it." in texts


def test_a_recoil_that_cannot_cross_the_ground_behind_it_is_destroyed():
    """L321: "terrain it cannot cross or avoid": land troops cannot enter the waterway."""
    water = [{"id": "w", "kind": "waterway", "x": 5000, "y": 0, "w": 2000, "h": 2700}]
    els, texts = behind_bay(terrain=water)
    assert els["bay"]["state"] == "destroyed"
    assert "Bayonets (bay) cannot cross the ground behind it and is destroyed." in texts


def test_a_friend_pushed_into_impassable_ground_stops_the_recoil():
    water = [{"id": "w", "kind": "waterway", "x": 5000, "y": 0, "w": 2000, "h": 2500}]
    els, _ = behind_bay({"id": "m1", "type": "MUS", "y": 2800}, terrain=water)
    assert els["bay"]["state"] == "destroyed" and els["m1"]["y"] == 2800


def test_a_repulse_passes_through_any_friend():
    """L255: repulsed elements move through any friendly troops facing any way; a road
    blocker is repulsed 400p through the foot behind it and ends just beyond them."""
    from rules.hfg.engine import _back, _initial_state

    st = _initial_state(validate_setup(duel({"id": "m1", "side": "a", "command": "a", "type": "MUS",
                                    "x": 6000, "y": 2800})))
    texts = []
    _back(st, st["elements"]["bay"], 400, lambda kind, text, *a: texts.append(text),
          "is repulsed", repulse=True)
    assert st["elements"]["m1"]["y"] == 2800
    assert st["elements"]["bay"]["y"] == 2600 and texts == [
        "Bayonets (bay) is repulsed 400 paces."]


def test_a_shot_that_does_nothing_says_so():
    """Guns shooting at foot that cannot shoot back: losing, they ignore the outcome (they
    are not shot at, L299-300); the foot, winning in the enemy's bound, neither press
    forward nor anything else: the log's line for the shot says it had no effect."""
    setup = duel()
    setup["elements"][1].update(type="SBA", y=2000)
    source = ScriptedSource(rolls=[3, 1, 6, 1])
    state, _ = ENGINE.start(validate_setup(setup), source)
    _, events = ENGINE.apply(state, "side:a", "end", source)
    shots = [e.text for e in events if e.kind == "combat"]
    assert shots and shots[0].startswith("Smoothbore") and shots[0].endswith(
        ": no effect."), shots


def shot_at(guns_y, guns_heading):
    """b's Muskets (front edge at 3,000 facing south, rear edge at 3,200) shot at in a's bound
    by a's Smoothbore guns 600p away, out of the Muskets' range: the guns 4 + 3 against the
    Muskets 1 + 3, less but more than half: foot recoil (L302-303)."""
    setup = duel()
    setup["elements"] = [e for e in setup["elements"] if e["id"] != "bay"] + [
        {"id": "guns", "side": "a", "command": "a", "type": "SBA", "x": 6000, "y": guns_y,
         "heading": guns_heading}]
    source = ScriptedSource(rolls=[3, 4, 1, 1])
    state, _ = ENGINE.start(validate_setup(setup), source)
    state, events = ENGINE.apply(state, "side:a", "end", source)
    return state["elements"]["mus"], [e.text for e in events]


def test_recoiled_by_shooting_directly_to_its_rear_it_first_turns_to_face():
    """L315-316: "If recoiled by the shooting of enemy directly to its rear, it first turns
    to face": the guns stand behind the Muskets; the Muskets turn about (front at 3,200,
    facing north) and recoil their depth away from the guns."""
    mus, texts = shot_at(3800, 180)
    assert texts[texts.index("Muskets (mus) turns to face Smoothbore Artillery (guns).")
                 + 1] == "Muskets (mus) recoils 200 paces."
    assert (mus["y"], mus["heading"], mus["state"]) == (3000, 0, "ok")


def test_recoiled_by_shooting_from_the_front_it_keeps_its_facing():
    mus, texts = shot_at(2400, 0)
    assert not [t for t in texts if "turns to face" in t]
    assert (mus["y"], mus["heading"]) == (3200, 180)
