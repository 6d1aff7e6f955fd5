// Casebook in the browser: draws the server's map, the units as counters, and sends choices to
// the JSON API (src/casebook/tools/web/app.py). The page decides nothing: legality, costs, odds and refusals
// all come from the server, which uses the same Game API and questions as `casebook play`/`ask`.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);
const ui = {
  board: null, svg: null, vb: null, full: null, st: null, questions: {},
  sel: null, selUnit: null, attackers: new Set(), defender: null,
  tab: "play", watch: null, watchAt: null, watchTarget: null, busy: false, running: false,
};

function esc(s) { return String(s ?? "").replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c])); }
function casesHtml(cases) { return (cases || []).map((c) => `<span class="case" data-case="${esc(c)}">${esc(c)}</span>`).join(", "); }
function say(text, ok) { const m = $("msg"); m.className = ok ? "ok" : (text ? "err" : ""); m.innerHTML = text || ""; }

async function api(path, body) {
  const opts = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const r = await fetch(path, opts);
  const j = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
  if (!r.ok) { const e = new Error(j.error || `HTTP ${r.status}`); e.cases = j.cases || []; e.lines = j.lines || []; e.status = r.status; throw e; }
  return j;
}
// a refusal as the terminal says it: the reason, its cases, and the rule-script lines that refused it
function refused(e) {
  const lines = [...new Set((e.lines || []).map((ln) => ln.source))];
  say(`${esc(e.message)}${e.cases && e.cases.length ? ` — cases ${casesHtml(e.cases)}` : ""}${lines.length ? ` — lines ${esc(lines.join(", "))}` : ""}`);
}

// ------------------------------------------------------------------ the map
function el(name, attrs, parent) {
  const n = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs || {})) n.setAttribute(k, v);
  if (parent) parent.appendChild(n);
  return n;
}

async function loadBoard() {
  ui.board = await api("/api/board");
  const box = $("map");
  box.innerHTML = ui.board.svg;
  const svg = box.querySelector("svg");
  ui.svg = svg;
  const vb = svg.getAttribute("viewBox").split(/[ ,]+/).map(Number);
  ui.full = vb.slice();
  if (!ui.vb) {  // start where the units are (else the whole map), with a margin of a few hexes
    const on = (ui.st ? ui.st.units : []).map((u) => ui.board.hexes[u.hex]).filter(Boolean);
    const cs = (on.length ? on : Object.values(ui.board.hexes)).map((h) => h.c), m = ui.board.hex_size * 3;
    const xs = cs.map((c) => c[0]), ys = cs.map((c) => c[1]);
    const x0 = Math.min(...xs) - m, y0 = Math.min(...ys) - m;
    ui.vb = [x0, y0, Math.max(...xs) + m - x0, Math.max(...ys) + m - y0];
  }
  svg.removeAttribute("width"); svg.removeAttribute("height");
  svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
  setViewBox();
  el("g", { id: "hl" }, svg);
  const hits = el("g", { id: "hits" }, svg);
  for (const [label, h] of Object.entries(ui.board.hexes)) el("polygon", { points: h.points, "data-hex": label }, hits);
  el("g", { id: "units" }, svg);
  hits.addEventListener("click", (ev) => { if (!ui.dragged && ev.target.dataset.hex) hexClicked(ev.target.dataset.hex); });
  $("units").addEventListener("click", (ev) => {
    const g = ev.target.closest(".ctr"); if (!g || ui.dragged) return;
    stackClicked(g.dataset.hex, g.dataset.unit);
  });
  panZoom(svg);
}

function setViewBox() { ui.svg.setAttribute("viewBox", ui.vb.map((v) => v.toFixed(1)).join(" ")); }

function panZoom(svg) {
  let start = null;
  svg.addEventListener("wheel", (ev) => {
    ev.preventDefault();
    const f = ev.deltaY > 0 ? 1.15 : 1 / 1.15;
    const r = svg.getBoundingClientRect();
    const px = ui.vb[0] + (ev.clientX - r.left) / r.width * ui.vb[2];
    const py = ui.vb[1] + (ev.clientY - r.top) / r.height * ui.vb[3];
    zoom(f, px, py);
  }, { passive: false });
  svg.addEventListener("pointerdown", (ev) => { start = { x: ev.clientX, y: ev.clientY, vb: ui.vb.slice() }; ui.dragged = false; });
  window.addEventListener("pointermove", (ev) => {
    if (!start) return;
    const r = svg.getBoundingClientRect();
    const dx = ev.clientX - start.x, dy = ev.clientY - start.y;
    if (Math.abs(dx) + Math.abs(dy) > 4) ui.dragged = true;
    if (!ui.dragged) return;
    const s = Math.max(ui.vb[2] / r.width, ui.vb[3] / r.height);
    ui.vb[0] = start.vb[0] - dx * s; ui.vb[1] = start.vb[1] - dy * s; setViewBox();
  });
  window.addEventListener("pointerup", () => { start = null; setTimeout(() => { ui.dragged = false; }, 0); });
}

function zoom(f, px, py) {
  const [x, y, w, h] = ui.vb;
  if (px === undefined) { px = x + w / 2; py = y + h / 2; }
  const nw = Math.min(Math.max(w * f, 60), ui.full[2] * 2), nh = nw * h / w;
  ui.vb = [px - (px - x) * nw / w, py - (py - y) * nh / h, nw, nh];
  setViewBox();
}

const MARK = { infantry: "X", armor: "O", mechanized: "OX", cavalry: "/", hq: "HQ", remnant: "R", ski: "S", paratroop: "P" };

function drawUnits(units, colours) {
  const layer = $("units"); if (!layer) return;
  const side = ui.board.hex_size * 1.3;
  const byHex = {};
  for (const u of units) (byHex[u.hex] = byHex[u.hex] || []).push(u);
  const seen = new Set();
  for (const [hex, list] of Object.entries(byHex)) {
    const c = ui.board.hexes[hex]; if (!c) continue;
    const open = hex === ui.sel && list.length > 1;
    list.forEach((u, i) => {
      seen.add(u.id);
      let g = layer.querySelector(`.ctr[data-unit="${CSS.escape(u.id)}"]`);
      const [fill, ink] = colours[u.side] || ["#ddd", "#000"];
      if (!g) {
        g = el("g", { class: "ctr stack" }, layer);
        el("rect", { x: -side / 2, y: -side / 2, width: side, height: side, rx: 1.2, "stroke-width": 0.8 }, g);
        for (const k of ["mark", "name", "vals", "flag"]) el("text", { "data-k": k }, g);
      }
      g.dataset.unit = u.id; g.dataset.hex = hex; g.dataset.side = u.side;
      g.classList.toggle("sel", hex === ui.sel);
      const rect = g.querySelector("rect"); rect.setAttribute("fill", fill); rect.setAttribute("stroke", ink);
      const t = (k) => g.querySelector(`text[data-k=${k}]`);
      const name = String(u.name || u.id);
      setText(t("mark"), MARK[u.class] || "?", { y: 1.5, "font-size": 5, "font-weight": "bold", fill: ink });
      setText(t("name"), name, { y: -side / 2 + 4.6, "font-size": name.length < 9 ? 3.8 : 3.0, fill: ink });
      const vals = u.class === "hq" ? `r${u.radius ?? "?"} ${u.ma ?? "?"}` : `${u.strength ?? "?"}-${u.ma ?? "?"}`;
      setText(t("vals"), vals, { y: side / 2 - 2, "font-size": 5.6, "font-weight": "bold", fill: ink });
      const flags = [u.losses ? `-${u.losses}` : "", u.oos ? "OOS" : "", u.fatigued ? "F" : "", u.activated ? "A" : ""].filter(Boolean).join(" ");
      setText(t("flag"), flags, { y: -side / 2 - 1, "font-size": 3.6, "font-weight": "bold", fill: "#b00000" });
      const dx = open ? (i - (list.length - 1) / 2) * (side + 2) : -3 * (list.length - 1) / 2 + 3 * i;
      const dy = open ? -side * 0.9 : 3 * (list.length - 1) / 2 - 3 * i;
      g.style.transform = `translate(${(c.c[0] + dx).toFixed(2)}px, ${(c.c[1] + dy).toFixed(2)}px)`;
    });
  }
  for (const g of [...layer.querySelectorAll(".ctr")]) if (!seen.has(g.dataset.unit)) g.remove();
}

function setText(node, text, attrs) { node.textContent = text; for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v); }

function highlight(hexes, legal, target) {
  const layer = $("hl"); layer.innerHTML = "";
  for (const [h, mp] of Object.entries(hexes || {})) {
    const c = ui.board.hexes[h]; if (!c) continue;
    el("polygon", { points: c.points, "data-hex": h, class: legal && legal[h] ? "legal" : "" }, layer);
    const t = el("text", { x: c.c[0], y: c.c[1] + ui.board.hex_size * 0.55 }, layer);
    t.textContent = typeof mp === "object" ? (mp.mp ?? "") : mp;
  }
  if (target && ui.board.hexes[target]) el("polygon", { points: ui.board.hexes[target].points, class: "target", "data-target": target }, layer);
}

// ------------------------------------------------------------------ the play
function renderHeader(h) {
  $("h-turn").textContent = `Turn ${h.turn}${h.last_turn ? " / " + h.last_turn : ""}`;
  $("h-step").textContent = `${h.phase || ""} / ${h.step || ""}`;
  $("h-decider").textContent = h.decider ? `${h.decider} to decide (${h.decider_kind})` : "game over";
  $("h-weather").textContent = h.weather_text || "";
  $("h-tracks").textContent = Object.entries(h.tracks).map(([k, v]) => `${k} ${typeof v === "object" ? fmtTrack(v) : v}`).join(" · ");
  const res = $("h-result");
  res.textContent = h.result ? `${h.result.winner || "nobody"} — ${h.result.level}: ${h.result.reason || ""}` : "";
  res.className = h.result ? "chip over" : "chip";
  $("h-mode").textContent = ui.tab === "watch" && ui.watchAt ? `watching ${ui.watch.path}` : "";
}

function render(st) {
  ui.st = st;
  const mk = JSON.stringify(st.markers);
  if (ui.board && ui.mk !== undefined && mk !== ui.mk) loadBoard().then(() => drawUnits(ui.st.units, ui.st.colours));
  ui.mk = mk;
  $("h-title").textContent = `${st.name} · ${st.scenario}`;
  if (ui.tab === "watch" && ui.watchAt) renderHeader({ ...ui.watchAt.header, decider_kind: "trace" });
  else { renderHeader(st.header); drawUnits(st.units, st.colours); }
  $("undo").disabled = !st.undoable;
  const acts = $("actions"); acts.innerHTML = "";
  const f = $("act-filter").value.trim();
  const shown = st.legal.filter((a) => !f || a.includes(f));
  for (const a of shown.slice(0, 400)) {  // with play's note beside it (a retreat into an overstack, 6.2F)
    const li = document.createElement("li"); li.textContent = a; li.dataset.action = a;
    const note = (st.notes || {})[a];
    if (note) { const n = document.createElement("span"); n.className = "note"; n.dataset.action = a; n.textContent = ` — ${note}`; li.appendChild(n); }
    acts.appendChild(li);
  }
  $("act-count").textContent = st.human ? `(${shown.length} of ${st.legal.length})` : (st.header.decider ? "(a bot decides)" : "(the game is over)");
  const log = $("log"); log.innerHTML = "";
  for (const e of st.events.slice().reverse()) {
    const li = document.createElement("li"); li.value = e.seq;
    li.dataset.kind = e.kind;  // the account's line (its words name the side and the kind)
    li.innerHTML = `T${e.turn} ${esc(e.text)} ${casesHtml(e.cases)}`
      + (e.lines || []).map((w) => `<div class="term">${esc(w)}</div>`).join("")  // a combat's DRM terms, as the account's
      + (e.warnings || []).map((w) => `<div class="warning">warning: ${esc(w)}</div>`).join("");  // as the account's lines
    log.appendChild(li);
  }
  if (ui.sel) showSelection(ui.tab === "watch" && ui.watchAt ? ui.watchAt.units : undefined);
  showAttack();  // a decision made or awaited: the Attack button follows
}
function fmtTrack(v) { return Object.entries(v).map(([k, x]) => `${k} ${typeof x === "object" ? fmtTrack(x) : x}`).join(", "); }

async function stackClicked(hex, unit) {
  if (ui.tab === "watch" && ui.watchAt) { ui.sel = hex; drawUnits(ui.watchAt.units, ui.st.colours); return showSelection(ui.watchAt.units); }
  if (ui.sel === hex) { ui.selUnit = unit; } else { ui.sel = hex; ui.selUnit = null; }
  drawUnits(ui.st.units, ui.st.colours);
  showSelection();
  await showReach();
}

async function showReach() {
  const here = ui.st.units.filter((u) => u.hex === ui.sel);
  const stack = ui.selUnit || (here.length === 1 ? here[0].id : ui.sel);
  try {
    const r = await api(`/api/reach?stack=${encodeURIComponent(stack)}`);
    const hexes = r.hexes || {};
    highlight(hexes, r.legal, ui.defender);
    const n = Object.keys(r.legal || {}).length;
    say(`${esc(stack)}: ${Object.keys(hexes).length} hexes in reach (MA ${esc(r.ma)}), ${n} by a legal action now — cases ${casesHtml(r.cases)}`, true);
  } catch (e) { highlight({}, {}, ui.defender); refused(e); }
}

function showSelection(units) {
  const list = (units || ui.st.units).filter((u) => u.hex === ui.sel);
  const colours = ui.st.colours;
  const rows = list.map((u) => {
    const [fill] = colours[u.side] || ["#ddd"];
    const st = ["losses", "oos", "fatigued", "activated", "reserve", "hedgehog", "guards", "scattered"].filter((k) => u[k]).map((k) => (k === "losses" ? `losses ${u.losses}` : k)).join(", ");
    return `<div class="unit-row ${ui.attackers.has(u.id) ? "picked" : ""}" data-unit="${esc(u.id)}"><span class="sw" style="background:${fill}"></span>
      <b>${esc(u.name || u.id)}</b> <span>${esc(u.id)}</span> <span>${esc(u.class)} ${u.class === "hq" ? `radius ${esc(u.radius ?? "?")} MA ${esc(u.ma)}` : `${esc(u.strength)}-${esc(u.ma)}`}</span> <i>${esc(st)}</i>
      <button class="pick" data-unit="${esc(u.id)}">${ui.attackers.has(u.id) ? "− attacker" : "+ attacker"}</button>
      <button class="only" data-unit="${esc(u.id)}">reach</button></div>`;
  }).join("");
  $("sel").innerHTML = `<div>hex <b>${esc(ui.sel)}</b> ${list.length ? "" : "(empty)"} <button id="set-def">defender here</button></div>${rows}`;
}

async function hexClicked(hex) {
  if (ui.tab === "watch" && ui.watchAt) return;
  if (!ui.sel || !ui.st.human) { ui.sel = hex; ui.selUnit = null; drawUnits(ui.st.units, ui.st.colours); showSelection(); highlight({}); return; }
  const here = ui.st.units.filter((u) => u.hex === ui.sel);
  const stack = ui.selUnit || (here.length === 1 ? here[0].id : ui.sel);
  const wait = waitsFor(ui.selUnit ? [ui.selUnit] : here.map((u) => u.id));
  if (wait) return say(esc(wait));  // no move is offered while the other side decides
  try {
    const r = await api("/api/choose", { stack, hex });
    if (r.actions.length === 1) return doAction(r.actions[0]);
    if (r.actions.length > 1) return offerChoices(r.actions);
    say(`${esc(r.tried)}: ${esc(r.reason)} — cases ${casesHtml(r.cases)}`);
  } catch (e) { refused(e); }
}

function offerChoices(actions) {
  $("choices").innerHTML = `<div class="box">Several legal actions end there:${actions.map((a) => `<div><button class="choice" data-action="${esc(a)}">${esc(a)}</button></div>`).join("")}</div>`;
}

let busy = 0;  // requests in flight; body[data-busy] tells a watcher (or a test) the page is idle
function work(delta) { busy += delta; document.body.dataset.busy = busy > 0 ? "1" : "0"; }

async function doAction(text) {
  $("choices").innerHTML = "";
  work(1);
  try {
    const r = await api("/api/apply", { action: text });
    say(`applied ${esc(r.applied)}`, true);
    ui.sel = null; ui.selUnit = null; highlight({});
    $("sel").textContent = "Click a stack on the map.";
    render(r.state);
    if ($("auto").checked) await runBots(true);
  } catch (e) { refused(e); } finally { work(-1); }
}

async function runBots(animate) {
  if (ui.running) { ui.running = false; return; }
  ui.running = true; $("bot-run").textContent = "Stop";
  work(1);
  try {
    while (ui.running && ui.st.header.decider && !ui.st.human) {
      const slide = animate && $("animate").checked;
      const r = await api("/api/bot", { steps: slide ? 1 : 100000 });
      render(r.state);
      if (!r.played.length) break;
      if (slide) await new Promise((ok) => setTimeout(ok, 60));
    }
  } catch (e) { refused(e); } finally { work(-1); }
  ui.running = false; $("bot-run").textContent = "Bot plays";
}

// ------------------------------------------------------------------ attack
// the side of these units waits while another side decides (a defender's support, a retreat after a
// combat: 10.0C, 10.0F): the words saying whose decision it is, else "" (the server refuses the same)
function waitsFor(ids) {
  const d = ui.st && ui.st.decision; if (!d) return "";
  const sides = new Set(ui.st.units.filter((u) => ids.includes(u.id)).map((u) => u.side));
  if (sides.size !== 1 || sides.has(d.side)) return "";
  return `${[...sides][0]} waits: ${d.side} decides now (${d.kinds.join(", ")})`;
}
function showAttack() {
  $("atk-units").textContent = ui.attackers.size ? [...ui.attackers].join(", ") : "—";
  $("atk-hex").textContent = ui.defender || "—";
  const wait = waitsFor([...ui.attackers]);  // no attack is offered while the other side decides
  $("atk-commit").disabled = Boolean(wait); $("atk-wait").textContent = wait; $("atk-wait").hidden = !wait;
  const key = JSON.stringify([ui.defender, [...ui.attackers]]);
  if (ui.supportFor !== key) fillSupport([]);
}
// the support amounts play lists for this attack (10.4.2A): one option per legal action, the action as its value
function fillSupport(actions) {
  const pick = $("atk-support"), was = pick.value;
  pick.innerHTML = actions.map((a) => `<option value="${esc(a)}">${esc((a.match(/support=(\S+)/) || [, a])[1])}</option>`).join("");
  if (actions.includes(was)) pick.value = was;
  $("atk-support-row").hidden = actions.length < 2;
  ui.supportFor = actions.length ? JSON.stringify([ui.defender, [...ui.attackers]]) : null;
}

async function previewAttack() {
  if (!ui.defender || !ui.attackers.size) return say("pick attackers (+ attacker) and a defender hex first");
  try {
    const r = await api("/api/ask", { question: "attack", args: [ui.defender], options: { with: [...ui.attackers] } });
    const a = r.answer;
    // the rules' answer (as `casebook ask attack`) and whether play offers this attack in the step now
    const now = await api("/api/attack", { hex: ui.defender, with: [...ui.attackers] });
    const terms = ((a.drm || {}).terms || []).map((t) => `<tr><td class="case">${esc(t.case)}</td><td>${esc(t.value)}</td><td>${esc(t.source)}</td><td class="line">${esc(t.line || "")}</td></tr>`).join("");
    const outs = (a.outcomes || []).map((o) => `<tr><td>${esc(o.roll)}</td><td>${esc(o.probability)}</td><td>${esc(o.result)}</td></tr>`).join("");
    const refs = (a.refusals || []).map((x) => `<div>refused: ${esc(x.reason)} — ${casesHtml(x.cases)}</div>`).join("");
    $("atk-out").innerHTML = `<div id="odds">${esc(a.attack_strength)} : ${esc(a.defense_strength)} (ratio ${esc(a.ratio)}) → column <b>${esc(a.basic_column)}</b>${a.column_shift ? `, shift ${esc(a.column_shift)}` : ""} → <b id="odds-col">${esc(a.column)}</b>, DRM ${esc((a.drm || {}).net ?? 0)} · the rules ${a.legal ? "allow it" : "<b>refuse it</b>"} · now: ${now.actions.length ? "offered" : `<b>not offered</b> (${esc(now.reason)} — cases ${casesHtml(now.cases)})`}</div>
      ${terms ? `<table class="t"><tr><th>case</th><th>DRM</th><th>rule</th><th>line</th></tr>${terms}</table>` : "<div>no DRM term applies</div>"}
      <table class="t" id="outcomes"><tr><th>roll</th><th>probability</th><th>result</th></tr>${outs}</table>${refs}
      <div>cases ${casesHtml(a.cases)}</div>`;
    fillSupport(now.actions);
  } catch (e) { refused(e); }
}

async function commitAttack() {
  if (!ui.defender || !ui.attackers.size) return say("pick attackers and a defender first");
  try {
    const r = await api("/api/attack", { hex: ui.defender, with: [...ui.attackers] });
    if (!r.actions.length) return say(`${esc(r.tried)}: ${esc(r.reason)} — cases ${casesHtml(r.cases)}`);
    const attack = r.actions, chosen = $("atk-support").value;
    if (attack.length > 1 && !attack.includes(chosen)) {  // keep the selection: the player picks the support, then Attack
      fillSupport(attack);
      return say(`${attack.length} support amounts are legal (10.4.2A): choose one under "support" and press Attack`);
    }
    ui.attackers.clear(); ui.defender = null; showAttack(); $("atk-out").innerHTML = "";
    return doAction(attack.length === 1 ? attack[0] : chosen);
  } catch (e) { refused(e); }
}

// ------------------------------------------------------------------ ask
async function loadQuestions() {
  ui.questions = (await api("/api/questions")).questions;
  $("q").innerHTML = Object.keys(ui.questions).map((q) => `<option>${esc(q)}</option>`).join("");
  fillArgs();
}
function fillArgs() {
  const q = $("q").value, usage = ui.questions[q] || "";
  $("q-usage").textContent = usage;
  const here = ui.st ? ui.st.units.filter((u) => u.hex === ui.sel) : [];
  const unit = ui.selUnit || (here[0] || {}).id || "UNIT";
  const words = usage.split(" — ")[0].split(/\s+/).slice(1).filter((w) => !w.startsWith("[") && !w.startsWith("-") && !w.endsWith("]") && !w.includes("…"));
  $("q-args").value = words.map((w) => ({ UNIT: unit, HEX: ui.sel || "HEX", STACK: ui.selUnit || ui.sel || "STACK", SIDE: (ui.st && ui.st.header.decider) || "SIDE" }[w] || w)).join(" ");
}
async function ask() {
  try {
    const r = await api("/api/ask", { question: $("q").value, words: $("q-args").value });
    $("q-cases").innerHTML = `cases: ${Object.entries(r.case_titles).map(([c, t]) => `<div><span class="case">${esc(c)}</span> ${esc(t)}</div>`).join("")}`;
    $("q-out").textContent = r.text;
    say("", true);
  } catch (e) { refused(e); $("q-out").textContent = ""; }
}

// ------------------------------------------------------------------ watch
async function openTrace() {
  try {
    say("reading the trace…", true);
    ui.watch = await api("/api/watch", { path: $("w-path").value });
    $("w-jump").innerHTML = ui.watch.index.map((x) => `<option value="${x.event}">turn ${x.turn} · ${esc(x.phase || "setup")} / ${esc(x.step || "")} (event ${x.event + 1})</option>`).join("");
    say(`${esc(ui.watch.path)}: ${ui.watch.events} events, ${ui.watch.decisions} decisions`, true);
    await stepTo(0);
  } catch (e) { refused(e); }
}
function stepBy(d) {  // quick clicks add up: the target moves at each click, not when an answer comes
  return stepTo((ui.watchTarget ?? (ui.watchAt ? ui.watchAt.i : -1)) + d);
}
async function stepTo(i) {
  if (!ui.watch) return say("open a trace first");
  const target = Math.max(0, Math.min(i, ui.watch.events - 1));
  ui.watchTarget = target;
  const r = await api(`/api/watch/${target}`);
  if (ui.watchTarget !== target) return;  // a later click asked for another event: its answer draws
  ui.watchAt = r;
  drawUnits(r.units, ui.st.colours);
  const e = r.event, h = r.header;
  $("w-pos").textContent = `event ${r.i + 1} / ${r.count}`;
  const terms = e.terms.map((t) => `<tr><td class="case">${esc(t.case || (t.cases || []).join(","))}</td><td>${esc(t.amount ?? t.value)}</td><td>${esc(t.source)}</td><td class="line">${esc(t.line || "")}</td></tr>`).join("");
  $("w-event").innerHTML = `<div><b>seq ${e.seq}</b> · turn ${e.turn} · ${esc(e.phase)} / ${esc(e.step)} · ${esc(e.side || "-")} · <b id="w-kind">${esc(e.kind)}</b></div>
    <div>source ${esc(e.source)} ${e.source_line ? `<span class="line">${esc(e.source_line)}</span>` : ""}</div>
    ${Object.entries(e.case_titles).map(([c, t]) => `<div><span class="case">${esc(c)}</span> ${esc(t)}</div>`).join("")}
    ${terms ? `<table class="t"><tr><th>case</th><th>value</th><th>rule</th><th>line</th></tr>${terms}</table>` : ""}
    <pre>${esc(JSON.stringify(e.data, null, 1))}</pre>
    <div>position after decision ${r.decision}: turn ${h.turn}, ${esc(h.phase)} / ${esc(h.step)}</div>`;
  if (ui.tab === "watch") renderHeader({ ...h, decider_kind: "trace" });
}

// ------------------------------------------------------------------ wiring
function wire() {
  document.querySelectorAll("nav button").forEach((b) => b.addEventListener("click", () => {
    ui.tab = b.dataset.tab;
    document.querySelectorAll("nav button").forEach((x) => x.classList.toggle("on", x === b));
    document.querySelectorAll(".tab").forEach((t) => { t.hidden = t.id !== `tab-${ui.tab}`; });
    render(ui.st);
    if (ui.tab === "watch" && ui.watchAt) drawUnits(ui.watchAt.units, ui.st.colours);
    if (ui.tab === "ask") fillArgs();
  }));
  $("zin").onclick = () => zoom(1 / 1.4); $("zout").onclick = () => zoom(1.4);
  $("zfit").onclick = () => { ui.vb = ui.full.slice(); setViewBox(); };
  $("actions").addEventListener("click", (ev) => { const a = ev.target.dataset.action; if (a) doAction(a); });
  $("choices").addEventListener("click", (ev) => { const a = ev.target.dataset.action; if (a) doAction(a); });
  $("act-filter").addEventListener("input", () => render(ui.st));
  $("act-do").onclick = () => doAction($("act-text").value);
  $("act-why").onclick = async () => {
    try {  // a refusal in the words of a refused Do: reason, cases and the rule-script lines that decided it
      const r = await api("/api/why", { action: $("act-text").value });
      if (r.legal) say(`${esc(r.action)} is legal now`, true); else refused({ message: `${r.action}: ${r.reason}`, cases: r.cases, lines: r.lines });
    } catch (e) { refused(e); }
  };
  $("undo").onclick = async () => { try { const r = await api("/api/undo", {}); say(`took back ${esc(r.took_back)}`, true); highlight({}); render(r.state); } catch (e) { refused(e); } };
  $("bot-step").onclick = async () => { try { const r = await api("/api/bot", { steps: 1 }); say(r.played.length ? `bot: ${esc(r.played[0])}` : "no bot decides now", true); render(r.state); } catch (e) { refused(e); } };
  $("bot-run").onclick = () => runBots(true);
  $("save").onclick = async () => { try { const r = await api("/api/save", { path: $("file").value }); say(`saved ${esc(r.saved)}`, true); } catch (e) { refused(e); } };
  $("load").onclick = async () => { try { const r = await api("/api/load", { path: $("file").value }); say(`loaded ${esc(r.loaded)}`, true); render(r.state); } catch (e) { refused(e); } };
  $("sel").addEventListener("click", (ev) => {
    const t = ev.target;
    if (t.classList.contains("pick")) { const u = t.dataset.unit; ui.attackers.has(u) ? ui.attackers.delete(u) : ui.attackers.add(u); showAttack(); showSelection(ui.tab === "watch" && ui.watchAt ? ui.watchAt.units : undefined); }
    else if (t.classList.contains("only")) { ui.selUnit = t.dataset.unit; showReach(); }
    else if (t.id === "set-def") { ui.defender = ui.sel; showAttack(); highlight({}, {}, ui.defender); }
  });
  $("atk-preview").onclick = previewAttack; $("atk-commit").onclick = commitAttack;
  $("atk-clear").onclick = () => { ui.attackers.clear(); ui.defender = null; showAttack(); $("atk-out").innerHTML = ""; highlight({}); };
  $("q").onchange = fillArgs; $("q-go").onclick = ask;
  $("w-open").onclick = openTrace;
  $("w-first").onclick = () => stepTo(0);
  $("w-back").onclick = () => stepBy(-1);
  $("w-fwd").onclick = () => stepBy(1);
  $("w-last").onclick = () => stepTo(ui.watch ? ui.watch.events - 1 : 0);
  $("w-jump").onchange = () => stepTo(Number($("w-jump").value));
  $("h-vp").onclick = async () => {
    const q = ["vp", "victory"].find((x) => x in ui.questions);
    if (!q) return say("this game's rules answer no victory question");
    try { const r = await api("/api/ask", { question: q, args: [] }); const a = r.answer; say(`${q}: ${esc(a.winner ?? "")} ${esc(a.level ?? "")} ${esc(a.reason ?? "")} — cases ${casesHtml(a.cases)}`, true); } catch (e) { refused(e); }
  };
}

async function main() {
  wire();
  const st = await api("/api/state");
  ui.st = st;
  await loadBoard();
  render(st);
  await loadQuestions();
  const opened = await api("/api/watch");  // {"open": false} when the server watches no trace
  if (opened.open) { ui.watch = opened; $("w-path").value = ui.watch.path;
    $("w-jump").innerHTML = ui.watch.index.map((x) => `<option value="${x.event}">turn ${x.turn} · ${esc(x.phase || "setup")} / ${esc(x.step || "")} (event ${x.event + 1})</option>`).join("");
  }
  document.body.dataset.ready = "1";
  work(0);
  if (!st.human && st.header.decider && $("auto").checked && Object.values(st.players).some((k) => k === "human")) runBots(true);
}
main().catch((e) => say(esc(e.message)));
