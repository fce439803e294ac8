"""A real SMTP server for tests (aiosmtpd on a free local port) that keeps what it accepts.

The site (in the test process or in a child process such as the Celery worker) sends to it
through Django's SMTP backend, so a test sees what a mail server would receive.
"""

from __future__ import annotations

import email
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from email.message import Message

import pytest
from aiosmtpd.controller import Controller

from tests.site_processes import free_port

SMTP_BACKEND = "django.core.mail.backends.smtp.EmailBackend"


class Inbox:
    """aiosmtpd's handler: every accepted message with its envelope recipients.  The server
    runs in its own thread, hence the lock."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._messages: list[tuple[list[str], Message]] = []
        self.port = 0

    async def handle_DATA(self, server, session, envelope) -> str:
        with self._lock:
            self._messages.append(
                (list(envelope.rcpt_tos), email.message_from_bytes(envelope.content))
            )
        return "250 OK"

    @property
    def messages(self) -> list[tuple[list[str], Message]]:
        with self._lock:
            return list(self._messages)

    def to(self, address: str) -> list[Message]:
        return [message for recipients, message in self.messages if address in recipients]

    def wait_for(self, address: str, count: int, *, timeout: float) -> list[Message]:
        """The messages to ``address`` once there are ``count`` of them; fails the test
        after ``timeout`` seconds (more than ``count`` fails at once: a duplicate)."""
        deadline = time.monotonic() + timeout
        while True:
            received = self.to(address)
            if len(received) > count:
                pytest.fail(f"{len(received)} emails to {address}, expected {count}")
            if len(received) == count:
                return received
            if time.monotonic() > deadline:
                pytest.fail(f"{len(received)} emails to {address} after {timeout}s, not {count}")
            time.sleep(0.1)


def parts_of(message: Message) -> dict[str, str]:
    """The message's decoded text parts by content type (text/plain, text/html)."""
    return {
        part.get_content_type(): part.get_payload(decode=True).decode(
            part.get_content_charset() or "utf-8"
        )
        for part in message.walk()
        if part.get_content_maintype() == "text"
    }


def text_part(message: Message) -> str:
    """The plain-text body of a (multipart) message."""
    text = parts_of(message).get("text/plain")
    if text is None:
        raise AssertionError(f"no text/plain part in {message['Subject']!r}")
    return text


@contextmanager
def running_smtp_sink() -> Iterator[Inbox]:
    inbox = Inbox()
    inbox.port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=inbox.port)
    controller.start()
    try:
        yield inbox
    finally:
        controller.stop()
