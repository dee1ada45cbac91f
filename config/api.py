"""API conventions shared by every app: JSON bodies read within bounds, and errors as
``{"detail": reason}`` (or the reasons per field) with a 4xx status."""

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import JsonResponse
from django.views import defaults
from rest_framework import exceptions, parsers, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from campaigns import json_input
from campaigns.services import Conflict


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser (the API's only one), bounded: a body nested deeper than
    :data:`campaigns.json_input.MAX_DEPTH`, or not strict UTF-8 JSON, is refused with a
    ``ParseError`` (400, ``{"detail": reason}``) before anything walks it. (DRF reads the body
    through ``request.body``, which refuses one over ``DATA_UPLOAD_MAX_MEMORY_SIZE``:
    :func:`exception_handler` answers that.)"""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return json_input.loads(stream.read())
        except json_input.JSONInputError as exc:
            raise exceptions.ParseError(str(exc)) from None


class PayloadTooLarge(exceptions.APIException):
    """A request body over ``DATA_UPLOAD_MAX_MEMORY_SIZE``: 413, ``{"detail": reason}``."""

    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE


def exception_handler(exc, context):
    """DRF's handler, plus what the services raise, so that a refusal never becomes a 500:

    * Django's ``ValidationError``: 400, ``{field: [reasons]}`` for the fields it names, else
      ``{"detail": reason}``;
    * a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE``: 413 (:class:`PayloadTooLarge`);
    * Django's other ``SuspiciousOperation`` (a form of too many fields): 400,
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
    elif isinstance(exc, RequestDataTooBig):
        exc = PayloadTooLarge(
            f"The request is too large: at most {settings.DATA_UPLOAD_MAX_MEMORY_SIZE:,} bytes.")
    elif isinstance(exc, SuspiciousOperation):
        exc = exceptions.ParseError(str(exc) or None)
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    return drf_exception_handler(exc, context)


def page_not_found(request, exception):
    """The site's 404 (``handler404``): under ``/api/`` (an address no API view matches,
    ``/api/ships/abc/``) the API's ``{"detail": reason}``, elsewhere the page."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "Not found."}, status=status.HTTP_404_NOT_FOUND)
    return defaults.page_not_found(request, exception)
