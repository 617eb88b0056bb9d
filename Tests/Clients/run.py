#!/usr/bin/env python3
"""Runs the test suites of three CouchDB client libraries against a built Quartet (checklist CD-193).

    python3 Tests/Clients/run.py [--binary .build/debug/quartet] [--suite NAME ...]   (or: make clients)

Needs PyPI (it is not part of `make test`). Everything it fetches or builds stays in the gitignored
scratch folder `.build-clients/`: a virtualenv with the pinned libraries and the suites' test
requirements, the libraries' sdists (their test suites ship there, nothing of them is committed) unpacked
fresh on every run, and one data directory per suite.

Each suite gets its own `quartet serve` on ephemeral loopback ports, with a generated admin password and
the Couch API at the root of a second listener (`couch.rootListen`), because the libraries expect
CouchDB at a server's root. The suites find it through the settings they read: COUCHDB_URL
(CouchDB-Python), COUCHDB_HOST/USER/PASS (aiocouch). pycouchdb's integration tests and one CouchDB-Python
test have the address `localhost:5984` written into their URLs: in the unpacked copy, the URLs with which
they reach the live server are pointed at the run's listener (and `admin:password` at the run's admin);
URLs they only parse, and everything else in the suites, stay as they are.

Excluded tests and the reason for each are in exclusions.py. The summary counts passed, failed, skipped
and excluded tests per suite and names the owning part of the API for known failures. Exit status 0
only when no test outside the exclusions failed.
"""

import argparse
import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import tarfile
import time
import xml.etree.ElementTree as ElementTree
from pathlib import Path

HERE = Path(__file__).resolve().parent
# No __pycache__ next to these files (nor, through the environment, from the suites' interpreters).
sys.dont_write_bytecode = True
os.environ["PYTHONDONTWRITEBYTECODE"] = "1"
sys.path.insert(0, str(HERE))
from exclusions import EXCLUDED, OWNER_PATTERNS, OWNERS  # noqa: E402

ROOT = HERE.parent.parent

# The libraries under test and what their suites need to run (versions pinned so runs are comparable).
LIBRARIES = {"couchdb-python": "CouchDB==1.2", "aiocouch": "aiocouch==4.0.1", "pycouchdb": "pycouchdb==1.17.1"}
TEST_REQUIREMENTS = [
    "pytest==9.2.0",
    "pytest-asyncio==1.5.0",  # aiocouch's async tests and fixtures
    "pytest-timeout==2.4.0",  # a hung request fails its test instead of the run
    "pytest-html==4.2.0",  # pycouchdb's conftest implements one of its hooks
    "packaging==26.4",  # aiocouch's tests compare server versions
    "aiohttp==3.14.5",
    "requests==2.34.2",
]
SDIST_DIRS = {"couchdb-python": "CouchDB-1.2", "aiocouch": "aiocouch-4.0.1", "pycouchdb": "pycouchdb-1.17.1"}
# Files whose hard-coded server URLs are pointed at the run's listener (see the module comment).
ADDRESS_FILES = {
    "couchdb-python": ["couchdb/tests/client.py"],
    "pycouchdb": ["test/integration/conftest.py", "test/integration/test_integration.py",
                  "test/integration/test_error_scenarios.py"],
}
PER_TEST_TIMEOUT = 120  # seconds; a test's longest wait is one _changes feed running to its 10 s end
SUITE_TIMEOUT = 1800  # seconds; CouchDB-Python's runner has no per-test limit, so a hung request ends here


def sh(args, **kwargs):
    print("+", " ".join(str(a) for a in args), flush=True)
    subprocess.run([str(a) for a in args], check=True, **kwargs)


def prepare_venv(scratch):
    """The virtualenv, reinstalled only when the pinned requirements change."""
    venv = scratch / "venv"
    python = venv / "bin" / "python"
    wanted = sorted(LIBRARIES.values()) + sorted(TEST_REQUIREMENTS)
    stamp = venv / "quartet-requirements.json"
    if python.exists() and stamp.exists() and json.loads(stamp.read_text()) == wanted:
        return python
    shutil.rmtree(venv, ignore_errors=True)
    sh([sys.executable, "-m", "venv", venv])
    sh([python, "-m", "pip", "install", "-q", "--disable-pip-version-check"] + wanted)
    stamp.write_text(json.dumps(wanted))
    return python


def unpack_suites(scratch, python):
    """Downloads the sdists (once) and unpacks a fresh copy of each."""
    sdists = scratch / "sdists"
    sdists.mkdir(parents=True, exist_ok=True)
    if len(list(sdists.glob("*.tar.gz"))) < len(LIBRARIES):
        sh([python, "-m", "pip", "download", "-q", "--disable-pip-version-check", "--no-deps",
            "--no-binary", ":all:", "-d", sdists] + list(LIBRARIES.values()))
    src = scratch / "src"
    shutil.rmtree(src, ignore_errors=True)
    src.mkdir()
    for archive in sorted(sdists.glob("*.tar.gz")):
        with tarfile.open(archive) as tar:
            try:
                tar.extractall(src, filter="data")
            except TypeError:  # Python before 3.11.4 has no extraction filters
                tar.extractall(src)
    return src


def point_at(directory, files, port, password):
    """Points the suite's URLs of the live server in `files` at the run's root listener."""
    # The credentials the suites use for the live server (other localhost:5984 URLs test URL parsing), and
    # pycouchdb's anonymous client of the live server.
    with_credentials = re.compile(r"http://(admin:password|invalid:credentials|root:password)@localhost:5984/")
    anonymous = "Server('http://localhost:5984/')"

    def replace(match):
        userinfo = "admin:" + password if match.group(1) == "admin:password" else match.group(1)
        return "http://%s@127.0.0.1:%d/" % (userinfo, port)

    for name in files:
        path = directory / name
        text, count = with_credentials.subn(replace, path.read_text())
        count += text.count(anonymous)
        text = text.replace(anonymous, "Server('http://127.0.0.1:%d/')" % port)
        if count == 0:
            sys.exit("%s: no localhost:5984 URL to point at the server (has the suite changed?)" % path)
        path.write_text(text)


class Quartet:
    """`quartet serve` on ephemeral loopback ports with the Couch API also at the root of a second listener."""

    def __init__(self, binary, data_dir, log_path):
        self.password = secrets.token_hex(16)
        shutil.rmtree(data_dir, ignore_errors=True)
        data_dir.mkdir(parents=True)
        # A continuous feed without heartbeat ends after couch.changesTimeout (CouchDB: 60 s); pycouchdb's
        # feed-reader tests wait for that end on an empty database, so a shorter limit keeps the run short.
        env = dict(os.environ, QUARTET_ADMIN_PASSWORD=self.password, QUARTET_COUCH_ROOT_LISTEN="127.0.0.1:0",
                   QUARTET_COUCH_CHANGES_TIMEOUT="10000")
        self.log = open(log_path, "w+")
        self.process = subprocess.Popen(
            [binary, "serve", "--host", "127.0.0.1", "--port", "0", "--data-dir", data_dir,
             "--migrations-dir", ROOT / "Migrations"],
            stdout=self.log, stderr=subprocess.STDOUT, env=env)
        self.port = self._root_port(log_path)

    def _root_port(self, log_path):
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            match = re.search(r"Couch API at the root of http://127\.0\.0\.1:(\d+)", log_path.read_text())
            if match:
                return int(match.group(1))
            if self.process.poll() is not None:
                break
            time.sleep(0.1)
        self.stop()
        sys.exit("quartet did not report its root listener; see " + str(log_path))

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


def run_logged(args, directory, env, results):
    """Runs one suite with its output in output.log next to `results`; False when it did not finish."""
    log_path = results.with_name("output.log")
    results.unlink(missing_ok=True)  # a file left by an earlier run must not pass for this one's
    with open(log_path, "w") as log:
        try:
            subprocess.run([str(a) for a in args], cwd=directory, env=env, stdout=log, stderr=subprocess.STDOUT,
                           timeout=SUITE_TIMEOUT)
        except subprocess.TimeoutExpired:
            return False
    return results.exists()


def unfinished(results):
    """The outcome of a suite that hung or crashed before writing its results."""
    detail = "the suite did not finish (see %s)" % results.with_name("output.log")
    return {"(whole suite)": {"outcome": "failed", "detail": detail}}


def run_couchdb_python(python, directory, server, results):
    env = dict(os.environ, PYTHONPATH=str(directory),
               COUCHDB_URL="http://admin:%s@127.0.0.1:%d/" % (server.password, server.port))
    args = [python, HERE / "couchdb_python_runner.py", results] + sorted(EXCLUDED["couchdb-python"])
    if not run_logged(args, directory, env, results):
        return unfinished(results)
    return json.loads(results.read_text())


def run_pytest(name, python, directory, test_dir, env, results):
    env = dict(os.environ, PYTHONPATH=str(HERE), QUARTET_CLIENTS_SUITE=name, **env)
    args = [python, "-m", "pytest", test_dir, "-p", "no:cacheprovider", "-p", "pytest_exclusions",
            "-o", "addopts=", "-rfEs", "--timeout", str(PER_TEST_TIMEOUT), "-W", "ignore::DeprecationWarning",
            "--junitxml", results]
    if not run_logged(args, directory, env, results):
        return unfinished(results)
    outcomes = {}
    rank = {"passed": 0, "skipped": 1, "failed": 2}
    for case in ElementTree.parse(results).iter("testcase"):
        node = node_id(case)
        outcome, detail = "passed", ""
        for child in case:
            if child.tag in ("failure", "error"):
                outcome, detail = "failed", (child.get("message") or "") + "\n" + (child.text or "")
            elif child.tag == "skipped" and outcome == "passed":
                outcome, detail = "skipped", child.get("message") or ""
        previous = outcomes.get(node)
        if previous is None or rank[outcome] > rank[previous["outcome"]]:
            outcomes[node] = {"outcome": outcome, "detail": detail[-2000:]}
    for node in EXCLUDED[name]:
        outcomes[node] = {"outcome": "excluded", "detail": ""}
    return outcomes


def node_id(case):
    """pytest's node id from a junit testcase: `classname` is `dir.module[.Class]`, `name` the function."""
    parts = case.get("classname", "").split(".")
    path_parts, classes = [], []
    for part in parts:
        (classes if classes or part[:1].isupper() else path_parts).append(part)
    return "/".join(path_parts) + ".py::" + "::".join(classes + [case.get("name", "")])


def run_suite(name, python, src, binary, scratch):
    directory = src / SDIST_DIRS[name]
    run_dir = scratch / "run" / name
    print("running %s (output and server log in %s)" % (name, run_dir), flush=True)
    run_dir.mkdir(parents=True, exist_ok=True)
    server = Quartet(binary, run_dir / "data", run_dir / "quartet.log")
    try:
        point_at(directory, ADDRESS_FILES.get(name, []), server.port, server.password)
        results = run_dir / "results.json" if name == "couchdb-python" else run_dir / "junit.xml"
        if name == "couchdb-python":
            return run_couchdb_python(python, directory, server, results)
        if name == "aiocouch":
            env = {"COUCHDB_HOST": "http://127.0.0.1:%d" % server.port, "COUCHDB_USER": "admin",
                   "COUCHDB_PASS": server.password}
            return run_pytest(name, python, directory, "tests", env, results)
        return run_pytest(name, python, directory, "test", {}, results)
    finally:
        server.stop()


def summarize(all_outcomes):
    print("\n== CD-193 client suites against Quartet ==")
    failed_any = False
    for name, outcomes in all_outcomes.items():
        counts = {k: 0 for k in ("passed", "failed", "skipped", "excluded")}
        for result in outcomes.values():
            counts[result["outcome"]] += 1
        print("%-15s passed %4d  failed %3d  skipped %3d  excluded %3d" % (
            name, counts["passed"], counts["failed"], counts["skipped"], counts["excluded"]))
        for test_id, result in sorted(outcomes.items()):
            if result["outcome"] == "failed":
                failed_any = True
                owner = OWNERS.get(name, {}).get(test_id) or next(
                    (area for suite, text, area in OWNER_PATTERNS if suite == name and text in result["detail"]),
                    "unexplained")
                last = (result["detail"].strip().splitlines() or [""])[-1][:160]
                print("    FAILED %s  [%s]  %s" % (test_id, owner, last))
    return failed_any


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=str(ROOT / ".build" / "debug" / "quartet"))
    parser.add_argument("--scratch", default=str(ROOT / ".build-clients"))
    parser.add_argument("--suite", action="append", choices=sorted(LIBRARIES), help="default: all three")
    args = parser.parse_args()
    binary = Path(args.binary).resolve()
    if not binary.exists():
        sys.exit("%s does not exist: run `swift build` first" % binary)
    scratch = Path(args.scratch).resolve()
    scratch.mkdir(parents=True, exist_ok=True)
    python = prepare_venv(scratch)
    src = unpack_suites(scratch, python)
    all_outcomes = {}
    for name in args.suite or list(LIBRARIES):
        all_outcomes[name] = run_suite(name, python, src, binary, scratch)
    (scratch / "summary.json").write_text(json.dumps(all_outcomes, indent=1, sort_keys=True))
    sys.exit(1 if summarize(all_outcomes) else 0)


if __name__ == "__main__":
    main()
