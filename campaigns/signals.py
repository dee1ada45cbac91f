"""What ``campaigns`` tells the apps above it (DESIGN.md, "Layers": a lower app never imports
a higher one, so it announces and they react).

``member_removed`` is sent inside the transaction that removes a member, after the
membership is gone, with ``membership`` (the deleted :class:`campaigns.models.Membership`,
its ``campaign`` and ``user`` still set) and ``actor`` (who removed them). A receiver's
change is part of that transaction: if it fails, the member stays.

``voyage_recalled`` is sent inside the transaction that ends a voyage (the ship recalled to
Britain, BtQ L1432), with ``voyage`` (:class:`campaigns.missions.models.Voyage`) and
``actor``: the characters' careers count it (promotion asks for Voyages, BtQ L2158-2198).

``session_ended`` is sent inside the transaction that ends a session, with ``session``
(:class:`campaigns.missions.models.Session`) and ``actor``: what lasts a session on the
sheets comes back (Is But A Scratch's level, under the setting ``scratch_resets``).
"""

from django.dispatch import Signal

member_removed = Signal()
voyage_recalled = Signal()
session_ended = Signal()
