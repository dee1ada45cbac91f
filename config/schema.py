"""The OpenAPI schema's conventions, for every operation of every app at once: the error
answers each one gives (``config.api.exception_handler`` shapes them), so that no view has to
list them.

* 400 ``Error``: every write (POST, PUT, PATCH, DELETE) and every operation with query
  parameters: bad input, or a step the rules refuse;
* 403 ``Error``: every operation: not logged in, or not yours to do;
* 404 ``Error``: every operation with a path parameter: no such record, or one you may not
  see (outsiders cannot learn that it exists);
* 409 ``Conflict``: every write whose body carries the ``version`` the user saw: saved by
  someone since, or in a state that no longer allows the step.

An answer an operation documents itself (``extend_schema(responses=...)``) is kept.
"""

from drf_spectacular import openapi
from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers

from campaigns.api_common import ConflictSerializer, OneOfForViewer

WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class ErrorSerializer(serializers.Serializer):
    """A refusal (400, 403, 404): ``detail``, the reason; or, for bad input, the reasons per
    field named (``{"name": ["This field may not be blank."]}``, nested for the items of a
    list or mapping)."""

    detail = serializers.CharField(required=False, help_text="The reason.")


class _ErrorSerializerSchema(OpenApiSerializerExtension):
    """``Error`` may carry, beside ``detail``, the reasons per field: any other property."""

    target_class = ErrorSerializer

    def map_serializer(self, auto_schema, direction):
        schema = auto_schema._map_basic_serializer(self.target, direction)
        schema["additionalProperties"] = {
            "description": "A field's reasons: a list of them, or per item of a list or key "
                           "of a mapping."}
        return schema


class _OneOfForViewerSchema(OpenApiSerializerExtension):
    """:class:`campaigns.api_common.OneOfForViewer` as its component: ``anyOf`` its
    choices (each a subset of the next, so ``oneOf`` could not tell them apart)."""

    target_class = OneOfForViewer

    def get_name(self, auto_schema, direction):
        return self.target.component_name

    def map_serializer(self, auto_schema, direction):
        return {"anyOf": [auto_schema.resolve_serializer(choice, direction).ref
                          for choice in self.target.choices]}


ERRORS = {
    "400": OpenApiResponse(ErrorSerializer, "Bad input (the reasons per field or in "
                                            "detail), or a step the rules refuse."),
    "403": OpenApiResponse(ErrorSerializer, "Not logged in, or not yours to do."),
    "404": OpenApiResponse(ErrorSerializer, "No such record, or none you may see."),
    "409": OpenApiResponse(ConflictSerializer, "Saved by someone since the version you "
                                               "gave, or in a state that no longer allows "
                                               "this step: the version now saved."),
}


class AutoSchema(openapi.AutoSchema):
    """drf-spectacular's AutoSchema, adding to each operation the error answers of the module
    docstring."""

    def error_codes(self, operation: dict) -> list[str]:
        """The error statuses ``operation`` (the OpenAPI operation as built) may answer."""
        locations = {p.get("in") for p in operation.get("parameters", [])}
        codes = ["403"]
        if self.method in WRITE_METHODS or "query" in locations:
            codes.append("400")
        if "path" in locations:
            codes.append("404")
        if self.method in WRITE_METHODS and self._carries_version():
            codes.append("409")
        return sorted(codes)

    def _carries_version(self) -> bool:
        serializer = openapi.force_instance(self.get_request_serializer())
        return isinstance(serializer, serializers.Serializer) and "version" in serializer.fields

    def get_operation(self, path, path_regex, path_prefix, method, registry):
        operation = super().get_operation(path, path_regex, path_prefix, method, registry)
        if operation is None:
            return None
        responses = operation["responses"]
        for code in self.error_codes(operation):
            if code not in responses:
                responses[code] = self._get_response_for_code(ERRORS[code], code)
        return operation
