"""What the parked-connection benchmarks share (parked_awaits.py for Datastore, couch_longpoll.py for Couch):
reading the server's threads and RSS, percentiles, reading one answer off a parked socket, the wake-up
summary, and a descriptor limit large enough for every parked connection."""

import resource
import time


def proc_status(pid):
    """Threads and VmRSS (kB) of process `pid`, from /proc."""
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("Threads", "VmRSS"):
                out[key] = int(value.split()[0])
    return out


def percentile(values, p):
    """The nearest-rank p-th percentile of `values` (nan when empty)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, int(round(p / 100 * len(ordered) + 0.5)) - 1))
    return ordered[k]


async def read_response(reader):
    """Status, body and arrival time (perf_counter at the end of the head) of one Content-Length answer."""
    head = await reader.readuntil(b"\r\n\r\n")
    arrived = time.perf_counter()
    status = int(head.split(b" ", 2)[1])
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    body = await reader.readexactly(length)
    return status, body, arrived


def wake_summary(before, during, after, woken, early, failed, sent, acked, groups, write_name):
    """The result fields both benchmarks report: threads and RSS before, while parked and after; how many
    waiters were woken, answered early or failed; wake-up latency from the write sent (an upper bound of
    commit to answer) and from its acknowledgement (a lower bound); the write's own time. Waiter i was
    woken by the write to group i % groups."""
    upper = [(woken[i] - sent[i % groups]) * 1000 for i in woken]
    lower = [(woken[i] - acked[i % groups]) * 1000 for i in woken]
    return {
        "threads_before": before["Threads"], "threads_parked": during["Threads"], "threads_after": after["Threads"],
        "rss_kb_before": before["VmRSS"], "rss_kb_parked": during["VmRSS"], "rss_kb_after": after["VmRSS"],
        "woken": len(woken), "early_answers": len(early), "failures": len(failed), "first_failure": failed[:1],
        "wake_ms_from_sent_p50": round(percentile(upper, 50), 2), "wake_ms_from_sent_p99": round(percentile(upper, 99), 2),
        "wake_ms_from_sent_max": round(max(upper, default=float("nan")), 2),
        "wake_ms_from_ack_p50": round(percentile(lower, 50), 2), "wake_ms_from_ack_p99": round(percentile(lower, 99), 2),
        f"{write_name}_ms_p50": round(percentile([(a - s) * 1000 for s, a in zip(sent, acked)], 50), 2),
    }


def raise_descriptor_limit(connections):
    """Raises the soft descriptor limit to hold `connections` sockets and some spare (up to the hard limit)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = connections + 256
    if soft < need:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(max(need, soft), hard), hard))
