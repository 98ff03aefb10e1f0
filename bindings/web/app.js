// app.js - the page: forms built from the request layer's option tables
// (hwfit.describe), answers from hwfit.run, inputs kept in the address (#q=fit&gpus=4...).
import * as hwfit from "./hwfit.js";

const started = performance.now();
const TABS = ["fit", "power", "raid"];
// Fields written in index.html (fit's model, GPU, count and mode).
const FIXED = { fit: ["model", "gpu", "gpus", "mode"], power: [], raid: [] };
// Options shown before "More options"; every other option of the table goes there, so a
// new option appears without editing the page.
const MAIN = {
  fit: ["context", "batch", "weights", "kv", "output-tokens", "micro-batch", "optimizer",
        "recompute", "lora-rank"],
  power: ["psus", "psu-watts", "redundant", "load", "gpus", "class", "price"],
  raid: ["level", "drives", "drive-size", "spares", "groups", "fill", "rebuild-rate"],
};
const SKIP_KINDS = new Set(["file", "list"]); // paths to files: only the model is dropped

const $ = (sel, root = document) => root.querySelector(sel);
const el = (tag, attrs = {}, ...children) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) e.append(c);
  return e;
};

// The page's state for tests and for people curious in the console.
window.hwfitPage = { last: {}, timing: {}, ready: null };

// ---- numbers as people read them ------------------------------------------------------
function bytes(n) {
  if (n === null || n === undefined) return "-";
  const units = ["B", "kB", "MB", "GB", "TB", "PB"];
  let i = 0, v = n;
  while (Math.abs(v) >= 1000 && i < units.length - 1) { v /= 1000; i++; }
  return `${v.toPrecision(4).replace(/\.?0+$/, "")} ${units[i]}`;
}
function num(n, digits = 4) {
  if (n === null || n === undefined) return "-";
  if (Number.isInteger(n)) return n.toLocaleString("en-US");
  return Number(n.toPrecision(digits)).toLocaleString("en-US");
}

// ---- forms from the option tables ------------------------------------------------------
function hintOf(o) {
  let h = o.help;
  if (o.default !== null) h += ` (default ${o.default})`;
  else if (o.default_help) h += ` (default: ${o.default_help})`;
  return h;
}

// Which mode an option applies to, from its help line ("training: ...", "LoRA rank").
function scopeOf(o) {
  if (/^training\b/.test(o.help)) return "training";
  if (/^inference\b/.test(o.help)) return "inference";
  if (/^lora\b/.test(o.name)) return "lora";
  return "";
}

function optionList(select, values, defaultText) {
  if (defaultText !== undefined) select.append(el("option", { value: "", text: defaultText }));
  for (const v of values) {
    if (typeof v === "string") select.append(el("option", { value: v, text: v }));
    else select.append(el("option", { value: v.value, text: v.text }));
  }
}

function field(command, o, catalogs) {
  const id = `${command}-${o.name}`;
  const hintId = `${id}-hint`;
  const wrap = el("div", { class: "field", "data-scope": scopeOf(o) || null });
  const hint = el("p", { class: "hint", id: hintId, text: hintOf(o) });
  let input;
  if (o.kind === "flag") {
    input = el("input", { type: "checkbox", id, name: o.name, "aria-describedby": hintId });
    wrap.classList.add("check");
    wrap.append(input, el("label", { for: id, text: o.name }), hint);
    return wrap;
  }
  const choices = o.choices || (o.catalog && catalogs[o.catalog]);
  if (choices) {
    input = el("select", { id, name: o.name, "aria-describedby": hintId });
    const def = o.required ? undefined
      : o.default !== null ? `default (${o.default})` : `default (${o.default_help || "none"})`;
    optionList(input, choices, def);
  } else {
    const numeric = ["count", "tokens", "ratio"].includes(o.kind);
    input = el("input", {
      id, name: o.name, autocomplete: "off", "aria-describedby": hintId,
      inputmode: numeric ? "decimal" : null,
      placeholder: o.default ?? o.example ?? "",
      required: o.required,
    });
  }
  wrap.append(el("label", { for: id, text: o.name + (o.required ? " (required)" : "") }), input, hint);
  return wrap;
}

async function buildForm(command, catalogs) {
  const d = await hwfit.describe(command);
  const main = $(`#${command}-main`), more = $(`#${command}-more`);
  const byName = new Map(d.options.map((o) => [o.name, o]));
  for (const name of MAIN[command]) {
    const o = byName.get(name);
    if (o && !SKIP_KINDS.has(o.kind)) main.append(field(command, o, catalogs));
  }
  for (const o of d.options) {
    if (FIXED[command].includes(o.name) || MAIN[command].includes(o.name)) continue;
    if (SKIP_KINDS.has(o.kind)) continue;
    more.append(field(command, o, catalogs));
  }
  return d;
}

// Inference or training: hide the options of the other.
function applyMode() {
  const mode = $("#fit-mode").value || "inference";
  const training = mode !== "inference";
  for (const w of document.querySelectorAll("#form-fit [data-scope]")) {
    const s = w.dataset.scope;
    w.hidden = (s === "training" && !training) || (s === "inference" && training) ||
               (s === "lora" && mode !== "lora" && mode !== "qlora");
  }
}

// ---- options in, options out ----------------------------------------------------------
function collect(command) {
  const form = $(`#form-${command}`);
  const opts = {};
  for (const input of form.querySelectorAll("[name]")) {
    if (input.closest("[hidden]")) continue;
    if (input.type === "checkbox") { if (input.checked) opts[input.name] = true; continue; }
    const v = input.value.trim();
    if (v !== "") opts[input.name] = v;
  }
  return opts;
}

function fill(command, params) {
  const form = $(`#form-${command}`);
  for (const [k, v] of params) {
    const input = form.querySelector(`[name="${CSS.escape(k)}"]`);
    if (!input) continue;
    if (input.type === "checkbox") input.checked = v !== "0" && v !== "false";
    else input.value = v;
  }
  if (command === "fit") applyMode();
}

function linkFor(command, opts) {
  const p = new URLSearchParams({ q: command });
  for (const [k, v] of Object.entries(opts)) p.append(k, v === true ? "1" : v);
  return `${location.origin}${location.pathname}#${p}`;
}

// ---- answers ---------------------------------------------------------------------------
function showError(box, e) {
  box.replaceChildren(el("p", { class: "error", role: "alert", text: e.message }));
}

function chart(svg, alt) {
  const img = el("img", { class: "chart", alt, src: "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg) });
  return el("figure", { tabindex: "0", "aria-label": "chart" }, img);
}

function figures(rows) {
  const dl = el("dl", { class: "figures" });
  for (const [k, v] of rows) dl.append(el("div", {}, el("dt", { text: k }), el("dd", { text: v })));
  return dl;
}

// A folded block; text may be a function, called when it is first opened.
function details(title, text) {
  const pre = el("pre", { tabindex: "0" });
  const d = el("details", { class: "raw" }, el("summary", { text: title }), pre);
  const fillIn = async () => {
    if (pre.textContent !== "") return;
    try { pre.textContent = typeof text === "function" ? await text() : text; }
    catch (e) { pre.textContent = e.message; }
  };
  if (typeof text === "function") d.addEventListener("toggle", () => d.open && fillIn());
  else pre.textContent = text;
  return d;
}

async function answerFit(opts, box) {
  const fit = await hwfit.run("fit", opts);
  window.hwfitPage.last.fit = fit;
  const svg = await hwfit.run("fit", opts, "svg");
  let perf = null;
  try { perf = await hwfit.run("perf", opts); } catch (e) { perf = null; }
  window.hwfitPage.last.perf = perf;
  const training = fit.mode !== "inference";
  const card = `${fit.gpus} x ${fit.gpu || "card"}`;
  const verdict = fit.fits
    ? `Fits on ${card}: ${bytes(fit.per_gpu_bytes)} per card of ${bytes(fit.usable_bytes)} usable.`
    : `Does not fit on ${card}: ${bytes(fit.per_gpu_bytes)} per card, ${bytes(fit.usable_bytes)} usable.`;
  const rows = [
    ["Fewest GPUs", fit.min_gpus === null ? `more than ${opts["max-gpus"] || 256}` : num(fit.min_gpus)],
    ["Longest context", fit.max_context === null ? "-" : `${num(fit.max_context)} tokens`],
    [training ? "Largest global batch" : "Largest batch", fit.max_batch === null ? "-" : num(fit.max_batch)],
    ["Layout", `TP ${fit.layout.tp} · PP ${fit.layout.pp} · DP ${fit.layout.dp}` +
               (fit.layout.ep > 1 ? ` · EP ${fit.layout.ep}` : "")],
  ];
  if (training) {
    rows.push(["Training tokens/s", fit.tokens_per_s === null ? "-" : num(fit.tokens_per_s)]);
    if (perf && perf.mfu !== null) rows.push(["MFU", `${num(perf.mfu * 100, 3)} %`]);
  } else if (perf) {
    rows.push(["Decode tokens/s", `${num(perf.decode_tokens_per_s)} (${perf.bound} bound)`]);
    rows.push(["Prefill tokens/s", num(perf.prefill_tokens_per_s)]);
  } else if (fit.tokens_per_s !== null) {
    rows.push(["Tokens/s", num(fit.tokens_per_s)]);
  }
  box.replaceChildren(
    el("p", { class: `verdict ${fit.fits ? "yes" : "no"}`, text: verdict }),
    figures(rows),
    chart(svg, `Memory per card: ${verdict}`),
    details("The whole answer as a table", () => hwfit.run("fit", opts, "text")),
    details("JSON (as hwfit fit --json)", JSON.stringify(fit, null, 2)));
}

function headline(command, r) {
  if (command === "power") {
    const ok = r.meets_load && r.meets_headroom && r.meets_peak;
    return [ok ? "yes" : "no",
      `${ok ? "Enough" : "Not enough"} power: ${num(r.usable_w)} W usable with ${r.redundant} redundant ` +
      `for ${num(r.load_w)} W of load (${num(r.required_w)} W needed with headroom).`];
  }
  if (command === "raid")
    return ["info", `${r.level}: ${r.usable_text} usable of ${bytes(r.raw_bytes)} raw, ` +
                    `${r.tolerated_failures} drive failure${r.tolerated_failures === 1 ? "" : "s"} tolerated.`];
  return ["info", ""];
}

async function answerOther(command, opts, box) {
  const r = await hwfit.run(command, opts);
  window.hwfitPage.last[command] = r;
  const [svg, text] = await Promise.all([hwfit.run(command, opts, "svg"), hwfit.run(command, opts, "text")]);
  const [cls, line] = headline(command, r);
  box.replaceChildren(
    el("p", { class: `verdict ${cls}`, text: line }),
    chart(svg, line),
    el("pre", { class: "table", tabindex: "0", "aria-label": "The whole answer", text }),
    details(`JSON (as hwfit ${command} --json)`, JSON.stringify(r, null, 2)));
}

async function answer(command) {
  const box = $(`#result-${command}`);
  const opts = collect(command);
  box.setAttribute("aria-busy", "true");
  try {
    if (command === "fit") await answerFit(opts, box);
    else await answerOther(command, opts, box);
  } catch (e) {
    window.hwfitPage.last[command] = { error: e.message };
    showError(box, e);
  } finally {
    box.removeAttribute("aria-busy");
  }
  if (window.hwfitPage.timing.firstAnswerMs === undefined)
    window.hwfitPage.timing.firstAnswerMs = performance.now() - started;
  // On a phone the form fills the screen: bring the answer into view.
  if (window.matchMedia("(max-width: 40rem)").matches) box.scrollIntoView({ block: "start" });
  box.dataset.answered = String(Number(box.dataset.answered || 0) + 1);
}

// ---- tabs and the address ----------------------------------------------------------------
function show(command) {
  for (const t of TABS) {
    $(`#tab-${t}`).hidden = t !== command;
    const a = $(`nav a[data-tab="${t}"]`);
    if (t === command) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
}

// Power's and RAID's forms are built when first shown: the first answer comes sooner.
const forms = new Map();
let catalogsReady = null;
function ensureForm(command) {
  if (!forms.has(command))
    forms.set(command, catalogsReady.then(async (c) => {
      const d = await buildForm(command, c);
      $(`#tab-${command}`).dataset.ready = "true"; // the form is built
      return d;
    }));
  return forms.get(command);
}

async function fromAddress(runIt) {
  const p = new URLSearchParams(location.hash.slice(1));
  const command = TABS.includes(p.get("q")) ? p.get("q") : "fit";
  p.delete("q");
  show(command);
  await ensureForm(command);
  fill(command, p);
  if (runIt && [...p.keys()].length > 0) return answer(command);
  return null;
}

// A dropped or chosen config.json goes into the module's memory; its path is the model.
async function takeFile(file) {
  const text = await file.text();
  try { JSON.parse(text); } catch (e) {
    $("#fit-model-help").textContent = `${file.name} is not JSON: ${e.message}`;
    return;
  }
  const path = await hwfit.addFile(file.name, text);
  $("#fit-model").value = path;
  $("#fit-model-help").textContent =
    `Using ${file.name} (kept in this page only: a shared link does not carry it).`;
}

async function main() {
  const status = $("#status");
  try {
    await hwfit.load();
    window.hwfitPage.timing.loadedMs = performance.now() - started;
    const [gpus, dtypes, models] = await Promise.all(
      [hwfit.run("gpus"), hwfit.run("dtypes"), hwfit.run("models")]);
    window.hwfitPage.timing.catalogsMs = performance.now() - started;
    const catalogs = {
      gpu: gpus.gpus.map((g) => ({ value: g.name, text: `${g.name} (${bytes(g.memory_bytes)})` })),
      dtype: dtypes.dtypes.map((t) => t.name),
    };
    for (const m of models.models)
      $("#models").append(el("option", { value: m.name, text: `${m.model_type}, ${num(m.params / 1e9, 3)}B parameters` }));
    catalogsReady = Promise.resolve(catalogs);
    const fitTable = await ensureForm("fit");
    const byName = new Map(fitTable.options.map((o) => [o.name, o]));
    optionList($("#fit-gpu"), catalogs.gpu);
    $("#fit-gpu").value = "h100-sxm";
    optionList($("#fit-mode"), byName.get("mode").choices);
    for (const n of FIXED.fit) {
      const input = $(`#fit-${n}`);
      const hint = byName.get(n) ? hintOf(byName.get(n)) : "";
      if (input && hint) input.title = hint;
    }
    window.hwfitPage.timing.formsMs = performance.now() - started;
    $("#fit-mode").addEventListener("change", applyMode);
    applyMode();

    for (const t of TABS) {
      $(`#form-${t}`).addEventListener("submit", (ev) => {
        ev.preventDefault();
        history.replaceState(null, "", linkFor(t, collect(t)));
        answer(t);
      });
    }
    for (const b of document.querySelectorAll("button.share")) {
      b.addEventListener("click", async () => {
        const t = b.dataset.share;
        const url = linkFor(t, collect(t));
        history.replaceState(null, "", url);
        try { await navigator.clipboard.writeText(url); b.textContent = "Link copied"; }
        catch { b.textContent = "Link in the address bar"; }
        setTimeout(() => { b.textContent = "Copy a link to this question"; }, 2500);
      });
    }
    window.addEventListener("hashchange", () => fromAddress(true));
    const drop = $("#drop");
    $("#fit-file").addEventListener("change", (ev) => ev.target.files[0] && takeFile(ev.target.files[0]));
    drop.addEventListener("dragover", (ev) => { ev.preventDefault(); drop.classList.add("over"); });
    drop.addEventListener("dragleave", () => drop.classList.remove("over"));
    drop.addEventListener("drop", (ev) => {
      ev.preventDefault();
      drop.classList.remove("over");
      if (ev.dataTransfer.files[0]) takeFile(ev.dataTransfer.files[0]);
    });
    $("#version").textContent = `hwfit ${await hwfit.version()}.`;
    status.textContent = `Ready: ${models.models.length} models, ${gpus.gpus.length} GPUs ` +
      `(library loaded in ${Math.round(window.hwfitPage.timing.loadedMs)} ms).`;
    status.className = "ready";
    await fromAddress(true);
  } catch (e) {
    status.textContent = `The hwfit library did not load: ${e.message}`;
    status.className = "error";
    throw e;
  }
}

window.hwfitPage.ready = main();
