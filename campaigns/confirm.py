"""The confirmation step of a destructive action, without JavaScript: the action's URL
answers GET with a page that asks the question and holds the POST form, and only the POST
changes anything (the API's endpoints are separate and unchanged)."""

from django.shortcuts import render


def confirmation(request, *, question: str, consequence: str, button: str, back: str,
                 fields: dict | None = None, form=None, once: bool = False):
    """The page asking ``question`` (``consequence`` says what cannot be undone) whose form
    posts to the same URL with the hidden ``fields`` (name -> value) and ``form``'s fields,
    under ``button``; ``back`` is where "Keep it" goes. ``once``: the form carries a
    one-time token, for a view that is ``campaigns.once.once_per_token`` (a double tap acts
    once). Status 200; nothing is changed."""
    return render(request, "confirm.html", {
        "question": question, "consequence": consequence, "button": button, "back": back,
        "fields": sorted((fields or {}).items()), "form": form, "once": once,
    })
