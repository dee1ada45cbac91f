"""Django settings, read from the environment (README, "Configuration").

With no environment at all this is the embedded default of ``make run``: SQLite under
``var/`` and a Celery broker on the filesystem. ``DATABASE_URL`` and ``REDIS_URL`` switch to
PostgreSQL and Redis.
"""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from kombu import Queue

from config import network
from config.env import env_bool, env_float, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("QUARTERDECK_VAR_DIR", str(BASE_DIR / "var")))

# Django's technical error pages (every URL, the settings, the traceback) only when the
# developer asks for them with DJANGO_DEBUG=1; players see the site's own 404 and 500 pages.
DEBUG = env_bool("DJANGO_DEBUG", False)
# DJANGO_DEBUG unset is the embedded default of ``make run`` on the GM's machine: a
# development secret key and the static files straight from the apps' folders. DJANGO_DEBUG=0
# is production: DJANGO_SECRET_KEY required, static files collected.
LOCAL = DEBUG or "DJANGO_DEBUG" not in os.environ
SECRET_KEY = env_str("DJANGO_SECRET_KEY") or (
    "dev-only-insecure-key-set-DJANGO_SECRET_KEY-in-production" if LOCAL else ""
)
if not SECRET_KEY:
    raise RuntimeError("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off")
# The names phones at the table use: this machine's addresses, read at start (README,
# "Join from a phone"). ``make run`` passes its port in QUARTERDECK_PORT.
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", network.default_allowed_hosts())
CSRF_TRUSTED_ORIGINS = env_list(
    "DJANGO_CSRF_TRUSTED_ORIGINS",
    network.default_trusted_origins(env_int("QUARTERDECK_PORT", 8000)),
)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "campaigns",
    "characters",
    "ships",
    "combat",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "campaigns.middleware.remember_roles",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "config.middleware.form_only_page",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

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

DATABASE_URL = env_str("DATABASE_URL")
if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL)}
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        # The ASGI server runs each request in a thread of its own, where a persistent
        # connection would be left open per thread: a pool lends the threads connections.
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": 1, "max_size": env_int("DATABASE_POOL_SIZE", 10)}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": VAR_DIR / "quarterdeck.sqlite3",
            # The web server and the embedded worker share the file: wait for locks
            # rather than fail, and take the write lock at BEGIN so a read-then-write
            # transaction cannot deadlock.
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Django's default hashers, the first computed at a lower priority (config/hashers.py).
PASSWORD_HASHERS = [
    "config.hashers.YieldingPBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.BCryptSHA256PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "campaigns:list"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "static"
# The server serves the static files itself (WhiteNoise): in production those collected
# there by ``manage.py collectstatic``; locally (``make run``, see LOCAL) straight from the
# apps' folders, found once at start. WhiteNoise warns of a missing STATIC_ROOT: make it.
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
WHITENOISE_USE_FINDERS = LOCAL
WHITENOISE_AUTOREFRESH = DEBUG

# The largest request body accepted, a page's form or an API call (a JSON body is bounded by
# config.api.JSONParser): far above any real edit, far below what would strain the server.
DATA_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024

REST_FRAMEWORK = {
    # JSON only, read within bounds (config.api.JSONParser); the schema documents it alone.
    "DEFAULT_PARSER_CLASSES": ["config.api.JSONParser"],
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.BasicAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "config.schema.AutoSchema",
    "EXCEPTION_HANDLER": "config.api.exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Quarterdeck API",
    "DESCRIPTION": "Campaigns, characters, ships and battles for Beat to Quarters.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Request bodies get their own components: without read-only fields, and with
    # "minLength": 1 on every text field that may not be blank.
    "COMPONENT_SPLIT_REQUEST": True,
    # Swagger UI from the installed package, not a CDN: the docs work offline too.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    # Two models have a field called "kind": name their enums after the models.
    "ENUM_NAME_OVERRIDES": {
        "CharacterKindEnum": "characters.models.Character.Kind",
        "ReputationKindEnum": "characters.models.Reputation.Kind",
        "ItemKindEnum": "characters.models.Item.Kind",
    },
}

# Background jobs and Celery: every setting of the chain below is here, and only here.
#
# A job (combat.Job) is a row of our own; a Celery message only says "run job N". A worker
# claims the job with a conditional update that takes a lease of JOB_LEASE_SECONDS, and
# renews it with every chunk it commits. A chunk plays for at most JOB_CHUNK_SECONDS under
# the battle's row lock, in one transaction with the battle's state, random source, choices
# and events (and, for the last chunk, the write-back to the ships), so a worker that dies
# loses at most the chunk it had not committed, and nothing can be written twice. The GM's
# cancel waits at most one chunk for the row lock, and the worker stops at its next chunk.
# A task plays for at most JOB_SLICE_SECONDS, then releases the lease and sends the job's
# next message: tasks stay short, far inside the time limits and the broker's visibility
# timeout, however long the battle. JOB_PACE_SECONDS pauses after each decision so the
# table can watch the battle unfold (0: as fast as it can; one decision per chunk if set).
#
# When a worker dies (SIGKILL, OOM, lost machine), its lease runs out. Every
# JOB_SWEEP_SECONDS the sweep (combat.sweep_jobs, sent by celery beat: run the worker with
# -B, as `make run` and `make worker` do, or one `celery beat` beside the workers; several
# beats only repeat a cheap, idempotent query) revokes expired leases and sends the jobs
# again; a redelivered message finding the lease expired claims it directly. So a job
# whose worker died carries on from its last committed chunk within
# JOB_LEASE_SECONDS + JOB_SWEEP_SECONDS (25 s by default; the issue asks for under a
# minute), with no manual step, on any broker (the filesystem broker of `make run`
# never redelivers at all). A job taken over more than combat.services.MAX_TAKEOVERS times
# is failed: whatever kills its workers would kill the next one too.
#
# Celery: acks_late with reject_on_worker_lost, so a message is acknowledged only when its
# task has returned, and handed back to the queue if the process running it dies (a
# prefork child killed); prefetch 1, so an idle worker is never kept from a message another
# holds. The soft time limit interrupts a task (its job ends failed, the chunk rolled back),
# the hard limit kills the process; both lie well above a slice and well inside Redis's
# visibility timeout (after which Redis hands an unacknowledged message to another worker):
# chunk + pace < lease, slice + chunk + pace < soft < hard < visibility, checked below.
JOB_LEASE_SECONDS = env_float("QUARTERDECK_JOB_LEASE_SECONDS", 20)
JOB_SWEEP_SECONDS = env_float("QUARTERDECK_JOB_SWEEP_SECONDS", 5)
# How often combat.sweep_decisions takes the default of the decisions that waited longer
# than their battle's decision_timeout (a battle without one waits as long as it takes).
DECISION_SWEEP_SECONDS = env_float("QUARTERDECK_DECISION_SWEEP_SECONDS", 5)
JOB_SLICE_SECONDS = env_float("QUARTERDECK_JOB_SLICE_SECONDS", 5)
JOB_CHUNK_SECONDS = env_float("QUARTERDECK_JOB_CHUNK_SECONDS", 0.25)
JOB_PACE_SECONDS = env_float("QUARTERDECK_JOB_PACE_SECONDS", 0)
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", 20)
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 30)
CELERY_VISIBILITY_TIMEOUT = env_int("CELERY_VISIBILITY_TIMEOUT", 60)
if not (JOB_CHUNK_SECONDS + JOB_PACE_SECONDS < JOB_LEASE_SECONDS
        and JOB_SLICE_SECONDS + JOB_CHUNK_SECONDS + JOB_PACE_SECONDS
        < CELERY_TASK_SOFT_TIME_LIMIT < CELERY_TASK_TIME_LIMIT < CELERY_VISIBILITY_TIMEOUT):
    raise ImproperlyConfigured(
        "The job timings must keep chunk + pace < lease and slice + chunk + pace < soft time "
        "limit < hard time limit < visibility timeout (config/settings.py explains why)."
    )

# Redis when REDIS_URL is set, else a broker on the filesystem that needs no server.
REDIS_URL = env_str("REDIS_URL")
CELERY_FS_DIR = VAR_DIR / "celery"
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": CELERY_VISIBILITY_TIMEOUT}
else:
    CELERY_BROKER_URL = "filesystem://"
    # kombu's filesystem transport, with each message written whole before a worker sees it.
    CELERY_BROKER_TRANSPORT = "config.broker:Transport"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(CELERY_FS_DIR / "queue"),
        "data_folder_out": str(CELERY_FS_DIR / "queue"),
        "processed_folder": str(CELERY_FS_DIR / "processed"),
        "control_folder": str(CELERY_FS_DIR / "control"),
        "store_processed": False,
    }
    # The filesystem transport lists these folders on every poll and publish: make them
    # once here, for the web server and the worker alike.
    for folder in ("queue", "processed", "control"):
        (CELERY_FS_DIR / folder).mkdir(parents=True, exist_ok=True)
# Jobs keep their state in our own table (combat.Job), never in Celery's result store.
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_QUEUE", "quarterdeck")
# The sweeps have a queue of their own, which every worker consumes beside the default one
# (a worker takes turns between its queues, on Redis as on the filesystem broker): a sweep
# waits for one task at most, never behind a backlog of odds' messages, where it expired
# before its turn and decision timeouts and dead workers' jobs waited as long as the odds.
CELERY_SWEEP_QUEUE = f"{CELERY_TASK_DEFAULT_QUEUE}.sweeps"
CELERY_TASK_QUEUES = (Queue(CELERY_TASK_DEFAULT_QUEUE), Queue(CELERY_SWEEP_QUEUE))
CELERY_TASK_ROUTES = {task: {"queue": CELERY_SWEEP_QUEUE}
                      for task in ("combat.sweep_jobs", "combat.sweep_decisions")}
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
CELERY_BEAT_SCHEDULE = {
    "sweep-expired-job-leases": {
        "task": "combat.sweep_jobs",
        "schedule": JOB_SWEEP_SECONDS,
        # a sweep nobody ran in time (behind a slice) is replaced by the next, never piled up
        "options": {"expires": JOB_SWEEP_SECONDS + JOB_SLICE_SECONDS},
    },
    "take-timed-out-decisions": {
        "task": "combat.sweep_decisions",
        "schedule": DECISION_SWEEP_SECONDS,
        "options": {"expires": DECISION_SWEEP_SECONDS + JOB_SLICE_SECONDS},
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"refusal_without_traceback": {"()": "config.logs.RefusalWithoutTraceback"}},
    "handlers": {"console": {"class": "logging.StreamHandler",
                             "filters": ["refusal_without_traceback"]}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}
