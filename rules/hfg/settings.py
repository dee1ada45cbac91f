"""The places where HFG allows two readings (digest 16 and errata F5, F6, F4; A1, A3): each
a :class:`rules.btq.settings.Setting` whose default is the recommended reading, read by the
kernel from a battle's ``setup["settings"]`` through :func:`setting`."""

from __future__ import annotations

from collections.abc import Mapping

from rules.btq.settings import Setting, SettingError

SETTINGS: dict[str, Setting] = {
    s.name: s
    for s in (
        Setting("hfg_spent_vs_dismounted",
                "Mounted losing a close combat against dismounted troops are",
                {True: "spent, as against foot", False: "repulsed 600-1,200 paces"},
                True, "HFG errata F5; L304"),
        Setting("hfg_bua_half_loss_by_artillery",
                "A town's garrison beaten by half or more by artillery or ships",
                {"afire_and_destroyed": "sets the town afire and is destroyed",
                 "afire_only": "sets the town afire and is unharmed"},
                "afire_and_destroyed", "HFG errata F6; L311"),
        Setting("hfg_submarine_can_shoot", "Submarines shoot at ships, guns and supplies",
                {False: "no, they fight only at close quarters", True: "yes, at naval range"},
                False, "HFG errata F4; L273"),
        Setting("hfg_army_break_fraction", "An army breaks when its losses exceed",
                {0.5: "half of its element equivalents", 0.25: "a quarter",
                 0.75: "three quarters"},
                0.5, "HFG digest A1; L332-333"),
    )
}


def setting(settings: Mapping[str, object] | None, name: str) -> object:
    """The value of the HFG setting ``name`` in ``settings`` (a battle's chosen settings),
    its default where not chosen; :class:`SettingError` for an unknown name or a value the
    setting does not offer."""
    if name not in SETTINGS:
        raise SettingError(f"unknown HFG setting {name!r}")
    s = SETTINGS[name]
    value = (settings or {}).get(name, s.default)
    if value not in s.choices:
        raise SettingError(f"{name}: {value!r} is not one of "
                           f"{', '.join(repr(c) for c in s.choices)}")
    return value
