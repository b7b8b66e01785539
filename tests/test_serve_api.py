"""``tiersolve serve``'s API in process (Starlette's TestClient): every answer for
every position of the small databases equals the library's, the errors are the
documented ones, the page's view follows the game (and Pousse's repetition rule), a
request reads no file, and the command's options and start-up errors."""

from __future__ import annotations

import asyncio
import builtins
import io
import json
import os
import re
import shutil

import pytest

pytest.importorskip("starlette", reason="the serve extra is not installed: pip install -e '.[test]'")

from starlette.testclient import TestClient  # noqa: E402

from tiersolve.cli import main  # noqa: E402
from tiersolve.cli.serve import (
    MAX_BATCH,
    MAX_POSITION_CHARS,
    Served,
    create_app,
    find_databases,
    open_served,
    serve_main,
)
from tiersolve.databases import build_database  # noqa: E402
from tiersolve.errors import PositionError, UnreachedPositionError  # noqa: E402
from tiersolve.games import GAMES, make_game  # noqa: E402

from conftest import command, one_line_error  # noqa: E402

#: The test suite's small boards, one database each: (name in URLs, game, options).
SMALL = [
    ("ttt_3x3", "ttt", {"rows": 3, "cols": 3}),
    ("1210", "1210", {}),
    ("northcott_2x3", "northcott", {"rows": 2, "cols": 3}),
    ("pousse_2x2", "pousse", {"size": 2}),
    ("domineering_3x3_symmetry", "domineering", {"rows": 3, "cols": 3, "symmetry": True}),
]
#: A --reachable database: ttt 3x3 from a position after two moves.
REACHABLE_START = "(x x-- -o- ---)"


@pytest.fixture(scope="module")
def served(database, tmp_path_factory):
    """Every small database, and a --reachable one, opened as the server opens them."""
    paths = {name: database(game, **options).path for name, game, options in SMALL}
    folder = tmp_path_factory.mktemp("reachable")
    paths["ttt_3x3_reachable"] = folder / "ttt_3x3_reachable.h5"
    build_database(make_game("ttt", rows=3, cols=3), paths["ttt_3x3_reachable"], reachable=True,
                   starts=[REACHABLE_START], progress=False)
    opened = open_served(paths)
    yield opened
    for item in opened.values():
        item.db.close()


@pytest.fixture(scope="module")
def client(served):
    with TestClient(create_app(served)) as test_client:
        yield test_client


def every_position(db) -> list[str]:
    """The text of every index the file stores (legal or not)."""
    return db.positions(db.stored_indices())


def expected(db, position: str) -> tuple[int, dict]:
    """(status, body) the API must give for a position: the library's answer, or its
    error with the documented status."""
    try:
        record = db.lookup(position)
        moves = db.moves(position)
    except UnreachedPositionError as error:
        return 404, {"error": str(error)}
    except PositionError as error:
        return 400, {"error": str(error)}
    return 200, {"game": db.game.describe(), "position": record.position, "value": record.value,
                 "remoteness": record.remoteness, "moves": [m.as_dict() for m in moves]}


def get_all(app, name: str, positions: list[str]) -> list[tuple[int, dict]]:
    """(status, body) of ``GET /api/NAME?position=`` for each position, in one event
    loop (TestClient's thread hop per request would take most of the time)."""
    import httpx2

    async def run() -> list[tuple[int, dict]]:
        transport = httpx2.ASGITransport(app=app)
        async with httpx2.AsyncClient(transport=transport, base_url="http://test") as client:
            answers = []
            for position in positions:
                response = await client.get(f"/api/{name}", params={"position": position})
                answers.append((response.status_code, response.json()))
            return answers

    return asyncio.run(run())


def test_every_position_of_every_small_database_gets_the_librarys_answer(served, client):
    app = create_app(served)
    checked = {}
    for name, item in served.items():
        db = item.db
        positions = every_position(db)
        if name == "ttt_3x3_reachable":  # and a sample of those it does not hold
            held = set(positions)
            positions += [p for p in every_position(served["ttt_3x3"].db)[::5] if p not in held]
        answers = get_all(app, name, positions)
        statuses = set()
        for position, answer in zip(positions, answers):
            assert answer == expected(db, position), (name, position)
            statuses.add(answer[0])
        # the batch endpoint: the legal ones in one request, in order
        legal = [p for p, (status, _) in zip(positions, answers) if status == 200]
        response = client.post(f"/api/{name}/lookup", json=legal)
        records = [db.lookup(p) for p in legal]
        assert response.status_code == 200
        assert response.json() == {"results": [{"value": r.value, "remoteness": r.remoteness}
                                               for r in records]}, name
        checked[name] = (len(positions), statuses)
    assert checked["ttt_3x3"][0] == 6046 and checked["ttt_3x3"][1] == {200, 400}
    assert checked["ttt_3x3_reachable"][1] == {200, 404}  # unheld comes before illegal
    assert all(count > 10 for count, _ in checked.values())


def test_best_and_line_are_the_librarys(served, client):
    db = served["ttt_3x3"].db
    for position in ["(x --- --- ---)", "(o xx- oo- --x)", "(o xxx oo- ---)"]:
        best = client.get("/api/ttt_3x3/best", params={"position": position}).json()
        move = db.best_move(position)
        assert best["best"] == (None if move is None else move.as_dict())
        line = client.get("/api/ttt_3x3/line", params={"position": position}).json()
        assert line["line"] == [m.as_dict() for m in db.principal_variation(position)]
        assert (line["value"], line["remoteness"]) == (db.lookup(position).value,
                                                       db.lookup(position).remoteness)
    assert len(client.get("/api/ttt_3x3/line", params={"position": "(x --- --- ---)"})
               .json()["line"]) == 9


def test_the_position_answer_is_what_query_json_prints(served, client, capsys):
    path = served["northcott_2x3"].db.path
    position = "(L 0L1R0 0L1R0)"
    assert main(["query", str(path), position, "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert client.get("/api/northcott_2x3", params={"position": position}).json() == printed


def test_databases_lists_each_with_its_start_value(served, client):
    listed = {d["name"]: d for d in client.get("/api/databases").json()["databases"]}
    assert set(listed) == set(served)
    ttt = listed["ttt_3x3"]
    assert (ttt["game"], ttt["options"]["rows"], ttt["start"], ttt["start_value"],
            ttt["start_remoteness"]) == ("ttt", 3, "(x --- --- ---)", "tie", 9)
    assert ttt["counts"]["tie"] > 0 and "path" not in ttt
    assert listed["ttt_3x3_reachable"]["reachable_from"] == [REACHABLE_START]


@pytest.mark.parametrize("request_, status, message", [
    (("GET", "/api/ttt_3x3", {"position": "(x --- ---)"}), 400, "has 2 rows"),
    (("GET", "/api/ttt_3x3", {"position": "(o xxx ooo ---)"}), 400, "it must be x's turn"),
    (("GET", "/api/ttt_3x3", {}), 400, "missing the position parameter"),
    (("GET", "/api/ttt_3x3", {"position": "x" * (MAX_POSITION_CHARS + 1)}), 413, "over the limit"),
    (("GET", "/api/no_such_db", {"position": "(x --- --- ---)"}), 404, "no database named"),
    (("GET", "/api/ttt_3x3_reachable", {"position": "(x --- --- ---)"}), 404,
     "not reachable from this database's starts"),
    (("GET", "/api/ttt_3x3/best", {"position": "nonsense"}), 400, ""),
    (("GET", "/api/ttt_3x3/view", {"move": ["b2", "zz"]}), 400, "'zz' is not a legal move"),
    (("GET", "/no/such/path", {}), 404, "no such path"),
    (("DELETE", "/api/ttt_3x3", {}), 405, "method DELETE is not allowed"),
    (("PUT", "/api/ttt_3x3/lookup", {}), 405, "method PUT is not allowed"),
    (("GET", "/api/ttt_3x3/lookup", {}), 405, "method GET is not allowed"),
])
def test_errors_are_one_line_of_json_with_the_documented_status(client, request_, status, message):
    method, path, params = request_
    response = client.request(method, path, params=params)
    assert response.status_code == status
    assert response.headers["content-type"] == "application/json"
    error = response.json()["error"]
    assert message in error and "\n" not in error and "Traceback" not in error


@pytest.mark.parametrize("body, status, message", [
    (b"[1,", 400, "the body is not JSON"),
    (b'{"position": "(x --- --- ---)"}', 400, "must be a JSON list"),
    (b'["(x --- --- ---)", 3]', 400, "position 1: a position is a string"),
    (b'["(x --- --- ---)", "(x --- ---)"]', 400, "position 1: "),
    (json.dumps(["(x --- --- ---)"] * (MAX_BATCH + 1)).encode(), 413, "over the limit of 10,000"),
    (json.dumps(["(x --- --- ---)"] * 100_000).encode(), 413, "over the limit"),
    (b"[" + b'"' + b"x" * (1 << 20) + b'"]', 413, "over the limit"),
    (b"\xff\xfe", 400, "the body is not JSON"),
])
def test_bad_batches_get_the_documented_error(client, body, status, message):
    response = client.post("/api/ttt_3x3/lookup", content=body)
    assert (response.status_code, message in response.json()["error"]) == (status, True), \
        response.text[:300]


def test_a_batch_of_the_limit_is_answered_in_order(served, client):
    db = served["ttt_3x3"].db
    positions = [p for p in every_position(db) if db.get(p) is not None]
    batch = (positions * (MAX_BATCH // len(positions) + 1))[:MAX_BATCH]
    response = client.post("/api/ttt_3x3/lookup", json=batch)
    assert response.status_code == 200
    results = response.json()["results"]
    assert len(results) == MAX_BATCH
    for position, result in list(zip(batch, results))[::97]:
        record = db.lookup(position)
        assert result == {"value": record.value, "remoteness": record.remoteness}


def test_the_reachable_databases_batch_says_which_position_it_does_not_hold(client):
    response = client.post("/api/ttt_3x3_reachable/lookup",
                           json=[REACHABLE_START, "(x --- --- ---)"])
    assert response.status_code == 404
    assert response.json()["error"].startswith("position 1: '(x --- --- ---)' is not reachable "
                                                "from this database's starts")


def test_the_view_follows_the_game_and_draws_every_move_on_the_board(served, client):
    view = client.get("/api/ttt_3x3/view", params={"move": ["b2", "a1"]}).json()
    db = served["ttt_3x3"].db
    assert view["position"] == "(x --- -x- o--)" == db.after(db.after(db.start, "b2"), "a1")
    assert [(p["move"], p["value"], p["remoteness"]) for p in view["trail"]] == [
        (None, "tie", 9), ("b2", "tie", 8), ("a1", "tie", 7)]
    assert [c["move"] for c in view["choices"]] == [m.move for m in db.moves(view["position"])]
    assert all(c["on_board"] for c in view["choices"])
    assert view["svg"].count('class="move-marker"') == 7 and 'data-move="c3"' in view["svg"]
    # the value is the page's status line's to show, not the picture's too
    assert (view["value"], view["remoteness"]) == ("tie", 7) and "to move" not in view["svg"]
    # where each move is on the board, for the page and any other client
    assert all(c["shape"] == {"kind": "place", "squares": [c["move"]]} for c in view["choices"])
    assert view["board"] == {"rows": 3, "cols": 3, "paths": []}
    # a game without a board lists its moves only; domineering's are bars on the board
    plain = client.get("/api/1210/view").json()
    assert not any(c["on_board"] or c["shape"] for c in plain["choices"])
    assert plain["board"] is None
    dominoes = client.get("/api/domineering_3x3_symmetry/view").json()
    assert all(c["on_board"] for c in dominoes["choices"]) and "<polyline" in dominoes["svg"]
    assert all(c["shape"] == {"kind": "place", "squares": c["move"].split("-")}
               for c in dominoes["choices"])


def test_pousses_pushes_are_arrows_at_the_edge_they_enter(client):
    view = client.get("/api/pousse_2x2/view").json()
    shapes = {c["move"]: c["shape"] for c in view["choices"]}
    assert len(shapes) == 8 and view["svg"].count("<polygon") == 8
    # L i and R i push row i (row 1 the bottom one), T c and B c column c
    assert shapes["L 1"] == {"kind": "push", "side": "L", "squares": ["a1", "b1"]}
    assert shapes["R 2"] == {"kind": "push", "side": "R", "squares": ["b2", "a2"]}
    assert shapes["T b"] == {"kind": "push", "side": "T", "squares": ["b2", "b1"]}
    assert shapes["B a"] == {"kind": "push", "side": "B", "squares": ["a1", "a2"]}
    assert all(c["on_board"] for c in view["choices"])


def _off_board(point, size: int) -> bool:
    return not all(-0.5 <= x <= size - 0.5 for x in point)


def test_surakartas_circuits_and_the_way_of_each_capture(database):
    """The view draws the circuits, and gives each move the way it goes: a step
    straight, a capture round at least one corner loop, off the board."""
    db = database("surakarta", size=4, max_pieces=2)
    app = create_app({"surakarta": Served("surakarta", db, {"description": "surakarta 4x4"})})
    with TestClient(app) as client:
        view = client.get("/api/surakarta/view",
                          params={"start": "(b -b-- ---- ---- --w-)"}).json()
    circuit, = view["board"]["paths"]  # 4x4: one circuit, rows and columns 2 and 3
    assert circuit[0] == circuit[-1] and sum(_off_board(p, 4) for p in circuit) > 40
    assert view["svg"].count('class="board-path"') == 1
    shapes = {c["move"]: c["shape"] for c in view["choices"]}
    assert shapes["b4-b3"] == {"kind": "move", "from": "b4", "to": "b3",
                               "path": [[0, 1], [1, 1]]}
    capture = shapes["b4xc1"]
    assert (capture["from"], capture["to"]) == ("b4", "c1")
    assert capture["path"][0] == [0, 1] and capture["path"][-1] == [3, 2]
    assert any(_off_board(p, 4) for p in capture["path"])
    # the page shows a piece's moves once it is chosen: a ring round each piece that moves
    assert view["svg"].count('class="source"') == 1 and 'data-square="b4"' in view["svg"]
    assert view["svg"].count('class="way"') == len(shapes)


def test_every_surakarta_capture_has_a_way_round_the_loops():
    """On random 6x6 boards, the way drawn for every legal capture ends on its target
    and passes a loop (the drawing's search agrees with the rules' kernels)."""
    import random

    game = make_game("surakarta", size=6, max_pieces=3)
    generator = random.Random(34)
    captures = 0
    for _ in range(300):
        cells = ["-"] * 36
        picked = generator.sample(range(36), generator.randint(1, 3) + generator.randint(1, 3))
        for number, cell in enumerate(picked):
            cells[cell] = "bw"[number % 2]
        rows = "".join(cells)
        state = game.parse(f"(b {' '.join(rows[r * 6:r * 6 + 6] for r in range(6))})")
        for child in game.children(state):
            sketch = game.move_sketch(state, child.move)
            assert sketch.kind == "move"
            if "x" in child.move:
                captures += 1
                assert sketch.path[0] == sketch.cells[0] and sketch.path[-1] == sketch.cells[1]
                assert any(_off_board(p, 6) for p in sketch.path), (rows, child.move)
            else:
                assert sketch.path == ()
    assert captures > 100


def test_pousse_marks_a_move_that_repeats_a_board_as_losing(database):
    db = database("pousse", size=3)
    app = create_app({"pousse_3x3": Served("pousse_3x3", db, {"description": "pousse 3x3"})})
    with TestClient(app) as client:
        # the worked example of tiersolve.databases.history: L 2 repeats the board after move 3
        history = ["L 2", "R 2", "L 2", "R 2"]
        view = client.get("/api/pousse_3x3/view", params={"move": history}).json()
        choices = {c["move"]: c for c in view["choices"]}
        assert choices["L 2"]["value"] == "lose"
        assert choices["L 2"]["note"] == "repeats a board: loses at once"
        assert view["choices"][-1]["move"] == "L 2"  # last: the worst move
        assert db.lookup(view["position"]).value == "draw"  # the position game does not see it
        assert view["value"] == "lose"  # under the rule, every move loses (history's example)
        over = client.get("/api/pousse_3x3/view", params={"move": history + ["L 2"]}).json()
        assert over["over"] and over["choices"] == [] and "repeated a board" in over["note"]
        after = client.get("/api/pousse_3x3/view", params={"move": history + ["L 2", "R 1"]})
        assert after.status_code == 400 and "ended the game" in after.json()["error"]


def test_a_request_reads_no_file(client, monkeypatch, tmp_path):
    """Whatever a request names, nothing is opened: the databases were opened at
    start-up and the page's files read then."""
    secret = tmp_path / "secret.h5"
    secret.write_bytes(b"not for clients")
    opened = []
    real_open, real_os_open = builtins.open, os.open

    def record_open(file, *args, **kwargs):
        opened.append(str(file))
        return real_open(file, *args, **kwargs)

    def record_os_open(path, *args, **kwargs):
        opened.append(str(path))
        return real_os_open(path, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", record_open)
    monkeypatch.setattr(io, "open", record_open)
    monkeypatch.setattr(os, "open", record_os_open)
    import h5py

    monkeypatch.setattr(h5py, "File", lambda *a, **k: opened.append(str(a)) or 1 / 0)
    # (raw paths with ".." are tests/test_serve_http.py's: this client normalises them)
    for name in ["%2e%2e", "secret", str(secret), "ttt_3x3.h5", "..%2Fsecret", "..."]:
        response = client.get(f"/api/{name}", params={"position": "(x --- --- ---)"})
        assert response.status_code == 404 and "Traceback" not in response.text
    for path in ["/", "/app.js", "/style.css", "/api/databases"]:
        assert client.get(path).status_code == 200
    assert client.get("/api/ttt_3x3", params={"position": "(x --- --- ---)"}).status_code == 200
    assert opened == []


def test_the_folder_is_served_without_links_out_of_it(tmp_path, database, capsys):
    folder = tmp_path / "db"
    folder.mkdir()
    shutil.copy(database("1210").path, folder / "one.h5")
    outside = tmp_path / "outside.h5"
    shutil.copy(database("1210").path, outside)
    (folder / "escape.h5").symlink_to(outside)
    (folder / "notes.txt").write_text("not a database")
    assert list(find_databases([], str(folder))) == ["one"]
    assert "leaving out" in capsys.readouterr().err
    shutil.copy(outside, tmp_path / "one.h5")
    with pytest.raises(ValueError, match="two databases are named 'one'"):
        find_databases([str(folder / "one.h5"), str(tmp_path / "one.h5")], None)
    shutil.copy(outside, tmp_path / "databases.h5")
    with pytest.raises(ValueError, match="cannot be named 'databases'"):
        find_databases([str(tmp_path / "databases.h5")], None)


def test_a_damaged_file_in_the_folder_is_left_out_and_the_others_served(tmp_path, database,
                                                                       capsys):
    """One damaged file among good ones refused to serve anything. Now the good ones
    are served, the damaged one is named once on stderr, with the reason, and listed
    by --check, /api/databases and the page; files named on the command line are
    still served all or none, and a folder with no good file serves nothing."""
    folder = tmp_path / "db"
    folder.mkdir()
    shutil.copy(database("1210").path, folder / "1210.h5")
    shutil.copy(database("ttt", rows=3, cols=3).path, folder / "ttt_3x3.h5")
    (folder / "broken.h5").write_bytes(database("1210").path.read_bytes()[:1000])
    reason = "broken.h5 is not a readable database file (damaged, or not HDF5); rebuild it"
    code, out, err = command(["serve", "--dir", str(folder), "--check"], capsys)
    assert code == 0, err
    assert out.splitlines() == [
        "1210: 1210, start (L 0) win", f"broken: not served: {reason}",
        "ttt_3x3: ttt 3x3, start (x --- --- ---) tie",
        "would serve 2 databases at http://127.0.0.1:8000/ (1 file left out)"]
    assert [line for line in err.splitlines() if "broken" in line] == [
        f"tiersolve serve: leaving out {folder / 'broken.h5'}: {reason}"]
    refused = {}
    served = open_served(find_databases([], str(folder)), refused)
    app = create_app(served, refused=[item.summary for item in refused.values()])
    with TestClient(app) as client:
        listing = client.get("/api/databases").json()
        page = client.get("/app.js").text
    assert [d["name"] for d in listing["databases"]] == ["1210", "ttt_3x3"]
    assert listing["refused"] == [{"name": "broken", "file": "broken.h5", "error": reason}]
    assert "showRefused(listing.refused" in page
    for item in served.values():
        item.db.close()
    code, out, err = command(["serve", str(folder / "1210.h5"), str(folder / "broken.h5"),
                              "--check"], capsys)
    assert "is not a readable database file" in one_line_error(code, err, "tiersolve serve")
    (folder / "1210.h5").unlink()
    (folder / "ttt_3x3.h5").unlink()
    code, out, err = command(["serve", "--dir", str(folder), "--check"], capsys)
    line = one_line_error(code, err, "tiersolve serve")
    assert line.endswith(f"{folder / 'broken.h5'} is not a readable database file (damaged, or "
                         "not HDF5); rebuild it") and out == ""


@pytest.mark.parametrize("argv, message", [
    (["--dir", "/no/such/folder"], "no folder /no/such/folder"),
    (["no/such/file.h5"], "no such database file: no/such/file.h5"),
    (["x.h5", "--dir", "db"], "give database files or --dir, not both"),
    (["--workers", "2", "--port", "0", "--dir", "db"], "--port 0 works with one worker only"),
])
def test_start_up_errors_are_one_line(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert serve_main(argv, "tiersolve serve") == 2
    error = capsys.readouterr().err
    assert message in error and error.count("\n") == 1


@pytest.mark.parametrize("argv", [["--port", "99999"], ["--check", "--port", "99999"],
                                  ["--check", "--port", "65536"], ["--check", "--port", "-1"]])
def test_a_port_out_of_range_is_refused_as_the_arguments_are_read(argv, capsys):
    code, out, err = command(["serve", *argv], capsys)
    assert "--port: must be 0 to 65535" in one_line_error(code, err, "tiersolve serve")
    assert out == ""


def test_a_folder_given_as_a_file_is_named_a_folder(tmp_path, database, capsys):
    folder = tmp_path / "db"
    folder.mkdir()
    shutil.copy(database("1210").path, folder / "1210.h5")
    code, _, err = command(["serve", str(folder)], capsys)
    line = one_line_error(code, err, "tiersolve serve")
    assert f"{folder} is a folder, not a database file" in line
    assert f"--dir {folder}" in line


@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.parametrize("mistake", ["address in use", "address not here"])
def test_an_address_that_cannot_be_listened_on_is_a_mistake(mistake, workers, tmp_path,
                                                            database, capsys):
    """Exit code 2 and one line, as for every mistake, before anything says it serves
    (with several workers, uvicorn would bind the address itself: it is tried first)."""
    import socket

    with socket.create_server(("127.0.0.1", 0)) as taken:
        host, port = "127.0.0.1", str(taken.getsockname()[1])
        if mistake == "address not here":  # TEST-NET-1 (RFC 5737): no machine's own
            host, port = "192.0.2.1", "0" if workers == "1" else "8000"
        code, out, err = command(["serve", str(database("1210").path), "--host", host,
                                  "--port", port, "--workers", workers], capsys)
    line = one_line_error(code, err, "tiersolve serve")
    assert f"cannot listen on {host}:{port}: " in line and "serving" not in out


def test_check_says_what_would_be_served(tmp_path, database, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TIERSOLVE_DB_DIR", raising=False)
    (tmp_path / "db").mkdir()
    shutil.copy(database("ttt", rows=3, cols=3).path, tmp_path / "db" / "ttt_3x3.h5")
    assert main(["serve", "--check"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "ttt_3x3: ttt 3x3, start (x --- --- ---) tie",
        "would serve 1 database at http://127.0.0.1:8000/"]


def test_the_default_folder_is_where_builds_write(tmp_path, database, capsys, monkeypatch):
    """As every other command, serve reads $TIERSOLVE_DB_DIR (db/ without it)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "db").mkdir()
    (tmp_path / "elsewhere").mkdir()
    shutil.copy(database("1210").path, tmp_path / "db" / "1210.h5")
    shutil.copy(database("ttt", rows=3, cols=3).path, tmp_path / "elsewhere" / "ttt_3x3.h5")
    monkeypatch.setenv("TIERSOLVE_DB_DIR", str(tmp_path / "elsewhere"))
    assert main(["serve", "--check"]) == 0
    assert capsys.readouterr().out.splitlines()[0].startswith("ttt_3x3: ttt 3x3")


@pytest.mark.parametrize("name", list(GAMES))
def test_every_games_board_draws_its_moves(name):
    """The page's board for each game's start, at its default options: well-formed
    SVG, with a marker for every move but 1210's, Northcott's, Surround's and Fair
    Shares and Varied Pairs' (listed only); a piece that moves has a ring to choose it by, and its moves go from the
    square their name names first to the last (a piece placed from beside the board,
    Gobblet's ``S*b2``, from where it is drawn there, under column a for S)."""
    from xml.dom.minidom import parseString

    from tiersolve.cli.serve import board_with_moves

    game = make_game(name)
    start = game.parse(game.default_start())
    choices = [{"move": child.move, "value": value, "remoteness": 3}
               for child, value in zip(game.children(start), ["win", "lose", "tie", "draw"] * 99)]
    svg = board_with_moves(game, game.format(start), "x to move: win in 5", choices)
    parseString(svg)
    drawn = sum(choice["on_board"] for choice in choices)
    assert svg.count('class="move-marker"') == drawn
    assert drawn == (0 if name in ("1210", "northcott", "surround", "fsvp") else len(choices))
    moving = [c for c in choices if c["shape"] and c["shape"]["kind"] == "move"]
    for choice in moving:
        squares = re.findall(r"[a-z]\d+", choice["move"])
        if "*" in choice["move"]:  # a placement: from the reserve, a row under the board
            squares = [f'{"abc"["SML".index(choice["move"][0])]}0', *squares]
        assert [choice["shape"]["from"], choice["shape"]["to"]] == [squares[0], squares[-1]]
    assert svg.count('class="source"') == len({c["shape"]["from"] for c in moving})
    kinds = {c["shape"]["kind"] for c in choices if c["shape"]}
    # (Teeko, Kaooa and Gates place their pieces before they move them)
    assert kinds == {"1210": set(), "northcott": set(), "surround": set(), "fsvp": set(),
                     "ttt": {"place"},
                     "teeko": {"place"}, "domineering": {"place"}, "kaooa": {"place"},
                     "winkers": {"place"},
                     "gates": {"place"},
                     "pousse": {"push"}}.get(name, {"move"})


@pytest.mark.parametrize("name", list(GAMES))
def test_every_games_board_marks_the_last_move(name):
    """The last move played is marked on the board: the square a piece was placed on,
    the two a piece moved from and to, the square a pushed marker entered; for moves
    that name no square (Northcott's, Surround's), the squares they changed; for a game
    without a board, a line under its text. The marks lie under the moves' markers."""
    from tiersolve.cli.serve import board_with_moves
    from tiersolve.games.base import square_name

    game = make_game(name)
    start = game.start()
    child = game.children(start)[0]
    before, after = game.format(start), game.format(child.state)
    choices = [{"move": kid.move, "value": "win", "remoteness": 1}
               for kid in game.children(child.state)]
    svg = board_with_moves(game, after, "", choices, last=(before, child.move))
    marked = re.findall(r'class="last-move" data-square="([a-z]\d+)"', svg)
    grid, was = game.grid(child.state), game.grid(start)
    if grid is None:
        assert f"last move: {child.move}" in svg and not marked
        return
    rows, cols = len(grid), len(grid[0])
    named = [square for square in re.findall(r"[a-z]\d+", child.move)
             if square[0] < chr(ord("a") + cols) and 1 <= int(square[1:]) <= rows]
    if name == "pousse":  # L 1: the marker entered at a1
        expected = ["a1"] if child.move == "L 1" else None
    elif named:
        expected = [named[0], named[-1]]  # (a Konane jump names its squares on the way)
    else:
        expected = [square_name(r, c, rows) for r in range(rows) for c in range(cols)
                    if grid[r][c] != was[r][c]]
    assert marked and sorted(set(marked)) == sorted(set(expected)), (child.move, marked)
    if choices and 'class="move-marker"' in svg:
        assert svg.index('class="last-move"') < svg.index('class="move-marker"')


def test_a_finished_game_names_its_winner_and_the_page_the_game(served, client, database):
    """The page said 'Game over: w (to move) lose in 0'; the view says who won, in a
    player's words (the status line shows it), and the game's name for the title."""
    from tiersolve.cli.serve import game_name, game_result

    won = client.get("/api/ttt_3x3/view", params={"move": ["a1", "a2", "b1", "b2", "c1"]}).json()
    assert won["over"] and won["result"] == "x wins" and won["value"] == "lose"
    tied = client.get("/api/ttt_3x3/view", params={
        "move": ["a1", "b2", "c3", "b1", "b3", "a3", "c1", "c2", "a2"]}).json()
    assert tied["over"] and tied["result"] == "a tie"
    going = client.get("/api/ttt_3x3/view", params={"move": ["b2"]}).json()
    assert going["result"] is None and going["title"] == "Tomorrow's Tic-Tac-Toe 3×3"
    assert going["last"] == {"move": "b2", "squares": ["b2"]}
    assert client.get("/api/ttt_3x3/view").json()["last"] is None
    db = database("pousse", size=3)
    app = create_app({"pousse_3x3": Served("pousse_3x3", db, {"description": "pousse 3x3"})})
    with TestClient(app) as pousse:
        over = pousse.get("/api/pousse_3x3/view",
                          params={"move": ["L 2", "R 2", "L 2", "R 2", "L 2"]}).json()
    assert over["result"] == "o wins" and "repeated a board" in over["note"]
    assert over["last"] == {"move": "L 2", "squares": ["a2"]}
    assert game_result(make_game("clobber", rows=2, cols=2), "(w -- -b)", "lose") == "b wins"
    assert game_result(make_game("1210"), "(R 10)", "lose") == "L wins"
    assert [game_name(make_game(*args)) for args in [("loa",), ("northcott",), ("1210",)]] == [
        "Lines of Action 4×4", "Northcott's Game 3×6", "1,2,...,10"]


@pytest.mark.parametrize("name, options, hint", [
    ("quixo", {"size": 3}, "Click a ringed cube to see its moves, then a disc to play one."),
    ("loa", {}, "Click a ringed piece to see its moves, then a disc to play one."),
    ("ttt", {}, "Click a move on the board or in the list to play it."),
    ("northcott", {}, ""),
])
def test_the_hint_under_the_board_fits_the_game(name, options, hint):
    """Quixo's rings are round the cubes a player may take, blank ones too: its hint
    said 'Click a ringed piece'."""
    from tiersolve.cli.serve import board_with_moves, page_hint

    game = make_game(name, **options)
    choices = [{"move": kid.move, "value": "win", "remoteness": 1}
               for kid in game.children(game.start())]
    board_with_moves(game, game.default_start(), "", choices)
    assert page_hint(game, choices) == hint
