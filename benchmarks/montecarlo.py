"""Speed of the odds (issue 11), side by side in one run:

* battles/s of the default Hermes-vs-Corsair setup (BtQ L2533-2603) played as the Monte
  Carlo plays them, on one core (CPU time, best of a few runs): the kernel before issue 11
  (:data:`BASELINE`, from git), ``main`` before the hot path's second pass
  (:data:`PREVIOUS`), this tree interpreted (``QUARTERDECK_PURE_PYTHON=1``) and
  compiled (``make fast``; "not built" otherwise), each in a process of its own;
* the simulations through the workers are :mod:`benchmarks.simulations`.

``python -m benchmarks montecarlo``. Other work on the machine skews the figures: the
report prints the load average beside them.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASELINE = "25080cd"
"""The commit before issue 11's work on the kernel."""
PREVIOUS = "2d708fb"
"""``main`` before the second pass on the hot path (issue 11's speed goals: 2,500 battles/s
interpreted, 5,000 compiled)."""
BATTLES = 2_000
RATE = r"""
import sys, time
from rules.engine import get_engine
from rules.montecarlo import run
engine = get_engine("btq_naval")
setup = engine.scenarios()["hermes_vs_corsair"].setup
run(engine, setup, seeds=range(200))
best = 0.0
for _ in range(3):
    cpu = time.process_time()
    run(engine, setup, seeds=range(int(sys.argv[1])))
    best = max(best, int(sys.argv[1]) / (time.process_time() - cpu))
import rules.random
print(best, rules.random.__file__)
"""


def _rate(path: Path, *, pure: bool) -> tuple[float, str]:
    env = {**os.environ, "PYTHONPATH": str(path)}
    env.pop("QUARTERDECK_PURE_PYTHON", None)
    if pure:
        env["QUARTERDECK_PURE_PYTHON"] = "1"
    out = subprocess.run([sys.executable, "-c", RATE, str(BATTLES)], cwd=path, env=env,
                         capture_output=True, text=True, check=True).stdout.split()
    return float(out[0]), out[1]


def _baseline(into: Path, commit: str = BASELINE) -> Path:
    """The kernel (``rules/``) at ``commit``, from git, extracted into ``into``."""
    archive = subprocess.run(["git", "archive", commit, "rules"], cwd=ROOT,
                             capture_output=True, check=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def kernel() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        before, _ = _rate(_baseline(Path(tmp)), pure=True)
    with tempfile.TemporaryDirectory() as tmp:
        previous, _ = _rate(_baseline(Path(tmp), PREVIOUS), pure=True)
    pure, _ = _rate(ROOT, pure=True)
    compiled, where = _rate(ROOT, pure=False)
    built = where.endswith(".so")
    print(f"Hermes v Corsair, battles/s of CPU on one core (best of 3 x {BATTLES:,}):")
    print(f"  before issue 11 ({BASELINE}) {before:8,.0f}")
    print(f"  main at {PREVIOUS}          {previous:8,.0f}  x{previous / before:.2f}")
    print(f"  interpreted              {pure:8,.0f}  x{pure / before:.2f} "
          f"(x{pure / previous:.2f} of {PREVIOUS}; goal 2,500)")
    if built:
        print(f"  compiled (make fast)     {compiled:8,.0f}  x{compiled / before:.2f} "
              f"(goal 5,000)")
    else:
        print("  compiled                 not built (make fast)")


def main() -> None:
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())} "
          f"on {os.cpu_count()} cores")
    kernel()
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
