"""Settings for Aquawar Online.

Everything that differs between a laptop and production comes from the environment:

- ``DATABASE_URL``  PostgreSQL (psycopg 3) in production; SQLite in the project folder by default.
- ``REDIS_URL``     channels_redis channel layer; the in-memory layer by default (one process only).
- ``SECRET_KEY``    required when ``DEBUG`` is off.
- ``ALLOWED_HOSTS`` comma-separated host names.
- ``DEBUG``         "1"/"true" to turn on; off unless asked, except that ``make run`` asks for it.
"""
import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from game.games import NAMES as GAMES

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name, default=False):
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name, default):
    value = os.environ.get(name)
    if not value:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = env_flag("DEBUG")
# A shared database means several processes behind a proxy: the hardened setup of docs/deploy.md.
PRODUCTION = not DEBUG and bool(os.environ.get("DATABASE_URL"))

# Only for the embedded setup on one machine: sessions are not worth protecting across restarts there.
# Outside DEBUG it is flagged on every start and fails `check --deploy` (aquawar_site/checks.py).
EMBEDDED_SECRET_KEY = "insecure-embedded-default-key-do-not-use-in-production-aquawar"
SECRET_KEY = os.environ.get("SECRET_KEY")
if not SECRET_KEY:
    if PRODUCTION:
        raise ImproperlyConfigured("SECRET_KEY must be set in production (DATABASE_URL is set, DEBUG is off).")
    SECRET_KEY = EMBEDDED_SECRET_KEY

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    # Named {% partialdef %} fragments, so htmx polling re-renders part of a page from one template.
    "template_partials",
    "axes",
    "game",
    # Each game's package is an app too, so that its templates and static files are found in it.
    *(f"game.games.{name}" for name in GAMES),
    "lobby",
    "ratings",
    "tournaments",
    "notify",
    "sanguo",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # The Content-Security-Policy header (CONTENT_SECURITY_POLICY below).
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: it turns a login refused for a lockout into the lockout page.
    "axes.middleware.AxesMiddleware",
]

# django-axes first: it refuses a locked-out login before the password is even checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

# Only the site's own scripts run: no inline script, no inline event handler, no eval, so an
# injected <script> or onclick= does nothing even if some template ever let one through. Every page
# passes it with no exception for scripts (the browser tests fail on any violation: tests/browser).
# Style attributes stay allowed (the boards set a bar's width, a mark's order): they run no code;
# <style> elements do not. The sockets are the site's own origin ('self' covers ws:/wss: to it).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "style-src-attr": ["'unsafe-inline'"],
        "img-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

ROOT_URLCONF = "aquawar_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

ASGI_APPLICATION = "aquawar_site.asgi.application"
# The bare echo socket bench/load.py measures the match socket against (game/live/bench_echo.py); off
# unless asked, so it never exists in production.
BENCH_ECHO = env_flag("BENCH_ECHO")
WSGI_APPLICATION = None

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        # Seconds a process keeps its database connection between requests and socket calls: 60 in
        # production (a new PostgreSQL connection per socket call cost a third of the throughput,
        # docs/performance.md "Load"), else 0 (one per call, as the embedded setup always had).
        # The health check (one "SELECT 1" before a kept connection's first query in a call)
        # replaces a connection that died meanwhile instead of failing the call; on PostgreSQL only
        # for a connection that has not answered a call within the last second (aquawar_site/postgresql).
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60" if PRODUCTION else "0")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's, with fewer health checks of a connection that has just answered (see its module).
    DATABASES["default"]["ENGINE"] = "aquawar_site.postgresql"
    # Parameters sent apart from the statement, and a statement run 5 times on a connection prepared
    # there (psycopg's default threshold): PostgreSQL then parses and plans the hot statements once per
    # connection instead of on every command, which took a third of its CPU per command
    # (docs/performance.md, "Prepared statements"). Django leaves both off for connection poolers
    # that cannot keep a prepared statement (docs/deploy.md says what a pooler needs).
    DATABASES["default"].setdefault("OPTIONS", {}).update({"server_side_binding": True, "prepare_threshold": 5})
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several consumers write at once. IMMEDIATE takes the write lock when a transaction starts, so a
    # second writer waits (up to the timeout) instead of failing when it upgrades a read lock.
    DATABASES["default"].setdefault("OPTIONS", {}).update({"timeout": 20, "transaction_mode": "IMMEDIATE"})

REDIS_URL = os.environ.get("REDIS_URL")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # channels_redis's, guarded against a receive whose cancellation is lost (docs/faults.md).
            "BACKEND": "aquawar_site.channel_layer.RedisChannelLayer",
            # A consumer blocks on Redis (BZPOPMIN, 5 s at a time) for as long as its socket is quiet.
            # redis-py 8 cuts every read after 5 s by default, which killed idle websockets with 1011;
            # the read timeout must outlast the blocking pop, yet still notice a dead connection.
            # Doorbells must not be dropped under load (bench/load.py, docs/performance.md "Load"):
            # max_connections: redis-py 8 caps a process's pool at 100 and then *fails* a send
            # instead of waiting. capacity: channels_redis counts it per *process* (all of a
            # process's sockets share one Redis key), and group_send silently skips a full one; the
            # default 100 dropped messages with 300 sockets per process.
            "CONFIG": {
                "hosts": [{"address": REDIS_URL, "socket_timeout": 30, "max_connections": 1000}],
                "capacity": 5000,
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# The cache holds login lockout counts, sign-ups per address and the lobby's sweep marker. Per process in the embedded
# setup; with REDIS_URL it is shared, so the limits hold across every process (docs/deploy.md).
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Where built-in bots think and clocks are timed (docs/deploy.md "Workers"). "external": in
# ``manage.py run_bots`` worker processes fed through the channel layer, so the processes that serve
# pages and sockets make no bot decision (production: Redis spreads the work over any number of
# machines). "inline": in threads of the one process that serves the site (the embedded setup,
# whose in-memory channel layer no other process can read).
BOT_WORKERS = os.environ.get("BOT_WORKERS", "external" if REDIS_URL else "inline")
if BOT_WORKERS not in ("inline", "external"):
    raise ImproperlyConfigured('BOT_WORKERS must be "inline" or "external".')
if BOT_WORKERS == "external" and not REDIS_URL:
    raise ImproperlyConfigured("BOT_WORKERS=external needs REDIS_URL: workers are fed through the channel layer.")
# Spectators' live win chances (docs/win-chances.md): one estimate per version of a live match, by
# the bot workers ("0" turns them off, e.g. for a site short of worker time).
WIN_CHANCES = os.environ.get("WIN_CHANCES", "1") != "0"

# Limits (docs/protocol.md, "Limits, presence and rematch").
# A live match neither player has picked in, with no player socket on it for this long, is cancelled.
ABANDONED_MATCH_MINUTES = int(os.environ.get("ABANDONED_MATCH_MINUTES", "10"))
# Frames a match socket may send per window (seconds); more are refused with "rate_limited".
# "frames/seconds" in the environment, e.g. for a load test that plays at machine speed.
MATCH_SOCKET_RATE = tuple(int(n) for n in os.environ.get("MATCH_SOCKET_RATE", "20/5").split("/"))
# The same for a program's bot socket: programs answer at machine speed (a whole match can take a
# few seconds), so the window is wider; it stops a runaway loop, not a fast player.
BOT_SOCKET_RATE = tuple(int(n) for n in os.environ.get("BOT_SOCKET_RATE", "100/2").split("/"))
# Match sockets one account may have open at once, over every process.
MAX_SOCKETS_PER_USER = int(os.environ.get("MAX_SOCKETS_PER_USER", "20"))
# Match sockets one client address may have open at once, over every process: anonymous viewers
# included (a household or a classroom shares one address, hence more than one person's share).
MAX_SOCKETS_PER_ADDRESS = int(os.environ.get("MAX_SOCKETS_PER_ADDRESS", "40"))
# hello frames one match socket may send per window: each is answered with the whole match (a
# full page render for a browser socket), and a socket that listens is sent every change anyway.
MATCH_HELLO_RATE = tuple(int(n) for n in os.environ.get("MATCH_HELLO_RATE", "3/10").split("/"))
# Sockets (match and lobby) one account may open per window (seconds), and one client address,
# over every process (counted in the cache): "connects/seconds". Each connect reads the match and
# writes a presence row (a browser's renders the page); a reconnect loop is refused past it.
SOCKET_CONNECT_RATE = tuple(int(n) for n in os.environ.get("SOCKET_CONNECT_RATE", "30/60").split("/"))
SOCKET_CONNECT_RATE_PER_ADDRESS = tuple(
    int(n) for n in os.environ.get("SOCKET_CONNECT_RATE_PER_ADDRESS", "60/60").split("/")
)
# Presence news (a spectator came or went) rings a match's sockets at most once per this many
# seconds; changes within it are told together at its end.
PRESENCE_NEWS_SECONDS = float(os.environ.get("PRESENCE_NEWS_SECONDS", "2"))
# Bot sockets one account may have open at once (all its tokens together), over every process.
MAX_BOT_SOCKETS_PER_USER = int(os.environ.get("MAX_BOT_SOCKETS_PER_USER", "10"))
# Accounts one client address may make per window (seconds), over every process (counted in the
# cache, as login lockouts are): "accounts/seconds". A household or a classroom shares an address.
SIGNUP_RATE = tuple(int(n) for n in os.environ.get("SIGNUP_RATE", "5/3600").split("/"))
# Matches one account may make per window (seconds): "matches/seconds", over every process
# (counted in the cache). A play-resign loop made 120 matches in 10 s; a person starts a few a minute.
MATCH_CREATION_RATE = tuple(int(n) for n in os.environ.get("MATCH_CREATION_RATE", "20/60").split("/"))
# An open match nobody has joined is cancelled (end_reason "expired") after this long.
OPEN_MATCH_MINUTES = int(os.environ.get("OPEN_MATCH_MINUTES", "60"))
# How long a player's opponent must have been away (no socket on the match) before the player may
# claim the win or abort the match (game/fairness.py): the match's own move clock when it has one,
# else this many seconds.
CLAIM_AFTER_SECONDS = int(os.environ.get("CLAIM_AFTER_SECONDS", "60"))
# Chat messages one person may post in one match per window (seconds): "messages/seconds".
CHAT_RATE = tuple(int(n) for n in os.environ.get("CHAT_RATE", "5/10").split("/"))

# The proxies in front of the site that append the client's address to X-Forwarded-For (nginx:
# 1); 0 reads the connection's own address. The one rule for every client address the site uses
# (login lockouts, sign-ups, socket caps): aquawar_site/security.py.
TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "0"))

# Login lockouts (django-axes, docs/deploy.md "Limits"), on the site's login and the admin's: after
# AXES_FAILURE_LIMIT failed logins for one account (from anywhere), or from one address (for any
# accounts), logins for it are refused until AXES_COOLOFF_TIME has passed, the right password too.
# Per account, so that many addresses can't guess one password; per address, so that one can't
# try a password on many accounts. Counted in the cache (Redis in production, shared by every
# process), where counts expire by themselves.
AXES_HANDLER = "axes.handlers.cache.AxesCacheHandler"
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_CLIENT_IP_CALLABLE = "aquawar_site.security.request_address"
AXES_USERNAME_CALLABLE = "lobby.throttle.username_of"
AXES_LOCKOUT_CALLABLE = "lobby.throttle.locked_out"
# A login tried during the lockout neither counts nor extends it: the wait the page names holds.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
# A success does not clear the counts: otherwise one's own account would reset the address's.
AXES_RESET_ON_SUCCESS = False
# The cache handler keeps no rows for the admin to list.
AXES_ENABLE_ADMIN = False
AXES_VERBOSE = False
if not REDIS_URL:
    # axes.W001 warns that a per-process cache undercounts when several processes answer; the
    # embedded setup is one process, so its LocMemCache sees every attempt. Production has Redis.
    SILENCED_SYSTEM_CHECKS = ["axes.W001"]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "lobby"
LOGOUT_REDIRECT_URL = "lobby"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("zh-hans", "简体中文")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

# Outside production there is no collectstatic step, so WhiteNoise serves straight from the app and
# project static folders (with DEBUG off too, e.g. under a browser test's live server).
WHITENOISE_USE_FINDERS = not PRODUCTION

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_flag("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    # Preloading is a lasting promise to browsers (docs/deploy.md): SECURE_HSTS_PRELOAD=0 opts out.
    SECURE_HSTS_PRELOAD = env_flag("SECURE_HSTS_PRELOAD", True)
    SECURE_CONTENT_TYPE_NOSNIFF = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}

# Notices of correspondence matches (notify/, docs/deploy.md "Mail and push"). Mail: the console by
# default (make run prints it); SMTP with EMAIL_BACKEND=django.core.mail.backends.smtp.EmailBackend.
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = os.environ.get("EMAIL_USE_TLS", "") == "1"
EMAIL_TIMEOUT = 10
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Aquawar Online <noreply@localhost>")
# Where the links in mails and pushes point.
SITE_URL = os.environ.get("SITE_URL", "http://localhost:8000")
# Web Push (VAPID): the key pair's public half (base64url, given to browsers) and private half; no
# push without them. SUBJECT: a mailto: or https: contact for the push services.
VAPID_PUBLIC_KEY = os.environ.get("VAPID_PUBLIC_KEY", "")
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "")
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "mailto:admin@localhost")
