#!/usr/bin/env python3
"""The worst body of each write endpoint, at the largest size the configured limits allow, and how long each
held Quartet's single writer (issue 19: no request within the limits may hold it for more than 100 ms).

    worst_bodies.py --port P [--repeat 3] [--only NAME,...] [--json FILE]

Keys from the environment: PARSE_APP_ID, PARSE_REST_KEY, PARSE_MASTER_KEY, DS_TOKEN (a Datastore token of
the server). The limits default to Quartet's defaults; pass the server's values when it runs with others
(--max-fields-per-class, --max-fields-per-write, --max-array-items, --max-schema-changes, --batch-max,
--max-json-values, --max-upload, --max-object, --ds-delta, --ds-record, --ds-body).

Each case sets up what it needs (not measured), then sends its body once per repetition, one request at a
time, and reads /metrics right before and after: the writer's hold is the growth of
quartet_storage_job_duration_seconds_sum (the time write jobs' bodies ran, without the commit), the commit
time that of quartet_storage_commit_duration_seconds_sum (BEGIN to COMMIT: jobs plus the fsync). The client
waits for each answer, and nothing else writes meanwhile, so the growth is this request's own. A body the
limits refuse is reported too: its refusal must be cheap as well.
"""
import argparse
import http.client
import json
import os
import re
import statistics
import sys
import time
import urllib.parse

STRING_OVERHEAD = 16  # bytes of JSON around one string member: quotes, key, colon, comma


class Client:
    def __init__(self, port):
        self.port = port

    def request(self, method, path, body=None, headers=None, timeout=600):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        data = body.encode() if isinstance(body, str) else body
        started = time.monotonic()
        conn.request(method, path, body=data, headers=headers or {})
        resp = conn.getresponse()
        payload = resp.read()
        elapsed = time.monotonic() - started
        conn.close()
        return resp.status, payload, elapsed

    def metrics(self):
        _, payload, _ = self.request("GET", "/metrics")
        text = payload.decode()

        def value(name):
            m = re.search(r"^%s (\S+)$" % re.escape(name), text, re.M)
            return float(m.group(1)) if m else 0.0
        return {"job": value("quartet_storage_job_duration_seconds_sum"),
                "jobs": value("quartet_storage_job_duration_seconds_count"),
                "commit": value("quartet_storage_commit_duration_seconds_sum")}


def parse_headers(master=False):
    h = {"Content-Type": "application/json", "X-Parse-Application-Id": os.environ["PARSE_APP_ID"],
         "X-Parse-REST-API-Key": os.environ["PARSE_REST_KEY"]}
    if master:
        h["X-Parse-Master-Key"] = os.environ["PARSE_MASTER_KEY"]
    return h


def dumps(value):
    return json.dumps(value, separators=(",", ":"))


def numbers_filling(nbytes, start=0, max_values=None):
    """Consecutive integers whose JSON array is about `nbytes` long, and no more than `max_values` of them."""
    out, size, n = [], 2, start
    while size < nbytes and (max_values is None or len(out) < max_values):
        text_len = len(str(n)) + 1
        out.append(n)
        size += text_len
        n += 1
    return out


class Cases:
    """Each case: (name, setup() -> state, body(state, repetition) -> (method, path, body, headers))."""

    def __init__(self, client, args):
        self.c = client
        self.a = args
        self.seq = 0

    def unique(self, prefix):
        self.seq += 1
        return "%s%d%d" % (prefix, os.getpid(), self.seq)

    def create(self, cls, obj, master=False):
        status, payload, _ = self.c.request("POST", "/parse/classes/" + cls, dumps(obj), parse_headers(master))
        if status != 201:
            raise SystemExit("set-up create %s: %s %s" % (cls, status, payload[:200]))
        return json.loads(payload)["objectId"]

    def big_object_budget(self):
        # Room for the stored object's own text below the object limit.
        return self.a.max_object - 4096

    # Parse ---------------------------------------------------------------------------------------------

    def parse_create_new_fields(self):
        """A new class with as many new fields as a request may add, each a string, filling the object limit."""
        n = min(self.a.max_fields_per_class, self.a.max_schema_changes - 1, self.a.max_fields_per_write)
        size = max(1, self.big_object_budget() // n - STRING_OVERHEAD)

        def body(_, rep):
            value = "x" * size
            return "POST", "/parse/classes/" + self.unique("Wide"), dumps({"f%d" % i: value for i in range(n)}), parse_headers()
        return None, body, "%d new fields of %d bytes in a new class" % (n, size)

    def array_value_budget(self):
        """Most elements of an array in a body that holds the body's object and the array besides
        (server.maxJsonValues counts every value)."""
        return self.a.max_json_values - 2

    def parse_create_many_numbers(self):
        """One field holding integers up to the object limit: the most values to serialize."""
        values = numbers_filling(self.big_object_budget(), max_values=self.array_value_budget())

        def body(_, rep):
            return "POST", "/parse/classes/Numbers", dumps({"a": values}), parse_headers()
        return None, body, "an array of %d integers" % len(values)

    def parse_create_many_keys(self):
        """One Object field with as many keys as fit the object limit."""
        n = self.big_object_budget() // 20   # "k123456":123456, is 17 to 19 bytes

        def body(_, rep):
            return "POST", "/parse/classes/Keys", dumps({"o": {"k%d" % i: i for i in range(n)}}), parse_headers()
        return None, body, "an Object of %d keys" % n

    def parse_update_dotted(self):
        """The most dotted-path deletions a write may carry, into an Object of as many keys as the object
        limit allows (the object is loaded, changed and stored again)."""
        n = self.big_object_budget() // 20   # "k123456":123456, is 17 to 19 bytes
        k = self.a.max_fields_per_write

        def setup():
            return [self.create("Dotted", {"o": {"k%d" % i: i for i in range(n)}}) for _ in range(self.a.repeat)]

        def body(ids, rep):
            return ("PUT", "/parse/classes/Dotted/" + ids[rep],
                    dumps({"o.k%d" % (i * (n // k)): {"__op": "Delete"} for i in range(k)}), parse_headers())
        return setup, body, "%d dotted deletions in an Object of %d keys" % (k, n)

    def parse_array_op(self, op):
        """AddUnique or Remove with the most objects an operation may carry, on an array filling the object
        limit."""
        stored = numbers_filling(self.big_object_budget(), max_values=self.array_value_budget())
        k = self.a.max_array_items

        def setup():
            return [self.create("Arrays", {"a": stored}) for _ in range(self.a.repeat)]

        def body(ids, rep):
            # Half already present, half new (for Remove: half present, half absent).
            objects = [i * 2 for i in range(k // 2)] + [-(i + 1) for i in range(k - k // 2)]
            return ("PUT", "/parse/classes/Arrays/" + ids[rep], dumps({"a": {"__op": op, "objects": objects}}),
                    parse_headers())
        return setup, body, "%s of %d objects on an array of %d" % (op, k, len(stored))

    def parse_add_relation(self):
        k = self.a.max_array_items

        def setup():
            return [self.create("Owner", {"n": 1}) for _ in range(self.a.repeat)]

        def body(ids, rep):
            ptrs = [{"__type": "Pointer", "className": "Member", "objectId": "m%07d" % i} for i in range(k)]
            return ("PUT", "/parse/classes/Owner/" + ids[rep], dumps({"r": {"__op": "AddRelation", "objects": ptrs}}),
                    parse_headers())
        return setup, body, "AddRelation of %d pointers" % k

    def parse_batch_transaction(self):
        """A transactional batch (one write job) of the most sub-requests, filling the body limit."""
        n = self.a.batch_max
        per = max(1, (self.a.max_upload - 4096) // n - 120)
        fields = max(1, min(self.a.max_fields_per_write, self.a.max_fields_per_class, self.a.max_schema_changes - 1,
                            per // 40))
        size = max(1, per // fields - STRING_OVERHEAD)

        def body(_, rep):
            item = {"f%d" % i: "x" * size for i in range(fields)}
            reqs = [{"method": "POST", "path": "/parse/classes/Batched", "body": item} for _ in range(n)]
            return "POST", "/parse/batch", dumps({"transaction": True, "requests": reqs}), parse_headers()
        return None, body, "%d creates of %d fields in one transaction" % (n, fields)

    def parse_schemas_create(self):
        n = min(self.a.max_fields_per_class, self.a.max_schema_changes - 1)

        def body(_, rep):
            fields = {"f%d" % i: {"type": "String"} for i in range(n)}
            return "POST", "/parse/schemas/" + self.unique("Declared"), dumps({"fields": fields}), parse_headers(True)
        return None, body, "POST /schemas with %d fields" % n

    def parse_refused_keys(self):
        n = 40_000

        def body(_, rep):
            return "POST", "/parse/classes/Flood", dumps({"k%d" % i: i for i in range(n)}), parse_headers()
        return None, body, "%d new keys (refused)" % n

    # Datastore -----------------------------------------------------------------------------------------

    def ds(self, endpoint, params):
        body = urllib.parse.urlencode(params)
        headers = {"Authorization": "Bearer " + os.environ["DS_TOKEN"],
                   "Content-Type": "application/x-www-form-urlencoded"}
        return "POST", "/1/datastores/" + endpoint, body, headers

    def ds_handles(self, count, first_delta=None):
        handles = []
        for _ in range(count):
            method, path, body, headers = self.ds("get_or_create_datastore", {"dsid": self.unique("worst")})
            status, payload, _ = self.c.request(method, path, body, headers)
            handle = json.loads(payload)["handle"]
            if first_delta is not None:
                method, path, body, headers = self.ds("put_delta", {"handle": handle, "rev": 0, "changes": dumps(first_delta)})
                status, payload, _ = self.c.request(method, path, body, headers)
                if status != 200 or b'"rev"' not in payload:
                    raise SystemExit("set-up put_delta: %s %s" % (status, payload[:200]))
            handles.append(handle)
        return handles

    def ds_put(self, changes, first_delta, text):
        rev = 0 if first_delta is None else 1

        def setup():
            return self.ds_handles(self.a.repeat, first_delta)

        def body(handles, rep):
            return self.ds("put_delta", {"handle": handles[rep], "rev": rev, "changes": dumps(changes)})
        return setup, body, text

    def ds_inserts(self):
        n = (self.a.ds_delta - 100) // 100
        return self.ds_put([["I", "t", "r%d" % i, {}] for i in range(n)], None, "%d record inserts" % n)

    def ds_list_front(self):
        # Each change 200 bytes by the accounting; the list must end within the record limit to be accepted,
        # so half the inserts are deleted again.
        n = (self.a.ds_delta - 300) // 200
        ins = n // 2 + 1
        changes = [["U", "t", "r", {"l": ["LI", 0, 1]}] for _ in range(ins)]
        changes += [["U", "t", "r", {"l": ["LD", 0]}] for _ in range(n - ins)]
        return self.ds_put(changes, [["I", "t", "r", {"l": []}]], "%d list inserts at the front, %d deletions" % (ins, n - ins))

    def ds_field_deletes(self):
        budget = self.a.ds_delta - 400
        fields = budget // 300
        changes = [["U", "t", "r", {"f%d" % i: ["P", 1] for i in range(fields)}]]
        changes += [["U", "t", "r", {"f%d" % i: ["D"]}] for i in range(fields)]
        return self.ds_put(changes, [["I", "t", "r", {}]], "%d fields added, then deleted one change at a time" % fields)

    def ds_big_values(self):
        per = self.a.ds_record - 300
        n = (self.a.ds_delta - 100) // (per + 300)
        changes = [["I", "t", "r%d" % i, {"s": "x" * per}] for i in range(n)]
        return self.ds_put(changes, None, "%d records of %d bytes" % (n, per))

    def ds_refused(self):
        n = self.a.ds_body // 90   # about 77 bytes per change once form-encoded
        changes = [["I", "t", "r", {"l": []}]] + [["U", "t", "r", {"l": ["LI", 0, 1]}] for _ in range(n)]
        return self.ds_put(changes, None, "%d list inserts in a body of the body limit (refused)" % n)

    def all(self):
        return [
            ("parse-create-new-fields", self.parse_create_new_fields),
            ("parse-create-many-numbers", self.parse_create_many_numbers),
            ("parse-create-many-keys", self.parse_create_many_keys),
            ("parse-update-dotted", self.parse_update_dotted),
            ("parse-addunique", lambda: self.parse_array_op("AddUnique")),
            ("parse-remove", lambda: self.parse_array_op("Remove")),
            ("parse-addrelation", self.parse_add_relation),
            ("parse-batch-transaction", self.parse_batch_transaction),
            ("parse-schemas-create", self.parse_schemas_create),
            ("parse-40000-keys-refused", self.parse_refused_keys),
            ("ds-put-inserts", self.ds_inserts),
            ("ds-put-list-front", self.ds_list_front),
            ("ds-put-field-deletes", self.ds_field_deletes),
            ("ds-put-big-values", self.ds_big_values),
            ("ds-put-oversized-refused", self.ds_refused),
        ]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", default="")
    ap.add_argument("--json")
    ap.add_argument("--max-fields-per-class", type=int, default=500)
    ap.add_argument("--max-fields-per-write", type=int, default=1000)
    ap.add_argument("--max-array-items", type=int, default=10_000)
    ap.add_argument("--max-schema-changes", type=int, default=500)
    ap.add_argument("--batch-max", type=int, default=1000)
    ap.add_argument("--max-upload", type=int, default=20 << 20)
    ap.add_argument("--max-object", type=int, default=16 << 20)
    ap.add_argument("--max-json-values", type=int, default=1_000_000)
    ap.add_argument("--ds-delta", type=int, default=2_306_867)
    ap.add_argument("--ds-record", type=int, default=112_640)
    ap.add_argument("--ds-body", type=int, default=32 << 20)
    args = ap.parse_args()
    client = Client(args.port)
    cases = Cases(client, args)
    only = set(filter(None, args.only.split(",")))
    results = []
    print("%-26s %6s %9s %9s %9s %5s  %s" % ("case", "status", "hold ms", "commit ms", "answer ms", "jobs", "body"))
    for name, make in cases.all():
        if only and name not in only:
            continue
        setup, body, text = make()
        state = setup() if setup else None
        holds, commits, answers, statuses, sizes, jobs = [], [], [], [], [], []
        for rep in range(args.repeat):
            method, path, payload, headers = body(state, rep)
            before = client.metrics()
            status, answer, elapsed = client.request(method, path, payload, headers)
            after = client.metrics()
            holds.append((after["job"] - before["job"]) * 1000)
            commits.append((after["commit"] - before["commit"]) * 1000)
            answers.append(elapsed * 1000)
            statuses.append(status)
            sizes.append(len(payload))
            jobs.append(int(after["jobs"] - before["jobs"]))
            if status >= 300 and "refused" not in name:
                print("  %s answered %d: %s" % (name, status, answer[:200].decode(errors="replace")), file=sys.stderr)
        row = {"case": name, "body": text, "bytes": max(sizes), "statuses": statuses, "jobs": max(jobs),
               "hold_ms_max": round(max(holds), 2), "hold_ms_median": round(statistics.median(holds), 2),
               "commit_ms_max": round(max(commits), 2), "answer_ms_max": round(max(answers), 1)}
        results.append(row)
        print("%-26s %6s %9.2f %9.2f %9.1f %5d  %s, %.1f MB" % (
            name, "/".join(sorted(set(map(str, statuses)))), row["hold_ms_max"], row["commit_ms_max"],
            row["answer_ms_max"], row["jobs"], text, row["bytes"] / 1e6), flush=True)
    worst = max((r for r in results), key=lambda r: r["hold_ms_max"], default=None)
    if worst:
        print("longest hold: %s %.2f ms (goal: at most 100 ms)" % (worst["case"], worst["hold_ms_max"]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
