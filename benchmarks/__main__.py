"""Run every benchmark module of this package: ``python -m benchmarks [name ...]``.

A benchmark is a module ``benchmarks/<name>.py`` with a ``main()`` that prints its report.
With names, only those run (``python -m benchmarks naval``). Benchmarks are run by hand and
measure speed; they are never part of the test run.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path


def modules() -> list[str]:
    """The names of the benchmark modules, sorted."""
    here = Path(__file__).parent
    return sorted(m.name for m in pkgutil.iter_modules([str(here)]) if not m.name.startswith("_"))


def main(argv: list[str]) -> int:
    names = argv or modules()
    unknown = sorted(set(names) - set(modules()))
    if unknown:
        print(f"no benchmark {unknown[0]!r}; known: {', '.join(modules())}", file=sys.stderr)
        return 2
    for name in names:
        print(f"== {name}")
        importlib.import_module(f"benchmarks.{name}").main()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
