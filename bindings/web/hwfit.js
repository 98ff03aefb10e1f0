// hwfit.js - the hwfit library in the browser: the request layer (include/hwfit/request.h)
// compiled to WebAssembly (hwfit_core.js + hwfit_core.wasm, built by the wasm preset).
//
//   import * as hwfit from "./hwfit.js";
//   const fit = await hwfit.run("fit", {model: "llama-3-8b", gpu: "h100-sxm", gpus: 4});
//   const svg = await hwfit.run("fit", {model: "llama-3-8b", gpu: "h100-sxm"}, "svg");
//   const fitOptions = await hwfit.describe("fit");
//
// run() returns what `hwfit COMMAND --json` prints, parsed; a refusal throws an Error whose
// message is the line the CLI writes on stderr ("hwfit fit: --gpus: ..."). Options go by
// the request layer's names ("micro-batch"; "micro_batch" also works); values are strings,
// numbers, true for a flag (false or null leaves it out) or an array for a repeatable one.
import createHwfitCore from "./hwfit_core.js";

const FORMATS = ["json", "text", "csv", "svg", "markdown", "html"];
const UPLOADS = "/uploads";

let corePromise = null;
const descriptions = new Map();

/** The WebAssembly module, loaded once (the first call of any function here loads it). */
export function load() {
  if (corePromise === null) corePromise = createHwfitCore();
  return corePromise;
}

/** An Error as the CLI words it; .command, .option and .status say more. */
export class HwfitError extends Error {
  constructor(message, command, option, status) {
    super(message);
    this.name = "HwfitError";
    this.command = command;
    this.option = option;
    this.status = status;
  }
}

// Call f with C copies of the strings (NULL for null); frees them after.
function withStrings(m, strings, f) {
  const ptrs = strings.map((s) => {
    if (s === null) return 0;
    const n = m.lengthBytesUTF8(s) + 1;
    const p = m._malloc(n);
    m.stringToUTF8(s, p, n);
    return p;
  });
  try {
    return f(...ptrs);
  } finally {
    for (const p of ptrs) if (p) m._free(p);
  }
}

function describeNow(m, command) {
  const size = m._malloc(4);
  try {
    const c = command === null ? 0 : withStrings(m, [command], (p) => m._hwfit_command_by_name(p));
    if (command !== null && c === 0) return null;
    m._hwfit_command_describe(c, 0, 0, size);
    const need = m.getValue(size, "i32") >>> 0;
    const buf = m._malloc(need);
    try {
      const st = m._hwfit_command_describe(c, buf, need, size);
      if (st !== 0) throw new Error("hwfit_command_describe: " + m.UTF8ToString(m._hwfit_status_name(st)));
      return JSON.parse(m.UTF8ToString(buf));
    } finally {
      m._free(buf);
    }
  } finally {
    m._free(size);
  }
}

/**
 * The option table of a command ({name, summary, details, formats, options: [...]}), or
 * of every command ({version, commands: [...]}) without an argument: what
 * hwfit_command_describe() writes, for building forms.
 */
export async function describe(command = null) {
  const m = await load();
  const key = command === null ? "" : String(command);
  if (!descriptions.has(key)) {
    const d = describeNow(m, command === null ? null : key);
    if (d === null) throw new HwfitError(`hwfit: unknown subcommand '${key}' (run 'hwfit --help')`, key, null,
                                                "HWFIT_ENOTFOUND");
    descriptions.set(key, d);
  }
  return descriptions.get(key);
}

/** The library's version ("0.2.0"). */
export async function version() {
  const m = await load();
  return m.UTF8ToString(m._hwfit_version_string());
}

/**
 * Keep a file (a dropped config.json, a GPU file) in the module's memory and return the
 * path that names it in an option: run("fit", {model: await hwfit.addFile("my.json", text)}).
 */
export async function addFile(name, text) {
  const m = await load();
  const base = String(name).replace(/^.*[\\/]/, "").replace(/[^A-Za-z0-9._+-]/g, "_") || "file";
  const path = `${UPLOADS}/${base}`;
  m.FS.mkdirTree(UPLOADS);
  m.FS.writeFile(path, text);
  return path;
}

// The CLI's words for a refusal (examples/cli/request.c: request_failed).
function refusal(m, command, r, st) {
  // the option as the caller spelled it (its name, or its alias: config for model)
  const o = m._hwfit_request_option_name(r);
  const option = o ? m.UTF8ToString(o) : null;
  let msg = m.UTF8ToString(m._hwfit_request_message(r));
  if (msg === "") msg = m.UTF8ToString(m._hwfit_status_str(st));
  const status = m.UTF8ToString(m._hwfit_status_name(st));
  const text = option !== null ? `hwfit ${command}: --${option}: ${msg} (${status})`
                               : `hwfit ${command}: ${msg} (${status})`;
  return new HwfitError(text, command, option, status);
}

function valueTexts(v) {
  return Array.isArray(v) ? v.flatMap(valueTexts) : [String(v)];
}

/**
 * Answer a question: `command` ("fit", "power", "raid"...) with `options`, written in
 * `format` ("json": the parsed object, as `hwfit COMMAND --json` prints it; "text", "csv",
 * "svg", "markdown", "html": the text). Throws an HwfitError with the CLI's message.
 */
export async function run(command, options = {}, format = "json") {
  const m = await load();
  const d = await describe(String(command));
  const name = d.name;
  const f = FORMATS.indexOf(format);
  if (f < 0 || !d.formats.includes(format))
    throw new HwfitError(`hwfit ${name}: no ${format} output (it writes ${d.formats.join(", ")})`,
                         name, null, "HWFIT_EUNSUPPORTED");
  // an option by its name or its alias (model: also config), as the CLI takes it
  const byName = new Map(d.options.flatMap((o) => o.alias ? [[o.name, o], [o.alias, o]] : [[o.name, o]]));
  const rp = m._malloc(4);
  let r = 0;
  try {
    const st = withStrings(m, [name], (p) => m._hwfit_request_new(p, rp));
    if (st !== 0) throw new HwfitError(`hwfit ${name}: ${m.UTF8ToString(m._hwfit_status_str(st))}`,
                                       name, null, m.UTF8ToString(m._hwfit_status_name(st)));
    r = m.getValue(rp, "i32");
    // GPU files first, as the CLI does: a gpu may name a card of a gpu-file.
    const entries = Object.entries(options).filter(([, v]) => v !== undefined && v !== null && v !== false);
    entries.sort(([a], [b]) => (b.replace(/_/g, "-") === "gpu-file") - (a.replace(/_/g, "-") === "gpu-file"));
    for (const [key, value] of entries) {
      const spelled = key.replace(/_/g, "-");
      const o = byName.get(spelled);
      if (o === undefined) {
        withStrings(m, [key, ""], (k, v) => m._hwfit_request_set(r, k, v));
        const lib = m.UTF8ToString(m._hwfit_request_message(r));
        const i = lib.indexOf("; did you mean");
        throw new HwfitError(`hwfit ${name}: unknown option '--${key}'${i >= 0 ? lib.slice(i) : ""}` +
                             ` (see hwfit ${name} --help)`, name, key, "HWFIT_ENOTFOUND");
      }
      if (format !== "svg" && o.chart)
        throw new HwfitError(`hwfit ${name}: --${spelled}: applies only to the SVG chart (give --svg FILE)`,
                             name, spelled, "HWFIT_EINVAL");
      const texts = o.kind === "flag" ? (value === true ? [null] : valueTexts(value)) : valueTexts(value);
      for (const t of texts) {
        const s = withStrings(m, [spelled, t], (k, v) => m._hwfit_request_set(r, k, v));
        if (s !== 0) throw refusal(m, name, r, s);
      }
    }
    const s = m._hwfit_request_run(r, f, 0, 0, 0);
    if (s !== 0) throw refusal(m, name, r, s);
    const text = m.UTF8ToString(m._hwfit_request_output(r, 0));
    return format === "json" ? JSON.parse(text) : text;
  } finally {
    if (r) m._hwfit_request_free(r);
    m._free(rp);
  }
}
