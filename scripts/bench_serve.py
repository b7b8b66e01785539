"""Load benchmark of ``tiersolve serve``: 32 concurrent clients on loopback for a
bounded time; requests per second, median and 99th-percentile latency, for single
positions with their moves (``GET /api/NAME?position=``) and for batches
(``POST /api/NAME/lookup``); and whether every answer equals the library's.

The load comes from ``wrk`` (Debian's package: ``apt-get install wrk``), a C client
with keep-alive connections, so that on two cores the client is not the bottleneck
(a Python client would be). Each of its 32 connections is one client with one
request in flight. Every answer is checked twice:

* under load, by wrk's Lua ``response`` hook: a status other than 200, or a body
  that is not byte for byte one of the library's answers to the requests sent,
  counts as a failure. (The body of a single position names its position, so a
  right body is the right answer to that position.)
* after the load, one request at a time for every distinct request: the answer must
  equal, byte for byte, the library's answer to exactly that request.

The library's answers come from ``open_database`` in this process (``lookup`` and
``moves``), serialised with orjson as the server does. The positions are random:
the ends of random games of random length from the start, all distinct.

Three runs: single positions and batches from a server that computes every answer
(``--cache 0``), then single positions again from a server that keeps its answers
(the default, ``--cache``), once each has been asked (the verification pass).

    tiersolve build domineering --rows 5 --cols 5 --quiet
    python scripts/bench_serve.py db/domineering_5x5.h5                 # 2 workers, 10 s each
    python scripts/bench_serve.py db/domineering_5x5.h5 --workers 1 --seconds 5 --json
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

import orjson

from tiersolve.databases import open_database

#: The Lua script wrk runs: requests from a file, cycled with a per-thread offset,
#: and each answer checked against the set of right answers.
WRK_SCRIPT = r"""
local requests_file, answers_file = "%(requests)s", "%(answers)s"
local threads = {}
local counter = 0

function setup(thread)
  counter = counter + 1
  thread:set("offset", counter * 7919)
  table.insert(threads, thread)
end

function init(args)
  requests, valid = {}, {}
  for line in io.lines(requests_file) do
    local method, path, body = line:match("^(%%S+) (%%S+) ?(.*)$")
    if method == "POST" then
      table.insert(requests, wrk.format("POST", path, {["Content-Type"] = "application/json"}, body))
    else
      table.insert(requests, wrk.format("GET", path))
    end
  end
  for line in io.lines(answers_file) do valid[line] = true end
  index = offset or 0
  answered, failed, wrong = 0, 0, 0
end

function request()
  index = index + 1
  return requests[(index %% #requests) + 1]
end

function response(status, headers, body)
  answered = answered + 1
  if status ~= 200 then
    failed = failed + 1
  elseif not valid[body] then
    wrong = wrong + 1
  end
end

function done(summary, latency, requests)
  local answered_all, failed_all, wrong_all = 0, 0, 0
  for _, thread in ipairs(threads) do
    answered_all = answered_all + thread:get("answered")
    failed_all = failed_all + thread:get("failed")
    wrong_all = wrong_all + thread:get("wrong")
  end
  local e = summary.errors
  io.write(string.format(
    'BENCH {"requests": %%d, "microseconds": %%d, "median_us": %%d, "p99_us": %%d, ' ..
    '"max_us": %%d, "answered": %%d, "not_200": %%d, "wrong": %%d, "connect_errors": %%d, ' ..
    '"read_errors": %%d, "write_errors": %%d, "timeouts": %%d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    latency.max, answered_all, failed_all, wrong_all, e.connect, e.read, e.write, e.timeout))
end
"""


def random_positions(db, count: int, seed: int) -> list[str]:
    """``count`` distinct positions: where random games of random length end."""
    rng = random.Random(seed)
    found: dict[str, None] = {}
    attempts = 0
    while len(found) < count and attempts < count * 20:
        attempts += 1
        position = db.start
        for _ in range(rng.randrange(0, 40)):
            moves = db.moves(position)
            if not moves:
                break
            position = rng.choice(moves).position
        found[position] = None
    return list(found)


def single_answer(db, position: str) -> bytes:
    """The library's answer to ``GET /api/NAME?position=``, as the server encodes it."""
    record = db.lookup(position)
    return orjson.dumps({"game": db.game.describe(), "position": record.position,
                         "value": record.value, "remoteness": record.remoteness,
                         "moves": [m.as_dict() for m in db.moves(position)]})


def batch_answer(db, positions: list[str]) -> bytes:
    """The library's answer to ``POST /api/NAME/lookup``."""
    return orjson.dumps({"results": [{"value": r.value, "remoteness": r.remoteness}
                                     for r in map(db.lookup, positions)]})


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(path: Path, workers: int, cache: int) -> tuple[subprocess.Popen, int]:
    """``tiersolve serve FILE`` on a free port; returns once every worker answers."""
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "tiersolve", "serve", str(path), "--port",
                               str(port), "--workers", str(workers), "--cache", str(cache)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 300
    answered = 0
    while time.monotonic() < deadline and answered < 4 * workers:
        if server.poll() is not None:
            raise SystemExit(f"bench_serve: the server stopped: {server.stderr.read()}")
        try:
            status, _ = fetch(port, "GET", "/api/databases")
            answered += status == 200
        except OSError:
            time.sleep(0.5)
    time.sleep(2.0 if workers > 1 else 0.2)  # the other workers finish opening the files
    return server, port


def fetch(port: int, method: str, path: str, body: bytes | None = None) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request(method, path, body=body)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def load(port: int, requests: list[tuple[str, str, bytes]], answers: list[bytes],
         seconds: float, clients: int, threads: int, folder: Path) -> dict:
    """Run wrk with the requests cycled; its summary, with the checks' counts."""
    requests_file, answers_file = folder / "requests.txt", folder / "answers.txt"
    requests_file.write_bytes(b"".join(f"{m} {p} ".encode() + body + b"\n"
                                       for m, p, body in requests))
    answers_file.write_bytes(b"".join(a + b"\n" for a in answers))
    script = folder / "bench.lua"
    script.write_text(WRK_SCRIPT % {"requests": requests_file, "answers": answers_file})
    done = subprocess.run(["wrk", "-t", str(threads), "-c", str(clients), "-d", f"{seconds:g}s",
                           "--timeout", "10s", "-s", str(script), f"http://127.0.0.1:{port}"],
                          capture_output=True, text=True, timeout=seconds + 120)
    line = re.search(r"^BENCH (.*)$", done.stdout, flags=re.M)
    if done.returncode != 0 or line is None:
        raise SystemExit(f"bench_serve: wrk failed: {done.stdout}{done.stderr}")
    result = json.loads(line[1])
    result["requests_per_second"] = result["requests"] / (result["microseconds"] / 1e6)
    result["failures"] = (result["not_200"] + result["wrong"] + result["connect_errors"] +
                          result["read_errors"] + result["write_errors"] + result["timeouts"])
    return result


def verify(port: int, requests: list[tuple[str, str, bytes]], answers: list[bytes]) -> int:
    """Send each distinct request once; how many answers differ from the library's."""
    differ = 0
    for (method, path, body), expected in zip(requests, answers):
        status, answer = fetch(port, method, path, body or None)
        differ += status != 200 or answer != expected
    return differ


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        allow_abbrev=False,
        prog="bench_serve.py", formatter_class=argparse.RawDescriptionHelpFormatter,
        description=__doc__.split("\n\n")[0],
        epilog="example:\n  python scripts/bench_serve.py db/domineering_5x5.h5 --seconds 10")
    parser.add_argument("file", metavar="FILE.h5", help="the database to serve")
    parser.add_argument("--seconds", type=float, default=10.0, help="load per kind (default 10)")
    parser.add_argument("--clients", type=int, default=32, help="concurrent clients (default 32)")
    parser.add_argument("--workers", type=int, default=2, help="server processes (default 2)")
    parser.add_argument("--threads", type=int, default=2, help="wrk threads (default 2)")
    parser.add_argument("--positions", type=int, default=5000,
                        help="distinct single positions (default 5000)")
    parser.add_argument("--batch", type=int, default=100, help="positions a batch (default 100)")
    parser.add_argument("--batches", type=int, default=200, help="distinct batches (default 200)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    if shutil.which("wrk") is None:
        return print("bench_serve.py: error: needs wrk (apt-get install wrk)", file=sys.stderr) or 2
    path = Path(args.file)
    name = path.stem
    with open_database(path) as db:
        positions = random_positions(db, args.positions, args.seed)
        singles = [("GET", f"/api/{quote(name)}?position={quote(p)}", b"") for p in positions]
        single_answers = [single_answer(db, p) for p in positions]
        rng = random.Random(args.seed + 1)
        groups = [rng.sample(positions, min(args.batch, len(positions))) for _ in range(args.batches)]
        batches = [("POST", f"/api/{quote(name)}/lookup", orjson.dumps(g)) for g in groups]
        batch_answers = [batch_answer(db, g) for g in groups]
        description = db.game.describe()
    results = {"database": description, "workers": args.workers, "clients": args.clients,
               "seconds": args.seconds, "distinct_positions": len(positions),
               "batch_size": args.batch}
    with tempfile.TemporaryDirectory() as folder:
        # every answer computed: a server that keeps none (--cache 0)
        server, port = start_server(path, args.workers, cache=0)
        try:
            for kind, requests, answers in [("single", singles, single_answers),
                                            ("batch", batches, batch_answers)]:
                result = load(port, requests, answers, args.seconds, args.clients, args.threads,
                              Path(folder))
                result["verified"] = len(requests)
                result["differ_when_verified"] = verify(port, requests, answers)
                results[kind] = result
        finally:
            server.terminate()
            server.wait(timeout=30)
        # the same positions again from a server that keeps its answers (the default):
        # the verification pass first, which also fills the workers' caches
        server, port = start_server(path, args.workers, cache=max(args.positions, 10_000))
        try:
            differ = verify(port, singles, single_answers) + verify(port, singles, single_answers)
            result = load(port, singles, single_answers, args.seconds, args.clients,
                          args.threads, Path(folder))
            result["verified"] = len(singles)
            result["differ_when_verified"] = differ
            results["single_kept"] = result
        finally:
            server.terminate()
            server.wait(timeout=30)
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print(f"{description}, {args.workers} server worker(s), {args.clients} clients (wrk), "
              f"{args.seconds:g} s each, {len(positions):,} distinct positions")
        for kind, label in [("single", "single positions with moves, computed"),
                            ("batch", f"batches of {args.batch}, computed"),
                            ("single_kept", "single positions with moves, answers kept")]:
            r = results[kind]
            extra = f" ({r['requests_per_second'] * args.batch:,.0f} positions/s)" \
                if kind == "batch" else ""
            print(f"  {label}: {r['requests_per_second']:,.0f} requests/s{extra}, median "
                  f"{r['median_us'] / 1000:.1f} ms, p99 {r['p99_us'] / 1000:.1f} ms; "
                  f"{r['requests']:,} requests, {r['failures']} failed; {r['verified']:,} distinct "
                  f"requests verified one by one, {r['differ_when_verified']} differ from the library")
    failed = any(results[k]["failures"] or results[k]["differ_when_verified"]
                 for k in ("single", "batch", "single_kept"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
