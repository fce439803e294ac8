"""Filters for the site's log."""

from __future__ import annotations

import logging


class ClientErrorWithoutTraceback(logging.Filter):
    """A 4xx answer is the client's mistake (an unreadable body, a bad header): log the line,
    not the traceback, so a scanner cannot fill the log with stack dumps."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if isinstance(status, int) and status < 500:
            record.exc_info = None
            record.exc_text = None
        return True
