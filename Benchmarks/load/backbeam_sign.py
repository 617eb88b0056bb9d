"""Backbeam request signing (spec §3.3) for the benchmark tools: the canonical string and HMAC-SHA1.

Standard library only. Parameters are (name, [values]) pairs; `method` and `path` are the effective method
and the path after any /backbeam/<project>/<env> prefix.
"""
import base64
import hashlib
import hmac
import os
import urllib.parse

SKIPPED = {"", "_", "callback", "_method", "signature", "method", "path"}


def utf16_key(text):
    """Sort key by UTF-16 code units, the order of NSString compare:, Java TreeMap and JS sort."""
    return text.encode("utf-16-be")


def canonical(params, method, path):
    merged = {}
    for name, values in params:
        if name in SKIPPED:
            continue
        merged.setdefault(name, []).extend(values)
    merged["method"] = [method]
    merged["path"] = [path]
    tokens = []
    for name in sorted(merged, key=utf16_key):
        for value in sorted(merged[name], key=utf16_key):
            tokens.append(name + "=" + value)
    return "&".join(tokens)


def signature(secret, text):
    digest = hmac.new(secret.encode(), text.encode(), hashlib.sha1).digest()
    return base64.b64encode(digest).decode()


def signed_query(params, method, path, key, secret, time_ms, nonce=None):
    """The URL-encoded query (or form body) of a signed request: params, key, nonce, time, signature."""
    nonce = nonce or os.urandom(16).hex()
    all_params = list(params) + [("key", [key]), ("nonce", [nonce]), ("time", [str(time_ms)])]
    all_params.append(("signature", [signature(secret, canonical(all_params, method, path))]))
    pairs = []
    for name, values in all_params:
        for value in values:
            pairs.append(urllib.parse.quote(name, safe="") + "=" + urllib.parse.quote(value, safe=""))
    return "&".join(pairs)
