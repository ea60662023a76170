// Messages by route (issue 22): each page's HTML carries only the message sections its routes
// name, so a route that renders a key of a section it does not name would show the key. These
// hold every page route's handle.i18n to the keys its modules (and what they import) name.
import path from "node:path";
import { describe, expect, it } from "vitest";
import en from "../../locales/en/common.json";
import { ALWAYS_SECTIONS, pickSections, sectionOf, sectionsOfHandles } from "~/i18n/sections";
// @ts-expect-error a plain script without types
import { handleSections, knownSections, neededSections, rendersPage, routeFiles, sectionsOf } from "../../scripts/i18n-sections.mjs";

const pages = (routeFiles() as string[]).filter((f) => rendersPage(f));

describe("each page names the message sections it renders", () => {
  it.each(pages.map((f) => [path.basename(f), f]))("%s", (_name, file) => {
    const named = handleSections(file) as Set<string> | null;
    const needed = neededSections(file) as string[];
    // `node scripts/i18n-sections.mjs --write` sets the lists
    expect(named, "no handle.i18n").not.toBeNull();
    expect(needed.filter((s) => !named!.has(s))).toEqual([]);
    for (const s of named!) expect(Object.keys(en)).toContain(s);
  });

  it("the scan finds a key a component names, through the imports of the route", () => {
    const trade = pages.find((f) => path.basename(f) === "trade.tsx")!;
    // the order form (components/order-form.tsx) renders trade.* keys; the chart legend market.*
    const found = sectionsOf(trade, knownSections()) as Set<string>;
    expect(found.has("trade")).toBe(true);
    expect(found.has("loan")).toBe(false);
  });
});

describe("a page's sections", () => {
  it("are ALWAYS_SECTIONS and every matched route's, in the messages' order", () => {
    const sections = sectionsOfHandles([undefined, { i18n: ["trade", "orders"] }, { i18n: "market" }, { scripts: false }]);
    for (const s of ALWAYS_SECTIONS) expect(sections.has(s)).toBe(true);
    expect(sections.has("trade") && sections.has("orders") && sections.has("market")).toBe(true);
    expect(sections.has("loan")).toBe(false);
    const picked = pickSections(en, sections);
    expect(Object.keys(picked)).toEqual(Object.keys(en).filter((k) => sections.has(k)));
    expect(picked.trade).toEqual(en.trade);
  });

  it("weigh less than the whole language on the home page and the trade page", () => {
    const all = JSON.stringify(en).length;
    const weight = (file: string) =>
      JSON.stringify(pickSections(en, sectionsOfHandles([{ i18n: [...(handleSections(file) as Set<string>)] }]))).length;
    const home = pages.find((f) => path.basename(f) === "_index.tsx")!;
    const trade = pages.find((f) => path.basename(f) === "trade.tsx")!;
    expect(weight(home)).toBeLessThan(all * 0.45);
    expect(weight(trade)).toBeLessThan(all * 0.55);
  });

  it("name a key's section by its first part", () => {
    expect(sectionOf("trade.buy")).toBe("trade");
    expect(sectionOf("errors.code_wait")).toBe("errors");
  });
});
