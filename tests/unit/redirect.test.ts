import { describe, expect, it } from "vitest";
import { safeRedirect } from "~/lib/redirect";

describe("safeRedirect", () => {
  it("keeps paths on this site", () => {
    for (const ok of ["/", "/user", "/trade?code=BTCUSDT&period=5min", "/trade?code=BTC%2FUSDT", "/product?q=eur%20usd", "/a/b#c"])
      expect(safeRedirect(ok)).toBe(ok);
  });

  it("refuses everything that can leave the site or break a header", () => {
    const bad = [
      "//evil.example",
      "/\t/evil.example",
      "/%09/evil.example",
      "/\n/evil.example",
      "/%0a/evil.example",
      "/\\evil.example",
      "/%5Cevil.example",
      "/%2F/evil.example",
      "/%252F%252Fevil.example",
      "https://evil.example",
      "javascript:alert(1)",
      " /user",
      "/user\r\nSet-Cookie: x=1",
      "/%E0%A4%A",
      "/ü",
      "",
      null,
      undefined,
      42,
      "/" + "a".repeat(600),
    ];
    for (const to of bad) expect(safeRedirect(to, "/home"), JSON.stringify(to)).toBe("/home");
  });
});
