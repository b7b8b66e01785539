"""``tiersolve play``: whole games driven through stdin, against the computer, in a
game with go-again turns (Konane) and in loopy ones; the terminal conventions
(colour, an empty NO_COLOR, Ctrl-C); a database file of another game, or none at all
with moves piped in, is met with the command to run."""

from __future__ import annotations

import io
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tiersolve.cli.play import OVER_PROMPT, play_main
from tiersolve.databases import open_database

from conftest import command, one_line_error, tiersolve

POSITION_LINE = re.compile(r"^(\(.*\))  (\S+) \((you|computer)\) to move")


class Opponent(io.StringIO):
    """A stdin that answers each prompt with a move chosen from the position last shown:
    the worst move (so the computer's perfect play is tested), and records its answers."""

    def __init__(self, out: io.StringIO, db, pick=lambda moves: moves[-1]) -> None:
        super().__init__()
        self.out, self.db, self.pick, self.answers = out, db, pick, []

    def readline(self, size: int = -1) -> str:
        if self.out.getvalue().endswith(OVER_PROMPT):  # the game has ended
            return "quit\n"
        shown = [m for m in map(POSITION_LINE.match, self.out.getvalue().splitlines()) if m]
        moves = self.db.moves(shown[-1].group(1))
        answer = self.pick(moves).move
        self.answers.append(answer)
        return answer + "\n"


class Terminal(io.StringIO):
    """A stdin or stdout that is a terminal (someone types at it, colours show)."""

    def isatty(self) -> bool:
        return True


def play(argv, stdin) -> tuple[int, str]:
    out = io.StringIO()
    code = play_main(argv, stdin=stdin, stdout=out)
    return code, out.getvalue()


def drive(argv, db_path, pick=lambda moves: moves[-1]) -> tuple[int, str, list[str]]:
    """Play through ``play_main`` with an Opponent at the keyboard (builds the database
    first if ``argv`` has --build)."""
    if "--build" in argv and not db_path.exists():
        play_main(argv + ["--computer", "both", "--max-moves", "0"], stdin=io.StringIO(),
                  stdout=io.StringIO())
    out = io.StringIO()
    with open_database(db_path) as db:
        opponent = Opponent(out, db, pick)
        code = play_main(argv, stdin=opponent, stdout=out)
    return code, out.getvalue(), opponent.answers


def ended(transcript: str) -> list[str]:
    """The lines of a transcript that say how a game ended."""
    return [line for line in transcript.splitlines() if line.startswith("game over: ")]


def script(*args: str, stdin: str, cwd: Path, env=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tiersolve", *args], input=stdin, cwd=cwd,
                          capture_output=True, text=True, timeout=300, env=env)


@pytest.mark.parametrize("game, options", [
    ("konane", ["--rows", "3", "--cols", "4"]),                     # go-again turns
    ("knightsdance", ["--rows", "3", "--cols", "4"]),               # loopy, with draws
    ("northcott", ["--rows", "2", "--cols", "4", "--backward"]),    # loopy
])
def test_a_whole_game_against_the_computer_through_piped_stdin(tmp_path, game, options):
    db_path = tmp_path / f"{game}.h5"
    argv = [game, *options, "--db", str(db_path), "--build", "--seed", "4"]
    code, text, answers = drive(argv, db_path)
    assert code == 0, text
    assert text.splitlines()[-1] == OVER_PROMPT + "quit"
    with open_database(db_path) as db:
        start = db.lookup(db.start)
        # the computer plays second; we open with the worst move: perfect play then
        # never lets a won game slip
        if db.moves(db.start)[-1].value == "lose":
            assert "(computer) wins" in text or "(you) loses" in text
    # the same answers piped to the real command give the same game, to the letter
    piped = script("play", game, *options, "--db", str(db_path), "--seed", "4",
                   stdin="\n".join(answers) + "\n", cwd=tmp_path)
    assert piped.returncode == 0, piped.stderr
    assert ended(piped.stdout) == ended(text) != []
    assert "\x1b[" not in piped.stdout  # a pipe turns colour off
    assert start.value in ("win", "lose", "tie", "draw")


def test_go_again_keeps_the_turn(tmp_path):
    """In Konane a jump that may continue leaves the same player to move."""
    db_path = tmp_path / "konane.h5"
    code, text, _ = drive(["konane", "--rows", "3", "--cols", "4", "--db", str(db_path),
                           "--build", "--computer", "none"], db_path, pick=lambda moves: moves[0])
    assert code == 0
    with open_database(db_path) as db:
        again = [line for line in text.splitlines() if "(moves again)" in line]
        assert again or all(not m.moves_again for m in db.moves(db.start))


def test_commands_and_eof(tmp_path):
    db_path = tmp_path / "ttt.h5"
    base = ["ttt", "--rows", "3", "--cols", "3", "--db", str(db_path), "--build"]
    code, text = play(base, io.StringIO("b2\nhint\nvalue\nmoves\nbogus\nundo\nrestart\n"))
    assert code == 0
    assert "you play b2" in text and "(computer) plays" in text
    assert re.search(r"hint: \S+ \(tie in \d+\)", text)
    assert "'bogus' is not a legal move here" in text
    assert "undone" in text and "restarted" in text
    assert text.rstrip().endswith(">")  # end of input after the last prompt: quits quietly
    code, text = play(base + ["--computer", "first"], io.StringIO("quit\n"))
    assert code == 0 and "x (computer) plays" in text


def test_the_game_stays_open_after_its_end_until_quit(tmp_path):
    """At the end the session waits: undo and restart, which it offers, go on; a move
    is refused; quit (or the end of input) leaves."""
    db_path = tmp_path / "1210.h5"
    argv = ["1210", "--target", "2", "--db", str(db_path), "--build", "--computer", "none"]
    code, text = play(argv, io.StringIO("+2\n+1\nhint\nundo\n+1\n+1\nrestart\n+2\nquit\n"))
    assert code == 0
    assert text.count("game over: ") == 3 and "undone" in text and "restarted" in text
    assert "the game is over" in text.split("game over: ")[1]  # +1 and hint after the end
    assert text.count("you play +2") == 2 and text.count("you play +1") == 2
    assert text.splitlines()[-1] == "game over> quit"
    code, text = play(argv, io.StringIO("+2\n"))  # end of input at the end: it leaves
    assert code == 0 and text.endswith("game over> \n")


def test_the_introduction_names_every_command_the_session_suggests(tmp_path):
    db_path = tmp_path / "1210.h5"
    code, text = play(["1210", "--db", str(db_path), "--build"], io.StringIO("+3\nquit\n"))
    introduction = text.splitlines()[1]  # after the build's summary
    assert introduction.startswith("Type a move's name, or: ")
    assert "'+3' is not a legal move here; type one of the moves listed, or help" in text
    for word in ("help", "undo", "hint", "value", "moves", "restart", "quit"):
        assert f" {word}" in introduction, word


def test_end_of_input_at_a_question_ends_its_line(tmp_path):
    """Typed input that ends (Ctrl-D) at "build it now?" leaves no bare question: the
    error that follows starts a line of its own."""
    db_path = tmp_path / "ttt.h5"
    code, text = play(["ttt", "--rows", "3", "--cols", "3", "--db", str(db_path)], Terminal(""))
    assert code == 2 and text.endswith("build it now? [y/N] \n") and not db_path.exists()


def test_computer_both_plays_a_whole_game_and_choices_are_seeded(tmp_path):
    db_path = tmp_path / "ttt.h5"
    argv = ["ttt", "--rows", "3", "--cols", "3", "--db", str(db_path), "--build",
            "--computer", "both"]
    play(argv + ["--max-moves", "0"], io.StringIO())  # builds it
    _, first = play(argv + ["--seed", "1"], io.StringIO())
    _, again = play(argv + ["--seed", "1"], io.StringIO())
    others = {play(argv + ["--seed", str(seed)], io.StringIO())[1] for seed in range(2, 8)}
    assert first == again and len(others | {first}) > 1
    assert ended(first) == ["game over: a tie."]


def test_the_computer_finds_the_known_best_move(tmp_path):
    db_path = tmp_path / "ttt.h5"
    code, text = play(["ttt", "--rows", "3", "--cols", "3", "--db", str(db_path), "--build",
                       "--computer", "both", "--start", "(o xx- oo- --x)"], io.StringIO())
    assert "o (computer) plays c2: win in 0" in text
    code, text = play(["1210", "--db", str(tmp_path / "1210.h5"), "--build", "--computer",
                       "first"], io.StringIO("quit\n"))
    assert "L (computer) plays +1: win in 6" in text


def test_colour_follows_the_terminal_and_no_color(tmp_path, monkeypatch):
    db_path = tmp_path / "ttt.h5"
    argv = ["ttt", "--rows", "3", "--cols", "3", "--db", str(db_path), "--build"]
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    out = Terminal()
    play_main(argv, stdin=io.StringIO("quit\n"), stdout=out)
    assert "\x1b[33mtie in 8\x1b[0m" in out.getvalue()
    monkeypatch.setenv("NO_COLOR", "1")
    out = Terminal()
    play_main(argv, stdin=io.StringIO("quit\n"), stdout=out)
    assert "\x1b[" not in out.getvalue()


def test_missing_database_asks_before_building(tmp_path):
    db_path = tmp_path / "ttt.h5"
    argv = ["ttt", "--rows", "3", "--cols", "3", "--db", str(db_path)]
    code, text = play(argv, Terminal("n\n"))
    assert code == 2 and not db_path.exists() and "build it now? [y/N]" in text
    code, text = play(argv, Terminal("y\nquit\n"))
    assert code == 0 and db_path.exists()


def test_ctrl_c_quits_without_a_traceback(tmp_path):
    db_path = tmp_path / "ttt.h5"
    play(["ttt", "--rows", "3", "--cols", "3", "--db", str(db_path), "--build"], io.StringIO())
    process = subprocess.Popen(
        [sys.executable, "-m", "tiersolve", "play", "ttt", "--rows", "3", "--cols", "3",
         "--db", str(db_path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    deadline = time.time() + 120
    seen = ""
    while "> " not in seen and time.time() < deadline:
        seen += process.stdout.read(1)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert "Traceback" not in err and "KeyboardInterrupt" not in err


def test_an_empty_no_color_leaves_colour_on(monkeypatch):
    from tiersolve.cli.play import use_colour

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setenv("NO_COLOR", "")
    assert use_colour(Terminal())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_colour(Terminal())


def test_play_with_a_file_of_another_game_says_what_to_do(database, capsys):
    path = str(database("northcott", rows=3, cols=6).path)
    capsys.readouterr()  # the build's own lines (its compile, on a cold kernel cache)
    code, _, err = command(["play", "ttt", "--db", path], capsys)
    line = one_line_error(code, err, "tiersolve play")
    assert "holds northcott 3x6, not ttt 3x4" in line and "pass its path" not in line
    assert f"'tiersolve play northcott --db {path}'" in line


def test_play_with_piped_moves_and_no_database_prints_the_command_that_builds_it(tmp_path):
    done = tiersolve("play", "domineering", "--rows", "3", "--cols", "4", cwd=tmp_path,
                     input="a1-a2\nhint\n")
    assert done.returncode == 2 and "..." not in done.stderr and "[y/N]" not in done.stdout
    assert "build it with: tiersolve build domineering --rows 3 --cols 4 " in done.stderr
    assert not (tmp_path / "db").exists()
