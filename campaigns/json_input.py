"""JSON text from outside, read within bounds.

Every API body (``config.api.JSONParser``) and every form field that holds JSON
(``campaigns.forms.JSONField``) is read by :func:`loads`, so that a body nested thousands of
levels deep, too long, or not strict JSON is refused with a reason (a 400) instead of
exhausting the parser (a ``RecursionError``: a 500) or reaching the database (``NaN``).
"""

import json
import re

MAX_DEPTH = 32
"""The deepest nesting of arrays and objects accepted. Our deepest real input is three
levels (a ship's ``overrides`` ``{"boxes": {"hull": [2, 3, 2]}}``)."""

_SPECIAL = re.compile(r'[\[\]{}"]')
_STRING_REST = re.compile(r'(?:[^"\\]|\\.)*"', re.DOTALL)


class JSONInputError(ValueError):
    """The text is refused; ``str()`` says why, in words for the person who sent it."""


def nesting_depth(text: str, *, limit: int = MAX_DEPTH) -> int:
    """The deepest nesting of ``[`` and ``{`` in ``text`` outside strings, counted in one
    pass and without parsing; stops counting as soon as it passes ``limit`` (and returns
    ``limit + 1``). Text after an unterminated string is not counted: it is invalid JSON."""
    level = deepest = 0
    pos = 0
    while match := _SPECIAL.search(text, pos):
        char = match.group()
        pos = match.end()
        if char == '"':
            rest = _STRING_REST.match(text, pos)
            if rest is None:
                break
            pos = rest.end()
        elif char in "[{":
            level += 1
            if level > deepest:
                deepest = level
                if deepest > limit:
                    break
        else:
            level -= 1
    return deepest


def _refuse_constant(name: str):
    raise JSONInputError(f"{name} is not a JSON value.")


def loads(text: str | bytes, *, max_bytes: int | None = None,
          max_depth: int = MAX_DEPTH):
    """The value of the JSON ``text`` (``str``, or UTF-8 ``bytes``). Raises
    :class:`JSONInputError`, with the reason, for text longer than ``max_bytes`` (when
    given), nested deeper than ``max_depth``, not valid strict JSON (``NaN`` and
    ``Infinity`` are not JSON), with a number too long to read, or with a text that holds a
    NUL or a lone surrogate (:func:`_check_texts`)."""
    if max_bytes is not None and len(
        text.encode("utf-8") if isinstance(text, str) else text
    ) > max_bytes:
        raise JSONInputError(f"The JSON is too large: at most {max_bytes} bytes.")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JSONInputError(f"The JSON is not UTF-8: {exc}.") from None
    if nesting_depth(text, limit=max_depth) > max_depth:
        raise JSONInputError(
            f"The JSON is nested too deep: at most {max_depth} levels of arrays and objects.")
    try:
        value = json.loads(text, parse_constant=_refuse_constant)
    except JSONInputError:
        raise
    except ValueError as exc:  # JSONDecodeError, or an integer of thousands of digits
        raise JSONInputError(f"Enter a valid JSON: {exc}.") from None
    _check_texts(value)
    return value


_UNSTORABLE = re.compile(r"[\x00\ud800-\udfff]")
"""What no text of ours may hold: a NUL (PostgreSQL refuses it) or half of a surrogate pair
(``"\\ud800"`` in JSON decodes to text that cannot be written out as UTF-8 again)."""


def _check_texts(value) -> None:
    """Refuse (:class:`JSONInputError`) a string or object key anywhere in ``value`` that
    holds a NUL or a lone surrogate; ``value`` is at most :data:`MAX_DEPTH` deep."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            texts = (item,)
        elif isinstance(item, dict):
            texts = tuple(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
            continue
        else:
            continue
        for text in texts:
            if _UNSTORABLE.search(text):
                raise JSONInputError("Text may not hold a null character or half of a "
                                     "surrogate pair (\\u0000, \\ud800-\\udfff).")
