// Lighthouse (mobile, default settings: simulated slow 4G and 4× CPU slowdown) on /, /trade,
// /login, and signed in (a demo account's session cookie) /order and /mine/wallet, against a real local stack started the way scripts/e2e.mjs does (fresh local D1,
// migrated and seeded, `wrangler dev` on its own port, reached through an HTTP/2 front as the edge
// serves pages: see http2Front), in Debian's Chromium. Each page runs
// LIGHTHOUSE_RUNS times (default 3) and the median of every figure is printed; then the same
// again while two busy-loop processes keep the CPU busy. Figures are printed, never asserted.
// `node bench/lighthouse.mjs` builds first unless given --no-build (`npm run bench` has built).
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import http2 from "node:http2";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { bin, ensureChromium, root, run, start, waitForHttp } from "../scripts/lib.mjs";
import { seedDatabase } from "../scripts/seed.mjs";

/** The pages measured; `signedIn` ones carry a demo account's session cookie on every request. */
const PAGES = [
  { path: "/", signedIn: false },
  { path: "/trade", signedIn: false },
  { path: "/login", signedIn: false },
  { path: "/order", signedIn: true },
  { path: "/mine/wallet", signedIn: true },
];
/** Issue 22's targets: score quiet / busy, and quiet LCP, TBT, CLS. */
export const LIGHTHOUSE_TARGETS = { scoreQuiet: 95, scoreBusy: 90, lcpMs: 2000, tbtMs: 150, cls: 0.05 };
const CHROME_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  // the HTTP/2 front below uses a certificate made for the run
  "--ignore-certificate-errors",
];

/** Headers that belong to one connection (HTTP/1.1) and may not cross into HTTP/2, or back. */
const HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "host", "http2-settings", "te"]);

/**
 * The edge's protocol in front of `wrangler dev`: browsers reach Cloudflare over HTTP/2 (or 3),
 * one connection carrying every request at once, while wrangler dev serves HTTP/1.1, where
 * Chromium opens at most 6 connections per host and Lighthouse's simulated slow 4G then charges
 * a page's ~30 script requests in queued rounds of round trips. This front speaks HTTP/2 over
 * TLS (a certificate made for the run with openssl, trusted by the flags above) and passes each
 * request to wrangler dev unchanged (WebSocket upgrades over HTTP/1.1 are piped through), so the
 * figures describe the bytes and requests of the page as served in production.
 */
async function http2Front(target, dir) {
  mkdirSync(dir, { recursive: true });
  const key = path.join(dir, "key.pem");
  const cert = path.join(dir, "cert.pem");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      key,
      "-out",
      cert,
      "-days",
      "1",
      "-subj",
      "/CN=localhost",
      "-addext",
      "subjectAltName=DNS:localhost",
    ],
    { stdio: "ignore" },
  );
  const upstream = new URL(target);
  const server = http2.createSecureServer({ key: readFileSync(key), cert: readFileSync(cert), allowHTTP1: true }, (req, res) => {
    const headers = {};
    for (const [name, value] of Object.entries(req.headers)) if (!name.startsWith(":") && !HOP.has(name)) headers[name] = value;
    headers.host = upstream.host;
    const out = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers }, (answer) => {
      const back = {};
      for (const [name, value] of Object.entries(answer.headers)) if (!HOP.has(name)) back[name] = value;
      res.writeHead(answer.statusCode ?? 502, back);
      answer.pipe(res);
    });
    out.on("error", () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(out);
  });
  server.on("upgrade", (req, socket, head) => {
    const up = net.connect(Number(upstream.port), upstream.hostname, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      up.write(lines.join("\r\n") + "\r\n\r\n");
      if (head?.length) up.write(head);
      up.pipe(socket).pipe(up);
    });
    const end = () => {
      up.destroy();
      socket.destroy();
    };
    up.on("error", end);
    socket.on("error", end);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `https://localhost:${server.address().port}`, close: () => server.close() };
}

const median = (xs) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

async function measure(url, chromePath, headers) {
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: CHROME_FLAGS, logLevel: "silent" });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      logLevel: "error",
      output: "json",
      onlyCategories: ["performance"],
      ...(headers ? { extraHeaders: headers } : {}),
    });
    const lhr = result?.lhr;
    if (!lhr) throw new Error(`no Lighthouse result for ${url}`);
    if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    // LIGHTHOUSE_DUMP=<dir> keeps each run's full report (long tasks, script boot-up, main-thread work) to read.
    if (process.env.LIGHTHOUSE_DUMP) {
      mkdirSync(process.env.LIGHTHOUSE_DUMP, { recursive: true });
      const name = `${new URL(url).pathname.replace(/\W+/g, "_") || "_"}-${Date.now()}.json`;
      writeFileSync(path.join(process.env.LIGHTHOUSE_DUMP, name), JSON.stringify(lhr));
    }
    const value = (id) => lhr.audits[id]?.numericValue ?? NaN;
    return {
      score: (lhr.categories.performance.score ?? NaN) * 100,
      lcp: value("largest-contentful-paint"),
      tbt: value("total-blocking-time"),
      cls: value("cumulative-layout-shift"),
      fcp: value("first-contentful-paint"),
      lcpElement: lhr.audits["largest-contentful-paint-element"]?.details?.items?.[0]?.items?.[0]?.node?.nodeLabel ?? "",
    };
  } finally {
    await chrome.kill();
  }
}

/** A run whose trace Chromium failed to record (e.g. NO_NAVSTART) is run again, twice at most. */
async function measureWithRetry(url, chromePath, headers) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await measure(url, chromePath, headers);
    } catch (error) {
      if (attempt >= 3) throw error;
      console.warn(`  (${error.message}; running it again)`);
    }
  }
}

/** A demo account's session (POST /login/demo, as the login page's button does): its cookies as one Cookie header. */
async function demoSession(base) {
  const res = await fetch(`${base}/login/demo`, {
    method: "POST",
    headers: { Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
    body: "",
    redirect: "manual",
  });
  const cookies = res.headers.getSetCookie().map((c) => c.split(";")[0]);
  if (res.status !== 302 || !cookies.some((c) => c.startsWith("__session") || c.includes("session"))) {
    throw new Error(`demo sign-in answered ${res.status} with cookies ${cookies.map((c) => c.split("=")[0]).join(", ")}`);
  }
  return { Cookie: cookies.join("; ") };
}

/** LIGHTHOUSE_PAGES=/trade,/login measures only those pages (to study one). */
const pagesToMeasure = () => {
  const only = process.env.LIGHTHOUSE_PAGES?.split(",").filter(Boolean);
  return only?.length ? PAGES.filter((p) => only.includes(p.path)) : PAGES;
};

async function measureAll(base, chromePath, runs, signedIn) {
  const out = {};
  for (const { path: page, signedIn: needsSession } of pagesToMeasure()) {
    const results = [];
    const headers = needsSession ? signedIn : undefined;
    for (let i = 0; i < runs; i++) results.push(await measureWithRetry(base + page, chromePath, headers));
    const elements = results.map((r) => r.lcpElement);
    out[page] = {
      score: median(results.map((r) => r.score)),
      lcp: median(results.map((r) => r.lcp)),
      tbt: median(results.map((r) => r.tbt)),
      cls: median(results.map((r) => r.cls)),
      fcp: median(results.map((r) => r.fcp)),
      scores: results.map((r) => r.score),
      lcpElement: elements.sort((a, b) => elements.filter((e) => e === b).length - elements.filter((e) => e === a).length)[0] ?? "",
    };
  }
  return out;
}

export function printLighthouse(title, results) {
  console.log(title);
  console.log(
    `  ${"page".padEnd(12)} ${"score".padStart(5)} ${"LCP".padStart(8)} ${"TBT".padStart(8)} ${"CLS".padStart(6)} ${"FCP".padStart(8)}   runs      LCP element`,
  );
  for (const [page, r] of Object.entries(results)) {
    const ms = (v) => `${Math.round(v)} ms`.padStart(8);
    console.log(
      `  ${page.padEnd(12)} ${r.score.toFixed(0).padStart(5)} ${ms(r.lcp)} ${ms(r.tbt)} ${r.cls.toFixed(3).padStart(6)} ${ms(r.fcp)}   ${r.scores
        .map((s) => s.toFixed(0))
        .join("/")
        .padEnd(9)} ${r.lcpElement.slice(0, 40)}`,
    );
  }
}

/** Two child processes spinning until killed: a busy phone. */
function busyLoops(count = 2) {
  const children = [];
  for (let i = 0; i < count; i++) children.push(spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }));
  return () => children.forEach((c) => c.kill("SIGKILL"));
}

export async function lighthouseBench({ build = false } = {}) {
  const port = process.env.LIGHTHOUSE_PORT ?? "8813";
  const runs = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
  const state = path.join(root, ".wrangler", `lighthouse-state-${port}`);
  const chromePath = ensureChromium();
  rmSync(state, { recursive: true, force: true });
  run(bin("wrangler"), ["d1", "migrations", "apply", "DB", "--local", `--persist-to=${state}`], { stdio: ["ignore", "ignore", "inherit"] });
  await seedDatabase({ persistTo: state });
  if (build) run(bin("remix"), ["build"], { stdio: ["ignore", "ignore", "inherit"] });
  const server = start(
    bin("wrangler"),
    [
      "dev",
      "--port",
      port,
      "--var",
      "ENVIRONMENT:local",
      `--persist-to=${state}`,
      "--show-interactive-dev-session=false",
      "--log-level=warn",
    ],
    { stdio: ["ignore", "ignore", "inherit"] },
  );
  const direct = `http://localhost:${port}`;
  let front = null;
  try {
    await waitForHttp(`${direct}/`, 90_000);
    const signedIn = await demoSession(direct);
    // Warm up (the first request compiles the Worker and starts the market room).
    for (const { path: page, signedIn: needsSession } of PAGES) {
      await fetch(direct + page, { headers: needsSession ? signedIn : {} }).then((r) => r.text());
    }
    // LIGHTHOUSE_HTTP1=1 measures wrangler dev's own HTTP/1.1 instead
    front = process.env.LIGHTHOUSE_HTTP1 ? null : await http2Front(direct, path.join(state, "tls"));
    const base = front?.url ?? direct;
    const quiet = await measureAll(base, chromePath, runs, signedIn);
    if (process.env.LIGHTHOUSE_QUIET_ONLY) return { quiet, busy: {}, runs };
    const stop = busyLoops(2);
    let busy;
    try {
      busy = await measureAll(base, chromePath, runs, signedIn);
    } finally {
      stop();
    }
    return { quiet, busy, runs };
  } finally {
    front?.close();
    server.kill("SIGTERM");
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { quiet, busy, runs } = await lighthouseBench({ build: !process.argv.includes("--no-build") });
  printLighthouse(`Lighthouse, mobile (median of ${runs}):`, quiet);
  printLighthouse(`Lighthouse, mobile, CPU busy (2 busy-loop processes, median of ${runs}):`, busy);
  process.exit(0);
}
