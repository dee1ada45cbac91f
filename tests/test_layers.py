"""The apps import in one direction (DESIGN.md, "Layers"): rules <- campaigns <- characters
<- ships <- combat. The same check anyone can run by hand::

    grep -rnE '^\\s*(from|import) (characters|ships|combat)\\b' campaigns --include='*.py'
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ORDER = ["campaigns", "characters", "ships", "combat"]
IMPORT = re.compile(r"^\s*(?:from|import)\s+([a-z_]+)\b", re.MULTILINE)


def imported_apps(app: str) -> dict[str, set[str]]:
    """File (relative) -> the project apps it imports, migrations left out (they name other
    apps' models by string, which is Django's way of depending on them in the database)."""
    found = {}
    for path in (ROOT / app).rglob("*.py"):
        if "migrations" in path.parts:
            continue
        names = set(IMPORT.findall(path.read_text(encoding="utf-8"))) & set(ORDER)
        found[str(path.relative_to(ROOT))] = names
    return found


@pytest.mark.parametrize("app", ORDER[:-1])
def test_an_app_imports_no_app_above_it(app):
    above = set(ORDER[ORDER.index(app) + 1:])
    offending = {f: sorted(names & above) for f, names in imported_apps(app).items()
                 if names & above}
    assert offending == {}


def test_the_kernel_imports_neither_django_nor_an_app():
    pattern = re.compile(r"^\s*(?:from|import)\s+(django|config|" + "|".join(ORDER) + r")\b",
                         re.MULTILINE)
    offending = [str(p.relative_to(ROOT)) for p in (ROOT / "rules").rglob("*.py")
                 if pattern.search(p.read_text(encoding="utf-8"))]
    assert offending == []
