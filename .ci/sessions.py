"""Run nox sessions on every core, each session in its own process, and time each one.

    python .ci/sessions.py --logs DIR [--workers N] -- SELECTION [SELECTION ...]

Each SELECTION is a nox selection (``-s tests``, ``-t breakpoint-pythons``, ``-s package``);
the sessions they name run in the order given, each on the first free worker, so the workers
finish within about one session of each other whatever the sessions cost. Every session's
output goes to DIR/<number>.log, which is printed whole when the session ends, with its time.
The summary gives each session's time, each worker's busy time and the wall time. Exit status
is 0 only when every session succeeded.

Standard library only: it runs in the CI tools' virtualenv beside nox.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Outcome:
    name: str
    worker: int
    seconds: float
    succeeded: bool


def minutes(seconds: float) -> str:
    return f"{int(seconds // 60)} min {int(seconds % 60):02d} s"


def listed_sessions(selection: list[str]) -> list[str]:
    """The names of the sessions a nox selection runs, in nox's order."""
    listing = subprocess.run(
        ["nox", "-l", "--json", *selection], capture_output=True, text=True, check=True
    ).stdout
    return [session["session"] for session in json.loads(listing)]


def split_selections(arguments: list[str]) -> list[list[str]]:
    """``-s a b -t c`` as [["-s", "a"], ["-s", "b"], ["-t", "c"]]: one selection per name."""
    selections: list[list[str]] = []
    flag = ""
    for argument in arguments:
        if argument in ("-s", "-t"):
            flag = argument
        elif not flag:
            raise SystemExit(f"sessions.py: {argument!r} follows no -s or -t")
        else:
            selections.append([flag, argument])
    return selections


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--logs", type=Path, required=True)
    parser.add_argument("--workers", type=int, default=len(os.sched_getaffinity(0)))
    parser.add_argument("selection", nargs=argparse.REMAINDER)
    options = parser.parse_args()
    arguments = [a for a in options.selection if a != "--"]
    names = [name for s in split_selections(arguments) for name in listed_sessions(s)]
    if not names:
        print("CI: nox selected no sessions", file=sys.stderr)
        return 1
    options.logs.mkdir(parents=True, exist_ok=True)
    print(f"CI: {len(names)} sessions on {options.workers} workers", flush=True)

    queue = list(enumerate(names))
    lock = threading.Lock()
    outcomes: list[Outcome] = []
    running: set[subprocess.Popen[bytes]] = set()

    def stop(signum: int, frame: object) -> None:
        """Stopped (SIGTERM, SIGINT): start nothing more, and stop what runs."""
        with lock:
            queue.clear()
            for process in running:  # each session and what it started: its own group
                os.killpg(process.pid, signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    def work(worker: int) -> None:
        while True:
            with lock:
                if not queue:
                    return
                number, name = queue.pop(0)
            log = options.logs / f"{number:03d}.log"
            start = time.monotonic()
            with log.open("w") as out, lock:
                process = subprocess.Popen(
                    ["nox", "-s", name, "--error-on-missing-interpreters"],
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    stdin=subprocess.DEVNULL,
                    start_new_session=True,
                )
                running.add(process)
            code = process.wait()
            with lock:
                running.discard(process)
            seconds = time.monotonic() - start
            succeeded = code == 0 and f"Session {name} was successful" in log.read_text()
            with lock:
                outcomes.append(Outcome(name, worker, seconds, succeeded))
                print(log.read_text(), end="", flush=True)
                verdict = "succeeded" if succeeded else f"FAILED (exit {code})"
                print(f"CI: [{worker}] {name} {verdict} in {minutes(seconds)}", flush=True)

    start = time.monotonic()
    threads = [threading.Thread(target=work, args=(w + 1,)) for w in range(options.workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.monotonic() - start

    print("\nCI: session times, slowest first")
    for outcome in sorted(outcomes, key=lambda o: -o.seconds):
        mark = "" if outcome.succeeded else "  FAILED"
        print(f"CI:   {minutes(outcome.seconds)}  [{outcome.worker}] {outcome.name}{mark}")
    for worker in range(1, options.workers + 1):
        busy = sum(o.seconds for o in outcomes if o.worker == worker)
        count = sum(1 for o in outcomes if o.worker == worker)
        print(f"CI: worker {worker}: {count} sessions, busy {minutes(busy)}")
    failed = [o.name for o in outcomes if not o.succeeded]
    print(
        f"CI: {len(outcomes) - len(failed)} of {len(names)} sessions succeeded in {minutes(wall)}"
    )
    for name in failed:
        print(f"CI: failed: {name}", file=sys.stderr)
    return 1 if failed or len(outcomes) != len(names) else 0


if __name__ == "__main__":
    sys.exit(main())
