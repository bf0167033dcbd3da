"""Web Push to a fake push service (a local HTTP server standing in for a browser vendor's): the
notice arrives encrypted for the subscription, signed with the site's VAPID key, once; a
subscription the service says is gone (410) is dropped; a browser's subscription is stored."""
import base64
import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from game import services
from game.time_controls import DAY
from notify import delivery, events
from notify.models import Preferences, PushSubscription

from ..game.fake_clock import clock  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db


def b64(raw):
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def public_point(key):
    return key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


@pytest.fixture
def push_service():
    """A fake push service: records each request; answers ``service.status``."""
    received = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers["Content-Length"]))
            received.append({"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}, "body": body})
            self.send_response(service.status)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = HTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()

    class Service:
        status = 201
        url = f"http://127.0.0.1:{server.server_port}/push/"
        requests = received

    service = Service()
    yield service
    server.shutdown()


@pytest.fixture
def vapid(settings):
    private = ec.generate_private_key(ec.SECP256R1())
    settings.VAPID_PRIVATE_KEY = b64(private.private_numbers().private_value.to_bytes(32, "big"))
    settings.VAPID_PUBLIC_KEY = b64(public_point(private))
    return settings.VAPID_PUBLIC_KEY


def subscribe(user, service):
    browser = ec.generate_private_key(ec.SECP256R1())
    Preferences.objects.create(user=user, by_mail=False, by_push=True)
    return PushSubscription.objects.create(
        user=user, endpoint=service.url + user.username, p256dh=b64(public_point(browser)), auth=b64(b"0123456789abcdef")
    )


def sweep():
    events.find()
    delivery.deliver_pending()


def test_it_pushes_the_notice_once_signed_and_encrypted(host, guest, push_service, vapid, clock):
    subscribe(host, push_service)
    match = services.join_match(services.create_match(host, move_seconds=DAY), guest)
    sweep()
    sweep()
    (request,) = push_service.requests
    assert request["path"] == f"/push/{host.username}"
    headers = request["headers"]
    assert headers["content-encoding"] == "aes128gcm" and headers["authorization"].startswith("vapid t=")
    assert f"k={vapid}" in headers["authorization"]
    # Kept by the service while the phone is off, up to a day (the move waits days).
    assert headers["ttl"] == str(24 * 60 * 60)
    # Encrypted for the browser: the match's address is not readable on the way.
    assert f"/match/{match.pk}/".encode() not in request["body"] and len(request["body"]) > 100


def test_a_subscription_the_service_says_is_gone_is_dropped(host, guest, push_service, vapid, clock):
    subscribe(host, push_service)
    push_service.status = 410
    services.join_match(services.create_match(host, move_seconds=DAY), guest)
    sweep()
    assert len(push_service.requests) == 1 and not PushSubscription.objects.exists()


def test_a_browser_hands_its_subscription_to_the_settings_page(host, host_client):
    url = "/accounts/notifications/push"
    refused = host_client.post(url, {"endpoint": "http://push.example/x", "p256dh": "k", "auth": "a"})
    assert refused.status_code == 400 and not PushSubscription.objects.exists()
    taken = host_client.post(url, {"endpoint": "https://push.example/x", "p256dh": "k", "auth": "a"})
    assert json.loads(taken.content) == {"ok": True}
    assert PushSubscription.objects.get().user == host and Preferences.objects.get(user=host).by_push
