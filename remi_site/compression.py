"""Pages and htmx answers compressed on their way out (gzip), as issue 30's page budget counts
them: a game page's HTML is ~17 KB as it is and ~4 KB compressed, on every visit.

Static files never reach this (WhiteNoise, earlier in the chain, serves its own compressed
copies).  Streams are left alone: the Bot API's NDJSON streams carry one line per event, and a
compressor would hold lines back or pay a flush per line.  Django's middleware pads each
answer by a random length against BREACH, and CSRF tokens are masked anew for each answer.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseBase
from django.middleware.gzip import GZipMiddleware


class PageCompressionMiddleware(GZipMiddleware):
    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if response.streaming:
            return response
        return super().process_response(request, response)
