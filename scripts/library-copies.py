#!/usr/bin/env python3
"""Copies of a book's records with fresh ids and keys, to measure the library with.

Usage: scripts/library-copies.py SRC_DIR DST_DIR M

Writes DST_DIR/puzzles.jsonl with M records taken from SRC_DIR/puzzles.jsonl in turn, record j
given index j (so the id <run>-j) and a canonical key of its own (blake2b of j), and copies
SRC_DIR/manifest.json beside it. They are copies that measure the database's load (imports,
file size, kills), not puzzles to print. The records are spliced as text, not re-encoded, so
ten million take minutes rather than an hour.
"""
import hashlib
import json
import shutil
import sys
from pathlib import Path

src, dst, m = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
dst.mkdir(parents=True, exist_ok=True)
parts = []
for line in open(src / "puzzles.jsonl"):
    r = json.loads(line)
    idx = f'"index":{r["index"]},'
    canon = f'"canonical":"{r["canonical"]}"'
    head, tail = line.rstrip("\n").split(canon)
    # The text before the id's index, between the id and the index, and around the key.
    pre, rest = head.split(f'"id":"{r["id"]}"')
    mid, after = rest.split(idx)
    prefix = r["id"][: -len(str(r["index"]))]
    parts.append((pre + '"id":"' + prefix, '"' + mid + '"index":', "," + after + '"canonical":"', '"' + tail + "\n"))
with open(dst / "puzzles.jsonl", "w", buffering=1 << 24) as out:
    k = len(parts)
    for j in range(m):
        a, b, c, d = parts[j % k]
        key = hashlib.blake2b(j.to_bytes(8, "little"), digest_size=16).hexdigest()
        out.write(f"{a}{j}{b}{j}{c}{key}{d}")
shutil.copy(src / "manifest.json", dst / "manifest.json")
