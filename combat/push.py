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


def on_campaign_record_saved(sender, instance, **kwargs) -> None:
    """``post_save`` receiver of a campaign's record shown on its live pages (a mission and
    its counters): wake the campaign's page."""
    announce([campaign_channel(instance.campaign_id)])


def on_challenge_result_saved(sender, instance, **kwargs) -> None:
    """``post_save`` receiver of a ``ChallengeResult``: wake its challenge's campaign's page
    (the challenge shows as met or failed)."""
    announce([campaign_channel(instance.challenge.campaign_id)])


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


class waker:
    """``async with waker(channels) as (wake, poll_seconds)``: ``await wake.wait(poll_seconds)``
    returns when one of ``channels`` is announced, or after ``poll_seconds`` at most. A Redis
    subscription when ``REDIS_URL`` is set (falling back to polling if Redis cannot be
    reached), else a plain poll of :data:`POLL_SECONDS`. (A class, not a generator: a stream
    cancelled when its browser goes away closes it at once.)"""

    def __init__(self, channels: list[str]):
        self.channels = channels
        self.client = self.pubsub = None

    async def __aenter__(self):
        if not settings.REDIS_URL:
            return _Poll(), POLL_SECONDS
        import redis.asyncio

        self.client = redis.asyncio.Redis.from_url(settings.REDIS_URL)
        self.pubsub = self.client.pubsub()
        try:
            await self.pubsub.subscribe(*self.channels)
        except Exception:
            log.warning("no Redis for the streams' wake-ups: polling", exc_info=True)
            await self._close()
            return _Poll(), POLL_SECONDS
        return _Subscription(self.pubsub), POLL_SECONDS_WITH_REDIS

    async def _close(self):
        if self.pubsub is not None:
            await self.pubsub.aclose()
        if self.client is not None:
            await self.client.aclose()
        self.client = self.pubsub = None

    async def __aexit__(self, *exc):
        await self._close()
        return False
