"""The Celery application. Tasks are thin: each calls a service (DESIGN.md, "The Django side")."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("quarterdeck")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
