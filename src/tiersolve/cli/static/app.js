// The page of `tiersolve serve`: one game at a time, drawn by the server
// (GET /api/NAME/view); the game so far lives in the URL, so a link reopens it.
// The server draws every move on the board; this script only chooses which to show:
// a piece's moves once it is clicked, one move while the list points at it.
"use strict";

// game: what is shown (name, start, moves, redo, and its view from the server);
// selected: the square of the piece whose moves are shown, or null.
const state = { databases: [], game: null, selected: null };
const COLOURS = { win: "#1e9e3a", tie: "#e2b100", draw: "#e2b100", lose: "#c8312b" };
const $ = (id) => document.getElementById(id);

function valueText(value, remoteness) {
  return remoteness === null || remoteness === undefined ? value : `${value} in ${remoteness}`;
}

function showError(message) {
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
}

async function getJSON(url) {
  const response = await fetch(url);
  let body;
  try {
    body = await response.json();
  } catch (error) {
    throw new Error(`HTTP ${response.status}: the server's answer is not JSON`);
  }
  if (!response.ok) throw new Error(body.error || `HTTP ${response.status}`);
  return body;
}

function database(name) {
  return state.databases.find((d) => d.name === name);
}

function fetchView(game) {
  const params = new URLSearchParams();
  if (game.start) params.set("start", game.start);
  for (const move of game.moves) params.append("move", move);
  return getJSON(`/api/${encodeURIComponent(game.name)}/view?${params}`);
}

// Shows `game` ({name, start, moves, redo}) if the server can, and returns true;
// otherwise keeps the game shown (the last good one), says why beside it, and
// returns false. With `quietly`, the error line is left alone and a refusal is
// returned as its message: the caller says what went wrong once, at the end, and
// the line never flickers empty in between.
async function go(game, quietly = false) {
  let view;
  try {
    view = await fetchView(game);
  } catch (error) {
    if (!quietly) showError(error.message);
    if (state.game) $("database").value = state.game.name;
    drawControls();
    return quietly ? error.message : false;
  }
  if (!quietly) showError("");
  state.game = { ...game, view };
  state.selected = null;
  draw();
  return true;
}

function writeURL() {
  const game = state.game;
  const params = new URLSearchParams();
  params.set("db", game.name);
  if (game.start && game.start !== database(game.name).start) params.set("start", game.start);
  for (const move of game.moves) params.append("move", move);
  params.set("position", game.view.position);
  const url = `${location.pathname}?${params}`;
  if (url !== location.pathname + location.search) history.replaceState(null, "", url);
}

function draw() {
  const view = state.game.view;
  $("game-title").textContent = view.title;
  document.title = `${view.title} · tiersolve`;
  $("database").value = state.game.name;
  const board = $("board");
  board.innerHTML = view.svg;
  board.classList.toggle("text", !view.board);
  const picture = board.querySelector("svg");
  const frame = picture.viewBox.baseVal;
  document.querySelector("main").style.setProperty(
    "--aspect", view.board && frame && frame.height ? frame.width / frame.height : 1);
  picture.addEventListener("click", () => select(null));
  for (const marker of board.querySelectorAll(".move-marker")) {
    marker.addEventListener("click", (event) => { event.stopPropagation(); play(marker.dataset.move); });
    marker.addEventListener("mouseenter", () => listButton(marker.dataset.move)?.classList.add("hover"));
    marker.addEventListener("mouseleave", () => listButton(marker.dataset.move)?.classList.remove("hover"));
  }
  const sources = board.querySelectorAll(".source");
  for (const source of sources) {
    source.addEventListener("click", (event) => {
      event.stopPropagation();
      select(state.selected === source.dataset.square ? null : source.dataset.square);
    });
  }
  drawMoves(view);
  drawStatus(view);
  drawChart(view.trail);
  drawControls();
  $("hint").textContent = view.hint;  // in the game's words (Quixo's rings are round cubes)
  if (sources.length === 1) select(sources[0].dataset.square);  // one piece to move: show its moves
  writeURL();
}

// Shows the moves of the piece on `square` (null: none), on the board and in the list.
function select(square) {
  state.selected = square;
  const board = $("board");
  for (const source of board.querySelectorAll(".source")) {
    source.classList.toggle("selected", source.dataset.square === square);
  }
  for (const marker of board.querySelectorAll('.move-marker[data-kind="move"], .way')) {
    marker.classList.toggle("shown", marker.dataset.from === square);
  }
  for (const button of $("moves").querySelectorAll("button.move")) {
    button.classList.toggle("of-selected", square !== null && button.dataset.from === square);
  }
  $("moves").classList.toggle("filtered", square !== null);
}

// Shows `move` on the board while the list points at it, and only it (null: none).
// One preview at a time, taken off whenever the pointer leaves the list: a preview
// turned on and off by separate events (focus, the pointer) could outlive both.
function preview(move) {
  const board = $("board");
  for (const shown of board.querySelectorAll(".preview")) shown.classList.remove("preview");
  const marker = move && board.querySelector(`.move-marker[data-move="${CSS.escape(move)}"]`);
  if (!marker) return;
  marker.parentNode.append(marker);  // on top of the others
  marker.classList.add("preview");
  board.querySelector(`.way[data-move="${CSS.escape(move)}"]`)?.classList.add("preview");
  if (marker.dataset.from) {
    board.querySelector(`.source[data-square="${CSS.escape(marker.dataset.from)}"]`)
      ?.classList.add("preview");
  }
}

function listButton(move) {
  return $("moves").querySelector(`button.move[data-move="${CSS.escape(move)}"]`);
}

function drawControls() {
  const game = state.game;
  $("undo").disabled = !game || game.moves.length === 0;
  $("redo").disabled = !game || game.redo.length === 0;
  $("best").disabled = !game || game.view.over;
  $("restart").disabled = !state.databases.length;
}

function drawStatus(view) {
  const turn = view.turn || view.position.replace(/^\(\s*/, "").split(" ")[0];
  let text = view.over ? `Game over: ${view.result}`  // the winner named: "o wins"
                       : `${turn} to move: ${valueText(view.value, view.remoteness)}`;
  if (view.note) text += ` (${view.note})`;
  $("status").textContent = `${view.position} · ${text}`;
}

function drawMoves(view) {
  const list = $("moves");
  list.replaceChildren();
  list.classList.remove("filtered");
  if (view.over) {
    const item = document.createElement("li");
    item.textContent = "no moves: the game is over";
    list.append(item);
  }
  for (const choice of view.choices) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = `move ${choice.value}`;
    button.dataset.move = choice.move;
    if (choice.shape && choice.shape.from) button.dataset.from = choice.shape.from;
    button.textContent = `${choice.move}: ${valueText(choice.value, choice.remoteness)}` +
      (choice.moves_again ? " (moves again)" : "");
    button.title = `leads to ${choice.position}`;
    button.addEventListener("click", () => play(choice.move));
    button.addEventListener("pointerenter", () => preview(choice.move));
    button.addEventListener("pointerleave", () => preview(null));
    // the keyboard's focus shows its move; a press of the pointer also focuses the
    // button (and the window's focus coming back focuses it again): that shows none
    button.addEventListener("focus", () => { if (button.matches(":focus-visible")) preview(choice.move); });
    button.addEventListener("blur", () => preview(null));
    item.append(button);
    if (choice.note && choice.note !== view.note) {  // the status line says the view's note once
      const note = document.createElement("span");
      note.className = "note";
      note.textContent = ` ${choice.note}`;
      item.append(note);
    }
    list.append(item);
  }
}

// One point per position of the game so far: across, the number of moves played;
// up, the remoteness (a draw at the top, as it has none); coloured by its value for
// the player to move there, as GamesmanUni's visual value history.
function drawChart(trail) {
  const NS = "http://www.w3.org/2000/svg";
  const width = Math.max(300, $("chart").clientWidth - 2 || 480), height = 200;
  // top leaves room above the highest point for the axis's title, inset keeps the
  // first point off the axis and its labels
  const left = 40, right = 16, top = 30, bottom = 32, inset = 10;
  const known = trail.map((p) => p.remoteness).filter((r) => r !== null);
  const highest = Math.max(1, ...known);
  const hasDraw = trail.some((p) => p.remoteness === null);
  const rows = highest + (hasDraw ? 1 : 0);
  const x = (i) => left + inset +
    (trail.length === 1 ? 0 : i * (width - left - inset - right) / (trail.length - 1));
  const y = (r) => top + (rows - (r === null ? rows : r)) * (height - top - bottom) / rows;
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("width", width);
  svg.setAttribute("height", height);
  svg.setAttribute("font-size", "11");
  const add = (tag, attributes, text) => {
    const element = document.createElementNS(NS, tag);
    for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
    if (text !== undefined) element.textContent = text;
    svg.append(element);
    return element;
  };
  add("line", { x1: left, y1: y(0), x2: width - right, y2: y(0), stroke: "#999" });
  add("line", { x1: left, y1: top, x2: left, y2: y(0), stroke: "#999" });
  add("text", { x: left - 6, y: y(0) + 4, "text-anchor": "end" }, "0");
  add("text", { x: left - 6, y: y(highest) + 4, "text-anchor": "end" }, String(highest));
  if (hasDraw) add("text", { x: left - 6, y: y(null) + 4, "text-anchor": "end" }, "draw");
  add("text", { x: (left + width) / 2, y: height - 4, "text-anchor": "middle" }, "moves played");
  add("text", { x: 6, y: 13, class: "chart-title" }, "remoteness");
  if (trail.length > 1) {
    add("polyline", { points: trail.map((p, i) => `${x(i)},${y(p.remoteness)}`).join(" "),
                      fill: "none", stroke: "#bbb", "stroke-width": 2 });
  }
  // a number under every point, or every second, third... where they would crowd
  const every = Math.ceil(trail.length / Math.max(1, Math.floor((width - left - inset - right) / 22)));
  trail.forEach((p, i) => {
    const point = add("circle", { cx: x(i), cy: y(p.remoteness), r: 6, class: "chart-point",
                                  fill: COLOURS[p.value] || "#888", stroke: "#333" });
    const title = document.createElementNS(NS, "title");
    title.textContent = `${i === 0 ? "start" : `after ${p.move}`}: ${p.position}, ` +
      `${valueText(p.value, p.remoteness)} for ${p.turn} to move`;
    point.append(title);
    if (i % every === 0) add("text", { x: x(i), y: height - 18, "text-anchor": "middle" }, String(i));
  });
  $("chart").replaceChildren(svg);
}

function play(move) {
  const game = state.game;
  return go({ ...game, moves: [...game.moves, move], redo: [] });
}

function choose(name) {
  return go({ name, start: database(name).start, moves: [], redo: [] });
}

// The longest start of `moves` the server accepts from `start` (a link's moves may
// be wrong from any of them on): a binary search, as every prefix of a good game is good.
async function goodPrefix(name, start, moves) {
  let good = 0, bad = moves.length;
  let reason = "";
  while (bad - good > 1) {
    const middle = Math.floor((good + bad) / 2);
    try {
      await fetchView({ name, start, moves: moves.slice(0, middle) });
      good = middle;
    } catch (error) {
      bad = middle;
      reason = error.message;
    }
  }
  return { good, reason };
}

// Opens the game a link names. A link the server refuses (a malformed position, an
// illegal move) shows the longest good part of it, and says what was wrong.
async function open(name, start, moves, linkError) {
  const first = { name, start: start || database(name).start, moves, redo: [] };
  const refused = await go(first, true);
  if (refused === true) {
    showError(linkError || "");
    return;
  }
  const sentence = (text) => text.replace(/\.?$/, ".");
  if (moves.length && await go({ ...first, moves: [] }, true) === true) {
    const { good, reason } = await goodPrefix(name, first.start, moves);
    if (good) await go({ ...first, moves: moves.slice(0, good) }, true);
    showError(`The link's move ${good + 1}, ${moves[good]}, cannot be played: ` +
              `${sentence(reason || refused)} Showing the game before it.`);
  } else if (first.start !== database(name).start && await choose(name)) {
    showError(`The link's position cannot be shown: ${sentence(refused)} Showing the start instead.`);
  } else {
    showError(refused);
  }
}

// The files of the folder that the server could not open, each with the reason.
function showRefused(refused) {
  const list = $("refused-files");
  list.replaceChildren(...refused.map((file) => {
    const item = document.createElement("li");
    item.textContent = `${file.file}: ${file.error}`;
    return item;
  }));
  $("refused").hidden = !refused.length;
}

async function main() {
  drawControls();
  try {
    const listing = await getJSON("/api/databases");
    state.databases = listing.databases;
    showRefused(listing.refused || []);
  } catch (error) {
    showError(error.message);
    return;
  }
  drawControls();
  const select = $("database");
  for (const d of state.databases) {
    const option = document.createElement("option");
    option.value = d.name;
    option.textContent = `${d.name}: ${d.description}`;
    select.append(option);
  }
  if (!state.databases.length) {
    showError("no databases are served");
    return;
  }
  select.addEventListener("change", () => choose(select.value));
  $("moves").addEventListener("pointerleave", () => preview(null));
  $("undo").addEventListener("click", () => {
    const game = state.game;
    if (game && game.moves.length) {
      go({ ...game, moves: game.moves.slice(0, -1), redo: [...game.redo, game.moves.at(-1)] });
    }
  });
  $("redo").addEventListener("click", () => {
    const game = state.game;
    if (game && game.redo.length) {
      go({ ...game, moves: [...game.moves, game.redo.at(-1)], redo: game.redo.slice(0, -1) });
    }
  });
  $("restart").addEventListener("click", () => {
    const game = state.game;
    if (game) go({ ...game, moves: [], redo: [] });
    else choose($("database").value || state.databases[0].name);
  });
  $("best").addEventListener("click", () => {
    const game = state.game;
    if (game && game.view.choices.length) play(game.view.choices[0].move);
  });
  let resizing = null;
  window.addEventListener("resize", () => {  // the chart takes its panel's width
    clearTimeout(resizing);
    resizing = setTimeout(() => { if (state.game) drawChart(state.game.view.trail); }, 100);
  });
  const params = new URLSearchParams(location.search);
  const asked = params.get("db");
  const named = database(asked) !== undefined;
  const name = named ? asked : state.databases[0].name;
  const moves = named ? params.getAll("move") : [];
  // a link with a position and no moves opens that position as the start
  const start = named ? params.get("start") || (moves.length ? null : params.get("position")) : null;
  const linkError = asked && !named
    ? `no database named '${asked}' is served; showing ${name}` : "";
  await open(name, start, moves, linkError);
}

main();
