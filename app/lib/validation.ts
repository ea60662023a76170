/**
 * One valibot schema per form, shared by the form actions and the JSON API (field names are the
 * spec's parameter names). Messages are i18n keys ("errors.*"), translated where they are shown.
 */
import * as v from "valibot";

export type FieldErrors = Partial<Record<string, string>>;

const MAX_TEXT = 200;
/** Rejects control characters and NUL (binary input) in any text field. */
const printable = v.regex(/^[^\u0000-\u001f\u007f]*$/u, "errors.invalid_characters");

export const emailField = v.pipe(
  v.string("errors.required_email"),
  v.trim(),
  v.nonEmpty("errors.required_email"),
  v.maxLength(254, "errors.too_long"),
  printable,
  v.email("errors.invalid_email"),
  v.toLowerCase(),
);

export const mobileNumberField = v.pipe(
  v.string("errors.required_mobile"),
  v.trim(),
  v.nonEmpty("errors.required_mobile"),
  v.maxLength(20, "errors.too_long"),
  v.regex(/^\d{4,15}$/, "errors.invalid_mobile"),
);

export const passwordField = v.pipe(
  v.string("errors.required_password"),
  v.nonEmpty("errors.required_password"),
  v.maxLength(128, "errors.too_long"),
  printable,
  v.minLength(8, "errors.password_too_short"),
);

/** Login accepts any existing password (older rules), only bounded in size. */
export const loginPasswordField = v.pipe(
  v.string("errors.required_password"),
  v.nonEmpty("errors.required_password"),
  v.maxLength(128, "errors.too_long"),
  printable,
);

export const codeField = v.pipe(
  v.string("errors.required_code"),
  v.trim(),
  v.nonEmpty("errors.required_code"),
  v.maxLength(12, "errors.too_long"),
  v.regex(/^\d{6}$/, "errors.code_invalid"),
);

export const optionalInviteCode = v.optional(
  v.pipe(v.string(), v.trim(), v.maxLength(16, "errors.too_long"), v.regex(/^[A-Za-z0-9]*$/, "errors.invite_invalid")),
  "",
);

const areaIdField = v.pipe(
  v.string("errors.required_area"),
  v.trim(),
  v.nonEmpty("errors.required_area"),
  v.regex(/^\d{1,4}$/, "errors.required_area"),
  v.transform(Number),
);

export const LoginSchema = v.object({
  account: v.pipe(
    v.string("errors.required_account"),
    v.trim(),
    v.nonEmpty("errors.required_account"),
    v.maxLength(254, "errors.too_long"),
    printable,
  ),
  password: loginPasswordField,
  login_type: v.optional(v.picklist(["email", "mobile", ""]), ""),
});

const registerBase = {
  password: passwordField,
  re_password: v.pipe(v.string("errors.required_password"), v.nonEmpty("errors.required_password"), v.maxLength(128, "errors.too_long")),
  invite_code: optionalInviteCode,
  sms_code: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(12, "errors.too_long")), ""),
  key: v.optional(v.pipe(v.string(), v.maxLength(64, "errors.too_long")), ""),
  captcha: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(12, "errors.too_long")), ""),
};

export const RegisterSchema = v.pipe(
  v.variant("type", [
    v.object({ type: v.literal("email"), account: emailField, ...registerBase }),
    v.object({ type: v.literal("mobile"), account: mobileNumberField, area_id: areaIdField, ...registerBase }),
  ], "errors.bad_request"),
  v.forward(
    v.partialCheck([["password"], ["re_password"]], (input) => input.password === input.re_password, "errors.password_not_equal"),
    ["re_password"],
  ),
);
export type RegisterInput = v.InferOutput<typeof RegisterSchema>;

export const SendCodeSchema = v.variant("type", [
  v.object({ type: v.literal("email"), account: emailField }),
  v.object({ type: v.literal("mobile"), account: mobileNumberField, area_id: areaIdField }),
], "errors.bad_request");

export const ForgotSchema = v.pipe(
  v.object({
    account: emailField,
    auth_code: codeField,
    password: passwordField,
    re_password: v.pipe(v.string("errors.required_password"), v.nonEmpty("errors.required_password"), v.maxLength(128, "errors.too_long")),
  }),
  v.forward(
    v.partialCheck([["password"], ["re_password"]], (input) => input.password === input.re_password, "errors.password_not_equal"),
    ["re_password"],
  ),
);

export const AmendSchema = v.pipe(
  v.object({
    auth_code: codeField,
    password: v.pipe(v.string("errors.input_full"), v.nonEmpty("errors.input_full"), v.maxLength(128, "errors.too_long"), printable, v.minLength(8, "errors.password_too_short")),
    re_password: v.pipe(v.string("errors.input_full"), v.nonEmpty("errors.input_full"), v.maxLength(128, "errors.too_long")),
  }),
  v.forward(
    v.partialCheck([["password"], ["re_password"]], (input) => input.password === input.re_password, "errors.password_not_equal"),
    ["re_password"],
  ),
);

export function fieldErrors(issues: v.BaseIssue<unknown>[]): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path?.map((p) => String(p.key)).join(".") || "form";
    if (!out[key]) out[key] = issue.message;
  }
  return out;
}

/** Reads a form (or JSON object) into plain strings, dropping files and over-long values. */
export function formToObject(form: FormData | Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  const entries = form instanceof FormData ? [...form.entries()] : Object.entries(form);
  for (const [k, value] of entries) {
    if (k.length > 64) continue;
    if (typeof value === "string") out[k] = value.slice(0, MAX_TEXT * 10);
    else if (typeof value === "number" || typeof value === "boolean") out[k] = String(value);
  }
  return out;
}

export function parseForm<S extends v.GenericSchema>(schema: S, data: Record<string, string>) {
  const result = v.safeParse(schema, data);
  return result.success
    ? ({ ok: true, data: result.output } as const)
    : ({ ok: false, errors: fieldErrors(result.issues) } as const);
}
