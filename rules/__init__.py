"""The rules kernel: pure Python, no Django, no I/O.

Every rule system here is a set of pure functions over plain, JSON-serialisable state.
All randomness goes through one object from :mod:`rules.random`, which records every
draw, so that a test, a battle or a whole campaign can be replayed from its seed.

Public modules:

* :mod:`rules.cards`  - playing cards and decks in the book's notation (``10S``, ``AH``, ``JK``).
* :mod:`rules.random` - the seeded and the scripted random source.
* :mod:`rules.engine` - the interface every encounter engine implements.
* :mod:`rules.btq`    - *Beat to Quarters*: card tests, odds, ships, ship-to-ship combat.
"""

import os as _os

if _os.environ.get("QUARTERDECK_PURE_PYTHON") == "1":
    # ``make fast`` puts modules compiled with mypyc beside their sources, and Python imports
    # an extension module before a source of the same name. With QUARTERDECK_PURE_PYTHON=1
    # the kernel's folders import their sources alone: the test that compares the compiled
    # and the interpreted kernel seed for seed runs both from one tree.
    import sys as _sys
    from importlib.machinery import SOURCE_SUFFIXES, FileFinder, SourceFileLoader

    _sources = FileFinder.path_hook((SourceFileLoader, SOURCE_SUFFIXES))
    for _folder, _subfolders, _files in _os.walk(__path__[0]):
        _subfolders[:] = [s for s in _subfolders if not s.startswith((".", "__"))]
        _sys.path_importer_cache[_folder] = _sources(_folder)
