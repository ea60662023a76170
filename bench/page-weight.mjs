// Page weight: gzip size of the JavaScript each page loads on first visit (entry, manifest,
// root, the route module and every chunk they import), read from the Remix build manifest.
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { root } from "../scripts/lib.mjs";

const buildDir = path.join(root, "public", "build");

export function pageWeights(routes) {
  const manifestFile = readdirSync(buildDir).find((f) => f.startsWith("manifest-"));
  const text = readFileSync(path.join(buildDir, manifestFile), "utf8");
  const manifest = JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1));
  const size = (url) => gzipSync(readFileSync(path.join(root, "public", url)), { level: 9 }).length;
  const out = {};
  for (const [label, routeId] of Object.entries(routes)) {
    const files = new Set([`/build/${manifestFile}`, manifest.entry.module, ...manifest.entry.imports]);
    for (const id of ["root", routeId]) {
      const r = manifest.routes[id];
      if (!r) throw new Error(`no route ${id}`);
      files.add(r.module);
      for (const i of r.imports ?? []) files.add(i);
    }
    out[label] = [...files].reduce((sum, f) => sum + size(f), 0);
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const weights = pageWeights({ "/": "routes/_index", "/trade": "routes/trade", "/login": "routes/login", "/register": "routes/register", "/user": "routes/user" });
  for (const [page, bytes] of Object.entries(weights)) console.log(`${page.padEnd(10)} ${(bytes / 1024).toFixed(1)} KB gzip`);
}
