"""The Celery broker of ``make run`` without Redis: kombu's filesystem transport, with each
message written whole before a reader can see it.

kombu's own transport (5.x, kombu issue #1551) creates a message's file in the queue folder
and then writes it, so a worker polling the folder at that moment moves away and reads a file
still empty, fails with ``JSONDecodeError`` and drops the message (the launcher then restarts
the worker; the job was kept only by the sweep that hands on the jobs of dead workers). Here a
message is written under a name the readers skip (``….msg.part``: a queue's reader takes only
``<time>_<uuid>.<queue>.msg``) and renamed into place, which POSIX makes atomic: a reader
finds either no file or the whole message.

Selected by ``CELERY_BROKER_TRANSPORT`` in ``config/settings.py``.
"""

import os
import uuid
from time import monotonic

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps


class Channel(filesystem.Channel):
    """kombu's filesystem channel whose messages appear in the queue only once written."""

    def _put(self, queue, payload, **kwargs):
        """Put ``payload`` (a message as kombu's channels pass it) onto ``queue``: written to
        a part file beside the queue's, then renamed to the name kombu's ``_get`` reads.
        ``ChannelError`` if the folder cannot be written."""
        name = f"{int(round(monotonic() * 1000))}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        part = final + ".part"
        try:
            with open(part, "wb") as f:
                f.write(str_to_bytes(dumps(payload)))
            os.replace(part, final)
        except OSError as exc:
            raise ChannelError(f"Cannot add file {final!r} to directory") from exc


class Transport(filesystem.Transport):
    """kombu's filesystem transport with :class:`Channel`."""

    Channel = Channel
