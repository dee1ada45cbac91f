"""Password hashing that yields the processor to the pages.

Checking a password is Django's PBKDF2 at full strength: 1,000,000 rounds, about a third of
a second of one core here. At the start of a session the whole table logs in at once, and
twenty logins kept both cores of a laptop busy for seconds: every page waited behind them
(benchmarks/pages.py measured p99 above 300 ms). :class:`YieldingPBKDF2PasswordHasher`
computes the same hashes with the same strength, on a few threads of its own that run at a
lower priority (nice :data:`NICENESS`, Linux, where a thread has a priority of its own): a
login still takes what the processor has left, and a page never waits for one.
"""

import base64
import hashlib
import os
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.utils.encoding import force_bytes

NICENESS = 10
"""How much lower hashing threads run than the thread that started them (nice values go
from 0, normal, to 19, the lowest)."""

_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def _lower_priority() -> None:
    if sys.platform == "linux":
        # On Linux the nice value belongs to the thread, not the process (setpriority(2)).
        thread = threading.get_native_id()
        now = os.getpriority(os.PRIO_PROCESS, thread)
        os.setpriority(os.PRIO_PROCESS, thread, min(19, now + NICENESS))


def _hashing_pool() -> ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=os.cpu_count() or 1,
                                       thread_name_prefix="password-hash",
                                       initializer=_lower_priority)
        return _pool


def pbkdf2_low_priority(password, salt, iterations: int, digest) -> bytes:
    """Django's ``django.utils.crypto.pbkdf2`` (str or bytes in, the digest's length out),
    computed on a lower-priority thread; blocks the caller until it is done."""
    return _hashing_pool().submit(hashlib.pbkdf2_hmac, digest().name, force_bytes(password),
                                  force_bytes(salt), iterations).result()


class YieldingPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    """Django's default hasher (``pbkdf2_sha256``, same rounds, same hashes), computed by
    :func:`pbkdf2_low_priority`."""

    def encode(self, password, salt, iterations=None):
        self._check_encode_args(password, salt)
        iterations = iterations or self.iterations
        raw = pbkdf2_low_priority(password, salt, iterations, self.digest)
        hash_ = base64.b64encode(raw).decode("ascii").strip()
        return f"{self.algorithm}${iterations}${salt}${hash_}"
