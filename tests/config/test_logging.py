"""The console log of ``make run`` (``settings.LOGGING``): a refused request is one line, a
server error keeps its traceback."""

import io
import logging

import pytest
from django.test import Client, override_settings
from django.urls import include, path, reverse

from config.logs import RefusalWithoutTraceback


def _boom(request):
    raise RuntimeError("a real server error")


urlpatterns = [path("boom/", _boom), path("", include("config.urls"))]


@pytest.fixture
def console():
    """The configured console handler of the root logger, writing into a buffer."""
    handler = next(h for h in logging.getLogger().handlers
                   if any(isinstance(f, RefusalWithoutTraceback) for f in h.filters))
    buffer = io.StringIO()
    old = handler.setStream(buffer)
    yield buffer
    handler.setStream(old)


def test_a_player_refused_a_gm_page_logs_one_line(console, campaign, player_a_client):
    response = player_a_client.get(reverse("campaigns:settings", args=[campaign.pk]))
    assert response.status_code == 403
    lines = [line for line in console.getvalue().splitlines() if line]
    assert lines == [f"Forbidden (Permission denied): /campaigns/{campaign.pk}/settings/"]


@override_settings(ROOT_URLCONF=__name__)
def test_a_server_error_keeps_its_traceback(console, db):
    response = Client(raise_request_exception=False).get("/boom/")
    assert response.status_code == 500
    text = console.getvalue()
    assert "Internal Server Error: /boom/" in text
    assert "Traceback (most recent call last)" in text
    assert "RuntimeError: a real server error" in text
