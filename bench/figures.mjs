// The bench's shared figures (issue 20 §7): medians, percentiles, one figure per id with every
// run's value, the size switch, and the JSON file `BENCH_JSON` names.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import os from "node:os";
import { root } from "../scripts/lib.mjs";

/** `BENCH_SCALE=full` runs the issue's sizes; the default sizes finish in minutes. */
export const FULL = process.env.BENCH_SCALE === "full";
export const SCALE_REASON = "BENCH_SCALE=full";

export function median(xs) {
  const s = xs.filter((x) => typeof x === "number" && !Number.isNaN(x)).sort((a, b) => a - b);
  if (s.length === 0) return null;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The nearest-rank percentile (p in 0..100). */
export function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] : NaN;
}

const round = (x) => (x === null || x === undefined || Number.isNaN(x) ? null : Math.round(x * 1000) / 1000);

/**
 * One figure: value = the median of `runs` (every run's value kept). A run that could not finish
 * (NaN) makes the figure null with the reason, never a median of the runs that did.
 */
export function figure(id, unit, runs, extra = {}) {
  const failed = runs.some((x) => x === null || Number.isNaN(x));
  return {
    id,
    value: failed ? null : round(median(runs)),
    unit,
    runs: runs.map(round),
    ...(failed ? { reason: extra.reason ?? "a run did not finish (see the table)" } : {}),
    ...(extra.target ? { target: extra.target } : {}),
    ...(extra.covers ? { covers: extra.covers } : {}),
  };
}

/** A size that was not run: null with the reason, never extrapolated. */
export function skipped(id, unit, reason, extra = {}) {
  return {
    id,
    value: null,
    unit,
    runs: [],
    reason,
    ...(extra.target ? { target: extra.target } : {}),
    ...(extra.covers ? { covers: extra.covers } : {}),
  };
}

export function benchContext() {
  let commit = "unknown";
  try {
    commit = execFileSync("git", ["rev-parse", "HEAD"], { cwd: root }).toString().trim();
  } catch {
    // not a git checkout
  }
  return { commit, cores: os.cpus().length, load: Math.round(os.loadavg()[0] * 100) / 100 };
}

/** Writes {"commit", "cores", "load", "figures"} to `file` (ids, values, units, runs, reasons). */
export function writeFigures(file, context, figures) {
  const out = figures.map(({ id, value, unit, runs, reason }) => ({ id, value, unit, runs, ...(reason ? { reason } : {}) }));
  writeFileSync(file, `${JSON.stringify({ ...context, figures: out }, null, 2)}\n`);
}

/** The figures as a table: id, value, unit, target, every run, and what the figure covers. */
export function printFigures(figures) {
  console.log("\nFigures (value = median of the runs; null = not measured, with the reason):");
  for (const f of figures) {
    const value = f.value === null ? `null (${f.reason})` : String(f.value);
    console.log(
      `  ${f.id.padEnd(30)} ${value.padStart(10)} ${f.unit}${f.target ? `  [target ${f.target}]` : ""}${f.runs.length ? `  runs ${JSON.stringify(f.runs)}` : ""}`,
    );
    if (f.covers) console.log(`  ${"".padEnd(30)} ${f.covers}`);
  }
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
