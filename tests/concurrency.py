"""Two people click at once: run calls in threads released together, each on its own
database connection (PostgreSQL's row locks and unique indexes then decide who wins, as they
would between two browsers)."""

import threading

from django.db import close_old_connections, connection


def at_once(*calls, refusals: tuple[type[BaseException], ...] = ()):
    """Run ``calls`` (callables without arguments) in threads released together; their
    results, in the order they finished, an exception of ``refusals`` raised by one standing
    for its result (any other fails the test through the thread's result missing). Each
    thread closes its connection when done."""
    barrier = threading.Barrier(len(calls))
    results = []

    def run(call):
        try:
            barrier.wait(timeout=10)
            results.append(call())
        except refusals as exc:
            results.append(exc)
        finally:
            close_old_connections()
            connection.close()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert len(results) == len(calls), "a call raised or did not finish"
    return results
