"""What the site believes about a connection: the client's address, and whether a browser socket
comes from one of the site's own pages. HTTP requests and websockets (ASGI scopes) alike.

The client's address is what the first trusted proxy saw, never what the client says about itself:
with ``TRUSTED_PROXY_COUNT`` proxies in front of the site (docs/deploy.md), each appends the address
it was reached from to ``X-Forwarded-For``, so the entry that many places from the right end of the
chain (``X-Forwarded-For`` then ``REMOTE_ADDR``) is the client; whatever stands further left was
sent by the client and is ignored. With 0 (the default) the header is not read at all.
"""
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.utils.http import is_same_domain
from ipware.ip import get_client_ip


class _Meta:
    """The part of a request django-ipware reads."""

    def __init__(self, meta):
        self.META = meta


def client_address(meta):
    """The client's address from request.META-style ``meta`` (None if it has none)."""
    remote = meta.get("REMOTE_ADDR") or None
    proxies = settings.TRUSTED_PROXY_COUNT
    if not proxies:
        return remote
    # Not strict: a chain longer than the proxies made (the client wrote entries of its own on the
    # left) still gives the entry the last trusted proxy appended. A shorter one (no proxy on the
    # way) has no entry to trust, so the connection's own address stands.
    address, _routable = get_client_ip(
        _Meta(meta),
        proxy_count=proxies - 1,
        request_header_order=["HTTP_X_FORWARDED_FOR"],
        strict=False,
    )
    return address or remote


def request_address(request, *_credentials):
    """``client_address`` of an HTTP request (also django-axes' ``AXES_CLIENT_IP_CALLABLE``)."""
    return client_address(request.META)


def _headers(scope, name):
    return [value.decode("latin-1") for key, value in scope.get("headers", []) if key.lower() == name]


def scope_meta(scope):
    """request.META for an ASGI scope, as Django's ASGI handler builds it: ``REMOTE_ADDR`` and an
    ``HTTP_…`` entry per header, repeated headers joined with commas."""
    client = scope.get("client")
    meta = {"REMOTE_ADDR": client[0] if client else None}
    for key, value in scope.get("headers", []):
        name = "HTTP_" + key.decode("latin-1").upper().replace("-", "_")
        value = value.decode("latin-1")
        meta[name] = f"{meta[name]},{value}" if name in meta else value
    return meta


def scope_address(scope):
    """``client_address`` of a websocket."""
    return client_address(scope_meta(scope))


def _secure(scope):
    """Whether the socket reached the site over TLS, decided as ``HttpRequest.is_secure`` does."""
    if settings.SECURE_PROXY_SSL_HEADER:
        header, secure_value = settings.SECURE_PROXY_SSL_HEADER
        value = scope_meta(scope).get(header)
        if value is not None:
            return value.split(",", 1)[0].strip() == secure_value
    return scope.get("scheme") in ("wss", "https")


def _allowed_hosts():
    # As HttpRequest.get_host(): with DEBUG on and no ALLOWED_HOSTS, the local names are allowed.
    if settings.DEBUG and not settings.ALLOWED_HOSTS:
        return [".localhost", "127.0.0.1", "[::1]"]
    return settings.ALLOWED_HOSTS


def origin_allowed(scope):
    """Django's CSRF rule for a POST's ``Origin`` (django.middleware.csrf), applied to a websocket:
    the origin is the very scheme, host and port the socket was opened on, or one of
    ``CSRF_TRUSTED_ORIGINS`` (where ``https://*.example.com`` stands for its subdomains)."""
    origins, hosts = _headers(scope, b"origin"), _headers(scope, b"host")
    if len(origins) != 1 or len(hosts) != 1:
        return False
    origin, host = origins[0], hosts[0]
    # As HttpRequest.get_host(): a Host the site does not serve is refused whatever the origin.
    domain, _port = split_domain_port(host)
    if not domain or not validate_host(domain, _allowed_hosts()):
        return False
    if origin == f"{'https' if _secure(scope) else 'http'}://{host}" or origin in settings.CSRF_TRUSTED_ORIGINS:
        return True
    try:
        parsed = urlsplit(origin)
    except ValueError:
        return False
    for trusted in settings.CSRF_TRUSTED_ORIGINS:
        if "*" in trusted:
            pattern = urlsplit(trusted)
            if pattern.scheme == parsed.scheme and is_same_domain(parsed.netloc, pattern.netloc.lstrip("*")):
                return True
    return False


class SiteOriginValidator:
    """ASGI middleware: a websocket whose ``Origin`` is not one of the site's own is refused during
    the handshake (a foreign page could otherwise use a visitor's session cookie)."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not origin_allowed(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
