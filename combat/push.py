"""Wake-ups for the open event streams (``combat.streams``) when an encounter changes.

The truth is the database: an encounter's numbered event log and its row (status, version)
and its jobs' rows. A stream reads them; this module only tells it to look now rather than
at its next poll. With ``REDIS_URL`` set, every committed save of an :class:`Encounter` or a
:class:`Job`, from any process (web server or Celery worker), publishes the encounter's and
its campaign's channel names on Redis (pub/sub); without Redis (the embedded default) the
streams poll the database every :data:`POLL_SECONDS`. A lost wake-up loses nothing: the
stream polls anyway, only less often.
"""

from __future__ import annotations

import asyncio
import logging
from contextlib import asynccontextmanager

from django.conf import settings
from django.db import transaction

log = logging.getLogger(__name__)

POLL_SECONDS = 0.2
"""How often a stream looks at the database without Redis (seconds)."""
POLL_SECONDS_WITH_REDIS = 1.0
"""How often it looks with Redis, in case a wake-up was lost (seconds)."""
PREFIX = "quarterdeck:push:"

_client = None


def encounter_channel(encounter_id: int) -> str:
    return f"{PREFIX}encounter:{encounter_id}"


def campaign_channel(campaign_id: int) -> str:
    return f"{PREFIX}campaign:{campaign_id}"


def _publish(channels: list[str]) -> None:
    global _client
    try:
        if _client is None:
            import redis

            _client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=1)
        for channel in channels:
            _client.publish(channel, "1")
    except Exception:  # a wake-up is an optimisation: the streams poll in any case
        log.warning("could not publish %s", channels, exc_info=True)


def announce(channels: list[str]) -> None:
    """Wake the streams watching ``channels`` once the current transaction commits (at
    once outside one); nothing without ``REDIS_URL``."""
    if settings.REDIS_URL:
        transaction.on_commit(lambda: _publish(channels))


def on_encounter_saved(sender, instance, **kwargs) -> None:
    """``post_save`` receiver of ``Encounter``: wake its page and its campaign's page."""
    announce([encounter_channel(instance.pk), campaign_channel(instance.campaign_id)])


def on_job_saved(sender, instance, **kwargs) -> None:
    """``post_save`` receiver of ``Job``: wake its encounter's page (the progress)."""
    announce([encounter_channel(instance.encounter_id)])


class _Poll:
    async def wait(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


class _Subscription:
    def __init__(self, pubsub):
        self.pubsub = pubsub

    async def wait(self, seconds: float) -> None:
        """Until a wake-up comes (all those queued are taken) or ``seconds`` pass."""
        message = await self.pubsub.get_message(ignore_subscribe_messages=True,
                                                timeout=seconds)
        while message is not None:
            message = await self.pubsub.get_message(ignore_subscribe_messages=True,
                                                    timeout=0)


@asynccontextmanager
async def waker(channels: list[str]):
    """``(wake, poll_seconds)``: ``await wake.wait(poll_seconds)`` returns when one of
    ``channels`` is announced, or after ``poll_seconds`` at most. A Redis subscription when
    ``REDIS_URL`` is set (falling back to polling if Redis cannot be reached), else a plain
    poll of :data:`POLL_SECONDS`."""
    if not settings.REDIS_URL:
        yield _Poll(), POLL_SECONDS
        return
    import redis.asyncio

    client = redis.asyncio.Redis.from_url(settings.REDIS_URL)
    pubsub = client.pubsub()
    try:
        await pubsub.subscribe(*channels)
    except Exception:
        log.warning("no Redis for the streams' wake-ups: polling", exc_info=True)
        await client.aclose()
        yield _Poll(), POLL_SECONDS
        return
    try:
        yield _Subscription(pubsub), POLL_SECONDS_WITH_REDIS
    finally:
        await pubsub.aclose()
        await client.aclose()
