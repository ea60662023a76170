// Lists, per language, the keys whose text is missing or still the English text (what a
// translator has to do). `--fill` adds missing keys with the English text, so the app keeps
// working while translations are on their way; the i18n test fails while too many are English.
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { root } from "./lib.mjs";

const dir = path.join(root, "locales");
const load = (lang) => JSON.parse(readFileSync(path.join(dir, lang, "common.json"), "utf8"));
const en = load("en");
const fill = process.argv.includes("--fill");

function walk(ref, target, prefix, out) {
  for (const [k, v] of Object.entries(ref)) {
    const key = `${prefix}${k}`;
    if (v && typeof v === "object") {
      if (!target[k] || typeof target[k] !== "object") target[k] = {};
      walk(v, target[k], `${key}.`, out);
    } else if (target[k] === undefined || target[k] === v) {
      out.push(key);
      if (target[k] === undefined && fill) target[k] = v;
    }
  }
}

/** The same object with its keys in the English order (extra keys dropped). */
function ordered(ref, target) {
  const out = {};
  for (const [k, v] of Object.entries(ref)) out[k] = v && typeof v === "object" ? ordered(v, target[k] ?? {}) : target[k];
  return out;
}

for (const lang of readdirSync(dir)
  .filter((l) => l !== "en")
  .sort()) {
  const messages = load(lang);
  const todo = [];
  walk(en, messages, "", todo);
  if (fill) writeFileSync(path.join(dir, lang, "common.json"), `${JSON.stringify(ordered(en, messages), null, 2)}\n`);
  console.log(`${lang}: ${todo.length} to translate${todo.length ? `: ${todo.join(", ")}` : ""}`);
}
