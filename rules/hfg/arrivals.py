"""HFG delayed arrivals (digest 4 step 8 and 7.8; ``002_a94228d927715433.txt`` L210-216):
a command held back to arrive by a named road.

"The Army Commander's own command must always deploy at the start of the game. An Allied
General's command or (1795>) a Subordinate General's command can either be deployed at the
start of a game or be retained for later arrival along a road ... specified in writing
before initial deployment. Such a command arrives in their own side's next bound after that
in which the command's unadjusted PIP score was 6. All elements to arrive in that bound
must do so ... on road entering the battlefield on a side edge or on their own side's base
edge, measuring their move from where that road crosses the edge. Elements arriving in
subsequent bounds move on in any formation from anywhere on that edge within 800p of that
road. Any enemy element blocking arrival by a road is repulsed 400p." (L210-215)

Setup: a command (not the C-in-C's, the side's first) may carry ``"arrives": {"road":
<road id>, "edge": "n"|"e"|"s"|"w"}`` (``edge`` may be left out when the road reaches only
one table edge). Its elements start in the state ``waiting``: off the table, not lost
(:mod:`rules.hfg.losses`), their setup positions unused. The state's ``arrivals`` holds each
such command's ``{"road", "edge", "status"}``: ``waiting`` (diced for every bound, its PIPs
unused), ``due`` (it rolled an unadjusted 6), ``first`` (its bound of arrival: by the road
only), ``later`` (within 800p of the road), ``done`` (all on the table). Where and whether a
command will arrive is hidden from the other side until its first element is on the table.

Immobile elements (a Supply Base, a Strong Point's garrison) do not come on. Not built:
arrival by railway (1859>), the same side-edge road named by both sides
(L215-216), and the year limit on Subordinate Generals (1795>): any command but the
C-in-C's may be held back.
"""

from __future__ import annotations

from rules.engine import EventLog, IllegalAction, State
from rules.hfg.geometry import EPS, Rect
from rules.hfg.roads import runs_east_west

EDGES = ("s", "n", "w", "e")
HEADING_IN = {"s": 0, "n": 180, "w": 90, "e": 270}
"""The heading of an element entering from each table edge."""
LATER_OFFSETS = (-800, -400, 0, 400, 800)
"""Where along the edge an element may enter after the first bound: within 800p of the
road (L214), in steps of a half element."""


def edges_reached(road: dict, table: dict) -> list[str]:
    """The table edges the road strip ``road`` runs onto, in :data:`EDGES` order."""
    out = []
    if not runs_east_west(road):
        if road["y"] <= EPS:
            out.append("s")
        if road["y"] + road["h"] >= table["d"] - EPS:
            out.append("n")
    else:
        if road["x"] <= EPS:
            out.append("w")
        if road["x"] + road["w"] >= table["w"] - EPS:
            out.append("e")
    return out


def check_setup(setup: dict) -> None:
    """Refuse (IllegalAction, in plain words) a delayed command that is the C-in-C's, names
    no road of the table, or an edge its road does not reach; fill in the edge."""
    roads = {t["id"]: t for t in setup["terrain"] if t["kind"] == "road"} if isinstance(
        setup["terrain"], list) else {}
    for s in setup["sides"]:
        for i, c in enumerate(s["commands"]):
            arr = c.get("arrives")
            if arr is None:
                continue
            if i == 0:
                raise IllegalAction(f"command {c['id']}: the C-in-C's own command always "
                                    "deploys at the start")
            if not isinstance(arr, dict) or arr.get("road") not in roads:
                raise IllegalAction(f"command {c['id']}: a delayed command arrives by one "
                                    "of the table's roads")
            reach = edges_reached(roads[arr["road"]], setup["table"])
            edge = arr.get("edge") or (reach[0] if reach else None)
            if edge not in reach:
                raise IllegalAction(f"command {c['id']}: its road does not enter the table "
                                    "there" if reach else f"command {c['id']}: its road "
                                    "does not reach a table edge")
            c["arrives"] = {"road": arr["road"], "edge": edge}


def hold_back(st: State) -> None:
    """Put every delayed command's elements off the table (``waiting``) and start the
    state's ``arrivals`` (only when some command is delayed)."""
    held = {c["id"]: {**c["arrives"], "status": "waiting"}
            for s in st["sides"].values() for c in s["commands"] if c.get("arrives")}
    if not held:
        return
    st["arrivals"] = held
    for e in st["elements"].values():
        if e["command"] in held:
            e["state"] = "waiting"


def waiting(st: State, command: str) -> bool:
    """Whether ``command`` still has elements to bring on."""
    a = st.get("arrivals", {}).get(command)
    return a is not None and a["status"] != "done"


def called(st: State, command: str) -> str:
    """The name of ``command`` (its id in states from before commands had names)."""
    c = next(c for sd in st["sides"].values() for c in sd["commands"] if c["id"] == command)
    return str(c.get("name", f"command {command}"))


def side_of(st: State, command: str) -> str:
    return next(s for s, sd in st["sides"].items()
                if any(c["id"] == command for c in sd["commands"]))


def new_bound(st: State, side: str, log: EventLog) -> None:
    """At the start of ``side``'s bound: a command due arrives this bound by its road; one
    that arrived last bound may now come on anywhere within 800p of it."""
    for cid, a in st.get("arrivals", {}).items():
        if side_of(st, cid) != side:
            continue
        if a["status"] == "first":
            a["status"] = "later"
        elif a["status"] == "due":
            a["status"] = "first"
            road = next(t for t in st["terrain"] if t["id"] == a["road"])
            log("arrival", f"{st['sides'][side]['name']}: {called(st, cid)} arrives along "
                f"{road['name']}.", {"command": cid, "road": a["road"]})


def pip_roll(st: State, command: str, raw: int, log: EventLog) -> None:
    """A waiting command's unadjusted PIP roll: a 6 brings it on in its side's next bound
    (L212-213; :func:`rules.hfg.command.arrives_next_bound`); only its own side is told."""
    from rules.hfg.command import arrives_next_bound

    a = st.get("arrivals", {}).get(command)
    if a is None or a["status"] != "waiting" or not arrives_next_bound(raw):
        return
    a["status"] = "due"
    side = side_of(st, command)
    name = called(st, command)
    log("arrival.due", f"{name[:1].upper()}{name[1:]} will arrive next bound.",
        {"command": command},
        visible={st["sides"][side]["commander"]})


def entry(st: State, command: str, offset: float, paces: float, width: float,
          depth: float) -> Rect:
    """The footprint of an element of ``command`` entering from its edge ``offset`` paces
    along the edge from the road (clockwise looking in: to the entering element's right),
    its front edge ``paces`` in from the edge, facing straight in."""
    a = st["arrivals"][command]
    road = next(t for t in st["terrain"] if t["id"] == a["road"])
    w, d = st["table"]["w"], st["table"]["d"]
    cx, cy = road["x"] + road["w"] / 2, road["y"] + road["h"] / 2
    edge = a["edge"]
    x, y = {"s": (cx + offset, paces), "n": (cx - offset, d - paces),
            "w": (paces, cy - offset), "e": (w - paces, cy + offset)}[edge]
    return Rect(x, y, HEADING_IN[edge], width, depth)


def hide(view: dict, hidden_sides: list[str]) -> None:
    """Take out of ``view`` (a copy of the state) what the other side may not know: the
    waiting elements of ``hidden_sides`` (from the table and the setup) and where and
    whether their delayed commands will arrive, until they are on the table."""
    arrivals = view.get("arrivals", {})
    secret = {cid for cid, a in arrivals.items() if a["status"] in ("waiting", "due")
              and side_of(view, cid) in hidden_sides}
    gone = {eid for eid, e in view["elements"].items()
            if e["state"] == "waiting" and e["side"] in hidden_sides}
    for eid in gone:
        del view["elements"][eid]
    view["order"] = [i for i in view["order"] if i not in gone]
    view["setup"]["elements"] = [e for e in view["setup"]["elements"] if e["id"] not in gone]
    for cid in secret:
        del arrivals[cid]
    for sides in (view["sides"].values(), view["setup"]["sides"]):
        for s in sides:
            if s["id"] in hidden_sides:
                for c in s["commands"]:
                    c.pop("arrives", None)
