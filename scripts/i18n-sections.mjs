// Which message sections (the top-level keys of locales/<lang>/common.json) each route can render
// (issue 22, "messages by route"): every string literal of the route's module and of the modules it
// imports, directly or not (and the server modules its loaders and actions call: keys also travel
// as data, e.g. a form's outcome), that starts with "<section>.". Over-inclusive by design: a section too many costs bytes,
// a section too few would show a key. Used by tests/unit/i18n-sections.test.ts and, run alone,
// prints each route's sections and weight.
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const app = path.join(root, "app");

const IMPORT = /(?:import|export)\s[^;]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|^\s*import\s*["']([^"']+)["']/gm;
const LITERAL = /["'`]([a-z][a-z0-9_]*)\.[A-Za-z0-9_$]/g;

function resolve(from, spec) {
  let base;
  if (spec.startsWith("~/")) base = path.join(app, spec.slice(2));
  else if (spec.startsWith(".")) base = path.resolve(path.dirname(from), spec);
  else return null;
  for (const ext of ["", ".ts", ".tsx", "/index.ts", "/index.tsx"]) {
    const file = base + ext;
    if (existsSync(file) && !file.endsWith("/") && /\.(ts|tsx)$/.test(file)) return file;
  }
  return null;
}

const cache = new Map();
function moduleOf(file) {
  let m = cache.get(file);
  if (!m) {
    const text = readFileSync(file, "utf8");
    const imports = [];
    for (const x of text.matchAll(IMPORT)) {
      const target = resolve(file, x[1] ?? x[2] ?? x[3]);
      if (target) imports.push(target);
    }
    // keys named in comments are not rendered: block comments and whole-line comments are left out
    const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
    const prefixes = new Set([...code.matchAll(LITERAL)].map((x) => x[1]));
    cache.set(file, (m = { imports, prefixes }));
  }
  return m;
}

/** The sections a module and everything it imports name, given the known sections. */
export function sectionsOf(file, known) {
  const seen = new Set();
  const found = new Set();
  const stack = [file];
  while (stack.length) {
    const f = stack.pop();
    if (seen.has(f)) continue;
    seen.add(f);
    const m = moduleOf(f);
    for (const p of m.prefixes) if (known.has(p)) found.add(p);
    // Server modules send keys to the page as data (a form's outcome, a label of the loader's), so
    // those the page's loaders and actions call are read too: the route-helpers (and what they
    // import) and the services they call, but not what a service calls in turn (e-mails, the
    // ledger, other areas), whose keys never reach this page.
    if (/\.server\.tsx?$/.test(f) && !f.includes(`${path.sep}route-helpers${path.sep}`)) continue;
    stack.push(...m.imports);
  }
  return found;
}

export function routeFiles() {
  const dir = path.join(app, "routes");
  return readdirSync(dir)
    .filter((f) => /\.tsx?$/.test(f))
    .map((f) => path.join(dir, f));
}

/** The sections every page carries (app/i18n/sections.ts ALWAYS_SECTIONS, read from its source). */
export function alwaysSections() {
  const text = readFileSync(path.join(app, "i18n/sections.ts"), "utf8");
  const list = text.match(/ALWAYS_SECTIONS = \[([^\]]*)\]/)[1];
  return new Set([...list.matchAll(/"([^"]+)"/g)].map((m) => m[1]));
}

export function knownSections() {
  return new Set(Object.keys(JSON.parse(readFileSync(path.join(root, "locales/en/common.json"), "utf8"))));
}

/** A route's own `handle.i18n` as its source writes it (null: no list). */
export function handleSections(file) {
  const m = readFileSync(file, "utf8").match(/export const handle[^=]*=\s*\{[^}]*?i18n:\s*\[([^\]]*)\]/);
  return m ? new Set([...m[1].matchAll(/"([^"]+)"/g)].map((x) => x[1])) : null;
}

/** Whether a route renders a page (a default export), so that its handle matters. */
export function rendersPage(file) {
  return /^export default\b/m.test(readFileSync(file, "utf8"));
}

/** The sections a route's handle should name: what its modules name, less those every page has. */
export function neededSections(file) {
  const always = alwaysSections();
  return [...sectionsOf(file, knownSections())].filter((s) => !always.has(s)).sort();
}

/** `--write`: sets each page route's `handle.i18n` to what its modules name (other handle fields kept). */
function write() {
  for (const file of routeFiles()) {
    if (!rendersPage(file)) continue;
    const list = `i18n: [${neededSections(file)
      .map((s) => `"${s}"`)
      .join(", ")}]`;
    let text = readFileSync(file, "utf8");
    const existing = text.match(/export const handle(: [^=]+)? = \{([^}]*)\};/);
    if (existing) {
      const rest = existing[2]
        .replace(/\s*i18n:\s*\[[^\]]*\],?/, "")
        .trim()
        .replace(/,$/, "");
      text = text.replace(existing[0], `export const handle = { ${rest ? `${rest}, ` : ""}${list} };`);
    } else {
      const imports = [...text.matchAll(/^import [\s\S]*?from "[^"]+";\n/gm)];
      const at = imports.length ? imports.at(-1).index + imports.at(-1)[0].length : 0;
      text = `${text.slice(0, at)}\n/** The message sections this page renders (app/i18n/sections.ts). */\nexport const handle = { ${list} };\n${text.slice(at)}`;
    }
    writeFileSync(file, text);
  }
}

if (import.meta.url === `file://${process.argv[1]}` && process.argv[2] === "--write") write();
else if (import.meta.url === `file://${process.argv[1]}`) {
  const en = JSON.parse(readFileSync(path.join(root, "locales/en/common.json"), "utf8"));
  const known = new Set(Object.keys(en));
  const size = (ss) => [...ss].reduce((n, s) => n + JSON.stringify(en[s]).length, 0);
  const all = size(known);
  for (const f of routeFiles()) {
    const s = sectionsOf(f, known);
    console.log(`${path.basename(f).padEnd(34)} ${String(size(s)).padStart(6)} / ${all}  ${[...s].sort().join(" ")}`);
  }
}
