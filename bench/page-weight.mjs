// Page weight: gzip size of all the JavaScript a page loads: the entry, the manifest, root, the
// route module, every chunk they import, and the chunks they load after hydration with
// import() (the live socket on every page, the chart only on /trade).
//
// "First load" is what the browser requests before hydration: the entry, root, the route module
// and their static imports (followed transitively). The manifest module (manifest-*.js) counts
// only when lazy route discovery is off: with future.v3_lazyRouteDiscovery, Remix's <Scripts>
// neither imports nor preloads it; the matched routes' part of the manifest is inlined in the
// HTML (window.__remixManifest) and the rest is fetched from /__manifest on navigation. "Lazy" is every chunk reached
// only through an import() call (followed transitively, static imports of lazy chunks included).
//
//   node bench/page-weight.mjs                   totals per page (first load, lazy, all)
//   node bench/page-weight.mjs --files           and each file a page loads, with its gzip size
//   node bench/page-weight.mjs --modules [N]     and, for the N biggest chunks (default 8), the
//                                                source modules they hold (from the compiler's
//                                                metafile, build/metafile.js.json)
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { root } from "../scripts/lib.mjs";
import remixConfig from "../remix.config.js";

/** Whether the browser requests manifest-*.js (only without lazy route discovery). */
export const manifestRequested = remixConfig.future?.v3_lazyRouteDiscovery !== true;

const buildDir = path.join(root, "public", "build");

function resolveSpec(url, spec) {
  const resolved = spec.startsWith("/") ? spec : path.posix.join(path.posix.dirname(url), spec);
  return existsSync(path.join(root, "public", resolved)) ? resolved : null;
}

/** The chunks a built file imports: static (`import … from "x"`, `import "x"`) and dynamic (`import("x")`). */
function importsOf(url) {
  const text = readFileSync(path.join(root, "public", url), "utf8");
  const staticImports = new Set();
  const dynamicImports = new Set();
  for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*)"([^"]+\.js)"/g)) {
    const r = resolveSpec(url, m[1]);
    if (r) staticImports.add(r);
  }
  for (const m of text.matchAll(/\bimport\s*\(\s*"([^"]+\.js)"\s*\)/g)) {
    const r = resolveSpec(url, m[1]);
    if (r) dynamicImports.add(r);
  }
  return { staticImports, dynamicImports };
}

function readManifest() {
  const manifestFile = readdirSync(buildDir).find((f) => f.startsWith("manifest-"));
  const text = readFileSync(path.join(buildDir, manifestFile), "utf8");
  return { manifestUrl: `/build/${manifestFile}`, manifest: JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)) };
}

const gzipCache = new Map();
const gzipSize = (url) => {
  if (!gzipCache.has(url)) gzipCache.set(url, gzipSync(readFileSync(path.join(root, "public", url)), { level: 9 }).length);
  return gzipCache.get(url);
};

/** Per page: the files it loads, each with its gzip size and whether it is first-load or lazy. */
export function pageFiles(routes) {
  const { manifestUrl, manifest } = readManifest();
  const out = {};
  for (const [label, routeId] of Object.entries(routes)) {
    const first = [manifest.entry.module, ...manifest.entry.imports];
    for (const id of ["root", routeId]) {
      const r = manifest.routes[id];
      if (!r) throw new Error(`no route ${id}`);
      first.push(r.module, ...(r.imports ?? []));
    }
    const files = new Map(manifestRequested ? [[manifestUrl, "first"]] : []);
    const lazy = [];
    // first load: static imports only; import() targets wait in `lazy`
    while (first.length) {
      const f = first.pop();
      if (files.has(f)) continue;
      files.set(f, "first");
      const { staticImports, dynamicImports } = importsOf(f);
      first.push(...staticImports);
      lazy.push(...dynamicImports);
    }
    while (lazy.length) {
      const f = lazy.pop();
      if (files.has(f)) continue;
      files.set(f, "lazy");
      const { staticImports, dynamicImports } = importsOf(f);
      lazy.push(...staticImports, ...dynamicImports);
    }
    out[label] = [...files].map(([file, kind]) => ({ file, kind, gzip: gzipSize(file) }));
  }
  return out;
}

/** Per page: all JavaScript it loads (first load and lazy), in gzip bytes. */
export function pageWeights(routes) {
  const files = pageFiles(routes);
  return Object.fromEntries(Object.entries(files).map(([label, list]) => [label, list.reduce((sum, f) => sum + f.gzip, 0)]));
}

/** Per page: { first, lazy } gzip bytes. */
export function pageSplit(routes) {
  const files = pageFiles(routes);
  return Object.fromEntries(
    Object.entries(files).map(([label, list]) => [
      label,
      {
        first: list.filter((f) => f.kind === "first").reduce((s, f) => s + f.gzip, 0),
        lazy: list.filter((f) => f.kind === "lazy").reduce((s, f) => s + f.gzip, 0),
      },
    ]),
  );
}

/** The source modules a built chunk holds, biggest first, by minified bytes (packages grouped). */
export function chunkModules(url) {
  const metafile = path.join(root, "build", "metafile.js.json");
  if (!existsSync(metafile)) return null;
  const { outputs } = JSON.parse(readFileSync(metafile, "utf8"));
  const output = outputs[`public${url}`];
  if (!output) return null;
  const groups = new Map();
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    const pkg = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
    const key = pkg ? pkg[1] : input;
    groups.set(key, (groups.get(key) ?? 0) + bytesInOutput);
  }
  return [...groups].map(([module, bytes]) => ({ module, bytes })).sort((a, b) => b.bytes - a.bytes);
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

if (import.meta.url === `file://${process.argv[1]}`) {
  const routes = {
    "/": "routes/_index",
    "/login": "routes/login",
    "/register": "routes/register",
    "/trade": "routes/trade",
    "/order": "routes/order",
    "/mine/wallet": "routes/mine.wallet",
    "/follow/follow-list": "routes/follow.follow-list",
    "/user": "routes/user",
  };
  const showFiles = process.argv.includes("--files") || process.argv.includes("--modules");
  const modulesAt = process.argv.indexOf("--modules");
  const topChunks = modulesAt < 0 ? 0 : Number(process.argv[modulesAt + 1]) || 8;
  const files = pageFiles(routes);
  if (!manifestRequested) {
    const { manifestUrl } = readManifest();
    console.log(`(${manifestUrl}, ${kb(gzipSize(manifestUrl))} gzip, is not requested: v3_lazyRouteDiscovery inlines the matched routes)`);
  }
  console.log(`${"page".padEnd(20)} ${"first load".padStart(10)} ${"lazy".padStart(9)} ${"all".padStart(9)}  (gzip)`);
  for (const [page, list] of Object.entries(files)) {
    const first = list.filter((f) => f.kind === "first").reduce((s, f) => s + f.gzip, 0);
    const lazy = list.filter((f) => f.kind === "lazy").reduce((s, f) => s + f.gzip, 0);
    console.log(`${page.padEnd(20)} ${kb(first).padStart(10)} ${kb(lazy).padStart(9)} ${kb(first + lazy).padStart(9)}`);
  }
  if (showFiles) {
    for (const [page, list] of Object.entries(files)) {
      console.log(`\n${page}`);
      for (const f of [...list].sort((a, b) => (a.kind === b.kind ? b.gzip - a.gzip : a.kind === "first" ? -1 : 1))) {
        console.log(`  ${f.kind.padEnd(5)} ${kb(f.gzip).padStart(9)}  ${f.file}`);
      }
    }
  }
  if (topChunks) {
    const all = new Map();
    for (const list of Object.values(files)) for (const f of list) all.set(f.file, f.gzip);
    const biggest = [...all].sort((a, b) => b[1] - a[1]).slice(0, topChunks);
    for (const [file, gzip] of biggest) {
      const modules = chunkModules(file);
      console.log(`\n${file} (${kb(gzip)} gzip)`);
      if (!modules) {
        console.log("  (no metafile entry: run `npx remix build` first)");
        continue;
      }
      const total = modules.reduce((s, m) => s + m.bytes, 0);
      for (const m of modules.slice(0, 15)) {
        console.log(`  ${kb(m.bytes).padStart(9)} min  ~${kb((m.bytes / total) * gzip).padStart(8)} gzip  ${m.module}`);
      }
      if (modules.length > 15)
        console.log(`  … ${modules.length - 15} more modules, ${kb(modules.slice(15).reduce((s, m) => s + m.bytes, 0))} min`);
    }
  }
}
