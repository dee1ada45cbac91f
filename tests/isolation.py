"""A pytest plugin (``-p tests.isolation`` in ``pyproject.toml``) that keeps the parallel test
processes of pytest-xdist apart where the database name does not: pytest-django gives each
process its own test database (``test_<name>_gw0``...), and this gives each its own Redis
database (the Celery queue a test's worker process reads, which must hold only that process's
jobs) and its own folder for the embedded broker and SQLite files.

It runs when pytest loads its plugins, before Django reads its settings, so the settings see
the changed environment. Without xdist (one process) nothing changes.
"""

import os
import re
import tempfile

_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
if _worker.startswith("gw"):
    _n = int(_worker[2:])
    _url = os.environ.get("REDIS_URL")
    if _url:
        _match = re.fullmatch(r"(redis://[^/]+)(?:/(\d+))?/?", _url)
        if _match is None:
            raise RuntimeError(f"tests.isolation cannot give {_worker} its own database of "
                               f"REDIS_URL={_url!r}: expected redis://host:port/N")
        os.environ["REDIS_URL"] = f"{_match.group(1)}/{int(_match.group(2) or 0) + 1 + _n}"
    os.environ["QUARTERDECK_VAR_DIR"] = os.path.join(tempfile.gettempdir(),
                                                     f"quarterdeck-test-{_worker}")
