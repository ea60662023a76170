// A quick axe-core check for flows that also look at accessibility on their way (the full
// audit of every screen, light and dark, is a11y.spec.ts).
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";

const AXE_SOURCE = readFileSync(path.join(process.cwd(), "node_modules", "axe-core", "axe.min.js"), "utf8");

/** The serious and critical WCAG A/AA violations of the page as it is (with JavaScript only: axe needs timers). */
export async function axeProblems(page: Page, screen: string): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const w = window as unknown as {
      axe: {
        run: (c: Document, o: object) => Promise<{ violations: { id: string; impact?: string | null; nodes: { target: unknown[] }[] }[] }>;
      };
    };
    const r = await w.axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] },
      resultTypes: ["violations"],
    });
    return r.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.map(String).join(" ")).join(", ")}`);
  });
  return violations.map((v) => `${screen} ${v}`);
}
