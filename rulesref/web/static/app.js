// The rules page: every answer comes from the JSON API of the same server (/api/).
// Text is only ever set with textContent, never parsed as HTML.
"use strict";

const $ = (id) => document.getElementById(id);
const state = { game: "", topics: [], clauses: null, myths: null };

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v; else node.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

async function api(path, params, options) {
  const url = new URL(path, location.origin);
  for (const [k, v] of Object.entries(params || {})) if (v !== "" && v !== null && v !== undefined) url.searchParams.set(k, v);
  const response = await fetch(url, options);
  const data = await response.json();
  return { ok: response.ok, status: response.status, data };
}

function pagesText(pages, inferred) {
  if (!pages || !pages.length) return "no printed page";
  const said = (list) => (list.length > 1 ? "pp. " : "p. ") + list.join(", ");
  // inferred: the pages the sources give no number for, which the pack chose
  inferred = inferred || [];
  if (!inferred.length) return said(pages);
  if (pages.every((p) => inferred.includes(p))) return "inferred " + said(pages);
  return said(pages) + " (" + said(inferred) + " inferred)";
}

function gameTitle(id) {
  const option = [...$("game").options].find((o) => o.value === id);
  return option ? option.textContent : id;
}

// --- a clause, as an answer or in a list ------------------------------------------------

function clauseCard(c, extra) {
  const card = el("article", { class: "card", "aria-labelledby": "c-" + c.id + "-" + Math.random().toString(36).slice(2) });
  const heading = el("h3", { id: card.getAttribute("aria-labelledby") }, c.title);
  card.append(heading);
  if (c.kind === "open") card.append(el("p", { class: "flag" }, "Open question: the printed pages do not settle this."));
  if (c.misreading) {
    card.append(el("p", { class: "flag" },
      el("strong", {}, "A common misreading: "), c.misreading.claim, " ", el("strong", {}, "In fact: "), c.misreading.correction));
  }
  if (c.text) card.append(el("p", {}, c.text));
  card.append(el("p", { class: "meta" }, el("span", { class: "page" }, pagesText(c.pages, c.pages_inferred)), " · " + gameTitle(c.game) + " · " + c.id));
  if (extra) card.append(extra);
  const more = el("button", { type: "button", "aria-expanded": "false" }, "Related rules and misreadings");
  const related = el("div", { class: "related" });
  more.addEventListener("click", () => toggleRelated(c, more, related));
  card.append(more, related);
  return card;
}

async function toggleRelated(c, button, box) {
  if (button.getAttribute("aria-expanded") === "true") {
    button.setAttribute("aria-expanded", "false");
    box.replaceChildren();
    return;
  }
  button.setAttribute("aria-expanded", "true");
  const { ok, data } = await api("/api/show/" + encodeURIComponent(c.id), { game: c.game });
  if (!ok) { box.replaceChildren(el("p", { class: "error" }, data.error.message)); return; }
  const parts = [];
  if (data.see.length) {
    const list = el("ul", {});
    for (const s of data.see) {
      const open = el("button", { type: "button" }, s.title);
      open.addEventListener("click", async () => {
        const shown = await api("/api/show/" + encodeURIComponent(s.id), { game: c.game });
        if (shown.ok) open.closest("li").replaceChildren(clauseCard(shown.data));
      });
      list.append(el("li", {}, open));
    }
    parts.push(el("h4", {}, "Related rules"), list);
  }
  if (data.misreadings.length) {
    const list = el("ul", {});
    for (const m of data.misreadings) list.append(el("li", {}, el("strong", {}, "Not so: "), m.claim, " ", m.correction));
    parts.push(el("h4", {}, "Misreadings it corrects"), list);
  }
  if (!parts.length) parts.push(el("p", {}, "No related clauses or misreadings."));
  box.replaceChildren(...parts);
}

// --- ask, as you type ---------------------------------------------------------------------

let askTimer = null;
let askSeq = 0;

function askSoon() {
  clearTimeout(askTimer);
  askTimer = setTimeout(askNow, 250);
}

async function askNow() {
  const q = $("q").value.trim();
  const seq = ++askSeq;
  if (!q) { $("answers").replaceChildren(); $("ask-status").textContent = ""; return; }
  $("ask-status").textContent = "Looking…";
  const { ok, data } = await api("/api/ask", { q, game: state.game });
  if (seq !== askSeq) return; // a later question was typed meanwhile
  if (!ok) { $("ask-status").textContent = data.error.message; $("answers").replaceChildren(); return; }
  if (!data.results.length) {
    $("ask-status").textContent = data.message || "No answer.";
    const more = [];
    if (data.covers) more.push(el("p", {}, data.covers));
    if (data.suggestions.length) {
      const list = el("ul", {});
      for (const s of data.suggestions) {
        const b = el("button", { type: "button" }, s.title);
        b.addEventListener("click", async () => {
          const shown = await api("/api/show/" + encodeURIComponent(s.id), {});
          if (shown.ok) $("answers").replaceChildren(clauseCard(shown.data));
        });
        list.append(el("li", {}, b));
      }
      more.push(el("h3", {}, "Nearest topics"), list);
    }
    $("answers").replaceChildren(...more);
    return;
  }
  $("ask-status").textContent = data.results.length + (data.results.length > 1 ? " answers" : " answer") + ", best first.";
  $("answers").replaceChildren(...data.results.map((r) => clauseCard(r)));
}

// --- browse by page and by topic ----------------------------------------------------------

async function showPage(event) {
  event.preventDefault();
  const n = $("page-n").value.trim();
  if (!n) return;
  const { ok, data } = await api("/api/page/" + encodeURIComponent(n), { game: state.game });
  if (!ok) { $("browse-status").textContent = data.error.message; $("browse-list").replaceChildren(); return; }
  $("browse-status").textContent = data.results.length + " clauses cite page " + n + ".";
  $("browse-list").replaceChildren(...data.results.map((c) => clauseCard(c)));
}

async function loadClauses() {
  const { data } = await api("/api/clauses", { game: state.game });
  state.clauses = data;
  const tags = [...new Set(data.flatMap((c) => c.tags))].sort();
  $("topic").replaceChildren(el("option", { value: "" }, "Choose a topic"), ...tags.map((t) => el("option", { value: t }, t)));
}

async function showTopic() {
  const tag = $("topic").value;
  if (!tag) return;
  const found = state.clauses.filter((c) => c.tags.includes(tag));
  $("browse-status").textContent = found.length + " clauses about " + tag + ".";
  const list = el("ul", { class: "cards" });
  for (const c of found) {
    const b = el("button", { type: "button" }, c.title);
    b.addEventListener("click", async () => {
      const shown = await api("/api/show/" + encodeURIComponent(c.id), { game: c.game });
      if (shown.ok) b.closest("li").replaceChildren(clauseCard(shown.data));
    });
    list.append(el("li", {}, b, el("p", { class: "meta" }, pagesText(c.pages, c.pages_inferred) + " · " + gameTitle(c.game))));
  }
  $("browse-list").replaceChildren(list);
}

// --- myths and readings -------------------------------------------------------------------

async function loadMyths() {
  const { data } = await api("/api/myths", { game: state.game });
  state.myths = data;
  filterMyths();
}

function filterMyths() {
  const words = $("myth-filter").value.toLowerCase().split(/\s+/).filter(Boolean);
  const shown = (state.myths || []).filter((m) => {
    const text = (m.claim + " " + m.correction + " " + m.clause).toLowerCase();
    return words.every((w) => text.includes(w));
  });
  $("myths-status").textContent = shown.length + " of " + (state.myths || []).length + " misreadings.";
  $("myth-list").replaceChildren(...shown.map((m) => el("li", {},
    el("h3", {}, m.claim), el("p", {}, m.correction),
    el("p", { class: "meta" }, el("span", { class: "page" }, pagesText(m.pages)), " · " + gameTitle(m.game) + " · " + m.clause))));
}

async function loadReadings() {
  const { data } = await api("/api/readings", { game: state.game });
  $("reading-list").replaceChildren(...data.map((r) => {
    const options = el("ul", {}, ...r.options.map((o) =>
      el("li", {}, el("strong", {}, o.id + (o.id === r.default ? " (the default)" : "") + ": "), o.says)));
    return el("li", {}, el("h3", {}, r.question), options, el("p", {}, r.why),
      el("p", { class: "meta" }, gameTitle(r.game) + " · " + r.id + " · " + r.clauses.join(", ")));
  }));
}

// --- dispute: the templates of `rulesref new`, a board to tap, the ruling ----------------

const COLS = "abcde";
const ROWS = 4;
const board = { house: "a1", dark: "e4", path: ["a1"], walls: [] };
let wallStart = null;

function neighbours(a, b) {
  const dc = Math.abs(COLS.indexOf(a[0]) - COLS.indexOf(b[0]));
  const dr = Math.abs(Number(a.slice(1)) - Number(b.slice(1)));
  return dc + dr === 1;
}

function drawGrid() {
  const grid = $("grid");
  grid.replaceChildren();
  for (let r = 1; r <= ROWS; r++) { // row 1 at the top, as the ruling's board picture draws it
    for (const c of COLS) {
      const space = c + r;
      let label = space;
      if (board.house === space) label += " G";
      if (board.dark === space) label += " D";
      const step = board.path.indexOf(space);
      const b = el("button", { type: "button", "data-space": space }, label);
      let spoken = "space " + space;
      if (board.house === space) spoken += ", House pawn";
      if (board.dark === space) spoken += ", Dark Arts pawn";
      if (step > 0) { b.classList.add("on-path"); spoken += ", step " + step + " of the path"; }
      const east = c !== "e" ? COLS[COLS.indexOf(c) + 1] + r : null;
      const south = r < ROWS ? c + (r + 1) : null;
      if (east && hasWall(space, east)) { b.classList.add("wall-e"); spoken += ", wall to the right"; }
      if (south && hasWall(space, south)) { b.classList.add("wall-s"); spoken += ", wall below"; }
      if (wallStart === space) b.classList.add("picked");
      b.setAttribute("aria-label", spoken);
      b.addEventListener("click", () => tapSpace(space));
      grid.append(b);
    }
  }
}

function hasWall(a, b) {
  return board.walls.some((w) => (w[0] === a && w[1] === b) || (w[0] === b && w[1] === a));
}

function tapSpace(space) {
  const tool = document.querySelector("input[name=tool]:checked").value;
  const mover = $("mover").value;
  if (tool === "house") { board.house = space; if (mover === "g1") board.path = [space]; }
  if (tool === "dark") { board.dark = space; if (mover === "d1") board.path = [space]; }
  if (tool === "path") board.path.push(space);
  if (tool === "wall") {
    if (wallStart === null) { wallStart = space; $("grid-status").textContent = "Now tap a neighbour of " + space + "."; }
    else if (wallStart === space) { wallStart = null; $("grid-status").textContent = ""; }
    else if (!neighbours(wallStart, space)) { $("grid-status").textContent = space + " is not next to " + wallStart + "."; wallStart = null; }
    else {
      const pair = [wallStart, space];
      board.walls = hasWall(...pair) ? board.walls.filter((w) => !(w.includes(pair[0]) && w.includes(pair[1]))) : [...board.walls, pair];
      $("grid-status").textContent = "Wall between " + pair.join(" and ") + (hasWall(...pair) ? " added." : " removed.");
      wallStart = null;
    }
  }
  drawGrid();
  writeBoardYaml();
}

function writeBoardYaml() {
  const mover = $("mover").value;
  const start = mover === "g1" ? board.house : board.dark;
  if (board.path[0] !== start) board.path = [start];
  const lines = [
    "game: houses-vs-dark-arts",
    "title: " + (mover === "g1" ? "The House pawn" : "The Dark Arts pawn") + " moves " + board.path.join(" ") + " with a " + ($("card").value || "1") + " card",
    "board:",
    "  grid: 5x4",
  ];
  if (board.walls.length) lines.push("  walls: [" + board.walls.map((w) => w[0] + "-" + w[1]).join(", ") + "]");
  lines.push("pawns:", "  g1: {house: gryffindor, at: " + board.house + "}");
  if (board.dark && board.dark !== board.house) lines.push("  d1: {side: dark-arts, at: " + board.dark + "}");
  lines.push("action:", "  explore:", "    card: " + ($("card").value || "1"), "    moves:",
    "      - {pawn: " + mover + ", path: [" + board.path.join(", ") + "]}");
  $("yaml").value = lines.join("\n") + "\n";
}

async function loadTopics() {
  const { data } = await api("/api/topics", { game: state.game });
  state.topics = data;
  $("dispute-topic").replaceChildren(...data.map((t) => el("option", { value: t.topic }, t.topic + ": " + t.about)));
  chooseTopic();
}

function chooseTopic() {
  const topic = state.topics.find((t) => t.topic === $("dispute-topic").value);
  if (!topic) return;
  $("dispute-about").textContent = "The same template as `rulesref new " + topic.topic + "`: change it to match your table.";
  $("ruling").replaceChildren();
  const grid = topic.topic === "move"; // the walls template keeps its doors and obstacles as written
  $("grid-editor").hidden = !grid;
  if (grid) { drawGrid(); writeBoardYaml(); } else { $("yaml").value = topic.yaml; }
}

async function check(event) {
  event.preventDefault();
  const body = $("yaml").value;
  $("ruling").replaceChildren(el("p", { class: "status" }, "Ruling…"));
  const response = await fetch("/api/check", { method: "POST", headers: { "Content-Type": "application/yaml" }, body });
  const data = await response.json();
  if (data.error) {
    const where = [data.error.line ? "line " + data.error.line : null, data.error.field].filter(Boolean).join(", ");
    $("ruling").replaceChildren(el("h3", {}, "The scenario cannot be read"),
      el("p", { class: "error", role: "alert" }, (where ? where + ": " : "") + data.error.message));
    return;
  }
  const parts = [
    el("h3", {}, "The ruling"),
    el("p", { class: "verdict " + data.verdict }, data.verdict.toUpperCase()),
    el("p", {}, data.summary),
    el("h4", {}, "Step by step"),
    el("ol", {}, ...data.steps.map((s) => el("li", {}, s.says, " ",
      el("span", { class: "meta" }, "(" + s.clause + ", " + pagesText(s.pages, s.pages_inferred) + (s.reading ? ", reading " + s.reading : "") + ")")))),
  ];
  if (data.picture) parts.push(el("h4", {}, "The board"), el("pre", { class: "picture", "aria-label": "The board, drawn in text" }, data.picture));
  if (data.claims.length) {
    parts.push(el("h4", {}, "Who is right"), el("ul", {}, ...data.claims.map((c) =>
      el("li", {}, el("strong", {}, c.by + ": "), c.says + " — " + (c.upheld === true ? "upheld" : c.upheld === false ? "not upheld" : "the pages cannot settle it")))));
  }
  parts.push(el("p", { class: "meta" }, "Pages cited: " + pagesText(data.pages)));
  $("ruling").replaceChildren(...parts);
}

function download() {
  const blob = new Blob([$("yaml").value], { type: "application/yaml" });
  const link = el("a", { href: URL.createObjectURL(blob), download: "dispute.yaml" });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

async function upload() {
  const file = $("upload").files[0];
  if (!file) return;
  if (file.size > 1000000) { $("ruling").replaceChildren(el("p", { class: "error" }, "That file is over 1,000,000 bytes, the limit.")); return; }
  $("yaml").value = await file.text();
  $("grid-editor").hidden = true;
}

// --- tabs, the game switcher, start --------------------------------------------------------

function showTab(name) {
  for (const b of document.querySelectorAll("nav button")) b.setAttribute("aria-pressed", String(b.dataset.tab === name));
  for (const s of document.querySelectorAll("main > section")) s.hidden = s.id !== name;
  if (name === "myths" && state.myths === null) loadMyths();
  if (name === "readings") loadReadings();
  if (name === "browse" && state.clauses === null) loadClauses();
  if (name === "dispute" && !state.topics.length) loadTopics();
  const heading = document.querySelector("#" + name + " h2");
  heading.setAttribute("tabindex", "-1");
  heading.focus();
}

async function start() {
  const { data } = await api("/api/games");
  for (const g of data) $("game").append(el("option", { value: g.id }, g.title));
  const settings = await api("/api/settings");
  $("game").value = settings.data.game || "";
  state.game = $("game").value;
  $("game").addEventListener("change", () => {
    state.game = $("game").value;
    state.clauses = null; state.myths = null; state.topics = [];
    const open = document.querySelector("nav button[aria-pressed=true]").dataset.tab;
    if (open === "ask") askNow(); else showTab(open);
  });
  for (const b of document.querySelectorAll("nav button")) b.addEventListener("click", () => showTab(b.dataset.tab));
  $("q").addEventListener("input", askSoon);
  $("ask-form").addEventListener("submit", (e) => { e.preventDefault(); askNow(); });
  $("page-form").addEventListener("submit", showPage);
  $("topic").addEventListener("change", showTopic);
  $("myth-filter").addEventListener("input", filterMyths);
  $("dispute-topic").addEventListener("change", chooseTopic);
  $("mover").addEventListener("change", writeBoardYaml);
  $("card").addEventListener("input", writeBoardYaml);
  $("clear-path").addEventListener("click", () => { board.path = []; writeBoardYaml(); drawGrid(); });
  $("check-form").addEventListener("submit", check);
  $("download").addEventListener("click", download);
  $("upload").addEventListener("change", upload);
  document.body.dataset.ready = "true"; // the browser test waits for this
}

start();
