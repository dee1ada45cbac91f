"""Imports every encounter engine package so that each registers itself with
:mod:`rules.engine`. Add a new engine's module here."""

import rules.brethren.engine  # noqa: F401
import rules.btq.boarding  # noqa: F401
import rules.btq.creation  # noqa: F401
import rules.btq.naval  # noqa: F401
import rules.btq.personal_combat  # noqa: F401
import rules.btq.scar  # noqa: F401
import rules.btq.scene  # noqa: F401
import rules.btq.ship_creation  # noqa: F401
import rules.btq.skirmish  # noqa: F401
import rules.btq.table  # noqa: F401
import rules.bvp.engine  # noqa: F401
import rules.hfg.engine  # noqa: F401
import rules.viking.engine  # noqa: F401
