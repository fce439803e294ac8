"""Pages are sent compressed to a browser that accepts gzip (issue 30's page budget counts a
game page as sent); streams are sent as they come."""

from __future__ import annotations

import gzip

import pytest
from django.http import HttpResponse, StreamingHttpResponse

from games.tables import lifecycle
from remi_site.compression import PageCompressionMiddleware

pytestmark = pytest.mark.django_db

GZIP = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br"}


def test_a_game_page_is_sent_gzipped_and_reads_the_same(client, alice, bob):
    table = lifecycle.create_table(alice, game_type="remi", seat_count=2)
    lifecycle.join_table(table, bob)
    game = lifecycle.start_table(table, alice)
    client.force_login(alice)
    plain = client.get(f"/games/{game.pk}/")
    assert "Content-Encoding" not in plain
    packed = client.get(f"/games/{game.pk}/", **GZIP)
    assert packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed["Vary"]
    html = gzip.decompress(packed.content).decode()
    assert 'id="game-rack"' in html
    assert len(packed.content) * 3 < len(html.encode())


@pytest.mark.parametrize("streaming", [True, False])
def test_a_stream_is_sent_as_it_comes_and_a_page_compressed(rf, streaming):
    # One line per event, as the Bot API streams them: compressed, lines would wait.
    lines = [b'{"type": "gameState", "version": 1}\n'] * 40

    def view(request):
        if streaming:
            return StreamingHttpResponse(iter(lines), content_type="application/x-ndjson")
        return HttpResponse(b"".join(lines), content_type="application/x-ndjson")

    response = PageCompressionMiddleware(view)(rf.get("/api/bot/stream/event", **GZIP))
    assert response.streaming is streaming
    if streaming:
        assert "Content-Encoding" not in response
        assert b"".join(response.streaming_content) == b"".join(lines)
    else:
        assert response["Content-Encoding"] == "gzip"
