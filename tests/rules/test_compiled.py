"""The kernel compiled with mypyc (``make fast``) plays exactly as the interpreted one
(issue 11, "one source"): the same seeds played through both, each in a process of its own,
give the same draws, one by one, the same events, final states and outcomes, and the same
Monte Carlo summary. Played against the tree's own build: ``make test-compiled`` (which CI
runs) makes it with ``make fast`` first; without one (``make test``) the comparison is
skipped, saying why. ``make typecheck``'s mypy is checked here too."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PLAY = r"""
import json, sys
from benchmarks.hfg import setup as twelve_a_side
from rules.engine import get_engine, play_out
from rules.montecarlo import job_seeds, run
from rules.random import SeededSource

out = {"modules": {}, "games": []}
for name in sys.argv[2:]:
    __import__(name)
    out["modules"][name] = sys.modules[name].__file__
for engine_name, scenario, games, summed in json.loads(sys.argv[1]):
    engine = get_engine(engine_name)
    setup = engine.scenarios()[scenario].setup if scenario else twelve_a_side()
    for seed in range(games):
        source = SeededSource(seed)
        state, events = engine.start(setup, source)
        state, more = play_out(engine, state, source)
        out["games"].append({"draws": [str(d) for d in source.log], "state": state,
                             "events": [e.as_dict() for e in events + more],
                             "outcome": engine.outcome(state).as_dict()})
    out[f"{engine_name}/{scenario}"] = run(engine, setup, seeds=job_seeds(11, 0, summed)).as_dict()
print(json.dumps(out, sort_keys=True))
"""
PLAYED = [("btq_naval", "hermes_vs_corsair", 40, 200), ("btq_test", "otoole_vs_jones", 40, 200),
          ("hfg", "landing_party", 4, 6), ("hfg", "first_manassas", 2, 4), ("hfg", "", 4, 12)]
"""``(engine, scenario, games, summed)``: ``games`` seeds played decision by decision with their
events, and ``summed`` seeds by the Monte Carlo; of HFG (its scenarios and the benchmark
battle of :mod:`benchmarks.hfg`, scenario ``""``) fewer, its battles being far longer."""


def fast_modules() -> list[str]:
    """The files ``make fast`` compiles (the Makefile's ``FAST_MODULES``)."""
    text = (ROOT / "Makefile").read_text().replace("\\\n", " ")
    return re.search(r"^FAST_MODULES := (.+)$", text, re.M).group(1).split()


def module_name(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".")


def built(root: Path, files: list[str]) -> bool:
    return all(list((root / f).parent.glob(Path(f).stem + ".*.so")) for f in files)


@pytest.fixture(scope="module")
def compiled_root() -> Path:
    """The tree, with its compiled build (``make fast``, which ``make test-compiled`` runs
    before the kernel's tests, as CI does); without one the comparison is skipped, saying
    so: building the kernel takes minutes, too long inside ``make test``."""
    if not built(ROOT, fast_modules()):
        pytest.skip("no compiled build in this tree: make test-compiled builds one (make fast) "
                    "and runs this comparison against it")
    return ROOT


def play(root: Path, *, pure: bool) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "QUARTERDECK_PURE_PYTHON"}
    env["PYTHONPATH"] = str(root)
    if pure:
        env["QUARTERDECK_PURE_PYTHON"] = "1"
    names = [module_name(f) for f in fast_modules()]
    done = subprocess.run([sys.executable, "-c", PLAY, json.dumps(PLAYED), *names], cwd=root,
                          env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def test_the_compiled_kernel_plays_every_seed_as_the_interpreted_one(compiled_root):
    compiled = play(compiled_root, pure=False)
    interpreted = play(compiled_root, pure=True)
    assert all(path.endswith(".so") for path in compiled["modules"].values()), compiled["modules"]
    assert all(path.endswith(".py") for path in interpreted["modules"].values())
    assert len(compiled["games"]) == sum(games for _, _, games, _ in PLAYED)
    for i, (fast, slow) in enumerate(zip(compiled["games"], interpreted["games"])):
        assert fast["draws"] == slow["draws"], i
        assert fast["events"] == slow["events"], i
        assert fast["state"] == slow["state"], i
        assert fast["outcome"] == slow["outcome"], i
    for engine_name, scenario, _, _ in PLAYED:
        key = f"{engine_name}/{scenario}"
        assert compiled[key] == interpreted[key], key


def test_mypy_is_clean_on_the_kernel():
    from mypy import api

    stdout, stderr, status = api.run(["--config-file", str(ROOT / "pyproject.toml"),
                                      str(ROOT / "rules")])
    assert status == 0, stdout + stderr
