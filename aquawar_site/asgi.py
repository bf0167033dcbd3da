import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aquawar_site.settings")
# Django must be set up before the consumers (and the models they import) are loaded.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from django.urls import re_path  # noqa: E402

from aquawar_site.security import SiteOriginValidator  # noqa: E402
from game.routing import bot_websocket_urlpatterns, websocket_urlpatterns  # noqa: E402
from lobby.routing import websocket_urlpatterns as lobby_websocket_urlpatterns  # noqa: E402

# The Origin check guards sockets that a browser authenticates with its cookie against other sites:
# only the site's own origins (scheme, host and port) get through, as for a POST (security.py).
# The bot socket takes an API token instead, which a foreign page cannot supply, and programs
# usually send no Origin at all; so it is routed before that check.
browser_websockets = SiteOriginValidator(
    AuthMiddlewareStack(URLRouter(websocket_urlpatterns + lobby_websocket_urlpatterns))
)

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": URLRouter([*bot_websocket_urlpatterns, re_path(r"", browser_websockets)]),
    }
)
