// The page of `trax web`: draws what the server sends over /ws, sends the person's moves back.
"use strict";

const $ = (id) => document.getElementById(id);
let socket = null;
let live = null;       // the last view of the live game (play or watch)
let replay = null;     // the log being replayed, and its ply
let received = 0;      // when the live view arrived (for the ticking clock)
let selected = null;   // the cell whose choices are open

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws`);
  socket.onopen = () => { $("connection").textContent = "connected"; $("connection").className = ""; };
  socket.onclose = () => {
    $("connection").textContent = "disconnected: retrying…";
    $("connection").className = "offline";
    setTimeout(connect, 1000);
  };
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "view") {
      live = message;
      received = performance.now();
      if (!replay) drawLive();
    } else if (message.type === "replay") {
      replay = { data: message, ply: message.frames.length - 1 };
      drawReplay();
    } else if (message.type === "error") {
      $("error").textContent = message.error;
    }
  };
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function seconds(value) {
  if (value === null || value === undefined) return "";
  return value < 60 ? `${value.toFixed(1)} s` : `${Math.floor(value / 60)} min ${(value % 60).toFixed(0)} s`;
}

function drawMoves(moves, current) {
  const list = $("moves");
  list.replaceChildren();
  moves.forEach((move, index) => {
    const item = document.createElement("li");
    item.dataset.colour = move.colour;
    item.textContent = move.text;
    item.title = `${move.colour}${move.seconds != null ? ", " + seconds(move.seconds) : ""}`;
    if (move.forced.length) {
      const forced = document.createElement("span");
      forced.className = "forced";
      forced.textContent = ` (forced ${move.forced.join(" ")})`;
      item.append(forced);
    }
    if (current === index + 1) item.classList.add("current");
    if (replay) item.onclick = () => { replay.ply = index + 1; drawReplay(); };
    list.append(item);
  });
  const last = list.lastElementChild;
  if (last && current === undefined) last.scrollIntoView({ block: "nearest" });
}

function drawPlayers(view) {
  $("white-name").textContent = view.white;
  $("black-name").textContent = view.black;
  $("white-row").classList.toggle("to-move", view.turn === "white");
  $("black-row").classList.toggle("to-move", view.turn === "black");
  tick();
}

function tick() {
  if (replay || !live) return;
  const extra = live.turn ? (live.thinking_for || 0) + (performance.now() - received) / 1000 : 0;
  for (const colour of ["white", "black"]) {
    const total = (live.clocks ? live.clocks[colour] : 0) + (live.turn === colour ? extra : 0);
    $(`${colour}-clock`).textContent = live.clocks ? seconds(total) : "";
  }
}

function drawBoard(svg) {
  $("board").innerHTML = svg;
}

function drawLive() {
  const view = live;
  closeChoices();
  $("replay-controls").hidden = true;
  $("mode").textContent = view.mode === "play" ? `you (${view.you}) against ${view.opponent}` : "watching a match";
  drawBoard(view.svg);
  drawPlayers(view);
  drawMoves(view.moves);
  $("result").textContent = view.result || "";
  $("search").textContent = view.search ? `${view.opponent}'s search: ${view.search}` : "";
  $("notice").textContent = view.notice || "";
  $("headers").textContent = "";
  let status;
  if (view.mode === "watch") {
    status = view.status;
  } else if (view.result) {
    status = "Game over.";
  } else if (view.your_turn) {
    status = "Your move: click a highlighted cell, then choose a tile.";
  } else if (view.turn) {
    status = `${view.opponent} is thinking…`;
  } else {
    status = "Starting…";
  }
  $("status").textContent = status;
  $("turn").textContent = view.turn ? `${view.turn} to move` : "";
  $("board").classList.toggle("your-turn", !!view.your_turn);
  $("resign").hidden = view.mode !== "play" || !!view.result;
  $("new-game").hidden = view.mode !== "play" || !view.over;
  if (view.your_turn) {
    for (const cell of $("board").querySelectorAll("[data-cell]")) {
      const name = cell.dataset.cell;
      if (view.choices[name]) cell.onclick = () => openChoices(name);
    }
  }
  const games = view.games || [];
  $("games-box").hidden = games.length === 0;
  $("games").replaceChildren(...games.map((game) => {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = "#";
    link.textContent = `${game.name}: ${game.result}`;
    link.onclick = (event) => { event.preventDefault(); send({ type: "open-game", name: game.name }); };
    item.append(link);
    return item;
  }));
}

function openChoices(name) {
  selected = name;
  for (const cell of $("board").querySelectorAll(".cell.selected")) cell.classList.remove("selected");
  const cell = $("board").querySelector(`[data-cell="${CSS.escape(name)}"]`);
  if (cell) cell.classList.add("selected");
  $("choice-cell").textContent = name;
  const list = $("choice-list");
  list.replaceChildren();
  for (const choice of live.choices[name]) {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.move = choice.move;
    button.title = choice.move;
    button.innerHTML = choice.svg;
    const label = document.createElement("span");
    label.textContent = choice.move;
    button.append(label);
    button.onclick = () => {
      $("error").textContent = "";
      send({ type: "move", move: choice.move });
      closeChoices();
    };
    list.append(button);
  }
  $("choices").hidden = false;
}

function closeChoices() {
  selected = null;
  $("choices").hidden = true;
  $("choice-list").replaceChildren();
}

function drawReplay() {
  const { data, ply } = replay;
  closeChoices();
  $("mode").textContent = `replaying ${data.name}`;
  $("replay-controls").hidden = false;
  $("ply").textContent = `${ply} / ${data.frames.length - 1}`;
  drawBoard(data.frames[ply]);
  $("white-name").textContent = data.white;
  $("black-name").textContent = data.black;
  $("white-clock").textContent = "";
  $("black-clock").textContent = "";
  const turn = ply % 2 === 0 ? "white" : "black";
  $("white-row").classList.toggle("to-move", turn === "white");
  $("black-row").classList.toggle("to-move", turn === "black");
  drawMoves(data.moves, ply);
  $("status").textContent = `Position after ${ply} move${ply === 1 ? "" : "s"}.`;
  $("turn").textContent = "";
  $("search").textContent = "";
  $("result").textContent = ply === data.frames.length - 1 ? (data.result || "") : "";
  $("headers").textContent = data.headers.join("\n");
  $("resign").hidden = true;
  $("new-game").hidden = true;
}

function step(delta, absolute) {
  if (!replay) return;
  const last = replay.data.frames.length - 1;
  replay.ply = Math.max(0, Math.min(last, absolute !== undefined ? absolute : replay.ply + delta));
  drawReplay();
}

$("first").onclick = () => step(0, 0);
$("prev").onclick = () => step(-1);
$("next").onclick = () => step(1);
$("last").onclick = () => step(0, Infinity);
$("live").onclick = () => { replay = null; if (live) drawLive(); };
$("choice-cancel").onclick = closeChoices;
$("resign").onclick = () => send({ type: "resign" });
$("new-game").onclick = () => send({ type: "new" });
$("log-file").onchange = async (event) => {
  const file = event.target.files[0];
  if (!file) return;
  send({ type: "open", name: file.name, text: await file.text() });
  event.target.value = "";
};
document.addEventListener("keydown", (event) => {
  if (!replay) return;
  if (event.key === "ArrowLeft") step(-1);
  if (event.key === "ArrowRight") step(1);
  if (event.key === "Home") step(0, 0);
  if (event.key === "End") step(0, Infinity);
});
setInterval(tick, 200);
connect();
