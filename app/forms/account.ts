/**
 * Commands of the account's own screens and calls: the language picker, the display preferences
 * (theme, hidden assets), the demo account's reset and sign-in, and the account calls' query
 * parameters (spec §7 names: key, id). Pages and the JSON API parse them with `parseFields`.
 */
import * as v from "valibot";
import { parseCompanyId } from "~/domain/company";
import { normalizeLanguage, type LanguageCode } from "~/i18n/config";
import { Intent } from "./intents";

/** Where to go back to (checked by safeRedirect where it is used). */
const back = v.optional(v.string());

/** /language: one of the 18 languages (tw is read as hk), then back to `from`. */
export const LanguageSchema = v.object({
  intent: v.literal(Intent.Language, "errors.bad_request"),
  lang: v.pipe(
    v.string("errors.bad_request"),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const lang: LanguageCode | null = normalizeLanguage(dataset.value);
      if (!lang) {
        addIssue({ message: "errors.bad_request" });
        return NEVER;
      }
      return lang;
    }),
  ),
  from: back,
});

/** /settings: the theme (dark, else light) or whether asset figures are hidden ("1"), then back to `redirectTo`. */
export const PreferenceSchema = v.variant("intent", [
  v.pipe(
    v.object({ intent: v.literal(Intent.Theme), theme: v.optional(v.string()), redirectTo: back }),
    v.transform(({ intent, theme, redirectTo }) => ({
      intent,
      theme: theme === "dark" ? ("dark" as const) : ("light" as const),
      redirectTo,
    })),
  ),
  v.pipe(
    v.object({ intent: v.literal(Intent.Assets), hidden: v.optional(v.string()), redirectTo: back }),
    v.transform(({ intent, hidden, redirectTo }) => ({ intent, hidden: hidden === "1", redirectTo })),
  ),
]);

/** /user: the demo account's reset (its confirm step posts this intent). */
export const DemoResetSchema = v.object({ intent: v.literal(Intent.ResetDemo, "errors.bad_request") });

/** /login/demo: the demo sign-in, then back to `from`. */
export const DemoLoginSchema = v.object({ from: back });

/** GET /api/user/createAccountDemoForU: the demo user to resume (none: a new one). */
export const DemoLoginQuerySchema = v.object({ demo_id: v.optional(v.string()) });

/** GET /api/default/setting?key=…: a public setting's key ("" when missing: not found). */
export const SettingQuerySchema = v.pipe(
  v.object({ key: v.optional(v.string()) }),
  v.transform(({ key = "" }) => ({ key })),
);

/**
 * GET /api/company/getCompany[?id=…]: without id the site's own company; with one, that open
 * company's card (`null`: no such id, answered "not found").
 */
export const CompanyQuerySchema = v.object({
  id: v.optional(
    v.pipe(
      v.string(),
      v.transform((s: string) => parseCompanyId(s)),
    ),
  ),
});
