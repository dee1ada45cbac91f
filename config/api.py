"""API conventions shared by every app: errors as ``{"detail": reason}`` with a 4xx status."""

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from campaigns.services import Conflict


def exception_handler(exc, context):
    """DRF's handler, plus what the services raise, so that a refusal never becomes a 500:

    * Django's ``ValidationError``: 400, ``{field: [reasons]}`` for the fields it names, else
      ``{"detail": reason}``;
    * ``PermissionDenied``: 403, ``{"detail": reason}``;
    * :class:`campaigns.services.Conflict` (a stale version, a step the record's state no
      longer allows): 409, ``{"detail": reason, "version": the version now saved}``.
    """
    if isinstance(exc, Conflict):
        return Response({"detail": str(exc), "version": exc.obj.version},
                        status=status.HTTP_409_CONFLICT)
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(
            exc.message_dict if hasattr(exc, "error_dict")
            else {"detail": " ".join(exc.messages)}
        )
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    return drf_exception_handler(exc, context)
