"""The match socket's Origin check: the site's own origins only, scheme, host and port alike, as
Django checks a POST's Origin (aquawar_site/security.py)."""
import pytest
from channels.db import database_sync_to_async

from .helpers import Socket, live_match, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


async def admitted(match_id, cookie, origin, host=b"localhost:8765", headers=()):
    socket = Socket(match_id, cookie, origin=origin, host=host)
    socket.communicator.scope["headers"] += list(headers)
    try:
        return await socket.connect()
    finally:
        await socket.disconnect()


@pytest.fixture
async def match_and_cookie(host, guest):
    match = await database_sync_to_async(live_match)(host, guest)
    return match.pk, await database_sync_to_async(session_cookie)(host)


async def test_only_the_very_origin_the_socket_was_opened_on_gets_in(match_and_cookie):
    match_id, cookie = match_and_cookie
    assert await admitted(match_id, cookie, b"http://localhost:8765")
    # What the outside review got through for a site on port 8765: other ports, no port, other scheme.
    for origin in (b"http://127.0.0.1:8000", b"http://localhost:1", b"https://localhost", b"http://localhost",
                   b"https://localhost:8765", b"http://localhost:8765.evil.example", b"null"):
        assert not await admitted(match_id, cookie, origin), origin


async def test_a_host_the_site_does_not_serve_is_no_origin_of_its_own(match_and_cookie):
    # DNS rebinding: the attacker's name pointed at the site; the browser sends its name as Host.
    match_id, cookie = match_and_cookie
    assert not await admitted(match_id, cookie, b"http://evil.example:8765", host=b"evil.example:8765")
    assert not await admitted(match_id, cookie, b"http://localhost:8765", host=None)


async def test_behind_the_tls_proxy_the_origin_is_https(match_and_cookie, settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    match_id, cookie = match_and_cookie
    proto = [(b"x-forwarded-proto", b"https")]
    assert await admitted(match_id, cookie, b"https://localhost:8765", headers=proto)
    assert not await admitted(match_id, cookie, b"http://localhost:8765", headers=proto)


async def test_trusted_origins_are_the_csrf_ones(match_and_cookie, settings):
    # nginx passes Host without the port (docs/deploy.md): the port is named in CSRF_TRUSTED_ORIGINS.
    settings.CSRF_TRUSTED_ORIGINS = ["https://aquawar.example.com:8443", "https://*.example.org"]
    match_id, cookie = match_and_cookie
    assert await admitted(match_id, cookie, b"https://aquawar.example.com:8443", host=b"localhost")
    assert await admitted(match_id, cookie, b"https://play.example.org", host=b"localhost")
    for origin in (b"https://aquawar.example.com", b"http://aquawar.example.com:8443", b"http://play.example.org"):
        assert not await admitted(match_id, cookie, origin, host=b"localhost"), origin
    # Only on a host the site serves (ALLOWED_HOSTS), as for a POST.
    assert not await admitted(match_id, cookie, b"https://aquawar.example.com:8443", host=b"evil.example")
