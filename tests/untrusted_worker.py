"""The reading half of the fuzz test in tests/test_untrusted_files.py, run as its own
process so that the test can kill it if a file makes it hang.

    python untrusted_worker.py INTACT.h5 ...

It reads every intact database given, noting what each answers (the truth), says
``ready``, then reads lines ``INTACT_NUMBER DAMAGED_PATH`` on stdin and answers each
with one JSON line: ``{"outcome": "right" | "refused" | "wrong" | "crash", "detail": ...}``.
"right": every answer equals the intact file's; "refused": a DatabaseError (one
printable line) came before any wrong answer; "wrong" and "crash" fail the test.
"""

from __future__ import annotations

import json
import sys
import traceback

import numpy as np

from tiersolve.databases import open_database
from tiersolve.errors import DatabaseError

#: Positions looked up in each file (besides its start), at most.
SAMPLE = 24


class WrongAnswer(Exception):
    """A damaged copy answered something its intact file does not."""


def answers(path: str, positions: list[str] | None = None,
            truth: dict | None = None) -> tuple[list[str], dict]:
    """What a database answers: lookups of ``positions`` (a sample of its legal ones
    if None), its info, tier counts, and its arrays; WrongAnswer as soon as one
    differs from ``truth``'s (so an answer given before a refusal counts too)."""
    found: dict = {}

    def note(key: str, value) -> None:
        found[key] = value
        if truth is not None and truth[key] != value:
            raise WrongAnswer(f"{key}: {value!r:.200} instead of {truth[key]!r:.200}")

    with open_database(path) as db:
        if positions is None:
            values = db.value_array()
            legal = db.stored_indices()[(values != 0) & (values != 5)]
            chosen = np.random.default_rng(1).choice(legal, min(SAMPLE, legal.size), replace=False)
            positions = [db.start, *db.positions(np.sort(chosen))]
        for number, position in enumerate(positions):
            record = db.lookup(position)
            note(f"lookup {number}", [record.value, record.remoteness])
        info = db.info()
        note("info", {k: v for k, v in vars(info).items() if k not in ("path", "file_bytes")})
        keys, counts = db.tier_counts()
        note("tiers", [keys.tolist(), counts.tolist()])
        note("values", db.value_array().tolist())
        note("remoteness", db.remoteness_array().tolist())
        note("stored", db.stored_indices().tolist())
        return positions, found


def check(path: str, positions: list[str], truth: dict) -> dict:
    """The outcome of reading a damaged copy (see the module's docstring)."""
    try:
        answers(path, positions, truth)
    except WrongAnswer as error:
        return {"outcome": "wrong", "detail": str(error)}
    except DatabaseError as error:
        message = str(error)
        if "\n" in message or not message.isprintable() or path not in message:
            return {"outcome": "crash", "detail": f"not one printable line naming the file: "
                                                  f"{message!r}"}
        return {"outcome": "refused", "detail": message}
    except BaseException:  # noqa: BLE001 - anything else is what the test looks for
        return {"outcome": "crash", "detail": traceback.format_exc()}
    return {"outcome": "right", "detail": ""}


def main(intact: list[str]) -> None:
    known = [answers(path) for path in intact]
    print("ready", flush=True)
    for line in sys.stdin:
        number, path = line.rstrip("\n").split(" ", 1)
        positions, truth = known[int(number)]
        print(json.dumps(check(path, positions, truth)), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
