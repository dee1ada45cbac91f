"""Imports every encounter engine package so that each registers itself with
:mod:`rules.engine`. Add a new engine's module here."""

import rules.brethren.engine  # noqa: F401
import rules.btq.naval  # noqa: F401
import rules.btq.table  # noqa: F401
