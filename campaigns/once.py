"""Once only: a create form sent twice (a double tap, a reload that posts again, two
browsers) makes its record once.

Every create form of the apps renders a one-time token (``{% once_token %}`` from the
``once`` template tags, a hidden field named :data:`FIELD`), and its view is decorated with
:func:`once_per_token`. The view then runs in one transaction that first writes the token
into :class:`FormToken` (unique in the database) and, when the view answers with a redirect
(the record is made: the page goes to it), keeps the address it went to. A second POST with
the same token finds the token taken: it waits for the first to commit (PostgreSQL holds the
second insert of a unique value until then), makes nothing, and is sent to the address the
first went to, with a word saying so. If the first was refused (the form comes back with its
errors, or a redirect back with an error message) or failed, the token is not kept: the
corrected form, with the same token, may be sent again.

A token is taken for the address it is posted to: a form with two create buttons (the new
battle's "Prepare the battle" and its "What are the odds?", a ``formaction``) makes one record
of each, once each.

A POST without a token (the API, a script) is not protected here; a token that is not one
the tag could have written is refused with a 400.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from datetime import timedelta
from functools import wraps

from django.conf import settings as django_settings
from django.contrib import messages
from django.db import IntegrityError, models, transaction
from django.http import HttpResponseBadRequest, HttpResponseRedirect
from django.shortcuts import redirect
from django.utils import timezone

FIELD = "once_token"
"""The name of the hidden field that carries the token."""

KEPT = timedelta(days=2)
"""How long a used token is remembered (a form sent again later makes a new record)."""

_SHAPE = re.compile(r"[A-Za-z0-9_-]{20,64}")


def new_token() -> str:
    """A fresh token for one form: 32 random URL-safe characters."""
    return secrets.token_urlsafe(24)


class FormToken(models.Model):
    """A token of a create form that was sent, for the address it was posted to (``token``
    is :func:`_claim` of the two): by whom, when, and the address of what it made (``shown``;
    empty until the view that took it answers)."""

    token = models.CharField(max_length=64, unique=True)
    user = models.ForeignKey(django_settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+")
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    shown = models.CharField(max_length=500, blank=True)

    class Meta:
        app_label = "campaigns"

    def __str__(self) -> str:
        return f"{self.token[:8]}… by {self.user_id}: {self.shown or '(open)'}"


def once_per_token(view):
    """Decorate a view whose POST creates a record (after ``login_required``): a POST with a
    token (:data:`FIELD`) runs once per token, as this module says; any other request runs
    the view as it is. The view answers a made record with a redirect, a refusal with its
    form again or with an error message (``django.contrib.messages``)."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        token = request.POST.get(FIELD, "") if request.method == "POST" else ""
        if not token:
            return view(request, *args, **kwargs)
        if not _SHAPE.fullmatch(token):
            return HttpResponseBadRequest("That form's one-time token is not one this site "
                                          "wrote: reload the page and send it again.")
        claim = _claim(token, request.path)
        with transaction.atomic():
            try:
                with transaction.atomic():
                    claimed = FormToken.objects.create(token=claim, user=request.user)
            except IntegrityError:
                return _sent_before(request, claim)
            earlier = len(messages.get_messages(request))
            response = view(request, *args, **kwargs)
            if (isinstance(response, HttpResponseRedirect)
                    and not _refused(request, earlier)):
                claimed.shown = response.url[:500]
                claimed.save(update_fields=["shown"])
            else:
                claimed.delete()
        FormToken.objects.filter(created_at__lt=timezone.now() - KEPT).delete()
        return response

    return wrapped


def _claim(token: str, path: str) -> str:
    """What :class:`FormToken` keeps of ``token`` posted to ``path``: their SHA-256, 64 hex
    digits (a token is one form's, and one form may post to two addresses)."""
    return hashlib.sha256(f"{path}\n{token}".encode()).hexdigest()


def _refused(request, earlier: int) -> bool:
    """Whether the view said no with an error message (and a redirect back to the page):
    one of the messages after the ``earlier`` ones the request came with. Reads them by the
    storage's public iteration (the earlier first, then those added), then marks the storage
    unused again, so that every message is still shown on the next page."""
    storage = messages.get_messages(request)
    levels = [message.level for message in storage][earlier:]
    storage.used = False
    return any(level >= messages.ERROR for level in levels)


def _sent_before(request, claim: str):
    earlier = FormToken.objects.filter(token=claim).first()
    if earlier is None or earlier.user_id != request.user.pk or not earlier.shown:
        return HttpResponseBadRequest("That form was already sent: reload the page to send "
                                      "it again.")
    messages.info(request, "That form was already sent: here is what it made.")
    return redirect(earlier.shown)
