"""The job timings (config/settings.py, the jobs block) must fit together: a set that does
not is refused when the settings load, saying why, instead of a worker dying mid-task."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def load_settings(**env) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", "import config.settings"], cwd=ROOT, capture_output=True,
        text=True, env={**os.environ, **env},
    )


def test_the_default_timings_fit():
    assert load_settings().returncode == 0


@pytest.mark.parametrize("env", [
    {"QUARTERDECK_JOB_PACE_SECONDS": "30"},  # the lease would run out during a pause
    {"QUARTERDECK_JOB_SLICE_SECONDS": "25"},  # a slice would hit the soft time limit
    {"CELERY_TASK_TIME_LIMIT": "90"},  # Redis would hand a running task to another worker
])
def test_timings_that_do_not_fit_are_refused(env):
    loaded = load_settings(**env)
    assert loaded.returncode != 0
    assert "The job timings must keep" in loaded.stderr
