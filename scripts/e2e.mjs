// Runs the Playwright suite against a real local stack: a fresh local D1 (migrated, seeded),
// Durable Objects and R2 under `wrangler dev`, in Debian's Chromium.
import { rmSync } from "node:fs";
import path from "node:path";
import { bin, ensureChromium, root, run, start, waitForHttp } from "./lib.mjs";
import { seedDatabase } from "./seed.mjs";

const port = process.env.E2E_PORT ?? "8799";
const state = path.join(root, ".wrangler", `e2e-state-${port}`);
const chromium = ensureChromium();
rmSync(state, { recursive: true, force: true });
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
    `--persist-to=${state}`,
    "--show-interactive-dev-session=false",
    "--log-level=warn",
  ],
  { stdio: ["ignore", "ignore", "inherit"] },
);
let code = 1;
try {
  await waitForHttp(`http://localhost:${port}/`, 90_000);
  const extra = process.argv.slice(2).filter((a) => a !== "--no-build");
  try {
    run(bin("playwright"), ["test", ...extra], {
      env: { ...process.env, E2E_BASE_URL: `http://localhost:${port}`, CHROMIUM_PATH: chromium },
    });
    code = 0;
  } catch (error) {
    console.error(error.message);
  }
} finally {
  // let wrangler stop its own children (workerd, the esbuild watcher) before this process ends:
  // an esbuild service orphaned mid-build prints a Go panic after the summary
  const stopped = new Promise((resolve) => (server.exitCode !== null ? resolve() : server.once("exit", resolve)));
  server.kill("SIGTERM");
  const timer = setTimeout(() => server.kill("SIGKILL"), 10_000);
  await stopped;
  clearTimeout(timer);
}
process.exit(code);
