// `npm test`: every suite, in order, stopping at the first failure: typecheck, lint, build, the
// page-size budgets, unit tests, integration tests in workerd, the production bundle check, e2e in
// Chromium.
import { bin, run, runWithin } from "./lib.mjs";

/**
 * The workerd suite ends in about 10 minutes here. @cloudflare/vitest-pool-workers 0.15 (the last
 * release for Node 20) can stall for good after every test has run, in its teardown, when an
 * aborted Durable Object logs (fixed upstream in 0.18.6; ADR 021). A run with no result after
 * this long is killed and run once more; a failing test is never retried.
 */
const WORKERS_STALL_MS = 30 * 60_000;

async function workers() {
  const args = ["run", "--config", "vitest.workers.config.ts"];
  for (let attempt = 1; attempt <= 2; attempt++) {
    if ((await runWithin(bin("vitest"), args, WORKERS_STALL_MS)) === "ok") return;
    console.error(`\nworkers: no result after ${WORKERS_STALL_MS / 60_000} min (attempt ${attempt}); the run was killed`);
  }
  throw new Error("the workerd suite stalled twice");
}

const steps = [
  [
    "typecheck",
    () => {
      run(bin("tsc"), ["-p", "tsconfig.json", "--noEmit"]);
      run(bin("tsc"), ["-p", "tests/tsconfig.json", "--noEmit"]);
    },
  ],
  ["lint", () => run(bin("eslint"), ["--max-warnings", "0", "."])],
  ["build", () => run(bin("remix"), ["build"])],
  ["size", () => run(process.execPath, ["scripts/size-check.mjs"])],
  ["unit", () => run(bin("vitest"), ["run", "--config", "vitest.unit.config.ts"])],
  ["workers", workers],
  ["deploy-check", () => run(process.execPath, ["scripts/build-check.mjs"])],
  ["e2e", () => run(process.execPath, ["scripts/e2e.mjs", "--no-build"])],
];

const only = process.argv.slice(2);
const timings = [];
let failed = 0;
let passed = 0;
for (const [name, step] of steps) {
  if (only.length && !only.includes(name)) continue;
  const started = Date.now();
  console.log(`\n=== ${name} ===`);
  try {
    await step();
    passed += 1;
    timings.push(`${name} ${((Date.now() - started) / 1000).toFixed(1)}s`);
  } catch (error) {
    failed += 1;
    console.error(`\n${name} failed: ${error.message}`);
    break;
  }
}
console.log(`\n${timings.join(", ")}`);
console.log(`steps: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
