// Checks the production build the way `wrangler deploy` makes it (the Worker with its rooms),
// without uploading: bundles with --dry-run, prints the gzip size and fails above the limit.
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { bin, root, run } from "./lib.mjs";

const LIMIT_GZIP = 3 * 1024 * 1024; // Workers Free plan limit (paid: 10 MB)
const outdir = path.join(root, ".wrangler", "deploy-check");
rmSync(outdir, { recursive: true, force: true });
run(bin("wrangler"), ["deploy", "--dry-run", `--outdir=${outdir}`], { stdio: ["ignore", "ignore", "inherit"] });
let raw = 0;
let gz = 0;
for (const name of readdirSync(outdir)) {
  const file = path.join(outdir, name);
  if (!statSync(file).isFile() || name.endsWith(".map")) continue;
  const bytes = readFileSync(file);
  raw += bytes.length;
  gz += gzipSync(bytes, { level: 9 }).length;
}
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(`worker bundle: ${kb(raw)} raw, ${kb(gz)} gzip (limit ${kb(LIMIT_GZIP)} gzip)`);
const source = readFileSync(
  path.join(
    outdir,
    readdirSync(outdir).find((n) => n.endsWith(".js")),
  ),
  "utf8",
);
for (const cls of ["MarketRoom", "LiveRoom"]) {
  if (!source.includes(cls)) throw new Error(`the bundle does not export the ${cls} room`);
}
if (gz > LIMIT_GZIP) {
  console.error("the Worker is over the size limit");
  process.exit(1);
}
