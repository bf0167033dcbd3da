import asyncio
import os
import sys

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aquawar_site.settings")
# Django must be set up before the consumers (and the models they import) are loaded.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from django.urls import re_path  # noqa: E402

from aquawar_site import gcsetup  # noqa: E402
from aquawar_site.security import SiteOriginValidator  # noqa: E402
from game.programs.runner import serve_from  # noqa: E402
from game.routing import bot_websocket_urlpatterns, websocket_urlpatterns  # noqa: E402
from lobby.routing import websocket_urlpatterns as lobby_websocket_urlpatterns  # noqa: E402
from sanguo.routing import bot_websocket_urlpatterns as sanguo_bot_websocket_urlpatterns  # noqa: E402
from sanguo.routing import websocket_urlpatterns as sanguo_websocket_urlpatterns  # noqa: E402

# The Origin check guards sockets that a browser authenticates with its cookie against other sites:
# only the site's own origins (scheme, host and port) get through, as for a POST (security.py).
# The bot sockets (a match's, a 三国 seat's) take an API token instead, which a foreign page cannot
# supply, and programs usually send no Origin at all; so they are routed before that check.
browser_websockets = SiteOriginValidator(
    AuthMiddlewareStack(URLRouter(websocket_urlpatterns + lobby_websocket_urlpatterns + sanguo_websocket_urlpatterns))
)

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": URLRouter(
            [*bot_websocket_urlpatterns, *sanguo_bot_websocket_urlpatterns, re_path(r"", browser_websockets)]
        ),
    }
)


def _serve_from_the_start():
    """Under daphne (``daphne ...asgi:application``, ``manage.py runserver``), the runner learns the
    server's event loop as the server starts, not when its first socket opens: in the embedded setup
    this process is the one that times clocks and sweeps for due work (a tournament's round, the
    ladder), and it must do so on a site nobody is connected to. The server's heap is frozen then
    too, and after its warm-up (``gcsetup``). Daphne installs its reactor before it imports this
    module; any other importer (a test, a shell, the bot worker) has none, and nothing starts."""
    reactor = sys.modules.get("twisted.internet.reactor")
    if reactor is not None:
        reactor.callWhenRunning(_started, reactor)


def _started(reactor):
    serve_from(asyncio.get_event_loop())
    gcsetup.start(reactor)


_serve_from_the_start()
