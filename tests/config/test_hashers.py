"""Password hashing at a lower priority: the same hashes as Django's default hasher, at
its full strength, computed on threads that yield the processor to the pages."""

import os
import sys
import threading

import pytest
from django.contrib.auth.hashers import (
    PBKDF2PasswordHasher,
    check_password,
    make_password,
)

from config import hashers


def test_the_default_hasher_is_djangos_pbkdf2_at_full_strength():
    import config.settings  # the tests' own fixture swaps in a fast hasher

    assert config.settings.PASSWORD_HASHERS[0] == "config.hashers.YieldingPBKDF2PasswordHasher"
    hasher = hashers.YieldingPBKDF2PasswordHasher()
    assert hasher.algorithm == "pbkdf2_sha256"
    assert hasher.iterations == PBKDF2PasswordHasher.iterations >= 1_000_000


@pytest.mark.parametrize("password", ["quarterdeck-demo", "Ünïcödé ⚓", ""])
def test_same_hashes_as_djangos_both_ways(password):
    ours, django = hashers.YieldingPBKDF2PasswordHasher(), PBKDF2PasswordHasher()
    salt = django.salt()
    assert ours.encode(password, salt, 1000) == django.encode(password, salt, 1000)
    assert ours.verify(password, django.encode(password, salt, 1000))
    assert not ours.verify(password + "x", django.encode(password, salt, 1000))
    assert check_password(password, make_password(password))


@pytest.mark.skipif(sys.platform != "linux", reason="a thread's own priority is Linux's")
def test_hashing_runs_on_lower_priority_threads_and_leaves_the_callers_alone():
    seen = []

    def spy(*args):
        seen.append((threading.current_thread().name,
                     os.getpriority(os.PRIO_PROCESS, threading.get_native_id())))
        return b"x"

    before = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    hashers._hashing_pool().submit(spy).result()
    (name, niceness), = seen
    assert name.startswith("password-hash")
    assert niceness == min(19, before + hashers.NICENESS)
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == before
