// Pure rules of the search page (typed text, LIKE patterns, company ids and the company_id
// cookie), the desktop site (user-agent detection, pc host setting, the redirect), the startup
// status check, the bottom-tab label mapping and the mini chart's scrolling width.
import { describe, expect, it } from "vitest";
import { MINI_CHART_WINDOW, miniChartSpan } from "~/components/sparkline";
import {
  COMPANY_COOKIE_MAX_AGE,
  SEARCH_MAX,
  companyCookie,
  companyIdFromCookie,
  nameKey,
  pairMatches,
  parseCompanyId,
  sameSiteImage,
  searchText,
} from "~/domain/company";
import { isDesktopUserAgent, parsePcHost } from "~/domain/device";
import { startupStatus } from "~/domain/startup";
import { desktopRedirect } from "~/lib/redirect";
import { SPEC_TAB_LABELS, TAB_PATHS } from "~/lib/tabs";

const UA = {
  chromeWindows: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  safariMac: "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
  firefoxLinux: "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
  edge: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86",
  headlessChrome: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/140.0.0.0 Safari/537.36",
  iphone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  ipad: "Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1",
  androidChrome: "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
  androidTablet: "Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  wechat:
    "Mozilla/5.0 (Linux; U; Android 12; zh-cn; MI 11) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/86.0 MQQBrowser/6.2 MicroMessenger/8.0.40",
  windowsPhone:
    "Mozilla/5.0 (Windows Phone 10.0; Android 6.0.1; Microsoft; Lumia 950) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/52.0 Mobile Safari/537.36 Edge/15.15063",
  operaMini: "Opera/9.80 (J2ME/MIDP; Opera Mini/9.80 (S60; SymbOS; Opera Mobi/23.348; U; en) Presto/2.5.25 Version/10.54",
  kindle:
    "Mozilla/5.0 (Linux; U; en-US) AppleWebKit/528.5+ (KHTML, like Gecko, Safari/528.5+) Version/4.0 Kindle/3.0 (screen 600x800; rotate)",
  harmony: "Mozilla/5.0 (Phone; OpenHarmony 4.1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.0.0 Safari/537.36 ArkWeb/4.1.6.1",
};

describe("search text", () => {
  it("trims, collapses whitespace, drops control characters and cuts long input at 64 characters", () => {
    expect(searchText("  eur   usd ")).toBe("eur usd");
    expect(searchText("a\u0000b\nc\td")).toBe("a b c d");
    expect(searchText("x".repeat(500))).toHaveLength(SEARCH_MAX);
    // cut on whole characters: a 64th emoji is not split in half
    expect(Array.from(searchText("😀".repeat(100)))).toHaveLength(SEARCH_MAX);
    expect(searchText(null)).toBe("");
    expect(searchText(42)).toBe("");
  });

  it("matches pairs ignoring case and separators", () => {
    const eur = { code: "EURUSD", showCode: "EUR/USD" };
    for (const q of ["", "eur", "EUR/usd", "eur usd", "eur-usd", "r/u"]) expect(pairMatches(eur, q), q).toBe(true);
    for (const q of ["btc", "usd/eur", "<script>", "' OR 1=1 --"]) expect(pairMatches(eur, q), q).toBe(false);
  });

  it("name keys fold ASCII case as SQLite's lower() does and keep everything else as typed", () => {
    expect(nameKey("HarBour")).toBe("harbour");
    expect(nameKey("100%_\\x")).toBe("100%_\\x");
    expect(nameKey("' OR 1=1 --")).toBe("' OR 1=1 --".toLowerCase());
    expect(nameKey("ÉCOLE")).toBe("École");
  });
});

describe("company ids and the company_id cookie", () => {
  it("accepts positive ids only", () => {
    expect(parseCompanyId("2")).toBe(2);
    expect(parseCompanyId("2147483647")).toBe(2_147_483_647);
    for (const bad of ["", "0", "-1", "01", "1.5", "2 OR 1=1", "1e3", "9999999999", " 2", "<b>2</b>", null, undefined, 3])
      expect(parseCompanyId(bad), String(bad)).toBeNull();
  });

  it("lasts three years, on the whole site, Secure, HttpOnly and SameSite=Lax", () => {
    const header = companyCookie(3);
    expect(header).toMatch(/^company_id=3; /);
    expect(COMPANY_COOKIE_MAX_AGE).toBe(3 * 365 * 86_400);
    expect(header).toContain(`Max-Age=${3 * 365 * 86_400}`);
    for (const attr of ["Path=/", "Secure", "HttpOnly", "SameSite=Lax"]) expect(header.split("; ")).toContain(attr);
    expect(() => companyCookie(0)).toThrow();
    expect(() => companyCookie(Number.NaN)).toThrow();
  });

  it("reads a well-formed id back from a Cookie header", () => {
    expect(companyIdFromCookie("theme=dark; company_id=4; lang=en")).toBe(4);
    expect(companyIdFromCookie("company_id=4")).toBe(4);
    expect(companyIdFromCookie("my_company_id=4")).toBeNull();
    expect(companyIdFromCookie("company_id=4%3B%20x")).toBeNull();
    expect(companyIdFromCookie("company_id=abc")).toBeNull();
    expect(companyIdFromCookie(null)).toBeNull();
  });

  it("shows logos from this site only", () => {
    expect(sameSiteImage("/icons/logo.svg")).toBe("/icons/logo.svg");
    for (const bad of ["https://evil.example/x.png", "//evil.example/x.png", "javascript:alert(1)", "/\\evil", "/a b.png"])
      expect(sameSiteImage(bad), bad).toBe("");
  });
});

describe("desktop detection (spec §9: no mobile user-agent strings)", () => {
  it("takes desktop browsers for desktops", () => {
    for (const ua of [UA.chromeWindows, UA.safariMac, UA.firefoxLinux, UA.edge, UA.headlessChrome])
      expect(isDesktopUserAgent(ua), ua).toBe(true);
  });

  it("never takes a phone or tablet for a desktop", () => {
    for (const ua of [
      UA.iphone,
      UA.ipad,
      UA.androidChrome,
      UA.androidTablet,
      UA.wechat,
      UA.windowsPhone,
      UA.operaMini,
      UA.kindle,
      UA.harmony,
    ])
      expect(isDesktopUserAgent(ua), ua).toBe(false);
  });

  it("does not guess without a user agent", () => {
    expect(isDesktopUserAgent("")).toBe(false);
    expect(isDesktopUserAgent(null)).toBe(false);
  });
});

describe("the pc host setting", () => {
  it("is off when empty and lower-cased when set", () => {
    expect(parsePcHost(undefined)).toBeNull();
    expect(parsePcHost("  ")).toBeNull();
    expect(parsePcHost("PC.Example.com")).toBe("pc.example.com");
    expect(parsePcHost("pc.localhost:8815")).toBe("pc.localhost:8815");
  });

  it("refuses anything that is not a host name", () => {
    for (const bad of [
      "https://pc.example.com",
      "pc.example.com/path",
      "pc example.com",
      "-pc.example.com",
      "pc.example.com:port",
      "user@pc.example.com",
    ])
      expect(() => parsePcHost(bad), bad).toThrow();
  });
});

describe("the desktop redirect", () => {
  const pc = "pc.example.com";
  const at = (href: string, userAgent: string | null = UA.chromeWindows, method = "GET") =>
    desktopRedirect({ url: new URL(href), method, userAgent }, pc);

  it("sends a desktop browser's page request to the same path and query on the pc host", () => {
    expect(at("https://example.com/trade?code=BTCUSDT&period=5min")).toBe("https://pc.example.com/trade?code=BTCUSDT&period=5min");
    expect(at("https://example.com/")).toBe("https://pc.example.com/");
    expect(at("http://localhost:8815/product?q=eur", UA.safariMac, "HEAD")).toBe("http://pc.example.com/product?q=eur");
  });

  it("does nothing when off, on the pc host, for phones, for writes and for the API", () => {
    expect(desktopRedirect({ url: new URL("https://example.com/"), method: "GET", userAgent: UA.chromeWindows }, null)).toBeNull();
    expect(at("https://pc.example.com/trade")).toBeNull();
    expect(at("https://PC.EXAMPLE.COM/trade")).toBeNull();
    expect(at("https://example.com/trade", UA.iphone)).toBeNull();
    expect(at("https://example.com/trade", null)).toBeNull();
    expect(at("https://example.com/login", UA.chromeWindows, "POST")).toBeNull();
    for (const path of ["/api/user/info", "/v2/api/forex/trade_list", "/v2/ws", "/parties/x", "/__scheduled", "/dev/outbox"])
      expect(at(`https://example.com${path}`), path).toBeNull();
  });

  it("passes the path through the same checks as every redirect (an unsafe one lands on the pc home)", () => {
    expect(at("https://example.com//evil.example/x")).toBe("https://pc.example.com/");
    expect(at("https://example.com/%2F%2Fevil.example")).toBe("https://pc.example.com/");
    expect(new URL(at("https://example.com/a?next=https://evil.example")!).host).toBe("pc.example.com");
  });
});

describe("startup status (spec §4)", () => {
  it("open companies start normally; closed ones go to their loss_url, or to the closed page without a usable one", () => {
    expect(startupStatus(null)).toBeNull();
    expect(startupStatus({ status: 1, loss_url: "https://x.example" })).toBeNull();
    expect(startupStatus({ status: 0, loss_url: "https://status.example/closed" })).toEqual({ lossUrl: "https://status.example/closed" });
    for (const bad of ["", "   ", "javascript:alert(1)", "/relative", "ftp://x.example", "https://user:pw@x.example"])
      expect(startupStatus({ status: 0, loss_url: bad }), bad).toEqual({ lossUrl: null });
    // a loss_url on the host being asked would loop back into the closed site: the closed page instead
    expect(startupStatus({ status: 0, loss_url: "https://bourse.example/maintenance" }, "bourse.example")).toEqual({ lossUrl: null });
    expect(startupStatus({ status: 0, loss_url: "https://bourse.example/maintenance" }, "BOURSE.example")).toEqual({ lossUrl: null });
    expect(startupStatus({ status: 0, loss_url: "https://status.example/" }, "bourse.example")).toEqual({
      lossUrl: "https://status.example/",
    });
  });
});

describe("bottom-tab labels (spec §2)", () => {
  it("map every one of the spec's seven labels onto a real tab, and every tab has one", () => {
    expect(Object.keys(SPEC_TAB_LABELS).sort()).toEqual(["account", "documentary", "market", "orders", "quotes", "ranking", "trade"]);
    for (const path of Object.values(SPEC_TAB_LABELS)) expect(TAB_PATHS).toContain(path);
    for (const path of TAB_PATHS) expect(Object.values(SPEC_TAB_LABELS)).toContain(path);
  });
});

describe("mini chart scrolling (spec §9)", () => {
  it("fits up to 10 points, and beyond that keeps 10 points per visible width", () => {
    expect(MINI_CHART_WINDOW).toBe(10);
    expect(miniChartSpan(2)).toBe(1);
    expect(miniChartSpan(10)).toBe(1);
    expect(miniChartSpan(11)).toBeCloseTo(10 / 9);
    expect(miniChartSpan(48)).toBeCloseTo(47 / 9);
  });
});
