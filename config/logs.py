"""Logging helpers for ``settings.LOGGING``."""

import logging


class RefusalWithoutTraceback(logging.Filter):
    """Log a refused request (a 4xx response: 403, 404, 400) as its one line, without the
    exception's traceback.

    Django logs a ``PermissionDenied`` as a warning with ``exc_info`` set (``log_response``),
    so every page a player may not open wrote a traceback to the console of ``make run``.
    A refusal is the app working; a 5xx keeps its traceback.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if isinstance(status, int) and status < 500:
            record.exc_info = None
            record.exc_text = None
        return True
