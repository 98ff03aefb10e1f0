// browser_test.mjs - the web page (bindings/web, built by the wasm preset into build/wasm/web)
// in Debian's chromium, driven by playwright-core: it loads from a local static server,
// answers questions typed as a person would (one that fits, one that does not, one bad
// input, a dropped config.json, power and RAID, a shared link), and each answer equals the
// CLI's JSON (or its error line) for the same inputs. Screenshots at desktop and phone
// widths go to OUT_DIR.
//
// Usage: node browser_test.mjs   (environment: HWFIT_CLI, HWFIT_WEB_DIR, HWFIT_TEST_DATA,
// HWFIT_OUT_DIR, CHROMIUM; NODE_PATH names the node_modules holding playwright-core)
import { spawnSync } from "node:child_process";
import { createServer } from "node:http";
import { readFile, mkdir } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import assert from "node:assert/strict";

const require = createRequire(path.join(process.env.NODE_PATH || process.cwd(), "x.js"));
const { chromium } = require("playwright-core");

const CLI = process.env.HWFIT_CLI;
const WEB = process.env.HWFIT_WEB_DIR;
const DATA = process.env.HWFIT_TEST_DATA;
const OUT = process.env.HWFIT_OUT_DIR;
const BROWSER = process.env.CHROMIUM || "/usr/bin/chromium";

// ---- the CLI's answer --------------------------------------------------------------------
function cli(command, opts) {
  const args = [command, "--json"];
  for (const [k, v] of Object.entries(opts)) {
    if (v === true) args.push(`--${k}`);
    else args.push(`--${k}`, String(v));
  }
  const p = spawnSync(CLI, args, { encoding: "utf8" });
  if (p.status === 2) return { error: p.stderr.trim() };
  return JSON.parse(p.stdout);
}

// ---- a static file server for WEB ---------------------------------------------------------
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript",
                ".css": "text/css", ".wasm": "application/wasm", ".json": "application/json" };
function serve(root) {
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://x");
    const rel = url.pathname === "/" ? "index.html" : decodeURIComponent(url.pathname.slice(1));
    const file = path.join(root, path.normalize(rel));
    if (!file.startsWith(root)) { res.writeHead(403).end(); return; }
    try {
      const body = await readFile(file);
      res.writeHead(200, { "content-type": TYPES[path.extname(file)] || "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((ok) => server.listen(0, "127.0.0.1", () => ok(server)));
}

let failures = 0;
async function check(name, f) {
  try {
    await f();
    console.log(`ok   ${name}`);
  } catch (e) {
    failures++;
    console.log(`FAIL ${name}\n     ${String(e.stack || e).split("\n").slice(0, 6).join("\n     ")}`);
  }
}

// Wait for the n-th answer of a command's result box.
async function answered(page, command, n) {
  await page.waitForFunction(([c, k]) => Number(document.querySelector(`#result-${c}`).dataset.answered || 0) >= k,
                             [command, n], { timeout: 20000 });
  return page.evaluate((c) => window.hwfitPage.last[c], command);
}

async function main() {
  const root = path.resolve(WEB);
  const server = await serve(root);
  const base = `http://127.0.0.1:${server.address().port}/`;
  const browser = await chromium.launch({ executablePath: BROWSER, args: ["--no-sandbox"] });
  await mkdir(OUT, { recursive: true });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });

    // 1. A shared link: the page loads and answers the question in the address.
    const fits = { config: "llama-3-8b", gpu: "h100-sxm", gpus: "1" };
    await check("a shared link: loads and answers a question that fits, as the CLI", async () => {
      const t0 = Date.now();
      await page.goto(`${base}#q=fit&${new URLSearchParams(fits)}`);
      const got = await answered(page, "fit", 1);
      const timing = await page.evaluate(() => window.hwfitPage.timing);
      console.log(`     library loaded ${Math.round(timing.loadedMs)} ms, first answer ` +
                  `${Math.round(timing.firstAnswerMs)} ms after the page script started ` +
                  `(${Date.now() - t0} ms after navigation)`);
      assert.deepEqual(got, cli("fit", fits));
      assert.equal(got.fits, true);
      assert.match(await page.textContent("#result-fit .verdict"), /^Fits on 1 x h100-sxm/);
      const src = await page.getAttribute("#result-fit img.chart", "src");
      assert.ok(src.startsWith("data:image/svg+xml"), "the per-card memory chart is shown");
      const svgFile = path.join(OUT, "fit-cli.svg");
      spawnSync(CLI, ["fit", "--config", "llama-3-8b", "--gpu", "h100-sxm", "--svg", svgFile]);
      const svg = await readFile(svgFile, "utf8");
      assert.equal(decodeURIComponent(src.slice(src.indexOf(",") + 1)), svg, "the chart is the CLI's SVG");
    });
    await page.screenshot({ path: path.join(OUT, "fit-desktop.png"), fullPage: true });

    // 2. Typed with the keyboard: a model that does not fit on one card.
    const nofit = { config: "llama-3.1-405b", gpu: "h100-sxm", gpus: "1" };
    await check("typed in the form: a question that does not fit, as the CLI", async () => {
      await page.fill("#fit-config", nofit.config);
      await page.selectOption("#fit-gpu", nofit.gpu);
      await page.fill("#fit-gpus", nofit.gpus);
      await page.focus("#fit-gpus");
      await page.keyboard.press("Enter");
      const got = await answered(page, "fit", 2);
      assert.deepEqual(got, cli("fit", nofit));
      assert.equal(got.fits, false);
      assert.match(await page.textContent("#result-fit .verdict"), /^Does not fit/);
      const figures = await page.textContent("#result-fit .figures");
      assert.match(figures, new RegExp(`Fewest GPUs${got.min_gpus}`));
      const hash = new URLSearchParams((await page.evaluate(() => location.hash)).slice(1));
      assert.equal(hash.get("config"), nofit.config, "the address holds the inputs");
      assert.equal(hash.get("gpus"), nofit.gpus);
    });

    // 3. Bad input: the CLI's message, shown as an alert.
    await check("bad input: the CLI's error line", async () => {
      await page.fill("#fit-gpus", "0");
      await page.click("#form-fit button[type=submit]");
      const got = await answered(page, "fit", 3);
      const want = cli("fit", { ...nofit, gpus: "0" });
      assert.ok(want.error && want.error.includes("--gpus"), `the CLI refuses: ${JSON.stringify(want)}`);
      assert.deepEqual(got, want);
      assert.equal(await page.textContent("#result-fit [role=alert]"), want.error);
    });
    await check("bad input: an unknown GPU, with the CLI's suggestion", async () => {
      const bad = { config: "llama-3-8b", gpu: "h100-sxmm" };
      const got = await page.evaluate(async (o) => {
        const h = await import("./hwfit.js");
        try { await h.run("fit", o); return "no error"; } catch (e) { return e.message; }
      }, bad);
      assert.equal(got, cli("fit", bad).error);
    });

    // 4. The ES module alone, options as numbers and flags.
    await check("hwfit.run with numbers and a flag equals the CLI", async () => {
      const o = { config: "qwen2.5-7b-instruct", gpu: "l40s", gpus: 2, context: 32768, "even-layers": true };
      const got = await page.evaluate(async (q) => (await import("./hwfit.js")).run("fit", q), o);
      assert.deepEqual(got, cli("fit", o));
    });

    // 5. A dropped config.json (a file chosen with the file picker).
    await check("a config.json from the file picker", async () => {
      const file = path.join(DATA, "models", "gemma-3-4b-it.config.json");
      await page.setInputFiles("#fit-file", file);
      await page.waitForFunction(() => document.querySelector("#fit-config").value.startsWith("/uploads/"));
      await page.fill("#fit-gpus", "1");
      await page.selectOption("#fit-gpu", "l40s");
      await page.click("#form-fit button[type=submit]");
      const got = await answered(page, "fit", 4);
      assert.deepEqual(got, cli("fit", { config: file, gpu: "l40s", gpus: "1" }));
    });

    // 6. Fine-tuning: the training options appear, the answer equals the CLI's.
    await check("fine-tuning (qlora) equals the CLI", async () => {
      await page.fill("#fit-config", "llama-3-8b");
      await page.selectOption("#fit-mode", "qlora");
      assert.equal(await page.isVisible("#fit-micro-batch"), true, "training options shown");
      await page.click("#form-fit button[type=submit]");
      const got = await answered(page, "fit", 5);
      assert.deepEqual(got, cli("fit", { config: "llama-3-8b", gpu: "l40s", gpus: "1", mode: "qlora" }));
    });

    // 7. Power and RAID.
    await check("power: the form from the option table, answer as the CLI", async () => {
      await page.click('nav a[data-tab="power"]');
      await page.fill("#power-psus", "4");
      await page.fill("#power-psu-watts", "3200W");
      await page.fill("#power-load", "6kW");
      await page.click("#form-power button[type=submit]");
      const got = await answered(page, "power", 1);
      assert.deepEqual(got, cli("power", { psus: 4, "psu-watts": "3200W", load: "6kW" }));
      assert.ok(await page.isVisible("#result-power img.chart"));
    });
    await page.screenshot({ path: path.join(OUT, "power-desktop.png"), fullPage: true });
    await check("raid: answer as the CLI", async () => {
      await page.click('nav a[data-tab="raid"]');
      await page.fill("#raid-level", "6");
      await page.fill("#raid-drives", "8");
      await page.fill("#raid-drive-size", "15.36TB");
      await page.click("#form-raid button[type=submit]");
      const got = await answered(page, "raid", 1);
      assert.deepEqual(got, cli("raid", { level: 6, drives: 8, "drive-size": "15.36TB" }));
    });
    await page.screenshot({ path: path.join(OUT, "raid-desktop.png"), fullPage: true });

    await check("no script errors on the page", async () => assert.deepEqual(errors, []));

    // 8. A phone.
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await check("on a phone: answers, and nothing is wider than the screen", async () => {
      await phone.goto(`${base}#q=fit&config=llama-3.1-70b&gpu=h100-sxm&gpus=2`);
      const got = await answered(phone, "fit", 1);
      assert.deepEqual(got, cli("fit", { config: "llama-3.1-70b", gpu: "h100-sxm", gpus: 2 }));
      const wide = await phone.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(wide <= 390, `page is ${wide} px wide`);
    });
    await phone.screenshot({ path: path.join(OUT, "fit-phone.png"), fullPage: true });
    await phone.goto(`${base}#q=power&psus=2&psu-watts=2000W&load=2.5kW`);
    await answered(phone, "power", 1);
    await phone.screenshot({ path: path.join(OUT, "power-phone.png"), fullPage: true });
  } finally {
    await browser.close();
    server.close();
  }
  console.log(`screenshots in ${OUT}`);
  if (failures) {
    console.log(`${failures} check(s) failed`);
    process.exit(1);
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
