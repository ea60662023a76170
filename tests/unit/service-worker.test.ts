/**
 * public/sw.js is plain JavaScript served as it is (no build step), so it carries its own copy
 * of the language list and the browser-tag map; this holds the copy equal to app/i18n/config.ts.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ACCEPT_MAP, LANGUAGE_CODES } from "~/i18n/config";

const source = readFileSync(path.resolve(import.meta.dirname, "../../public/sw.js"), "utf8");

/** The value of a top-level `const NAME = …;` of the worker (an array or object literal). */
function constant(name: string): unknown {
  const match = source.match(new RegExp(`^const ${name} = ([\\[{][\\s\\S]*?[\\]}]);$`, "m"));
  if (!match) throw new Error(`no const ${name} in public/sw.js`);
  return new Function(`return (${match[1]});`)();
}

describe("the service worker's languages", () => {
  it("are the app's 18 languages, and browser tags map to the same codes as Accept-Language does", () => {
    expect([...(constant("LANGUAGES") as string[])].sort()).toEqual([...LANGUAGE_CODES].sort());
    expect(constant("BY_TAG")).toEqual(ACCEPT_MAP);
  });
});
