"""The odds' charts (``combat.odds.charts``): read at a glance beside their tables."""

import re

from combat.odds.charts import shares_chart

ROWS = [{"label": "Won by HMS Hermes: struck", "share": 0.5, "low": 0.45, "high": 0.55},
        {"label": "Nobody: escaped", "share": 0.3, "low": 0.25, "high": 0.35},
        {"label": "Won by Corsair: sunk", "share": 0.2, "low": 0.15, "high": 0.25}]


def _texts(svg: str) -> dict[str, float]:
    return {m.group(2): float(m.group(1))
            for m in re.finditer(r'<text[^>]*\by="([\d.]+)"[^>]*>([^<]+)</text>', svg)}


def test_the_bars_run_in_the_tables_order_top_down_on_an_axis_of_quarters():
    texts = _texts(shares_chart("How the battle ends", ROWS))
    heights = [texts[row["label"]] for row in ROWS]
    assert heights == sorted(heights)  # the table's first row is the chart's top bar
    marks = [t for t in texts if t.endswith("%")]
    assert marks == ["0%", "25%", "50%", "75%", "100%"]  # "100%" whole, not "10…"


def test_a_share_that_is_not_nothing_never_reads_as_nothing():
    from combat.templatetags.odds import points, share_points

    assert [share_points(v) for v in (0, 0.0004, 0.0005, 0.5, 0.9995, 0.99951, 1)] == [
        "0.0", "<0.1", "0.1", "50.0", ">99.9", ">99.9", "100.0"]
    assert points(0.0004) == "0.0"  # an interval's bound is a bound, as it is


def test_the_rounds_are_numbered_whole_however_many_there_are():
    from combat.odds.charts import rounds_chart

    few = [t for t in _texts(rounds_chart([{"rounds": r, "share": 0.1}
                                           for r in range(1, 9)]))]
    assert [t for t in few if t.isdigit()] == [str(r) for r in range(1, 9)]
    many = rounds_chart([{"rounds": r, "share": 0.025} for r in range(1, 41)])
    numbers = [t for t in re.findall(r"<text[^>]*>([^<]*)</text>", many) if t.isdigit()]
    assert numbers == [str(r) for r in range(1, 41, 5)] and "…" not in many
