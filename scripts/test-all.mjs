// `npm test`: every suite, in order, stopping at the first failure: typecheck, lint, build,
// unit tests, integration tests in workerd, the production bundle check, e2e in Chromium.
import { bin, run } from "./lib.mjs";

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
  ["unit", () => run(bin("vitest"), ["run", "--config", "vitest.unit.config.ts"])],
  ["workers", () => run(bin("vitest"), ["run", "--config", "vitest.workers.config.ts"])],
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
    step();
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
