"""Per-request memory of the viewer's roles (:func:`campaigns.selectors.roles_remembered`):
a page asks whether its viewer is a GM in many places, the database once."""

from asgiref.sync import iscoroutinefunction
from django.utils.decorators import sync_and_async_middleware

from campaigns.selectors import roles_remembered


@sync_and_async_middleware
def remember_roles(get_response):
    """Middleware: each request remembers the roles it looked up, until it is answered."""
    if iscoroutinefunction(get_response):
        async def middleware(request):
            with roles_remembered():
                return await get_response(request)
    else:
        def middleware(request):
            with roles_remembered():
                return get_response(request)
    return middleware
