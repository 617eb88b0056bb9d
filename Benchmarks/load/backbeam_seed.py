"""Seeds a Backbeam project for the benchmark: USERS users and COUNT places, each place with a `cat`
(one of CATS values, so an equality on `cat` matches COUNT/CATS places), a `name`, a `rating` and an
`author` (a to-one reference to one of the users). Every request is signed (backbeam_sign.py) and sent over
keep-alive connections from several threads, so the server's group commit sees concurrent writers.

Writes the place ids (one per line) to --ids and the cat values to --cats.
"""
import argparse
import http.client
import queue
import random
import sys
import threading
import time

from backbeam_sign import signed_query


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--host", default="api-dev-bench.example.com")
    ap.add_argument("--key", required=True)
    ap.add_argument("--secret", required=True)
    ap.add_argument("--count", type=int, default=100000)
    ap.add_argument("--users", type=int, default=1000)
    ap.add_argument("--cats", type=int, default=1000)
    ap.add_argument("--threads", type=int, default=32)
    ap.add_argument("--ids", required=True)
    ap.add_argument("--cats-file", required=True)
    args = ap.parse_args()
    started = time.monotonic()
    user_ids = run(args, "user", [lambda i: [("set-name", ["user %d" % i])]], args.users)
    rnd = random.Random(7)
    cats = ["cat%04d" % i for i in range(args.cats)]

    def place(i):
        return [("set-cat", [cats[i % len(cats)]]), ("set-name", ["Place %d" % i]),
                ("set-rating", [str(rnd.randint(0, 100))]), ("set-author", [user_ids[i % len(user_ids)]])]

    place_ids = run(args, "place", [place], args.count)
    with open(args.ids, "w") as f:
        f.write("\n".join(place_ids) + "\n")
    with open(args.cats_file, "w") as f:
        f.write("\n".join(cats) + "\n")
    elapsed = time.monotonic() - started
    print("seeded %d users and %d places in %.1f s (%.0f objects/s)"
          % (len(user_ids), len(place_ids), elapsed, (len(user_ids) + len(place_ids)) / elapsed))


def run(args, entity, makers, count):
    """Creates COUNT objects of ENTITY from the first maker; returns their ids in creation order."""
    work = queue.Queue()
    for i in range(count):
        work.put(i)
    ids = [None] * count
    errors = []

    def worker():
        conn = http.client.HTTPConnection("127.0.0.1", args.port, timeout=60)
        while True:
            try:
                i = work.get_nowait()
            except queue.Empty:
                break
            path = "/data/" + entity
            body = signed_query(makers[0](i), "POST", path, args.key, args.secret, int(time.time() * 1000))
            conn.request("POST", path, body=body, headers={
                "Host": args.host, "Content-Type": "application/x-www-form-urlencoded"})
            resp = conn.getresponse()
            data = resp.read()
            if resp.status != 201:
                errors.append(data[:200])
                continue
            # {"status":"Success","id":"<12 chars>",...}
            start = data.index(b'"id":"') + 6
            ids[i] = data[start:data.index(b'"', start)].decode()
        conn.close()

    threads = [threading.Thread(target=worker) for _ in range(args.threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        print("%d %s creations failed, first: %r" % (len(errors), entity, errors[0]), file=sys.stderr)
        sys.exit(1)
    return ids


if __name__ == "__main__":
    main()
