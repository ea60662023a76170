/**
 * Field schemas shared by the forms (valibot). Messages are i18n keys ("errors.*"), translated
 * where they are shown. The same schemas serve the route actions (conform's parseWithValibot),
 * the browser's native constraints (getValibotConstraint) and the JSON API.
 */
import * as v from "valibot";
import { canonicalEmail } from "~/domain/identity";

// Any check without its own message answers with a translatable key, never valibot's English text.
v.setGlobalMessage("errors.bad_request");

export const MAX_TEXT = 200;
/** Rejects control characters and NUL (binary input) in any text field. */
export const printable = v.regex(/^[^\u0000-\u001f\u007f]*$/u, "errors.invalid_characters");

/** An e-mail address in its one canonical form (trimmed, NFKC, lower case). */
export const emailField = v.pipe(
  v.string("errors.required_email"),
  v.trim(),
  v.nonEmpty("errors.required_email"),
  v.maxLength(254, "errors.too_long"),
  printable,
  v.email("errors.invalid_email"),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const value = canonicalEmail(dataset.value);
    if (!value) {
      addIssue({ message: "errors.invalid_email" });
      return NEVER;
    }
    return value;
  }),
);

/** A national mobile number as typed (separators allowed; the service makes it canonical). */
export const mobileNumberField = v.pipe(
  v.string("errors.required_mobile"),
  v.trim(),
  v.nonEmpty("errors.required_mobile"),
  v.maxLength(24, "errors.too_long"),
  v.regex(/^[\d\s\-().]{4,24}$/, "errors.invalid_mobile"),
);

export const areaIdField = v.pipe(
  v.string("errors.required_area"),
  v.trim(),
  v.nonEmpty("errors.required_area"),
  v.regex(/^\d{1,4}$/, "errors.required_area"),
  v.transform(Number),
);

/** A new password: 8–128 printable characters (the server also checks it is not common). */
export const newPasswordField = v.pipe(
  v.string("errors.required_password"),
  v.nonEmpty("errors.required_password"),
  v.maxLength(128, "errors.too_long"),
  printable,
  v.minLength(8, "errors.password_too_short"),
);

export const confirmPasswordField = v.pipe(
  v.string("errors.required_password"),
  v.nonEmpty("errors.required_password"),
  v.maxLength(128, "errors.too_long"),
);

/** A password at sign-in: any existing password (older rules), only bounded in size. */
export const currentPasswordField = v.pipe(
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

/* Optional fields have no defaults: conform reads an empty field as missing (undefined). */
export const optionalInviteCode = v.optional(
  v.pipe(v.string(), v.trim(), v.maxLength(16, "errors.too_long"), v.regex(/^[A-Za-z0-9]*$/, "errors.invite_invalid"), v.toUpperCase()),
);

/** The picture captcha's id and answer (both optional: only some submissions need them). */
export const captchaFields = {
  key: v.optional(v.pipe(v.string(), v.maxLength(64, "errors.too_long"))),
  captcha: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(12, "errors.too_long"))),
};

type Passwords = { password: string; re_password: string };

/** A form whose password and re_password must be equal (the error is shown on re_password). */
export function withMatchingPasswords<S extends v.GenericSchema<unknown, Passwords>>(
  schema: S,
): v.SchemaWithPipe<readonly [S, v.BaseValidation<v.InferOutput<S>, v.InferOutput<S>, v.BaseIssue<unknown>>]> {
  const same = v.forward<Passwords, v.CheckIssue<Passwords>, ["re_password"]>(
    v.check((input) => input.password === input.re_password, "errors.password_not_equal"),
    ["re_password"],
  );
  return v.pipe(schema, same as unknown as v.BaseValidation<v.InferOutput<S>, v.InferOutput<S>, v.BaseIssue<unknown>>) as never;
}
