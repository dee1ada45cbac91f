"""The odds as charts: SVG drawn on the server with pygal, inline in the page (no script,
no file fetched from elsewhere), the numbers beside them in tables."""

from __future__ import annotations

import re

import pygal
from django.utils.safestring import SafeString, mark_safe
from pygal.style import Style

_STYLE = Style(background="transparent", plot_background="transparent",
               foreground="#444", foreground_strong="#222", foreground_subtle="#888",
               colors=("#1f5f8b", "#b5472b", "#3b7d3b", "#8a6d1f"), font_family="inherit",
               label_font_size=13, major_label_font_size=13, value_font_size=12,
               title_font_size=15)


_SCRIPT = re.compile(r"<script[^>]*>.*?</script>", re.DOTALL)


def _render(chart) -> SafeString:
    """The chart's SVG without the script pygal puts in for its tooltips (its settings as
    JSON; the tooltips' own script would come from elsewhere, which the pages never load).
    pygal's XML writer escapes every label, so the text is safe to put in the page."""
    return mark_safe(_SCRIPT.sub("", chart.render(is_unicode=True)))


_QUARTERS = [0, 0.25, 0.5, 0.75, 1]
"""The share axis's marks: every tenth crowded a phone's chart until "100%" was cut."""


def _chart(kind, title: str, height: int, **extra):
    return kind(title=title, style=_STYLE, js=(), disable_xml_declaration=True, height=height,
                width=640, show_legend=False, print_values=False, range=(0, 1),
                y_labels=_QUARTERS, value_formatter=lambda v: f"{v:.0%}", **extra)


def shares_chart(title: str, rows: list[dict]) -> SafeString:
    """A horizontal bar per row (``{"label", "share", "low", "high"}``, shares 0-1) with its
    95 % interval as an error bar, the first row at the top as in the table beside it."""
    chart = _chart(pygal.HorizontalBar, title, 90 + 46 * len(rows))
    rows = rows[::-1]  # pygal draws the first bar at the bottom
    chart.x_labels = [row["label"] for row in rows]
    chart.add("share", [{"value": row["share"], "ci": {"low": row["low"], "high": row["high"]}}
                        for row in rows])
    return _render(chart)


def rounds_chart(rows: list[dict]) -> SafeString:
    """A bar per number of rounds (``{"rounds", "share"}``), every bar's number under it
    while they fit, else every second, fifth... (pygal cut "10" and on to "…")."""
    every = next(n for n in (1, 2, 5, 10, 20, 50, 100, len(rows) or 1)
                 if len(rows) <= 12 * n)
    chart = pygal.Bar(title="How many rounds the battle lasts", style=_STYLE, js=(),
                      disable_xml_declaration=True, height=320, width=640, show_legend=False,
                      value_formatter=lambda v: f"{v:.0%}", x_title="rounds",
                      truncate_label=-1, x_labels_major_every=every,
                      show_minor_x_labels=False)
    chart.x_labels = [str(row["rounds"]) for row in rows]
    chart.add("games", [row["share"] for row in rows])
    return _render(chart)
