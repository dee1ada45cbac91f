"""The filesystem broker of ``make run`` without Redis (``config.broker``): a worker polling
the queue while messages are being written reads each one whole (kombu's own transport hands
it an empty file: ``JSONDecodeError``, the message lost, kombu issue #1551)."""

import os
import subprocess
import sys
import threading

from kombu import Connection

TRANSPORT = "config.broker:Transport"

MESSAGES = 40
PAYLOAD = "x" * 1_000_000
"""Large enough that writing one takes long enough for a poll to meet it half-written
(kombu's transport failed on the first message here)."""


def test_make_run_without_redis_uses_it():
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    shown = subprocess.run([sys.executable, "-c", "from django.conf import settings; "
                            "print(settings.CELERY_BROKER_URL, settings.CELERY_BROKER_TRANSPORT)"],
                           env={**env, "DJANGO_SETTINGS_MODULE": "config.settings"},
                           capture_output=True, text=True, check=True)
    assert shown.stdout.split() == ["filesystem://", TRANSPORT]


def test_a_worker_polling_while_messages_are_written_reads_each_whole(tmp_path):
    folders = {name: tmp_path / name for name in ("queue", "processed", "control")}
    for folder in folders.values():
        folder.mkdir()
    options = {"data_folder_in": str(folders["queue"]), "data_folder_out": str(folders["queue"]),
               "processed_folder": str(folders["processed"]),
               "control_folder": str(folders["control"]), "store_processed": False}
    got, failures = [], []

    def poll():
        with Connection("filesystem://", transport=TRANSPORT,
                        transport_options=options) as connection:
            queue = connection.SimpleQueue("jobs")
            while len(got) < MESSAGES and not failures:
                try:
                    message = queue.get(timeout=0.001)
                except queue.Empty:
                    continue
                except Exception as failure:  # what a worker would die of
                    failures.append(failure)
                    return
                got.append(message.payload)
                message.ack()

    worker = threading.Thread(target=poll)
    worker.start()
    with Connection("filesystem://", transport=TRANSPORT,
                    transport_options=options) as connection:
        queue = connection.SimpleQueue("jobs")
        for i in range(MESSAGES):
            queue.put({"n": i, "body": PAYLOAD})
    worker.join(timeout=60)
    assert not failures
    assert [m["n"] for m in got] == list(range(MESSAGES))
    assert all(m["body"] == PAYLOAD for m in got)
    assert not list(folders["queue"].iterdir())
