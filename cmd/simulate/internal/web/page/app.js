// The page of `simulate serve`. It shows what the server's API answers and
// computes nothing of its own: errors, reports and distributions all come
// from the same code as the command line's (see docs/web.md).
"use strict";

const $ = (sel, root = document) => root.querySelector(sel);
const el = (tag, props = {}, ...kids) => {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...kids);
  return e;
};

// ---- tabs
for (const t of document.querySelectorAll(".tab")) {
  t.addEventListener("click", () => {
    for (const o of document.querySelectorAll(".tab")) o.classList.toggle("active", o === t);
    for (const p of document.querySelectorAll(".panel")) p.classList.toggle("active", p.id === t.dataset.tab);
  });
}

// ---- API helpers
async function apiError(resp) {
  let body;
  try { body = await resp.json(); } catch { body = { error: `${resp.status} ${resp.statusText}` }; }
  const err = new Error(body.error || `${resp.status} ${resp.statusText}`);
  err.problems = body.errors || [];
  err.more = body.more || 0;
  return err;
}

function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== "" && v != null) q.set(k, v);
  return q.toString();
}

// numberBox is what a number box holds, "" when it is empty (the
// scenario's own value then). A browser gives "" too for text it cannot
// read as a number ("5e", "2--3"), which would run the scenario's value
// instead of the one typed: that is an error naming the box.
function numberBox(sel, label) {
  const box = $(sel);
  if (box.validity.badInput) throw new Error(`${label}: not a number; write a whole number, or leave the box empty for the scenario's own`);
  return box.value;
}

// streamRun posts a run and reads its server-sent events: start (the id
// Cancel needs), progress, then result or error.
async function streamRun(url, body, contentType, onStart, onProgress) {
  let resp;
  try {
    resp = await fetch(url, { method: "POST", body, headers: { "Content-Type": contentType } });
  } catch (e) {
    throw new Error("the server cannot be reached: " + e.message);
  }
  if (!resp.ok) throw await apiError(resp);
  const reader = resp.body.getReader();
  const dec = new TextDecoder();
  let buf = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the server closed the connection before the run finished");
    buf += dec.decode(value, { stream: true });
    let i;
    while ((i = buf.indexOf("\n\n")) >= 0) {
      const frame = buf.slice(0, i);
      buf = buf.slice(i + 2);
      let name = "message", data = "";
      for (const line of frame.split("\n")) {
        if (line.startsWith("event: ")) name = line.slice(7);
        else if (line.startsWith("data: ")) data += line.slice(6);
      }
      const ev = JSON.parse(data);
      if (name === "start") onStart(ev.id);
      else if (name === "progress") onProgress(ev);
      else if (name === "result") return ev;
      else if (name === "error") {
        const err = new Error(ev.error);
        err.problems = ev.errors || [];
        err.more = ev.more || 0;
        throw err;
      }
    }
  }
}

// ---- built-in scenarios
let builtins = [];
async function loadBuiltins() {
  const resp = await fetch("/api/scenarios");
  if (!resp.ok) return;
  builtins = await resp.json();
  for (const sel of [$("#builtin"), ...document.querySelectorAll(".pick")]) {
    const groups = {};
    for (const b of builtins) {
      if (!groups[b.ruleset]) groups[b.ruleset] = sel.appendChild(el("optgroup", { label: b.ruleset }));
      groups[b.ruleset].append(el("option", { value: b.name, textContent: b.name, title: b.description }));
    }
  }
}

// ---- the unit catalogue: a card is used in a scenario as {use: NAME}
let units = [];
async function loadUnits() {
  const resp = await fetch("/api/units");
  if (!resp.ok) return;
  units = await resp.json();
  const sel = $("#units"), groups = {};
  for (const u of units) {
    if (!groups[u.ruleset]) groups[u.ruleset] = sel.appendChild(el("optgroup", { label: u.ruleset }));
    groups[u.ruleset].append(el("option", { value: u.name, textContent: u.name, title: u.summary }));
  }
}

async function builtinText(name) {
  const resp = await fetch("/api/scenarios/" + encodeURIComponent(name));
  if (!resp.ok) throw await apiError(resp);
  return resp.text();
}

// ---- the scenario editor
const yaml = $("#yaml"), gutter = $("#editor .gutter"), marks = $("#editor .marks");
const fileInput = $("#file"), problemsBox = $("#problems");

function lineHeight() { return parseFloat(getComputedStyle(yaml).lineHeight); }

function drawGutter(errLines = new Map()) {
  const n = yaml.value.split("\n").length;
  gutter.replaceChildren();
  for (let i = 1; i <= n; i++) {
    const s = el("span", { textContent: String(i) });
    if (errLines.has(i)) { s.className = "err"; s.title = errLines.get(i); s.dataset.line = i; }
    gutter.append(s);
  }
  marks.replaceChildren();
  const pad = parseFloat(getComputedStyle(yaml).paddingTop);
  for (const [line, msg] of errLines) {
    marks.append(el("div", { title: msg, style: `top:${pad + (line - 1) * lineHeight()}px` }));
  }
  syncScroll();
}

function syncScroll() {
  gutter.scrollTop = yaml.scrollTop;
  marks.style.transform = `translateY(${-yaml.scrollTop}px)`;
}

// goTo puts the cursor at a line and column of a textarea. The server
// counts columns in characters, a textarea in UTF-16 units, which differ
// on a line with characters beyond the Basic Multilingual Plane (emoji).
function goTo(area, line, col) {
  const lines = area.value.split("\n");
  let pos = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) pos += lines[i].length + 1;
  pos += Array.from(lines[line - 1] || "").slice(0, Math.max(0, col - 1)).join("").length;
  area.focus();
  area.setSelectionRange(pos, pos);
  area.scrollTop = Math.max(0, (line - 5) * lineHeight());
}

// showProblems lists positioned errors in the CLI's words, and as it does
// counts those past the first 20 (more); a click goes to the place, in
// area, or in the textarea area(problem) gives when the errors may be in
// several.
function showProblems(box, area, problems, message, more) {
  box.replaceChildren();
  if (problems.length) {
    const items = problems.map(p => {
      // A button in each item: reached with Tab, followed with Enter or
      // Space as with a click.
      const go = el("button", { type: "button", className: "problem", textContent: p.text, title: "go to line " + p.line });
      go.addEventListener("click", () => goTo(typeof area === "function" ? area(p) : area, p.line, p.col));
      const li = el("li", {}, go);
      li.dataset.line = p.line;
      li.dataset.col = p.col;
      return li;
    });
    if (more > 0) items.push(el("li", { textContent: `... and ${more} more problem${more === 1 ? "" : "s"}` }));
    box.append(el("ul", {}, ...items));
  } else if (message) {
    box.append(el("div", { className: "fail", textContent: message }));
  }
}

let validateTimer = 0;
// validate checks an editor's text; an answer that comes back after a
// later check of the same editor was sent is dropped (null), so that the
// errors shown are those of the text as it is.
async function validate(area, file, box, onValid) {
  const seq = area.validateSeq = (area.validateSeq || 0) + 1;
  let v;
  try {
    // The scenario editor is checked as it will run: an opened file,
    // unedited, as its own bytes (a byte that is not UTF-8 is an error).
    const body = area === yaml ? scenarioBytes() : area.value;
    const resp = await fetch("/api/validate?" + query({ file }), { method: "POST", body, headers: { "Content-Type": "application/yaml" } });
    v = resp.ok ? await resp.json() : { ok: false, errors: [], error: (await apiError(resp)).message };
  } catch (e) {
    v = { ok: false, errors: [], error: "the server cannot be reached: " + e.message };
  }
  if (seq !== area.validateSeq) return null; // a newer check is on its way
  if (v.ok) {
    box.replaceChildren(el("div", { className: "ok", textContent: `✓ ${v.name}${v.description ? " — " + v.description : ""}` }));
  } else {
    showProblems(box, area, v.errors || [], v.error, v.more || 0);
  }
  if (onValid) onValid(v);
  return v;
}

function checkEditor() {
  clearTimeout(validateTimer);
  validateTimer = setTimeout(async () => {
    const v = await validate(yaml, fileInput.value, problemsBox);
    if (!v) return;
    if (v.ok) showMetrics(v.metrics || []);
    const lines = new Map();
    for (const p of v.errors || []) if (!lines.has(p.line)) lines.set(p.line, p.message);
    drawGutter(lines);
  }, 250);
}

// showMetrics offers the scenario's metrics as --metrics does; ticks
// survive edits that keep the metric.
function showMetrics(names) {
  const box = $("#metrics");
  const ticked = new Set(checkedMetrics().split(",").filter(Boolean));
  box.replaceChildren(...(names.length > 1 ? ["Metrics:"] : []), ...(names.length > 1 ? names : []).map(n =>
    el("label", {}, el("input", { type: "checkbox", value: n, checked: ticked.has(n) }), " " + n)));
}

function checkedMetrics() {
  return [...document.querySelectorAll("#metrics input:checked")].map(i => i.value).join(",");
}

yaml.addEventListener("input", () => { $("#builtin").value = ""; drawGutter(); checkEditor(); });
yaml.addEventListener("scroll", syncScroll);
// Tab indents (YAML indents with spaces), as an editor's does; Shift+Tab,
// and Tab after Escape, move on from the editor as from any other field,
// so that the keyboard is never held in it.
let tabLeaves = false;
yaml.addEventListener("keydown", e => {
  if (e.key === "Escape") {
    tabLeaves = true;
    return;
  }
  const leave = tabLeaves;
  tabLeaves = false;
  if (e.key === "Tab" && !e.shiftKey && !e.ctrlKey && !e.altKey && !e.metaKey && !leave) {
    e.preventDefault();
    document.execCommand("insertText", false, "  ");
  }
});
yaml.addEventListener("blur", () => { tabLeaves = false; });
fileInput.addEventListener("input", checkEditor);

$("#builtin").addEventListener("change", async e => {
  const name = e.target.value;
  if (!name) return;
  yaml.value = await builtinText(name);
  fileInput.value = name + ".yaml";
  drawGutter();
  checkEditor();
});

$("#units").addEventListener("change", e => {
  const u = units.find(u => u.name === e.target.value);
  e.target.value = "";
  if (!u) return;
  yaml.focus();
  const name = /^[A-Za-z0-9][A-Za-z0-9 ]*$/.test(u.name) ? u.name : JSON.stringify(u.name);
  document.execCommand("insertText", false, `{use: ${name}}`); // keeps the editor's undo
  const card = $("#unit-card");
  card.textContent = u.yaml;
  card.hidden = false;
});

// opened holds the bytes of the file last opened, and the editor's text
// of them: while the text is unchanged, a run sends the file's own bytes,
// so that the stamp's SHA-256 is the file's (a text area turns CRLF line
// ends into LF, and reading drops a byte order mark).
let opened = null;
const scenarioBytes = () => (opened && opened.text === yaml.value ? opened.bytes : yaml.value);

$("#open").addEventListener("change", async e => {
  const f = e.target.files[0];
  if (!f) return;
  const bytes = await f.arrayBuffer(); // read by the browser: the server never opens a path
  yaml.value = new TextDecoder().decode(bytes);
  opened = { bytes, text: yaml.value };
  fileInput.value = f.name;
  $("#builtin").value = ""; // the editor no longer holds the built-in
  drawGutter();
  checkEditor();
  e.target.value = "";
});

$("#save").addEventListener("click", () => download(yaml.value, fileInput.value || "scenario.yaml", "application/yaml"));

function download(text, name, type) {
  const a = el("a", { href: URL.createObjectURL(new Blob([text], { type })), download: name });
  document.body.append(a);
  a.click();
  a.remove();
}

// ---- runs
const extensions = { table: ["txt", "Table (.txt)"], json: ["json", "JSON"], csv: ["csv", "CSV"], markdown: ["md", "Markdown"], html: ["html", "HTML report"] };

// runner wires a Run button, a Cancel button, a progress bar and a results
// box to a streaming endpoint.
function runner(ids, request) {
  const runBtn = $(ids.run), cancelBtn = $(ids.cancel), bar = $(ids.progress), errBox = $(ids.error), box = $(ids.results);
  let runId = null;
  cancelBtn.addEventListener("click", async () => {
    if (!runId) return;
    cancelBtn.disabled = true;
    await fetch("/api/cancel?" + query({ id: runId }), { method: "POST" });
  });
  runBtn.addEventListener("click", async () => {
    let req;
    try {
      req = request();
    } catch (e) {
      showProblems(errBox, null, [], e.message, 0);
      box.hidden = true;
      return;
    }
    if (!req) return;
    runBtn.disabled = true;
    errBox.replaceChildren();
    bar.hidden = false;
    $("progress", bar).removeAttribute("value");
    $("span", bar).textContent = "starting…";
    try {
      const res = await streamRun(req.url, req.body, req.type, id => { runId = id; cancelBtn.disabled = false; }, p => {
        $("progress", bar).max = p.total;
        $("progress", bar).value = p.done;
        $("span", bar).textContent = `${p.label}: ${p.done.toLocaleString("en")} of ${p.total.toLocaleString("en")} trials (${(100 * p.done / p.total).toFixed(0)}%)`;
      });
      showResults(box, res, req.base);
    } catch (e) {
      showProblems(errBox, req.area, e.problems || [], e.message, e.more || 0);
      box.hidden = true;
    } finally {
      runId = null;
      runBtn.disabled = false;
      cancelBtn.disabled = true;
      bar.hidden = true;
    }
  });
}

function showResults(box, res, base) {
  box.hidden = false;
  const status = $(".status", box);
  status.className = "status" + (res.partial ? " partial" : "");
  status.textContent = res.partial
    ? `PARTIAL RESULTS: ${res.reason || "the run was cancelled"}; every number below rests on the trials that finished, and the downloads say so.`
    : "Finished.";
  const dl = $(".downloads", box);
  for (const a of dl.querySelectorAll("a")) URL.revokeObjectURL(a.href); // the last run's outputs
  dl.replaceChildren("Download: ");
  for (const [fmt, [ext, label]] of Object.entries(extensions)) {
    const text = res.outputs[fmt];
    if (text == null) continue;
    const name = fmt === "html" ? `${base}-report.html` : `${base}.${ext}`;
    dl.append(el("a", { href: URL.createObjectURL(new Blob([text], { type: "text/plain" })), download: name, textContent: label }));
  }
  const frame = $("iframe", box);
  frame.onload = () => { frame.style.height = frame.contentDocument.documentElement.scrollHeight + 20 + "px"; };
  frame.srcdoc = res.outputs.html;
}

const baseName = f => (f || "scenario").replace(/^.*\//, "").replace(/\.ya?ml$/i, "");

runner({ run: "#run", cancel: "#cancel", progress: "#progress", error: "#run-error", results: "#results" }, () => ({
  url: "/api/run/events?" + query({ file: fileInput.value, trials: numberBox("#trials", "Trials per point"), seed: numberBox("#seed", "Seed"), metrics: checkedMetrics() }),
  body: scenarioBytes(), type: "application/yaml", area: yaml, base: baseName(fileInput.value),
}));

// ---- compare
const cands = [...document.querySelectorAll(".candidate")];
const mode = () => document.querySelector("input[name=mode]:checked").value;
const axisSelect = $("#by");

function checkCandidate(c) {
  clearTimeout(c.timer);
  // A blank name box is checked under the name the comparison will give
  // it, scenario-N.yaml, so that its errors read as they will then.
  const file = () => $(".file", c).value || `scenario-${cands.indexOf(c) + 1}.yaml`;
  c.timer = setTimeout(() => validate($(".src", c), file(), $(".problems", c), v => {
    if (c.dataset.cand !== "a") return;
    const keep = axisSelect.value;
    axisSelect.replaceChildren(...(v.axes || []).map(a => el("option", { value: a, textContent: a })));
    if ((v.axes || []).includes(keep)) axisSelect.value = keep;
  }), 250);
}

for (const c of cands) {
  $(".src", c).addEventListener("input", () => { $(".pick", c).value = ""; checkCandidate(c); });
  $(".file", c).addEventListener("input", () => checkCandidate(c));
  $(".pick", c).addEventListener("change", async e => {
    if (!e.target.value) return;
    $(".src", c).value = await builtinText(e.target.value);
    $(".file", c).value = e.target.value + ".yaml";
    checkCandidate(c);
  });
}

for (const r of document.querySelectorAll("input[name=mode]")) {
  r.addEventListener("change", () => {
    const axis = mode() === "axis";
    $("#by-label").hidden = !axis;
    cands[1].classList.toggle("off", axis);
  });
}

runner({ run: "#c-run", cancel: "#c-cancel", progress: "#c-progress", error: "#c-error", results: "#c-results" }, () => {
  const used = mode() === "axis" ? cands.slice(0, 1) : cands;
  // An empty name box leaves the name out (the server's scenario-N.yaml).
  const scenarios = used.map(c => ({ file: $(".file", c).value || undefined, text: $(".src", c).value }));
  const by = mode() === "axis" ? axisSelect.value : "";
  return {
    url: "/api/compare/events?" + query({ trials: numberBox("#c-trials", "Trials per point"), seed: numberBox("#c-seed", "Seed"), by }),
    body: JSON.stringify({ scenarios }), type: "application/json",
    // An error names the file it is in: the candidate of that name, the
    // server naming one left blank scenario-N.yaml (N from 1).
    area: p => $(".src", used.find((c, i) => ($(".file", c).value || `scenario-${i + 1}.yaml`) === p.file) || used[0]),
    base: used.map(c => baseName($(".file", c).value)).join("-vs-") + (by ? "-by-" + by : ""),
  };
});

// ---- dice
let diceRows = [], diceTimer = 0;
// fixed writes x >= 0 with f decimals as Go's strconv.FormatFloat(x, 'f',
// f, 64) does: to the nearest, and a tie to the even last digit, where
// toFixed rounds a tie up. Only a number exact in binary can be a tie
// (0.40625 is 40.625%, which Go writes 40.62 and toFixed 40.63); its
// exact decimal digits, which toFixed(100) gives, tell it.
const fixed = (x, f) => {
  const s = x.toFixed(f);
  if (!(x >= 0 && x < 1e21)) return s;
  const exact = x.toFixed(100), dot = exact.indexOf(".");
  if (!/^50*$/.test(exact.slice(dot + 1 + f))) return s;
  const down = f > 0 ? exact.slice(0, dot + 1 + f) : exact.slice(0, dot);
  return Number(down.at(-1)) % 2 === 0 ? down : s;
};

// exactDigits returns the decimal digits of x > 0, finite, without
// trailing zeros, and where its decimal point stands: x = 0.DIGITS x
// 10^point, exactly. A float64 is a whole number times a power of two,
// whose decimal expansion ends; BigInt writes it out.
const exactDigits = x => {
  const v = new DataView(new ArrayBuffer(8));
  v.setFloat64(0, x);
  const hi = v.getUint32(0), biased = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(v.getUint32(4)), e = -1074;
  if (biased > 0) m |= 1n << 52n, e = biased - 1075;
  // x = m * 2^e = m * 5^-e / 10^-e when e < 0
  const s = (e >= 0 ? m << BigInt(e) : m * 5n ** BigInt(-e)).toString();
  const digits = s.replace(/0+$/, "");
  return { digits, point: s.length - Math.max(0, -e) };
};

// general writes x > 0 to n significant figures as Go's
// strconv.FormatFloat(x, 'g', n, 64) does: rounded to the nearest, a tie
// to the even digit; no trailing zeros; an exponent below 1e-4 or from
// 10^n up, of two digits at least (8.434467561e-07, 1.04e+06).
const general = (x, n) => {
  let { digits: d, point } = exactDigits(x);
  if (d.length > n) {
    const rest = d.slice(n), last = Number(d[n - 1]);
    const up = rest[0] > "5" || (rest[0] === "5" && (rest.length > 1 || last % 2 === 1));
    d = d.slice(0, n);
    if (up) {
      const r = (BigInt(d) + 1n).toString();
      if (r.length > d.length) point++;
      d = r.slice(0, n);
    }
    d = d.replace(/0+$/, "");
  }
  const exp = point - 1;
  let eprec = n;
  if (eprec > d.length && d.length >= point) eprec = d.length;
  if (exp < -4 || exp >= eprec) {
    const e = Math.abs(exp);
    return `${d[0]}${d.length > 1 ? "." + d.slice(1) : ""}e${exp < 0 ? "-" : "+"}${String(e).padStart(2, "0")}`;
  }
  if (point <= 0) return "0." + "0".repeat(-point) + d;
  if (d.length <= point) return d + "0".repeat(point - d.length);
  return d.slice(0, point) + "." + d.slice(point);
};

// pct writes a probability as simulate dice does: to 0.01%, with "<0.01%"
// and ">99.99%" for what is possible but rounds to 0, or not certain but
// rounds to 100.
const pct = p => {
  const s = fixed(100 * p, 2);
  if (p > 0 && s === "0.00") return "<0.01%";
  if (p < 1 && s === "100.00") return ">99.99%";
  return s + "%";
};

// oneIn phrases a chance of one half or less as simulate dice does: "1 in
// 3.6", to three figures past a million ("1 in 1.19e+06").
const oneIn = p => {
  if (!(p > 0 && p <= 0.5)) return "";
  const n = 1 / p;
  return `, about 1 in ${n >= 1e6 ? general(n, 3) : fixed(n, 1)}`;
};

// rollDice asks for `simulate dice QUERY` as JSON (for the chart and the
// table) and as the command line's table.
async function rollDice() {
  const q = $("#expr").value, errBox = $("#dice-error");
  let resp, text;
  try {
    [resp, text] = await Promise.all([
      fetch("/api/dice?" + query({ q, format: "json" })),
      fetch("/api/dice?" + query({ q, format: "table" })),
    ]);
  } catch (e) {
    // No answer: the last query's answer must not stand under this one.
    if (q !== $("#expr").value) return;
    errBox.replaceChildren(el("div", { className: "fail", textContent: "the server cannot be reached: " + e.message }));
    $("#dice-out").hidden = true;
    return;
  }
  if (q !== $("#expr").value) return; // typed on since
  if (!resp.ok) {
    errBox.replaceChildren(el("div", { className: "fail", textContent: (await apiError(resp)).message }));
    $("#dice-out").hidden = true;
    return;
  }
  const d = await resp.json();
  errBox.replaceChildren();
  $("#dice-out").hidden = false;
  $("#dice-title").textContent = d.query;
  $("#dice-text").textContent = text.ok ? await text.text() : "";
  const cond = d.kind === "condition";
  $("#dice-condition").hidden = !cond;
  for (const id of ["#dice-views", "#dice-chart", "#dice-table"]) $(id).toggleAttribute("hidden", cond);
  if (cond) {
    const rounded = pct(d.exact).startsWith("<") || pct(d.exact).startsWith(">");
    $("#dice-condition").textContent = `exactly ${pct(d.exact)}` + (rounded ? ` (${general(d.exact, 10)})` : "") + oneIn(d.exact);
    diceRows = [];
    return;
  }
  diceRows = d.values;
  $("#dice-table tbody").replaceChildren(...d.values.map(r => el("tr", {},
    el("td", { textContent: r.label }), el("td", { textContent: pct(r.exact) }),
    el("td", { textContent: pct(r.at_least) }), el("td", { textContent: pct(r.at_most) }))));
  drawChart();
}

// drawChart draws the chosen column of the server's rows as bars.
function drawChart() {
  const svg = $("#dice-chart"), view = document.querySelector("input[name=view]:checked").value;
  const col = view === "exactly" ? "exact" : view;
  const W = 900, H = 280, left = 60, bottom = 28, top = 12;
  const ns = "http://www.w3.org/2000/svg";
  const mk = (tag, attrs, text) => {
    const e = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text != null) e.textContent = text;
    return e;
  };
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.replaceChildren();
  const n = diceRows.length;
  if (!n) return;
  const maxP = Math.max(...diceRows.map(r => r[col]));
  const step = (W - left - 8) / n, bw = Math.max(1, step * 0.8);
  const y = p => top + (H - top - bottom) * (1 - p / maxP);
  for (const t of [0, 0.25, 0.5, 0.75, 1]) {
    const p = maxP * t;
    svg.append(mk("line", { x1: left, x2: W - 4, y1: y(p), y2: y(p), class: "axis", "stroke-opacity": 0.25 }));
    svg.append(mk("text", { x: left - 6, y: y(p) + 4, "text-anchor": "end" }, pct(p)));
  }
  const every = Math.ceil(n / 40);
  diceRows.forEach((r, i) => {
    const x = left + i * step + (step - bw) / 2;
    const bar = mk("rect", { x, y: y(r[col]), width: bw, height: H - bottom - y(r[col]), class: "bar" });
    bar.append(mk("title", {}, `${r.label}: ${pct(r[col])}`));
    svg.append(bar);
    if (i % every === 0) svg.append(mk("text", { x: x + bw / 2, y: H - bottom + 16, "text-anchor": "middle" }, r.label));
  });
}

$("#expr").addEventListener("input", () => { clearTimeout(diceTimer); diceTimer = setTimeout(rollDice, 250); });
for (const r of document.querySelectorAll("input[name=view]")) r.addEventListener("change", drawChart);

// ---- start: the command line's default scenario, ready to run
drawGutter();
loadUnits();
loadBuiltins().then(async () => {
  const def = builtins.find(b => b.default);
  if (yaml.value !== "" || !def) return;
  const text = await builtinText(def.name);
  if (yaml.value !== "") return; // the user was quicker
  yaml.value = text;
  fileInput.value = def.name + ".yaml";
  $("#builtin").value = def.name;
  drawGutter();
  checkEditor();
});
rollDice();
