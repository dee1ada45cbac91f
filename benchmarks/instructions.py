"""Instructions per Hermes-vs-Corsair battle (BtQ L2533-2603), counted by valgrind's
callgrind: a measure that other work on a shared machine does not skew, unlike battles per
second (issue 11).

``python -m benchmarks instructions`` counts, each in a process of its own, the battles of
the Monte Carlo (``rules.montecarlo.run``, the default policies, no events) played by the
kernel at :data:`BASELINE` (from git, interpreted), by this tree interpreted
(``QUARTERDECK_PURE_PYTHON=1``) and by this tree compiled (``make fast``, when built). Each
figure is the difference between a run of :data:`GAMES` + :data:`WARM` battles and one of
:data:`WARM`, over :data:`GAMES`, so the start of Python and the imports fall out. Needs
``valgrind``; slow (a minute or two a figure).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.montecarlo import ROOT, _baseline

BASELINE = "2d708fb"
"""``main`` before the hot path's second pass (the speed goals of issue 11)."""
GAMES = 300
WARM = 20
PLAY = r"""
import sys
from rules.engine import get_engine
from rules.montecarlo import run
engine = get_engine("btq_naval")
run(engine, engine.scenarios()["hermes_vs_corsair"].setup, seeds=range(int(sys.argv[1])))
"""


def _count(path: Path, games: int, *, pure: bool) -> int:
    env = {**os.environ, "PYTHONPATH": str(path)}
    env.pop("QUARTERDECK_PURE_PYTHON", None)
    if pure:
        env["QUARTERDECK_PURE_PYTHON"] = "1"
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                           sys.executable, "-c", PLAY, str(games)], cwd=path, env=env,
                          capture_output=True, text=True, check=True)
    return int(re.search(r"Collected : (\d+)", done.stderr).group(1))


def per_battle(path: Path, *, pure: bool) -> float:
    """Instructions per battle of the kernel under ``path``."""
    return (_count(path, GAMES + WARM, pure=pure) - _count(path, WARM, pure=pure)) / GAMES


def main() -> None:
    if shutil.which("valgrind") is None:
        print("instructions: needs valgrind (apt-get install valgrind)")
        return
    with tempfile.TemporaryDirectory() as tmp:
        before = per_battle(_baseline(Path(tmp), BASELINE), pure=True)
    pure = per_battle(ROOT, pure=True)
    print(f"Hermes v Corsair, instructions per battle (callgrind, {GAMES} battles):")
    print(f"  main at {BASELINE} (interpreted) {before:12,.0f}")
    print(f"  this tree, interpreted      {pure:12,.0f}  x{before / pure:.2f} as fast")
    if all(list((ROOT / f).parent.glob(Path(f).stem + ".*.so"))
           for f in ("rules/random.py", "rules/btq/naval.py")):
        compiled = per_battle(ROOT, pure=False)
        print(f"  this tree, compiled         {compiled:12,.0f}  x{before / compiled:.2f} as fast")
    else:
        print("  compiled                    not built (make fast)")


if __name__ == "__main__":
    main()
