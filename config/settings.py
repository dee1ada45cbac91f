"""Django settings, read from the environment (README, "Configuration").

With no environment at all this is the embedded default of ``make run``: SQLite under
``var/`` and a Celery broker on the filesystem. ``DATABASE_URL`` and ``REDIS_URL`` switch to
PostgreSQL and Redis.
"""

from pathlib import Path

import dj_database_url

from config import network
from config.env import env_bool, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("QUARTERDECK_VAR_DIR", str(BASE_DIR / "var")))

DEBUG = env_bool("DJANGO_DEBUG", True)
SECRET_KEY = env_str("DJANGO_SECRET_KEY") or (
    "dev-only-insecure-key-set-DJANGO_SECRET_KEY-in-production" if DEBUG else ""
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
# there by ``manage.py collectstatic``; with DEBUG on (``make run``) straight from the apps'
# folders, found once at start. WhiteNoise warns of a missing STATIC_ROOT: make it.
STATIC_ROOT.mkdir(parents=True, exist_ok=True)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.BasicAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "config.api.exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Quarterdeck API",
    "DESCRIPTION": "Campaigns, characters, ships and battles for Beat to Quarters.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI from the installed package, not a CDN: the docs work offline too.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    # Two models have a field called "kind": name their enums after the models.
    "ENUM_NAME_OVERRIDES": {
        "CharacterKindEnum": "characters.models.Character.Kind",
        "ReputationKindEnum": "characters.models.Reputation.Kind",
    },
}

# Celery: Redis when REDIS_URL is set, else a broker on the filesystem that needs no server.
REDIS_URL = env_str("REDIS_URL")
CELERY_FS_DIR = VAR_DIR / "celery"
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
else:
    CELERY_BROKER_URL = "filesystem://"
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
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", 120)
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 150)
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_QUEUE", "quarterdeck")
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}
