// Page weight: gzip size of all the JavaScript a page loads: the entry, the manifest, root, the
// route module, every chunk they import, and the chunks they load after hydration with
// import() (the live socket on every page, the chart only on /trade).
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { root } from "../scripts/lib.mjs";

const buildDir = path.join(root, "public", "build");

function importsOf(url) {
  const file = path.join(root, "public", url);
  const text = readFileSync(file, "utf8");
  const out = new Set();
  for (const m of text.matchAll(/(?:from|import)\s*\(?\s*"([^"]+\.js)"/g)) {
    const spec = m[1];
    const resolved = spec.startsWith("/") ? spec : path.posix.join(path.posix.dirname(url), spec);
    if (existsSync(path.join(root, "public", resolved))) out.add(resolved);
  }
  return out;
}

export function pageWeights(routes) {
  const manifestFile = readdirSync(buildDir).find((f) => f.startsWith("manifest-"));
  const text = readFileSync(path.join(buildDir, manifestFile), "utf8");
  const manifest = JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1));
  const size = (url) => gzipSync(readFileSync(path.join(root, "public", url)), { level: 9 }).length;
  const out = {};
  for (const [label, routeId] of Object.entries(routes)) {
    const queue = [manifest.entry.module, ...manifest.entry.imports];
    for (const id of ["root", routeId]) {
      const r = manifest.routes[id];
      if (!r) throw new Error(`no route ${id}`);
      queue.push(r.module, ...(r.imports ?? []));
    }
    const files = new Set([`/build/${manifestFile}`]);
    while (queue.length) {
      const f = queue.pop();
      if (files.has(f)) continue;
      files.add(f);
      queue.push(...importsOf(f));
    }
    out[label] = [...files].reduce((sum, f) => sum + size(f), 0);
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const weights = pageWeights({
    "/": "routes/_index",
    "/trade": "routes/trade",
    "/login": "routes/login",
    "/register": "routes/register",
    "/user": "routes/user",
  });
  for (const [page, bytes] of Object.entries(weights)) console.log(`${page.padEnd(10)} ${(bytes / 1024).toFixed(1)} KB gzip`);
}
