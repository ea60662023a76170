// Pure rules of the operator's site settings: what each chat mode accepts, the contact e-mail's
// canonical form, the confirmation that closing the site needs, and the demo balances' bounds.
import { describe, expect, it } from "vitest";
import { checkChatSettings, checkCompanyEmail, checkDemoBalances, checkSiteStatus } from "~/domain/settings";

describe("checkChatSettings", () => {
  it("the embedded chat and 'go to the link' take an http(s) address; the embedded chat may be empty", () => {
    expect(checkChatSettings({ type: "1", link: " https://chat.example.com/w?site=1 " })).toEqual({
      ok: true,
      value: { type: 1, link: "https://chat.example.com/w?site=1" },
    });
    expect(checkChatSettings({ type: "1", link: "" })).toEqual({ ok: true, value: { type: 1, link: "" } });
    expect(checkChatSettings({ type: "3", link: "http://help.example.com" })).toEqual({
      ok: true,
      value: { type: 3, link: "http://help.example.com/" },
    });
    for (const link of [
      "javascript:alert(1)",
      "data:text/html,x",
      "//evil.example",
      "https://user:pw@chat.example.com",
      "chat.example.com",
    ]) {
      expect(checkChatSettings({ type: "3", link }), link).toEqual({ ok: false, errors: { service_link: "settings.link_invalid" } });
      expect(checkChatSettings({ type: "1", link }), link).toEqual({ ok: false, errors: { service_link: "settings.link_invalid" } });
    }
    expect(checkChatSettings({ type: "3", link: " " })).toEqual({ ok: false, errors: { service_link: "settings.link_required" } });
  });
  it("the dialog shows any contact text, but not nothing", () => {
    expect(checkChatSettings({ type: "2", link: " @bourse_support " })).toEqual({ ok: true, value: { type: 2, link: "@bourse_support" } });
    expect(checkChatSettings({ type: "2", link: "" })).toEqual({ ok: false, errors: { service_link: "settings.link_required" } });
  });
  it("refuses unknown modes and links over 500 characters", () => {
    for (const type of ["0", "4", "", "1.0", " 1", "01"])
      expect(checkChatSettings({ type, link: "https://x.example" }), type).toEqual({
        ok: false,
        errors: { service_link_type: "errors.bad_request" },
      });
    expect(checkChatSettings({ type: "2", link: "x".repeat(501) })).toEqual({
      ok: false,
      errors: { service_link: "settings.link_too_long" },
    });
    expect(checkChatSettings({ type: "2", link: "x".repeat(500) }).ok).toBe(true);
  });
});

describe("checkCompanyEmail", () => {
  it("stores the canonical form, or nothing", () => {
    expect(checkCompanyEmail(" Help@Bourse.Example ")).toEqual({ ok: true, value: "help@bourse.example" });
    expect(checkCompanyEmail("  ")).toEqual({ ok: true, value: "" });
    expect(checkCompanyEmail("help at bourse")).toEqual({ ok: false, errors: { email: "errors.invalid_email" } });
    // an address the contact page would not show is not accepted either
    expect(checkCompanyEmail("a<b@example.com")).toEqual({ ok: false, errors: { email: "errors.invalid_email" } });
    expect(checkCompanyEmail('"help"@example.com')).toEqual({ ok: false, errors: { email: "errors.invalid_email" } });
  });
});

describe("checkSiteStatus", () => {
  const site = { confirmed: false, wasClosed: false, siteHosts: ["bourse.example", "pc.bourse.example"] };
  it("closing an open site needs the confirmation; opening, or changing a closed site's address, does not", () => {
    expect(checkSiteStatus({ ...site, status: "0", lossUrl: "" })).toEqual({
      ok: false,
      errors: { confirm_close: "settings.confirm_close_required" },
    });
    expect(checkSiteStatus({ ...site, status: "0", lossUrl: "https://status.example/closed", confirmed: true })).toEqual({
      ok: true,
      value: { status: 0, lossUrl: "https://status.example/closed" },
    });
    expect(checkSiteStatus({ ...site, status: "0", lossUrl: "https://status.example/v2", wasClosed: true })).toEqual({
      ok: true,
      value: { status: 0, lossUrl: "https://status.example/v2" },
    });
    expect(checkSiteStatus({ ...site, status: "1", lossUrl: "" })).toEqual({ ok: true, value: { status: 1, lossUrl: "" } });
  });
  it("the loss URL is an http(s) address on another site, or empty; the status 0 or 1", () => {
    expect(checkSiteStatus({ ...site, status: "0", lossUrl: "javascript:alert(1)", confirmed: true })).toEqual({
      ok: false,
      errors: { loss_url: "settings.link_invalid" },
    });
    // the site's own hosts would send visitors straight back into the closed site
    for (const own of ["https://bourse.example/", "http://BOURSE.example/maintenance", "https://pc.bourse.example/x"]) {
      expect(checkSiteStatus({ ...site, status: "0", lossUrl: own, confirmed: true }), own).toEqual({
        ok: false,
        errors: { loss_url: "settings.loss_url_own_site" },
      });
    }
    expect(checkSiteStatus({ ...site, status: "0", lossUrl: "https://status.bourse.example/", confirmed: true }).ok).toBe(true);
    expect(checkSiteStatus({ ...site, status: "2", lossUrl: "", confirmed: true })).toEqual({
      ok: false,
      errors: { status: "errors.bad_request" },
    });
    expect(checkSiteStatus({ ...site, status: "", lossUrl: "", confirmed: true })).toEqual({
      ok: false,
      errors: { status: "errors.bad_request" },
    });
  });
});

describe("checkDemoBalances", () => {
  it("reads each balance exactly into micros, 0 to 1,000,000 USD with at most 2 decimals", () => {
    expect(checkDemoBalances({ funding: "0", options: "0.01", contract: "1000000" })).toEqual({
      ok: true,
      value: { funding: 0, options: 10_000, contract: 1_000_000_000_000 },
    });
    expect(checkDemoBalances({ funding: "1000000.01", options: "1.005", contract: "-1" })).toEqual({
      ok: false,
      errors: {
        demo_funding: "settings.demo_amount_invalid",
        demo_options: "settings.demo_amount_invalid",
        demo_contract: "settings.demo_amount_invalid",
      },
    });
    expect(checkDemoBalances({ funding: "1e3", options: "", contract: "10,000" }).ok).toBe(false);
  });
});
