// The commands of the operator's console, the account's own screens and the small JSON calls
// (issue 21): one schema each in app/forms, the same parse for the page's action and the call.
// What each schema hands on is what the action read by hand before (ids as numbers, a missing
// text as "", text cut to the length the page read), so the services see the same values.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SETTINGS_LINK_MAX } from "~/domain/settings";
import {
  CompanyQuerySchema,
  DemoLoginSchema,
  DemoResetSchema,
  LanguageSchema,
  PreferenceSchema,
  SettingQuerySchema,
} from "~/forms/account";
import { ApiAmendSchema, ForgotSchema, passwordCallFields, registerCodeCallFields, SendCodeSchema } from "~/forms/auth";
import { NewsItemQuerySchema, NewsListQuerySchema } from "~/forms/content";
import { Intent } from "~/forms/intents";
import {
  DecisionSchema,
  IdentityDecisionSchema,
  itemActionSchema,
  OptionTermsSchema,
  SiteSettingsSchema,
  StepUpSchema,
} from "~/forms/operator";
import { parseFields } from "~/forms/parse";
import { realNameCallFields, RealNameSchema } from "~/forms/real-name";
import { SearchQuerySchema } from "~/forms/search";
import { UploadQuerySchema } from "~/forms/upload";

const value = <T>(parsed: { ok: true; value: T } | { ok: false }) => {
  if (!parsed.ok) throw new Error("refused");
  return parsed.value;
};

describe("operator decisions", () => {
  it("a queue decision: approve or reject, the id as a number (0 when it is none), the reason as typed", () => {
    expect(value(parseFields(DecisionSchema, { intent: Intent.Reject, id: "42", reason: "  blurry " }))).toEqual({
      intent: Intent.Reject,
      id: 42,
      reason: "  blurry ",
    });
    expect(value(parseFields(DecisionSchema, { intent: Intent.Approve, id: "4x" }))).toEqual({ intent: Intent.Approve, id: 0, reason: "" });
    expect(parseFields(DecisionSchema, { intent: "delete", id: "42" }).ok).toBe(false);
    expect(parseFields(DecisionSchema, { id: "42" }).ok).toBe(false);
  });

  it("a real-name decision names the user and the submission it decides", () => {
    expect(value(parseFields(IdentityDecisionSchema, { intent: Intent.Approve, id: "17-2" }))).toEqual({
      decision: "approve",
      userId: 17,
      submission: 2,
      reason: "",
    });
    expect(value(parseFields(IdentityDecisionSchema, { intent: Intent.Reject, id: "17-1", reason: "No match" })).decision).toBe("reject");
    for (const id of ["17", "17-", "-2", "a-1", "1-2-3"])
      expect(parseFields(IdentityDecisionSchema, { intent: Intent.Approve, id }).ok).toBe(false);
  });

  it("a list item's action: only the page's intents, an id above 0", () => {
    const schema = itemActionSchema(Intent.EngineRetry, Intent.JobRequeue);
    expect(value(parseFields(schema, { intent: Intent.JobRequeue, id: "7" }))).toEqual({ intent: Intent.JobRequeue, id: 7 });
    expect(parseFields(schema, { intent: Intent.MarkRead, id: "7" }).ok).toBe(false);
    for (const id of ["0", "", "-1", "1.5", "1234567890123"])
      expect(parseFields(schema, { intent: Intent.EngineRetry, id }).ok).toBe(false);
  });

  it("the step-up: send a code, or verify the one typed (trimmed)", () => {
    expect(value(parseFields(StepUpSchema, { intent: Intent.SendCode, code: "1" }))).toEqual({ intent: Intent.SendCode });
    expect(value(parseFields(StepUpSchema, { intent: Intent.Verify, code: " 123456 " }))).toEqual({
      intent: Intent.Verify,
      code: "123456",
    });
    expect(value(parseFields(StepUpSchema, { intent: Intent.Verify }))).toEqual({ intent: Intent.Verify, code: "" });
    expect(parseFields(StepUpSchema, { intent: Intent.Approve }).ok).toBe(false);
  });

  it("option terms and site settings: each section's fields as typed, missing ones empty, long ones cut", () => {
    expect(
      value(parseFields(OptionTermsSchema, { intent: Intent.OptionDurationSave, seconds: "60", min_amount: "x".repeat(300) })),
    ).toEqual({
      intent: Intent.OptionDurationSave,
      id: "",
      seconds: "60",
      profit_ratio: "",
      min_amount: "x".repeat(200),
      status: "",
    });
    expect(value(parseFields(OptionTermsSchema, { intent: Intent.OptionLossSave, loss_level: "2" }))).toEqual({
      intent: Intent.OptionLossSave,
      loss_level: "2",
    });
    expect(parseFields(OptionTermsSchema, { intent: Intent.SettingsChat }).ok).toBe(false);
    const link = `https://chat.example/${"a".repeat(SETTINGS_LINK_MAX + 200)}`;
    expect(value(parseFields(SiteSettingsSchema, { intent: Intent.SettingsChat, service_link: link }))).toEqual({
      intent: Intent.SettingsChat,
      service_link: link.slice(0, SETTINGS_LINK_MAX + 100),
      service_link_type: "",
    });
    expect(value(parseFields(SiteSettingsSchema, { intent: Intent.SettingsSite, status: "2", confirm_close: "1" }))).toEqual({
      intent: Intent.SettingsSite,
      status: "2",
      loss_url: "",
      confirm_close: "1",
    });
    expect(parseFields(SiteSettingsSchema, { intent: "settings-other" }).ok).toBe(false);
  });
});

describe("the account's own commands", () => {
  it("the language picker takes the 18 codes (tw is hk) and refuses others", () => {
    expect(value(parseFields(LanguageSchema, { intent: Intent.Language, lang: "TW", from: "/user" }))).toEqual({
      intent: Intent.Language,
      lang: "hk",
      from: "/user",
    });
    expect(parseFields(LanguageSchema, { intent: Intent.Language, lang: "xx" }).ok).toBe(false);
    expect(parseFields(LanguageSchema, { intent: Intent.Theme, lang: "en" }).ok).toBe(false);
  });

  it("display preferences, the demo reset and the demo sign-in", () => {
    expect(value(parseFields(PreferenceSchema, { intent: Intent.Theme, theme: "dark" }))).toMatchObject({ theme: "dark" });
    expect(value(parseFields(PreferenceSchema, { intent: Intent.Theme, theme: "neon" }))).toMatchObject({ theme: "light" });
    expect(value(parseFields(PreferenceSchema, { intent: Intent.Assets, hidden: "1", redirectTo: "/" }))).toEqual({
      intent: Intent.Assets,
      hidden: true,
      redirectTo: "/",
    });
    expect(parseFields(PreferenceSchema, { intent: Intent.Logout }).ok).toBe(false);
    expect(parseFields(DemoResetSchema, { intent: Intent.ResetDemo }).ok).toBe(true);
    expect(parseFields(DemoResetSchema, { intent: Intent.Logout }).ok).toBe(false);
    expect(value(parseFields(DemoLoginSchema, {}))).toEqual({});
  });
});

describe("the JSON calls' parameters", () => {
  it("query parameters: a setting's key, a company id, news pages and items, search text, an upload's purpose", () => {
    expect(value(parseFields(SettingQuerySchema, {}))).toEqual({ key: "" });
    expect(value(parseFields(CompanyQuerySchema, { id: "" }))).toEqual({});
    expect(value(parseFields(CompanyQuerySchema, { id: "12" }))).toEqual({ id: 12 });
    expect(value(parseFields(CompanyQuerySchema, { id: "0" }))).toEqual({ id: null });
    expect(value(parseFields(NewsListQuerySchema, { page: "3" }))).toEqual({ page: 3 });
    expect(value(parseFields(NewsListQuerySchema, { category_id: "x", page: "-1" }))).toEqual({ categoryId: null, page: 1 });
    expect(value(parseFields(NewsListQuerySchema, { category_id: "4" }))).toEqual({ categoryId: 4, page: 1 });
    expect(value(parseFields(NewsItemQuerySchema, {}))).toEqual({ id: null });
    expect(value(parseFields(SearchQuerySchema, { name: "  eur\u0000 usd " }))).toEqual({ name: "eur usd" });
    expect(value(parseFields(SearchQuerySchema, {}))).toEqual({ name: "" });
    expect(value(parseFields(UploadQuerySchema, {}))).toEqual({ purpose: "other" });
  });

  it("the password calls' §7 names map onto the forms' (a missing secondary_password repeats new_password)", () => {
    const body = new URLSearchParams({ account: "ann@example.com", auth_code: "123456", new_password: "new-password-1" });
    expect(value(parseFields(ForgotSchema, passwordCallFields(body)))).toEqual({
      account: "ann@example.com",
      auth_code: "123456",
      password: "new-password-1",
      re_password: "new-password-1",
    });
    body.set("secondary_password", "other-password");
    expect(parseFields(ForgotSchema, passwordCallFields(body))).toEqual({
      ok: false,
      errors: { re_password: "errors.password_not_equal" },
    });
    const amend = value(
      parseFields(ApiAmendSchema, passwordCallFields(new URLSearchParams({ auth_code: "123456", new_password: "new-password-1" }))),
    );
    expect(amend.old_password).toBeUndefined();
    const code = new URLSearchParams({ to: "ann@example.com", area_id: "1" });
    expect(value(parseFields(SendCodeSchema, registerCodeCallFields(code, "email")))).toEqual({
      type: "email",
      account: "ann@example.com",
    });
  });

  it("a real-name field left out is refused like an empty one", () => {
    const missing = parseFields(RealNameSchema, realNameCallFields(new URLSearchParams({ name: "Ann Lee" })));
    const empty = parseFields(RealNameSchema, { name: "Ann Lee", card_id: "", front_pic: "", reverse_pic: "" });
    expect(missing).toEqual(empty);
    expect(missing).toEqual({
      ok: false,
      errors: { card_id: "identity.card_required", front_pic: "identity.front_required", reverse_pic: "identity.reverse_required" },
    });
  });
});

describe("no field read by hand", () => {
  // Every input of these pages and calls goes through a schema in app/forms (ADR 008).
  const files = [
    "app/api/account.server.ts",
    "app/api/auth.server.ts",
    "app/api/common.server.ts",
    "app/api/content.server.ts",
    "app/api/identity.server.ts",
    "app/api/search.server.ts",
    "app/api/upload.server.ts",
    "app/routes/admin.engine.tsx",
    "app/routes/admin.feedback.tsx",
    "app/routes/admin.identity.tsx",
    "app/routes/admin.options.tsx",
    "app/routes/admin.settings.tsx",
    "app/routes/admin.verify.tsx",
    "app/routes/admin.withdrawals.tsx",
    "app/routes/language.tsx",
    "app/routes/login.demo.tsx",
    "app/routes/settings.tsx",
    "app/routes/user.tsx",
  ];
  const byHand = /\b(form|body|input|fields|q|query\(request\))\.(get|has|set|getAll)\(/;
  for (const file of files) {
    it(file, () => {
      const source = readFileSync(path.resolve(import.meta.dirname, "../..", file), "utf8");
      const lines = source.split("\n").filter((line) => byHand.test(line));
      expect(lines).toEqual([]);
    });
  }
});
