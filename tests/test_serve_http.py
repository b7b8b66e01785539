"""``tiersolve serve`` as a user runs it: one server process on a free port of
127.0.0.1 for the module, under Python's audit hook (which reports every file the
process opens). docs/SERVE.md's curl examples run as printed; hostile requests get
the documented errors and open no file; the page works in headless Chromium; and
Ctrl-C stops a server cleanly.

The browser tests need Debian's ``chromium`` and ``chromium-driver`` (``.ci/run``
installs them): they skip without them, except in CI (``CI`` set), where they fail.
The pictures in docs/images come from ``scripts/serve_screenshots.py``."""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the serve extra is not installed: pip install -e '.[test]'")

from test_readme_commands import matches  # noqa: E402

from conftest import console_examples  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SERVE_DOC = ROOT / "docs" / "SERVE.md"
#: The address the docs' examples use, replaced by the test server's.
DOC_ADDRESS = "http://127.0.0.1:8000"
#: The server, under an audit hook that reports each file it opens on stderr.
AUDITED_SERVER = """
import sys
def report_opens(event, args):
    if event == "open" and isinstance(args[0], (str, bytes)):
        sys.__stderr__.write(f"opened: {args[0]!r}\\n")
        sys.__stderr__.flush()
sys.addaudithook(report_opens)
from tiersolve.cli import main
sys.exit(main(sys.argv[1:]))
"""
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
#: Without these, Chromium waits for the network the machine does not have.
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--window-size=1100,860"]


class Server:
    """A ``tiersolve serve`` process: its address, and what it wrote on stderr."""

    def __init__(self, folder: Path, cwd: Path) -> None:
        self.folder = folder
        self.process = subprocess.Popen(
            [sys.executable, "-c", AUDITED_SERVER, "serve", "--dir", str(folder), "--port", "0"],
            cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True)
        self.stderr: list[str] = []
        threading.Thread(target=self._read_stderr, daemon=True).start()
        self.stdout: list[str] = []
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                break
            self.stdout.append(line)
            found = re.match(r"serving at (http://127\.0\.0\.1:(\d+))/ \(Ctrl-C to stop\)", line)
            if found:
                self.url, self.port = found[1], int(found[2])
                return
        self.process.kill()
        raise RuntimeError(f"the server did not start: {''.join(self.stdout)}{''.join(self.stderr)}")

    def _read_stderr(self) -> None:
        for line in self.process.stderr:
            self.stderr.append(line)

    def opened(self, since: int = 0) -> list[str]:
        """The files opened, as reported from stderr line ``since`` on."""
        return [line[len("opened: "):].strip() for line in self.stderr[since:]
                if line.startswith("opened: ")]

    def request(self, method: str, path: str, body: bytes | None = None) -> tuple[int, str, bytes]:
        """(status, content type, body) of one request, the path sent as it is."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            connection.request(method, path, body=body)
            response = connection.getresponse()
            return response.status, response.getheader("content-type", ""), response.read()
        finally:
            connection.close()


@pytest.fixture(scope="module")
def server(database, tmp_path_factory):
    """A server over ttt_3x3, ttt_3x3_diagonal and 1210 (docs/SERVE.md's) in a folder that also holds a link to a database
    outside it and a file that is no database."""
    base = tmp_path_factory.mktemp("serve")
    folder = base / "db"
    folder.mkdir()
    shutil.copy(database("ttt", rows=3, cols=3).path, folder / "ttt_3x3.h5")
    shutil.copy(database("ttt", rows=3, cols=3, diagonal=True).path,
                folder / "ttt_3x3_diagonal.h5")
    shutil.copy(database("1210").path, folder / "1210.h5")
    shutil.copy(database("1210").path, base / "outside.h5")
    (folder / "escape.h5").symlink_to(base / "outside.h5")
    (base / "secret.txt").write_text("not for clients")
    running = Server(folder, base)
    yield running
    if running.process.poll() is None:
        running.process.kill()
        running.process.wait()


def doc_examples() -> list[tuple[str, list[str]]]:
    """(command, expected output lines) of docs/SERVE.md's console blocks."""
    return console_examples(SERVE_DOC)


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
def test_the_docs_curl_examples_print_what_the_docs_show(server):
    examples = doc_examples()
    assert len(examples) >= 8 and all(c.startswith("curl ") for c, _ in examples)
    for command, expected in examples:
        done = subprocess.run(command.replace(DOC_ADDRESS, server.url), shell=True,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, f"{command}\n{done.stderr}"
        assert matches(expected, done.stdout + "\n"), (
            f"$ {command}\n--- docs ---\n" + "\n".join(expected) + f"\n--- printed ---\n{done.stdout}")


#: (method, path as sent, body) -> (status, what the error says), every one JSON.
HOSTILE = [
    ("GET", "/api/..?position=(x)", None, 404, "no database named '..'"),
    ("GET", "/api/%2e%2e?position=(x)", None, 404, "no database named '..'"),
    ("GET", "/api/%2E%2E/lookup", None, 405, "method GET"),
    ("POST", "/api/%2e%2e/lookup", b"[]", 404, "no database named '..'"),
    ("GET", "/api/..%2F..%2Fsecret.txt?position=(x)", None, 404, "no such path"),
    ("GET", "/api/../../secret.txt", None, 404, "no such path"),
    ("GET", "/../secret.txt", None, 404, "no such path"),
    ("GET", "/api//etc/passwd?position=(x)", None, 404, "no such path"),
    ("GET", "/api/%2Fetc%2Fpasswd?position=(x)", None, 404, "no such path"),
    ("GET", "/api/escape?position=(L%200)", None, 404, "no database named 'escape'"),
    ("GET", "/api/outside?position=(L%200)", None, 404, "no database named 'outside'"),
    ("GET", "/api/ttt_3x3.h5?position=(L%200)", None, 404, "no database named 'ttt_3x3.h5'"),
    ("GET", "/api/ttt_3x3?position=" + "x" * 50_000, None, 413, "over the limit"),
    ("POST", "/api/ttt_3x3/lookup", json.dumps(["x" * (1 << 20)]).encode(), 413, "over the limit"),
    ("POST", "/api/ttt_3x3/lookup", json.dumps(["(x --- --- ---)"] * 100_000).encode(), 413,
     "over the limit"),
    ("POST", "/api/ttt_3x3/lookup", b'["(x --- --- ---)",', 400, "the body is not JSON"),
    ("POST", "/api/ttt_3x3/lookup", b'{"a": 1}', 400, "must be a JSON list"),
    ("DELETE", "/api/ttt_3x3", None, 405, "method DELETE is not allowed"),
    ("PUT", "/api/databases", b"{}", 405, "method PUT is not allowed"),
    ("OPTIONS", "/", None, 405, "method OPTIONS is not allowed"),
    ("PATCH", "/api/ttt_3x3/lookup", b"[]", 405, "method PATCH is not allowed"),
]


def test_hostile_requests_get_the_documented_errors_and_open_no_file(server):
    assert any("leaving out" in line and "escape.h5" in line for line in server.stderr)
    good = "/api/ttt_3x3?position=(x%20---%20---%20---)"
    for method, path, body, *_ in HOSTILE:  # once, so that whatever they import is imported
        server.request(method, path, body)
    assert server.request("GET", good)[0] == 200
    time.sleep(0.5)
    mark = len(server.stderr)
    for method, path, body, status, message in HOSTILE:
        got, content_type, answer = server.request(method, path, body)
        assert (got, content_type) == (status, "application/json"), (method, path[:80], answer[:200])
        error = json.loads(answer)["error"]
        assert message in error and "\n" not in error, (method, path[:80], error)
    # a request line over uvicorn's parser's limit, and a method HTTP does not know:
    # refused by uvicorn before the application, as docs/SERVE.md says
    for method, path in [("GET", "/api/ttt_3x3?position=" + "x" * (1 << 20)),
                         ("BREW", "/api/databases")]:
        assert server.request(method, path)[::2] == (400, b"Invalid HTTP request received.")
    status, _, answer = server.request("GET", good)
    assert status == 200 and json.loads(answer)["value"] == "tie"  # still answering
    time.sleep(0.5)
    assert server.opened(mark) == []
    base = server.folder.parent
    forbidden = {str(base / "outside.h5"), str(base / "secret.txt"), "/etc/passwd"}
    assert not [path for path in server.opened() if path.strip("'\"b") in forbidden]


def _browser(tmp_path):
    if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
        message = "needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in CHROMIUM_FLAGS + [f"--user-data-dir={tempfile.mkdtemp(dir=tmp_path)}"]:
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)


def test_the_page_in_a_browser(server, database, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    db = database("ttt", rows=3, cols=3, diagonal=True)
    driver = _browser(tmp_path)
    wait = WebDriverWait(driver, 60)

    def status() -> str:
        return driver.find_element(By.ID, "status").text

    def error() -> str:
        return driver.find_element(By.ID, "error").text

    def enabled() -> dict[str, bool]:
        return {name: driver.find_element(By.ID, name).is_enabled()
                for name in ("undo", "redo", "restart", "best")}

    def page() -> dict:
        """What the page shows: moves listed (name -> value class), moves on the board,
        points in the chart, and the URL."""
        listed = {b.get_attribute("data-move"): b.get_attribute("class").split()[1]
                  for b in driver.find_elements(By.CSS_SELECTOR, "#moves button.move")}
        markers = [m.get_attribute("data-move")
                   for m in driver.find_elements(By.CSS_SELECTOR, "#board .move-marker")]
        points = driver.find_elements(By.CSS_SELECTOR, "#chart .chart-point")
        return {"listed": listed, "on board": sorted(markers), "points": len(points),
                "url": driver.current_url}

    try:
        driver.get(server.url + "/")
        wait.until(lambda d: "(L 0)" in status())  # the first database, 1210: no board
        assert page()["on board"] == [] and set(page()["listed"]) == {"+1", "+2"}
        Select(driver.find_element(By.ID, "database")).select_by_value("ttt_3x3_diagonal")
        wait.until(lambda d: status().startswith("(x --- --- ---) · x to move: tie in 9"))
        start = page()
        assert len(start["listed"]) == 9 and start["on board"] == sorted(start["listed"])
        assert start["points"] == 1 and "db=ttt_3x3_diagonal" in start["url"]
        # click b2 on the board: it is marked as the last move, under the moves
        driver.find_element(By.CSS_SELECTOR, '#board .move-marker[data-move="b2"]').click()
        wait.until(lambda d: status().startswith("(o --- -x- ---) · o to move: tie in 8"))
        assert [m.get_attribute("data-square") for m in
                driver.find_elements(By.CSS_SELECTOR, "#board .last-move")] == ["b2"]
        after = page()
        assert after["listed"] == {m.move: m.value for m in db.moves("(o --- -x- ---)")}
        assert set(after["listed"].values()) == {"tie", "lose"}  # corners tie, edges lose
        assert after["on board"] == sorted(after["listed"]) and after["points"] == 2
        assert "move=b2" in after["url"] and "position=%28o+---+-x-+---%29" in after["url"]
        # o plays an edge (from the list), which loses: x's winning moves show green
        driver.find_element(By.CSS_SELECTOR, '#moves button[data-move="b3"]').click()
        wait.until(lambda d: status().startswith("(x -o- -x- ---) · x to move: win in"))
        assert "win" in page()["listed"].values() and page()["points"] == 3
        chart_colours = [p.get_attribute("fill") for p in
                         driver.find_elements(By.CSS_SELECTOR, "#chart .chart-point")]
        assert chart_colours == ["#e2b100", "#e2b100", "#1e9e3a"]  # tie, tie, win
        shot = tmp_path / "serve.png"
        driver.save_screenshot(str(shot))
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000
        link = driver.current_url
        # undo, redo, the computer's best move, and the link reopening the game
        driver.find_element(By.ID, "undo").click()
        wait.until(lambda d: status().startswith("(o --- -x- ---)"))
        driver.find_element(By.ID, "redo").click()
        wait.until(lambda d: status().startswith("(x -o- -x- ---)"))
        driver.find_element(By.ID, "best").click()
        best = db.best_move("(x -o- -x- ---)")
        wait.until(lambda d: status().startswith(best.position))
        driver.get(link)
        wait.until(lambda d: status().startswith("(x -o- -x- ---)"))
        assert page()["points"] == 3
        # links the server refuses: the page keeps a good board, says what was wrong
        # beside it, and disables what cannot act
        driver.get(server.url + "/?db=ttt_3x3&position=(x garbage)")
        wait.until(lambda d: error())
        assert "The link's position cannot be shown: '(x garbage)' has 1 row" in error()
        assert status().startswith("(x --- --- ---) · x to move: tie in 9")
        assert len(page()["on board"]) == 9 and page()["points"] == 1
        # the game's name, not the file's label
        assert driver.find_element(By.ID, "game-title").text == "Tomorrow's Tic-Tac-Toe 3×3"
        assert driver.title == "Tomorrow's Tic-Tac-Toe 3×3 · tiersolve"
        assert enabled() == {"undo": False, "redo": False, "restart": True, "best": True}
        driver.get(server.url + "/?db=ttt_3x3&move=b2&move=zz&move=a1")
        wait.until(lambda d: error())
        assert error().startswith("The link's move 2, zz, cannot be played: 'zz' is not a legal move")
        assert status().startswith("(o --- -x- ---)") and page()["points"] == 2
        assert "move=b2" in page()["url"] and "zz" not in page()["url"]
        assert enabled() == {"undo": True, "redo": False, "restart": True, "best": True}
        driver.find_element(By.ID, "undo").click()  # the game goes on from there
        wait.until(lambda d: status().startswith("(x --- --- ---)") and not error())
        # a finished game names its winner (it said "x (to move) lose in 0")
        driver.get(server.url + "/?db=ttt_3x3&move=a1&move=a2&move=b1&move=b2&move=c1")
        wait.until(lambda d: "Game over" in status())
        assert status() == "(o --- oo- xxx) · Game over: x wins"
        assert driver.find_element(By.ID, "hint").text == ""
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def pieces_server(database, tmp_path_factory):
    """A server over two games whose pieces move: Lines of Action 4x4 with 3 pieces
    a side, and Surakarta 4x4 with 2."""
    base = tmp_path_factory.mktemp("pieces")
    (base / "db").mkdir()
    for game, options in [("loa", {"rows": 4, "cols": 4, "max_pieces": 3}),
                          ("surakarta", {"size": 4, "max_pieces": 2})]:
        db = database(game, **options)
        shutil.copy(db.path, base / "db" / f"{db.game.label()}.h5")
    running = Server(base / "db", base)
    yield running
    if running.process.poll() is None:
        running.process.kill()
        running.process.wait()


COLOURS = {"win": "#1e9e3a", "tie": "#e2b100", "draw": "#e2b100", "lose": "#c8312b"}


@pytest.mark.parametrize("game, options, piece", [
    ("loa", {"rows": 4, "cols": 4, "max_pieces": 3}, "b4"),
    ("surakarta", {"size": 4, "max_pieces": 2}, "b4"),  # b4xb2 goes round two loops
])
def test_a_pieces_moves_show_when_it_is_clicked_and_a_target_plays_one(
        pieces_server, database, tmp_path, game, options, piece):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    db = database(game, **options)
    moves = db.moves(db.start)
    of_piece = {m.move: m for m in moves if m.move.startswith(piece)}
    driver = _browser(tmp_path)
    wait = WebDriverWait(driver, 60)

    def status() -> str:
        return driver.find_element(By.ID, "status").text

    def shown() -> dict[str, tuple[str, str]]:
        """The moves on the board: name -> (colour, label)."""
        return {m.get_attribute("data-move"): (
                    m.find_element(By.TAG_NAME, "circle").get_attribute("fill"), m.text)
                for m in driver.find_elements(By.CSS_SELECTOR, "#board .move-marker")
                if m.is_displayed()}

    try:
        driver.get(f"{pieces_server.url}/?db={db.game.label()}")
        wait.until(lambda d: status().startswith(db.start))
        # nothing but rings round the pieces that can move, until one is chosen
        assert shown() == {}
        rings = {r.get_attribute("data-square")
                 for r in driver.find_elements(By.CSS_SELECTOR, "#board .source")}
        assert rings == {re.match(r"[a-z]\d+", m.move)[0] for m in moves}
        if game == "surakarta":
            assert len(driver.find_elements(By.CSS_SELECTOR, "#board .board-path")) == 1
        driver.find_element(By.CSS_SELECTOR, f'#board .source[data-square="{piece}"]').click()
        wait.until(lambda d: shown())
        # the piece's moves, each coloured by its value and labelled with its remoteness
        assert shown() == {name: (COLOURS[m.value], "" if m.remoteness is None else
                                  str(m.remoteness)) for name, m in of_piece.items()}
        assert {b.get_attribute("data-move") for b in driver.find_elements(
            By.CSS_SELECTOR, "#moves button.of-selected")} == set(of_piece)
        # (a straight way has no width or no height: Selenium calls it hidden)
        ways = driver.find_elements(By.CSS_SELECTOR, "#board .way.shown")
        assert {w.get_attribute("data-move") for w in ways} == set(of_piece)
        assert {w.value_of_css_property("display") for w in ways} == {"inline"}
        if game == "surakarta":  # the capture goes round the loops: many points
            capture = driver.find_element(By.CSS_SELECTOR, f'#board .way[data-move="{piece}xb2"]')
            assert len(capture.get_attribute("points").split()) > 20
        # pointing at another piece's move in the list shows it on the board, until the
        # pointer leaves
        other = next(m.move for m in moves if m.move not in of_piece)
        button = driver.find_element(By.CSS_SELECTOR, f'#moves button[data-move="{other}"]')
        status_line = driver.find_element(By.ID, "status")
        ActionChains(driver).move_to_element(button).perform()
        wait.until(lambda d: other in shown())
        ActionChains(driver).move_to_element(status_line).perform()
        wait.until(lambda d: other not in shown())
        # a press on it, the pointer gone before the release, focuses it without
        # playing; focused again with the pointer away (as when the window's focus
        # comes back), it showed its move and kept it drawn
        ActionChains(driver).click_and_hold(button).move_to_element(status_line).release() \
            .perform()
        driver.execute_script("arguments[0].blur(); arguments[0].focus();", button)
        time.sleep(0.3)
        assert other not in shown() and not driver.find_elements(By.CSS_SELECTOR, ".preview")
        # clicking a target plays its move
        best = next(iter(of_piece.values()))
        driver.find_element(By.CSS_SELECTOR,
                            f'#board .move-marker[data-move="{best.move}"] circle').click()
        wait.until(lambda d: status().startswith(best.position))
        assert f"move={best.move}" in driver.current_url
        # the other side's turn: no piece chosen, unless it has only one to move
        if len({re.match(r"[a-z]\d+", m.move)[0] for m in db.moves(best.position)}) > 1:
            assert shown() == {}
    finally:
        driver.quit()


def test_ctrl_c_stops_the_server_cleanly(database, tmp_path):
    """A server of its own: with pytest-xdist the module's tests may share a process
    in any order, and the others need theirs running."""
    (tmp_path / "db").mkdir()
    shutil.copy(database("1210").path, tmp_path / "db" / "1210.h5")
    running = Server(tmp_path / "db", tmp_path)
    try:
        assert running.request("GET", "/api/1210?position=(L%200)")[0] == 200
        running.process.send_signal(signal.SIGINT)
        assert running.process.wait(timeout=30) == 0
        assert running.process.stdout.read().strip().endswith("stopped")
        assert not any("Traceback" in line for line in running.stderr)
    finally:
        if running.process.poll() is None:
            running.process.kill()
