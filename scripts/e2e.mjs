// Runs the Playwright suite against a real local stack: a fresh local D1 (migrated, seeded),
// Durable Objects and R2 under `wrangler dev`, in Debian's Chromium; and, for the upstream
// projects, a second `wrangler dev` in upstream mode (its own fresh D1) in front of the first.
import { rmSync } from "node:fs";
import path from "node:path";
import { bin, ensureChromium, root, run, start, waitForHttp } from "./lib.mjs";
import { seedDatabase } from "./seed.mjs";
import { LOCAL_UPSTREAM_SECRET, migrateUpstreamState, upstreamDevArgs } from "./upstream.mjs";

const port = process.env.E2E_PORT ?? "8799";
const upstreamPort = process.env.E2E_UPSTREAM_PORT ?? String(Number(port) + 1);
// between the upstream front end and the platform: the failure test turns it off and on
const switchPort = String(Number(upstreamPort) + 1);
const state = path.join(root, ".wrangler", `e2e-state-${port}`);
const upstreamState = path.join(root, ".wrangler", `e2e-upstream-state-${upstreamPort}`);
const extra = process.argv.slice(2).filter((a) => a !== "--no-build");
// the upstream instance only when the run includes its projects (every spec, or one of its own)
const withUpstream = !extra.some((a) => a.endsWith(".ts")) || extra.some((a) => a.includes("upstream"));
const chromium = ensureChromium();
rmSync(state, { recursive: true, force: true });
rmSync(upstreamState, { recursive: true, force: true });
run(bin("wrangler"), ["d1", "migrations", "apply", "DB", "--local", `--persist-to=${state}`], { stdio: ["ignore", "ignore", "inherit"] });
await seedDatabase({ persistTo: state });
if (!process.argv.includes("--no-build")) run(bin("remix"), ["build"], { stdio: ["ignore", "ignore", "inherit"] });

const server = start(
  bin("wrangler"),
  [
    "dev",
    "--port",
    port,
    "--var",
    "ENVIRONMENT:local",
    "--var",
    `UPSTREAM_SHARED_SECRET:${LOCAL_UPSTREAM_SECRET}`,
    `--persist-to=${state}`,
    "--show-interactive-dev-session=false",
    "--log-level=warn",
  ],
  { stdio: ["ignore", "ignore", "inherit"] },
);
let upstreamServer = null;
let backendSwitch = null;
let code = 1;
try {
  await waitForHttp(`http://localhost:${port}/`, 90_000);
  if (withUpstream) {
    migrateUpstreamState(upstreamState);
    backendSwitch = start(process.execPath, [path.join(root, "scripts", "backend-switch.mjs"), switchPort, port], {
      stdio: ["ignore", "ignore", "inherit"],
    });
    upstreamServer = start(
      bin("wrangler"),
      [
        ...upstreamDevArgs({ port: upstreamPort, backendPort: switchPort, state: upstreamState, inspectorPort: Number(port) + 1001 }),
        "--log-level=warn",
      ],
      { stdio: ["ignore", "ignore", "inherit"] },
    );
    await waitForHttp(`http://localhost:${upstreamPort}/`, 90_000);
  }
  try {
    run(bin("playwright"), ["test", ...extra], {
      env: {
        ...process.env,
        E2E_BASE_URL: `http://localhost:${port}`,
        E2E_UPSTREAM_URL: `http://localhost:${upstreamPort}`,
        E2E_SWITCH_URL: `http://127.0.0.1:${switchPort}`,
        CHROMIUM_PATH: chromium,
      },
    });
    code = 0;
  } catch (error) {
    console.error(error.message);
  }
} finally {
  // let wrangler stop its own children (workerd, the esbuild watcher) before this process ends:
  // an esbuild service orphaned mid-build prints a Go panic after the summary
  await Promise.all([upstreamServer, backendSwitch, server].filter(Boolean).map(stop));
}
process.exit(code);

async function stop(child) {
  const stopped = new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once("exit", resolve)));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await stopped;
  clearTimeout(timer);
}
