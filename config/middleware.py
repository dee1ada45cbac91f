"""Site-wide answers that a view's own decorators leave bare."""

from django.http import Http404, HttpResponseNotAllowed
from django.shortcuts import render
from django.urls import Resolver404, resolve, reverse

#: The methods a person's browser uses to open an address (typing it, a link, a reload).
_OPENING = ("GET", "HEAD")


def _page_above(path: str) -> str | None:
    """The nearest address above ``path`` that some page answers (``/combat/7/odds/`` ->
    ``/combat/7/``), or ``None`` when none is below the site's root. Only the address is
    matched, no record is looked up: whether the viewer may see it is that page's to say."""
    parts = [part for part in path.split("/") if part]
    while len(parts) > 1:
        parts.pop()
        above = "/" + "/".join(parts) + "/"
        try:
            match = resolve(above)
        except (Resolver404, Http404):
            continue
        if match.url_name:
            return above
    return None


def form_only_page(get_response):
    """Middleware: an address that takes only a form's submission (``require_POST``, the
    logout view), opened by a browser (``GET``/``HEAD``), answers the site's page that says
    so with a way back, still with status 405 and its ``Allow`` header, where Django's
    answer is an empty body that browsers show as their own error page.

    The way back is the nearest address above it that a page answers (the battle, the
    campaign), else the home page; it is derived from the address alone, so an outsider
    learns nothing of what exists. The API's 405 (DRF's JSON ``Response``) and a 405 to
    any other method are left as they are."""

    def middleware(request):
        response = get_response(request)
        if type(response) is not HttpResponseNotAllowed or request.method not in _OPENING:
            return response
        above = _page_above(request.path_info)
        page = render(request, "405.html", {
            "back": above or reverse("campaigns:list"), "home": above is None,
        }, status=405)
        page["Allow"] = response["Allow"]
        return page

    return middleware
