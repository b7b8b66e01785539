// The page of `tiersolve serve`: one game at a time, drawn by the server
// (GET /api/NAME/view); the game so far lives in the URL, so a link reopens it.
"use strict";

const state = { databases: [], name: null, start: null, moves: [], redo: [], view: null };
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
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || `HTTP ${response.status}`);
  return body;
}

function database() {
  return state.databases.find((d) => d.name === state.name);
}

function writeURL() {
  const params = new URLSearchParams();
  params.set("db", state.name);
  if (state.start && state.start !== database().start) params.set("start", state.start);
  for (const move of state.moves) params.append("move", move);
  if (state.view) params.set("position", state.view.position);
  const url = `${location.pathname}?${params}`;
  if (url !== location.pathname + location.search) history.replaceState(null, "", url);
}

async function render() {
  const params = new URLSearchParams();
  if (state.start) params.set("start", state.start);
  for (const move of state.moves) params.append("move", move);
  let view;
  try {
    view = await getJSON(`/api/${encodeURIComponent(state.name)}/view?${params}`);
  } catch (error) {
    showError(error.message);
    return;
  }
  showError("");
  state.view = view;
  $("game-title").textContent = view.game;
  $("board").innerHTML = view.svg;
  const picture = $("board").querySelector("svg");  // half as large again, not more
  picture.style.width = `${Math.round(1.5 * picture.width.baseVal.value)}px`;
  for (const marker of $("board").querySelectorAll(".move-marker")) {
    marker.addEventListener("click", () => play(marker.dataset.move));
  }
  drawMoves(view);
  drawStatus(view);
  drawChart(view.trail);
  $("undo").disabled = state.moves.length === 0;
  $("redo").disabled = state.redo.length === 0;
  $("best").disabled = view.over;
  writeURL();
}

function drawStatus(view) {
  const turn = view.position.replace(/^\(\s*/, "").split(" ")[0];
  let text = view.over ? `Game over: ${turn} (to move) ${valueText(view.value, view.remoteness)}`
                       : `${turn} to move: ${valueText(view.value, view.remoteness)}`;
  if (view.note) text += ` (${view.note})`;
  $("status").textContent = `${view.position} · ${text}`;
}

function drawMoves(view) {
  const list = $("moves");
  list.replaceChildren();
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
    button.textContent = `${choice.move}: ${valueText(choice.value, choice.remoteness)}` +
      (choice.moves_again ? " (moves again)" : "");
    button.title = `leads to ${choice.position}`;
    button.addEventListener("click", () => play(choice.move));
    item.append(button);
    if (choice.note) {
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
  const width = Math.max(480, 40 + 28 * trail.length), height = 220;
  const left = 40, right = 16, top = 18, bottom = 32;
  const known = trail.map((p) => p.remoteness).filter((r) => r !== null);
  const highest = Math.max(1, ...known);
  const hasDraw = trail.some((p) => p.remoteness === null);
  const rows = highest + (hasDraw ? 1 : 0);
  const x = (i) => left + (trail.length === 1 ? 0 : i * (width - left - right) / (trail.length - 1));
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
  add("text", { x: left + 6, y: 12 }, "remoteness");
  if (trail.length > 1) {
    add("polyline", { points: trail.map((p, i) => `${x(i)},${y(p.remoteness)}`).join(" "),
                      fill: "none", stroke: "#bbb", "stroke-width": 2 });
  }
  trail.forEach((p, i) => {
    const point = add("circle", { cx: x(i), cy: y(p.remoteness), r: 6, class: "chart-point",
                                  fill: COLOURS[p.value] || "#888", stroke: "#333" });
    const title = document.createElementNS(NS, "title");
    title.textContent = `${i === 0 ? "start" : `after ${p.move}`}: ${p.position}, ` +
      `${valueText(p.value, p.remoteness)} for ${p.turn} to move`;
    point.append(title);
    if (trail.length <= 40) add("text", { x: x(i), y: height - 18, "text-anchor": "middle" }, String(i));
  });
  $("chart").replaceChildren(svg);
}

function play(move) {
  state.moves.push(move);
  state.redo = [];
  render();
}

function choose(name, start, moves) {
  state.name = name;
  state.start = start || database().start;
  state.moves = moves || [];
  state.redo = [];
  $("database").value = name;
  return render();
}

async function main() {
  try {
    state.databases = (await getJSON("/api/databases")).databases;
  } catch (error) {
    showError(error.message);
    return;
  }
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
  $("undo").addEventListener("click", () => {
    if (state.moves.length) { state.redo.push(state.moves.pop()); render(); }
  });
  $("redo").addEventListener("click", () => {
    if (state.redo.length) { state.moves.push(state.redo.pop()); render(); }
  });
  $("restart").addEventListener("click", () => { state.moves = []; state.redo = []; render(); });
  $("best").addEventListener("click", () => {
    if (state.view && state.view.choices.length) play(state.view.choices[0].move);
  });
  const params = new URLSearchParams(location.search);
  const named = state.databases.some((d) => d.name === params.get("db"));
  const name = named ? params.get("db") : state.databases[0].name;
  const moves = params.getAll("move");
  // a link with a position and no moves opens that position as the start
  const start = params.get("start") || (moves.length ? null : params.get("position"));
  await choose(name, named ? start : null, named ? moves : []);
}

main();
