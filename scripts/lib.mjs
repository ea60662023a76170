// Shared helpers for the project's scripts (Node 20, no extra dependencies).
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const bin = (name) => path.join(root, "node_modules", ".bin", name);

/** Offline, quiet wrangler: no metrics, no Request.cf fetch. */
export const offlineEnv = {
  ...process.env,
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_LOG: process.env.WRANGLER_LOG ?? "warn",
  NO_COLOR: process.env.NO_COLOR ?? "1",
};

export function run(cmd, args, options = {}) {
  const started = Date.now();
  const result = spawnSync(cmd, args, { stdio: "inherit", cwd: root, env: offlineEnv, ...options });
  if (result.status !== 0) {
    const err = new Error(`${path.basename(cmd)} ${args.join(" ")} failed (exit ${result.status ?? result.signal})`);
    err.exitCode = result.status ?? 1;
    throw err;
  }
  return Date.now() - started;
}

/**
 * Like run, but gives up after `timeoutMs`: the command and everything it started (its own
 * process group) are killed, and the promise resolves "timeout" instead of throwing.
 */
export function runWithin(cmd, args, timeoutMs, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: "inherit", cwd: root, env: offlineEnv, detached: true, ...options });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }, timeoutMs);
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      if (timedOut) return resolve("timeout");
      if (code === 0) return resolve("ok");
      const err = new Error(`${path.basename(cmd)} ${args.join(" ")} failed (exit ${code ?? signal})`);
      err.exitCode = code ?? 1;
      reject(err);
    });
  });
}

export function start(cmd, args, options = {}) {
  return spawn(cmd, args, { stdio: "inherit", cwd: root, env: offlineEnv, ...options });
}

export async function waitForHttp(url, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let lastError;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url, { redirect: "manual" });
      if (res.status > 0) return;
    } catch (error) {
      lastError = error;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms: ${lastError}`);
}

/** Debian's Chromium: installed with apt-get when missing and we are root, else a clear message. */
export function ensureChromium() {
  const candidates = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].filter(Boolean);
  const found = candidates.find((p) => existsSync(p));
  if (found) return found;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (!isRoot) {
    throw new Error(
      "Chromium is required for the browser tests. Install Debian's package: sudo apt-get install -y chromium (or set CHROMIUM_PATH).",
    );
  }
  console.log("Installing Debian's chromium (apt-get)…");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  let r = spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
  if (r.status !== 0) throw new Error("apt-get update failed");
  r = spawnSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", "chromium", "fonts-noto-core"], { stdio: "inherit", env });
  if (r.status !== 0 || !existsSync("/usr/bin/chromium")) throw new Error("apt-get install chromium failed");
  return "/usr/bin/chromium";
}
