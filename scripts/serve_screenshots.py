"""The pictures of ``tiersolve serve``'s page in docs/images, made again: it builds the
databases they show (if missing), serves them on a free port of 127.0.0.1, opens
each picture's game in headless Chromium (Debian's ``chromium`` and
``chromium-driver``, driven by Selenium from the ``test`` extra), clicks the piece it
shows the moves of, and saves the window as a PNG.

    python scripts/serve_screenshots.py                  # databases in a temporary folder
    python scripts/serve_screenshots.py --db db          # use (and build into) db/
    python scripts/serve_screenshots.py --only serve-loa.png --out /tmp

The pictures (``SHOTS``): the README's, Tic-Tac-Toe after b2 and b3 with x's winning
moves in green (serve.png); Lines of Action 4x4 at the start with b4 chosen
(serve-loa.png); Surakarta 5x5 after c5-b4 with c2 chosen, whose capture goes round
a corner loop (serve-surakarta.png); Dōbutsu shōgi after b2-b3 and c4-b3, each side
holding a Chick, with the first player's chosen in its hand to show its drops
(serve-dshogi.png; the whole game, so a missing database is some hours of building:
docs/BENCHMARKS.md); Gobblet Gobblers after M*b2 and L*b2, a large o over a medium x
on b2, with x's large reserve piece chosen to show where it may go (serve-gobblet.png;
the whole game, some minutes of building).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple
from urllib.parse import urlencode

from _installed import require_tiersolve

ROOT = Path(__file__).resolve().parent.parent


class Shot(NamedTuple):
    """One picture: its file, the database it shows (file stem, ``tiersolve build``'s
    arguments), the moves played, and the piece clicked (a square, or None; a piece in
    hand is named by the cell beside the board it is drawn on, c0 under column c)."""

    file: str
    database: str
    build: tuple[str, ...]
    moves: tuple[str, ...]
    piece: str | None


SHOTS = (
    Shot("serve.png", "ttt_3x3_diagonal", ("ttt", "--rows", "3", "--cols", "3", "--diagonal"),
         ("b2", "b3"), None),
    Shot("serve-loa.png", "loa_4x4", ("loa", "--rows", "4", "--cols", "4"), (), "b4"),
    Shot("serve-surakarta.png", "surakarta_5x5", ("surakarta", "--size", "5"), ("c5-b4",), "c2"),
    Shot("serve-dshogi.png", "dshogi", ("dshogi",), ("b2-b3", "c4-b3"), "c0"),
    Shot("serve-gobblet.png", "gobblet", ("gobblet",), ("M*b2", "L*b2"), "c0"),
)
#: Without these, Chromium waits for the network the machine may not have.
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--hide-scrollbars"]


def build(shot: Shot, folder: Path) -> Path:
    """The shot's database in ``folder``, built first if it is not there."""
    path = folder / f"{shot.database}.h5"
    if not path.exists():
        print(f"building {path} (tiersolve build {' '.join(shot.build)})", flush=True)
        subprocess.run([sys.executable, "-m", "tiersolve", "build", *shot.build, "--out", str(path),
                        "--quiet"], check=True)
    return path


def start_server(files: list[Path]) -> tuple[subprocess.Popen, str]:
    """``tiersolve serve`` of ``files`` on a free port: the process and its address."""
    server = subprocess.Popen([sys.executable, "-m", "tiersolve", "serve", *map(str, files),
                               "--port", "0"], stdout=subprocess.PIPE, text=True)
    for line in server.stdout:
        found = re.match(r"serving at (http://\S+)/ ", line)
        if found:
            return server, found[1]
    server.wait()
    raise SystemExit(f"the server did not start (exit code {server.returncode})")


def browser(size: str, chromium: str, chromedriver: str):
    """Headless Chromium through Selenium, its window ``size`` (WIDTHxHEIGHT)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    width, height = size.split("x")
    for flag in CHROMIUM_FLAGS + [f"--window-size={width},{height}",
                                  f"--user-data-dir={tempfile.mkdtemp(prefix='chromium-')}"]:
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(chromedriver), options=options)


def take(driver, address: str, shot: Shot, path: Path) -> None:
    """Open the shot's game, click its piece, and save the window as ``path``."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    query = urlencode([("db", shot.database), *(("move", move) for move in shot.moves)])
    driver.get(f"{address}/?{query}")
    wait = WebDriverWait(driver, 60)
    played = f"move={shot.moves[-1]}" if shot.moves else "position="
    wait.until(lambda d: d.find_element(By.ID, "status").text and played in d.current_url)
    if shot.piece:
        driver.find_element(By.CSS_SELECTOR, f'#board .source[data-square="{shot.piece}"]').click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board .move-marker.shown"))
    time.sleep(0.5)  # the last paint
    driver.save_screenshot(str(path))
    if path.read_bytes()[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit(f"{path} is not a PNG")
    print(f"wrote {path}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        allow_abbrev=False,
        description="Make the pictures of tiersolve serve's page again (docs/images).",
        epilog="e.g.: python scripts/serve_screenshots.py --db db")
    parser.add_argument("--db", metavar="DIR", help="where the databases are, or are built "
                                                    "(default: a temporary folder)")
    parser.add_argument("--out", metavar="DIR", default=str(ROOT / "docs" / "images"),
                        help="where the pictures go (default: docs/images)")
    parser.add_argument("--only", metavar="FILE", action="append", choices=[s.file for s in SHOTS],
                        help="make only this picture (may be repeated)")
    parser.add_argument("--size", default="1280x860", help="the window, WIDTHxHEIGHT (default "
                                                           "1280x860)")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    parser.add_argument("--chromedriver",
                        default=shutil.which("chromedriver") or "/usr/bin/chromedriver")
    args = parser.parse_args(argv)
    if not re.fullmatch(r"\d+x\d+", args.size):
        parser.error(f"--size is WIDTHxHEIGHT, e.g. 1280x860, not {args.size!r}")
    shots = [s for s in SHOTS if not args.only or s.file in args.only]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="serve-screenshots-") as temporary:
        folder = Path(args.db or temporary)
        folder.mkdir(parents=True, exist_ok=True)
        files = sorted({build(shot, folder) for shot in shots})
        server, address = start_server(files)
        try:
            driver = browser(args.size, args.chromium, args.chromedriver)
            try:
                for shot in shots:
                    take(driver, address, shot, out / shot.file)
            finally:
                driver.quit()
        finally:
            server.terminate()
            server.wait(timeout=30)
    return 0


if __name__ == "__main__":
    require_tiersolve("serve_screenshots.py")  # it builds and serves with the installed one
    sys.exit(main())
