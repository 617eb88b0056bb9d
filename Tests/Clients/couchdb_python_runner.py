"""Runs CouchDB-Python's own test suite (`couchdb.tests.suite()`) minus the excluded tests.

Started by run.py inside the clients' virtualenv, with COUCHDB_URL pointing at Quartet's root listener.
Usage: couchdb_python_runner.py RESULTS.json EXCLUDED_ID...

Each test is named by its unittest id (`couchdb.tests.client.DatabaseTestCase.test_view`, or
`couchdb.client.Database.query` for a doctest). Excluded ids are removed before the run; an excluded id
that names no test stops the run, so the exclusion list cannot go stale silently.
"""

import json
import sys
import unittest

from couchdb.tests.__main__ import suite


def flatten(s):
    for t in s:
        if isinstance(t, unittest.TestSuite):
            yield from flatten(t)
        else:
            yield t


class Recorder(unittest.TextTestResult):
    """Keeps one outcome per test id, with the first lines of the failure."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.outcomes = {}

    def _note(self, test, outcome, detail=""):
        self.outcomes[test.id()] = {"outcome": outcome, "detail": detail[-2000:]}

    def addSuccess(self, test):
        super().addSuccess(test)
        self._note(test, "passed")

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._note(test, "failed", self._exc_info_to_string(err, test))

    def addError(self, test, err):
        super().addError(test, err)
        self._note(test, "failed", self._exc_info_to_string(err, test))

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._note(test, "skipped", reason)


def main():
    out_path, excluded = sys.argv[1], set(sys.argv[2:])
    tests = list(flatten(suite()))
    ids = {t.id() for t in tests}
    unknown = sorted(excluded - ids)
    if unknown:
        sys.exit("excluded ids that name no test: " + ", ".join(unknown))
    kept = unittest.TestSuite(t for t in tests if t.id() not in excluded)
    runner = unittest.TextTestRunner(resultclass=Recorder, verbosity=1)
    result = runner.run(kept)
    for test_id in excluded:
        result.outcomes[test_id] = {"outcome": "excluded", "detail": ""}
    with open(out_path, "w") as f:
        json.dump(result.outcomes, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
