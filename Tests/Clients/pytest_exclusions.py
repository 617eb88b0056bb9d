"""pytest plugin (`-p pytest_exclusions`) that deselects the excluded tests of one suite.

run.py loads it with the suite's name in QUARTET_CLIENTS_SUITE. The ids in exclusions.py are node ids
relative to the sdist's root; an id that matches no collected test stops the run, so the list cannot go
stale silently.
"""

import os

import pytest

from exclusions import EXCLUDED


def pytest_collection_modifyitems(session, config, items):
    excluded = EXCLUDED[os.environ["QUARTET_CLIENTS_SUITE"]]
    unknown = set(excluded) - {item.nodeid for item in items}
    if unknown:
        raise pytest.UsageError("excluded ids that name no test: " + ", ".join(sorted(unknown)))
    kept = [item for item in items if item.nodeid not in excluded]
    config.hook.pytest_deselected(items=[item for item in items if item.nodeid in excluded])
    items[:] = kept
