#!/usr/bin/env python3
"""Crash durability: mixed writers against the Parse, Datastore, Couch and Backbeam APIs of a real `quartet serve`,
`kill -9` at a random moment, restart on the same data, and check that

  * every acknowledged write is there (Parse objects and their last acknowledged update, Datastore rows,
    Couch documents at their acknowledged revision or a later one the server may have committed before
    the kill, including documents pushed as a replicator pushes them (`_bulk_docs` with `new_edits=false`),
    Couch attachments and Backbeam files byte for byte (both go through the blob store: temporary file,
    fsync, rename, fsync of the folder), Backbeam objects);
  * `PRAGMA integrity_check` answers `ok` (through the sqlite3 command-line shell, read-only, while the
    restarted server runs: WAL readers do not disturb it);
  * no Datastore revision and no Couch `update_seq` went backwards (each is compared with the highest
    value any reply showed before the kill).

Usage: crash.py [--cycles N] [--binary PATH] [--seed S] [--min-run SECONDS] [--max-run SECONDS]
The server binds 127.0.0.1 on an ephemeral port; its data directory is a temporary one, removed at the
end unless --keep. Prints one line per cycle and a closing `N passed, N failed` line; exits non-zero on
any failure.
"""
import argparse
import base64
import hashlib
import hmac
import http.client
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
APP_ID = "crashApp"
MASTER_KEY = "crashMasterKey0123456789"
ADMIN_PASSWORD = "crash-admin-password"
DS_TOKEN = "static_crash_" + "0" * 30  # 43 characters, the issued alphabet
BB_KEY, BB_SECRET = "crash_key", "crash_secret"
ADMIN_AUTH = "Basic " + base64.b64encode(f"admin:{ADMIN_PASSWORD}".encode()).decode()


class Server:
    """One `quartet serve` process on an ephemeral loopback port."""

    def __init__(self, binary, data_dir, log):
        env = dict(os.environ)
        env.update({
            "QUARTET_PARSE_APP_ID": APP_ID,
            "QUARTET_PARSE_MASTER_KEY": MASTER_KEY,
            "QUARTET_ADMIN_PASSWORD": ADMIN_PASSWORD,
            "QUARTET_DATASTORE_STATIC_TOKENS": json.dumps({DS_TOKEN: "crash"}),
            "QUARTET_LOGGING_FORMAT": "text",
            "QUARTET_BACKBEAM_PROJECTS": json.dumps({"crash": {"dev": {"keys": [{"key": BB_KEY, "secret": BB_SECRET}]}}}),
        })
        self.proc = subprocess.Popen(
            [binary, "serve", "--host", "127.0.0.1", "--port", "0", "--data-dir", data_dir,
             "--migrations-dir", os.path.join(ROOT, "Migrations")],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
        self.port = None
        deadline = time.time() + 60
        pattern = re.compile(rb"listening on http://127\.0\.0\.1:(\d+)")
        while time.time() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            log.write(line.decode(errors="replace"))
            m = pattern.search(line)
            if m:
                self.port = int(m.group(1))
                break
        if self.port is None:
            self.kill()
            raise RuntimeError("server did not start; see the log")
        # Keep draining stdout so the server never blocks on a full pipe.
        self.drainer = threading.Thread(target=self._drain, args=(log,), daemon=True)
        self.drainer.start()

    def _drain(self, log):
        for line in self.proc.stdout:
            log.write(line.decode(errors="replace"))

    def kill(self):
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait()
        self._join_drainer()

    def _join_drainer(self):
        # The pipe reaches its end once the process is gone; the log is closed only after this.
        drainer = getattr(self, "drainer", None)
        if drainer is not None:
            drainer.join(timeout=10)

    def stop(self):
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()
        self._join_drainer()

    def request(self, method, path, body=None, headers=None, timeout=10, raw=False):
        """Returns (status, parsed JSON or None), or (status, bytes) when `raw`. Raises OSError/HTTPException
        when the server is gone."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            resp = conn.getresponse()
            data = resp.read()
        finally:
            conn.close()
        if raw:
            return resp.status, data
        try:
            return resp.status, json.loads(data) if data else None
        except ValueError:
            return resp.status, None

    def parse(self, method, path, obj=None, master=False):
        headers = {"X-Parse-Application-Id": APP_ID, "Content-Type": "application/json"}
        if master:
            headers["X-Parse-Master-Key"] = MASTER_KEY
        return self.request(method, "/parse" + path, None if obj is None else json.dumps(obj), headers)

    def datastore(self, endpoint, params, method="POST"):
        headers = {"Authorization": "Bearer " + DS_TOKEN}
        form = urllib.parse.urlencode(params)
        if method == "GET":
            return self.request("GET", f"/1/datastores/{endpoint}?{form}", headers=headers)
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        return self.request("POST", f"/1/datastores/{endpoint}", form, headers)

    @staticmethod
    def backbeam_signed(method, path, params):
        """`params` with the key, nonce, time and signature the SDKs add: HMAC-SHA1 over the sorted `name=value`
        pairs plus method and path (names here are ASCII, so byte order is the UTF-16 order the server uses)."""
        params = dict(params, key=BB_KEY, nonce=os.urandom(16).hex(), time=str(int(time.time() * 1000)))
        pairs = sorted(list(params.items()) + [("method", method), ("path", path)])
        canonical = "&".join(f"{k}={v}" for k, v in pairs).encode()
        params["signature"] = base64.b64encode(hmac.new(BB_SECRET.encode(), canonical, hashlib.sha1).digest()).decode()
        return params

    def backbeam(self, method, path, params):
        """A signed request, the parameters in the query (GET) or a url-encoded body."""
        form = urllib.parse.urlencode(self.backbeam_signed(method, path, params))
        if method == "GET":
            return self.request("GET", f"/backbeam/crash/dev{path}?{form}")
        return self.request(method, f"/backbeam/crash/dev{path}", form,
                            {"Content-Type": "application/x-www-form-urlencoded"})

    def backbeam_upload(self, data, content_type):
        """`POST /data/file/upload` as the browser SDK sends it: the signed parameters as form fields, then the
        `file` part (never signed)."""
        boundary = "crash" + os.urandom(8).hex()
        body = b""
        for name, value in self.backbeam_signed("POST", "/data/file/upload", {}).items():
            body += f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
        body += (f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="blob.bin"\r\n'
                 f"Content-Type: {content_type}\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
        return self.request("POST", "/backbeam/crash/dev/data/file/upload", body,
                            {"Content-Type": f"multipart/form-data; boundary={boundary}"})

    def couch(self, method, path, obj=None):
        headers = {"Authorization": ADMIN_AUTH, "Content-Type": "application/json"}
        return self.request(method, "/couch" + path, None if obj is None else json.dumps(obj), headers)


class Ledger:
    """What the server acknowledged, and the highest counters it showed, across all cycles."""

    def __init__(self):
        self.lock = threading.Lock()
        self.parse_created = {}      # objectId -> "w" value
        self.parse_counter = None    # objectId of the object updated in place
        self.parse_counter_acked = 0  # last acknowledged value of its "n"
        self.parse_counter_sent = 0   # highest value sent (may be committed without an answer)
        self.ds_handle = None
        self.ds_rows = set()          # row ids acknowledged
        self.ds_rev = 0               # highest revision seen in a reply
        self.couch_docs = {}          # id -> acknowledged rev
        self.couch_sent = {}          # id -> rev in flight (body sent, no answer yet)
        self.couch_seq = 0            # highest update_seq seen in a reply
        self.couch_attachments = {}   # document id -> SHA-256 of its acknowledged attachment's bytes
        self.backbeam_objects = {}    # id -> "w" value
        self.backbeam_files = {}      # file id -> SHA-256 of its acknowledged bytes
        self.couch_attachments_checked = set()  # read back after a restart at least once
        self.backbeam_files_checked = set()
        self.acked = 0


def rev_generation(rev):
    return int(rev.split("-", 1)[0])


def setup(server, ledger):
    status, body = server.parse("POST", "/classes/CrashCounter", {"n": 0})
    assert status == 201, (status, body)
    ledger.parse_counter = body["objectId"]
    status, body = server.datastore("get_or_create_datastore", {"dsid": "crash"})
    assert status == 200 and "handle" in body, (status, body)
    ledger.ds_handle = body["handle"]
    status, body = server.couch("PUT", "/crash")
    assert status == 201, (status, body)


def parse_writer(server, ledger, stop, counter_start):
    """Creates objects and updates one object's counter, alternately; each write waits for its answer."""
    n = counter_start
    i = 0
    while not stop.is_set():
        i += 1
        try:
            if i % 2:
                w = f"{os.getpid()}-{time.time_ns()}-{i}"
                status, body = server.parse("POST", "/classes/Crash", {"w": w, "pad": "x" * random.randint(0, 2000)})
                if status == 201:
                    with ledger.lock:
                        ledger.parse_created[body["objectId"]] = w
                        ledger.acked += 1
            else:
                n += 1
                with ledger.lock:
                    ledger.parse_counter_sent = n
                status, _ = server.parse("PUT", f"/classes/CrashCounter/{ledger.parse_counter}", {"n": n})
                if status == 200:
                    with ledger.lock:
                        ledger.parse_counter_acked = n
                        ledger.acked += 1
        except (OSError, http.client.HTTPException):
            return


def datastore_writer(server, ledger, stop, prefix):
    """Inserts a row per delta, at the revision the last reply gave."""
    i = 0
    while not stop.is_set():
        i += 1
        row = f"{prefix}-{i}"
        with ledger.lock:
            rev = ledger.ds_rev
        changes = json.dumps([["I", "rows", row, {"i": {"I": str(i)}, "pad": "y" * random.randint(0, 500)}]])
        try:
            status, body = server.datastore("put_delta", {"handle": ledger.ds_handle, "rev": rev, "changes": changes})
        except (OSError, http.client.HTTPException):
            return
        if status == 200 and body and "rev" in body:
            with ledger.lock:
                ledger.ds_rows.add(row)
                ledger.ds_rev = max(ledger.ds_rev, body["rev"])
                ledger.acked += 1
        elif status == 200 and body and "conflict" in body:
            # Another writer moved the revision: read it and go on.
            try:
                status, snap = server.datastore("get_snapshot", {"handle": ledger.ds_handle}, method="GET")
            except (OSError, http.client.HTTPException):
                return
            if status == 200:
                with ledger.lock:
                    ledger.ds_rev = max(ledger.ds_rev, snap["rev"])


def backbeam_writer(server, ledger, stop, prefix):
    """Creates objects of one entity through signed requests."""
    i = 0
    while not stop.is_set():
        i += 1
        w = f"{prefix}-{i}"
        try:
            status, body = server.backbeam("POST", "/data/item", {"set-w": w})
        except (OSError, http.client.HTTPException):
            return
        if status == 201 and body and body.get("status") == "Success":
            with ledger.lock:
                ledger.backbeam_objects[body["id"]] = w
                ledger.acked += 1


def couch_writer(server, ledger, stop, prefix):
    """Creates documents and updates the one created before, and reads update_seq now and then."""
    i = 0
    while not stop.is_set():
        i += 1
        try:
            doc_id = f"{prefix}-{i}"
            with ledger.lock:
                ledger.couch_sent[doc_id] = "1-"
            status, body = server.couch("PUT", f"/crash/{doc_id}", {"i": i})
            if status == 201:
                with ledger.lock:
                    ledger.couch_docs[doc_id] = body["rev"]
                    ledger.acked += 1
            if i > 1:
                prev = f"{prefix}-{i - 1}"
                with ledger.lock:
                    rev = ledger.couch_docs.get(prev)
                if rev:
                    with ledger.lock:
                        ledger.couch_sent[prev] = rev
                    status, body = server.couch("PUT", f"/crash/{prev}", {"_rev": rev, "i": -i})
                    if status == 201:
                        with ledger.lock:
                            ledger.couch_docs[prev] = body["rev"]
                            ledger.acked += 1
            if i % 3 == 0:
                status, body = server.couch("GET", "/crash")
                if status == 200:
                    with ledger.lock:
                        ledger.couch_seq = max(ledger.couch_seq, int(body["update_seq"]))
        except (OSError, http.client.HTTPException):
            return


def couch_replicated_writer(server, ledger, stop, prefix):
    """Pushes new documents as a replicator does: `_bulk_docs` with `new_edits=false`, 20 documents per batch,
    each with a 3-revision history. A batch answered 201 with no failures is acknowledged as a whole."""
    i = 0
    while not stop.is_set():
        i += 1
        docs = []
        for j in range(20):
            ids = [os.urandom(16).hex() for _ in range(3)]
            docs.append({"_id": f"{prefix}-r{i}-{j}", "_rev": f"3-{ids[0]}",
                         "_revisions": {"start": 3, "ids": ids}, "batch": i, "j": j})
        try:
            # `new_edits` last, as CouchDB's replicator writes it: the tree-less reader takes such bodies.
            status, body = server.couch("POST", "/crash/_bulk_docs", {"docs": docs, "new_edits": False})
        except (OSError, http.client.HTTPException):
            return
        if status == 201 and body == []:
            with ledger.lock:
                for doc in docs:
                    ledger.couch_docs[doc["_id"]] = doc["_rev"]
                ledger.acked += len(docs)


def couch_attachment_writer(server, ledger, stop, prefix):
    """Creates documents by a standalone attachment `PUT` (the body streamed to the blob store): random bytes,
    and compressible text that the server stores gzip-encoded, up to 96 KiB."""
    i = 0
    while not stop.is_set():
        i += 1
        doc_id = f"{prefix}-a{i}"
        size = random.randint(1, 96 * 1024)
        if i % 2:
            data, content_type = os.urandom(size), "application/octet-stream"
        else:
            data, content_type = (f"line {i} " * (size // 8 + 1)).encode()[:size], "text/plain"
        headers = {"Authorization": ADMIN_AUTH, "Content-Type": content_type}
        try:
            status, body = server.request("PUT", f"/couch/crash/{doc_id}/blob", data, headers)
        except (OSError, http.client.HTTPException):
            return
        if status == 201 and body and body.get("ok"):
            with ledger.lock:
                ledger.couch_docs[doc_id] = body["rev"]
                ledger.couch_attachments[doc_id] = hashlib.sha256(data).hexdigest()
                ledger.acked += 1


def backbeam_file_writer(server, ledger, stop):
    """Uploads files of up to 64 KiB (multipart, streamed to the blob store)."""
    while not stop.is_set():
        data = os.urandom(random.randint(1, 64 * 1024))
        try:
            status, body = server.backbeam_upload(data, "application/octet-stream")
        except (OSError, http.client.HTTPException):
            return
        if status == 201 and body and body.get("status") == "Success":
            with ledger.lock:
                ledger.backbeam_files[body["id"]] = hashlib.sha256(data).hexdigest()
                ledger.acked += 1


def integrity_check(db_path):
    out = subprocess.run(["sqlite3", "-readonly", db_path, "PRAGMA integrity_check;"],
                         capture_output=True, text=True, timeout=120)
    return out.stdout.strip() if out.returncode == 0 else f"sqlite3 failed: {out.stderr.strip()}"


def blob_sample(acknowledged, checked, older=100):
    """The entries of `acknowledged` not in `checked` (which then holds them) and up to `older` of those that
    were, at random."""
    new = [key for key in acknowledged if key not in checked]
    old = random.sample(sorted(checked), min(older, len(checked)))
    checked.update(new)
    return [(key, acknowledged[key]) for key in new + old]


def verify(server, ledger, db_path):
    """Every check after a restart; returns a list of failures."""
    failures = []
    # Parse: every acknowledged object, and the counter at its acknowledged value or the one in flight.
    stored, skip = {}, 0
    while True:
        # Pages of Parse's default maximum limit, in a stable order.
        status, body = server.parse("GET", f"/classes/Crash?limit=10000&skip={skip}&order=objectId&keys=w", master=True)
        if status != 200:
            failures.append(f"parse query {status}")
            break
        stored.update({o["objectId"]: o.get("w") for o in body["results"]})
        skip += 10000
        if len(body["results"]) < 10000:
            break
    if status == 200:
        missing = [k for k, w in ledger.parse_created.items() if stored.get(k) != w]
        if missing:
            failures.append(f"parse: {len(missing)} acknowledged objects missing, e.g. {missing[:3]}")
    status, body = server.parse("GET", f"/classes/CrashCounter/{ledger.parse_counter}", master=True)
    n = body.get("n") if status == 200 and body else None
    if n is None or not (ledger.parse_counter_acked <= n <= ledger.parse_counter_sent):
        failures.append(f"parse counter {n}, acknowledged {ledger.parse_counter_acked}, sent {ledger.parse_counter_sent}")
    else:
        # The next writer continues from what is stored.
        ledger.parse_counter_acked = ledger.parse_counter_sent = n
    # Datastore: revision not behind any reply, every acknowledged row present.
    status, snap = server.datastore("get_snapshot", {"handle": ledger.ds_handle}, method="GET")
    if status != 200:
        failures.append(f"datastore snapshot {status}")
    else:
        if snap["rev"] < ledger.ds_rev:
            failures.append(f"datastore revision went back: {snap['rev']} < {ledger.ds_rev}")
        rows = {r["rowid"] for r in snap["rows"]}
        missing = ledger.ds_rows - rows
        if missing:
            failures.append(f"datastore: {len(missing)} acknowledged rows missing, e.g. {sorted(missing)[:3]}")
        ledger.ds_rev = max(ledger.ds_rev, snap["rev"])
    # Couch: update_seq not behind any reply; each acknowledged document at its revision or a later one
    # that was sent before the kill.
    status, info = server.couch("GET", "/crash")
    if status != 200:
        failures.append(f"couch db info {status}")
    else:
        seq = int(info["update_seq"])
        if seq < ledger.couch_seq:
            failures.append(f"couch update_seq went back: {seq} < {ledger.couch_seq}")
        ledger.couch_seq = max(ledger.couch_seq, seq)
    bad = []
    doc_ids = list(ledger.couch_docs)
    for start in range(0, len(doc_ids), 5000):
        # `_all_docs` with `keys` gives each document's winning revision, 5,000 per request.
        keys = doc_ids[start:start + 5000]
        status, body = server.couch("POST", "/crash/_all_docs", {"keys": keys})
        if status != 200:
            bad.append(f"_all_docs: {status}")
            break
        stored = {row["key"]: row.get("value", {}).get("rev") for row in body["rows"]}
        for doc_id in keys:
            rev, found = ledger.couch_docs[doc_id], stored.get(doc_id)
            if found is None:
                bad.append(f"{doc_id}: missing")
            elif found != rev:
                in_flight = ledger.couch_sent.get(doc_id)
                if in_flight == rev and rev_generation(found) == rev_generation(rev) + 1:
                    ledger.couch_docs[doc_id] = found  # the update in flight was committed
                else:
                    bad.append(f"{doc_id}: {found} instead of {rev}")
    if bad:
        failures.append(f"couch: {len(bad)} documents wrong, e.g. {bad[:3]}")
    # Couch attachments: every one acknowledged since the last check and a sample of the older ones, byte for
    # byte (decoded when stored gzip-encoded). Reading all of them again after every cycle would make a long
    # run quadratic in the bytes uploaded.
    bad = []
    for doc_id, digest in blob_sample(ledger.couch_attachments, ledger.couch_attachments_checked):
        status, data = server.request("GET", f"/couch/crash/{doc_id}/blob", headers={"Authorization": ADMIN_AUTH},
                                      raw=True)
        if status != 200 or hashlib.sha256(data).hexdigest() != digest:
            bad.append(f"{doc_id}: {status}, {len(data)} bytes")
    if bad:
        failures.append(f"couch: {len(bad)} acknowledged attachments wrong, e.g. {bad[:3]}")
    # Backbeam files: every acknowledged upload, byte for byte (downloads are never signed).
    bad = []
    for file_id, digest in blob_sample(ledger.backbeam_files, ledger.backbeam_files_checked):
        status, data = server.request("GET", f"/backbeam/crash/dev/data/file/download/{file_id}/1", raw=True)
        if status != 200 or hashlib.sha256(data).hexdigest() != digest:
            bad.append(f"{file_id}: {status}, {len(data)} bytes")
    if bad:
        failures.append(f"backbeam: {len(bad)} acknowledged files wrong, e.g. {bad[:3]}")
    # Backbeam: every acknowledged object, with its value.
    bad = []
    for object_id, w in list(ledger.backbeam_objects.items()):
        status, body = server.backbeam("GET", f"/data/item/{object_id}", {})
        stored = (body or {}).get("objects", {}).get(object_id, {})
        if status != 200 or stored.get("w#t") != w:
            bad.append(f"{object_id}: {status} {stored}")
    if bad:
        failures.append(f"backbeam: {len(bad)} acknowledged objects wrong, e.g. {bad[:3]}")
    # Documents created without an answer may or may not exist; either is correct.
    ledger.couch_sent.clear()
    result = integrity_check(db_path)
    if result != "ok":
        failures.append(f"integrity_check: {result[:300]}")
    return failures


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cycles", type=int, default=3)
    ap.add_argument("--binary", default=os.environ.get("QUARTET_BINARY", os.path.join(ROOT, ".build/debug/quartet")))
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--min-run", type=float, default=0.3, help="shortest time writers run before the kill")
    ap.add_argument("--max-run", type=float, default=3.0, help="longest time writers run before the kill")
    ap.add_argument("--keep", action="store_true", help="keep the data directory and log")
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    random.seed(seed)
    if shutil.which("sqlite3") is None:
        sys.exit("crash.py needs the sqlite3 command-line shell (Debian package sqlite3)")
    if not os.access(args.binary, os.X_OK):
        sys.exit(f"no quartet binary at {args.binary}; run `swift build` first")

    work = tempfile.mkdtemp(prefix="quartet-crash-")
    data_dir = os.path.join(work, "data")
    os.makedirs(data_dir)
    log = open(os.path.join(work, "server.log"), "a", buffering=1)
    db_path = os.path.join(data_dir, "quartet.sqlite3")
    print(f"crash test: seed {seed}, {args.cycles} cycles, data in {data_dir}", flush=True)

    ledger = Ledger()
    passed = failed = 0
    started = time.time()
    server = Server(args.binary, data_dir, log)
    try:
        setup(server, ledger)
        for cycle in range(1, args.cycles + 1):
            stop = threading.Event()
            before = ledger.acked
            writers = [
                threading.Thread(target=parse_writer, args=(server, ledger, stop, ledger.parse_counter_acked)),
                threading.Thread(target=datastore_writer, args=(server, ledger, stop, f"c{cycle}a")),
                threading.Thread(target=datastore_writer, args=(server, ledger, stop, f"c{cycle}b")),
                threading.Thread(target=couch_writer, args=(server, ledger, stop, f"c{cycle}")),
                threading.Thread(target=backbeam_writer, args=(server, ledger, stop, f"c{cycle}")),
                threading.Thread(target=couch_replicated_writer, args=(server, ledger, stop, f"c{cycle}")),
                threading.Thread(target=couch_attachment_writer, args=(server, ledger, stop, f"c{cycle}")),
                threading.Thread(target=backbeam_file_writer, args=(server, ledger, stop)),
            ]
            for t in writers:
                t.start()
            time.sleep(random.uniform(args.min_run, args.max_run))
            server.kill()  # SIGKILL while the writers are mid-request
            stop.set()
            for t in writers:
                t.join(timeout=30)
            server = Server(args.binary, data_dir, log)
            failures = verify(server, ledger, db_path)
            acked = ledger.acked - before
            if failures:
                failed += 1
                print(f"cycle {cycle}: FAILED ({acked} writes acknowledged): " + "; ".join(failures), flush=True)
            else:
                passed += 1
                print(f"cycle {cycle}: ok ({acked} writes acknowledged; datastore rev {ledger.ds_rev}, "
                      f"couch update_seq {ledger.couch_seq})", flush=True)
    finally:
        server.stop()
        log.close()
    print(f"totals: {ledger.acked} acknowledged writes ({len(ledger.parse_created)} Parse objects, "
          f"{len(ledger.ds_rows)} Datastore rows, {len(ledger.couch_docs)} Couch documents "
          f"({len(ledger.couch_attachments)} with attachments), {len(ledger.backbeam_objects)} Backbeam objects, "
          f"{len(ledger.backbeam_files)} Backbeam files) in "
          f"{time.time() - started:.0f} s; seed {seed}")
    print(f"crash: {passed} passed, {failed} failed")
    if failed == 0 and not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    else:
        print(f"data and server log kept in {work}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
