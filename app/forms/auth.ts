/**
 * One valibot schema per sign-in form (field names are the spec's parameter names), shared by
 * the form actions, the browser's native constraints and the JSON API.
 */
import * as v from "valibot";
import { loginType } from "~/domain/identity";
import {
  areaIdField,
  captchaFields,
  codeField,
  confirmPasswordField,
  currentPasswordField,
  emailField,
  mobileNumberField,
  newPasswordField,
  optionalInviteCode,
  withMatchingPasswords,
  printable,
} from "~/forms/fields";

export const LoginSchema = v.object({
  account: v.pipe(
    v.string("errors.required_account"),
    v.trim(),
    v.nonEmpty("errors.required_account"),
    v.maxLength(254, "errors.too_long"),
    printable,
  ),
  password: currentPasswordField,
  /** email / mobile, or the numeric codes 1 / 2 that the spec's clients send; empty decides from the text. */
  login_type: v.optional(
    v.pipe(
      v.string(),
      v.rawTransform(({ dataset, addIssue, NEVER }) => {
        const type = loginType(dataset.value);
        if (type === null) {
          addIssue({ message: "errors.bad_request" });
          return NEVER;
        }
        return type;
      }),
    ),
  ),
  ...captchaFields,
});
export type LoginInput = v.InferOutput<typeof LoginSchema>;

const registerBase = {
  password: newPasswordField,
  re_password: confirmPasswordField,
  invite_code: optionalInviteCode,
  sms_code: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(12, "errors.too_long"))),
  ...captchaFields,
};

/**
 * Registration by e-mail, or by mobile: an area (area_id) and the national number (account), or
 * the spec's `mobile` field ("852-91234567": area code, '-', number) that API clients send.
 */
export const RegisterSchema = withMatchingPasswords(
  v.variant(
    "type",
    [
      v.object({ type: v.literal("email"), account: emailField, ...registerBase }),
      v.pipe(
        v.object({
          type: v.literal("mobile"),
          account: v.optional(mobileNumberField),
          area_id: v.optional(areaIdField),
          mobile: v.optional(
            v.pipe(
              v.string(),
              v.trim(),
              v.maxLength(30, "errors.too_long"),
              v.regex(/^\+?\d{1,4}-[\d\s\-().]{4,24}$/, "errors.invalid_mobile"),
            ),
          ),
          ...registerBase,
        }),
        v.forward(
          v.check((input) => Boolean(input.mobile || (input.account && input.area_id)), "errors.required_mobile"),
          ["account"],
        ),
      ),
    ],
    "errors.bad_request",
  ),
);
export type RegisterInput = v.InferOutput<typeof RegisterSchema>;

export const SendCodeSchema = v.variant(
  "type",
  [
    v.object({ type: v.literal("email"), account: emailField }),
    v.object({ type: v.literal("mobile"), account: mobileNumberField, area_id: areaIdField }),
  ],
  "errors.bad_request",
);
export type SendCodeInput = v.InferOutput<typeof SendCodeSchema>;

/** Forgot password, step 1: where to send the code (spec: reset by e-mail). */
export const ResetCodeSchema = v.object({ account: emailField });

export const ForgotSchema = withMatchingPasswords(
  v.object({ account: emailField, auth_code: codeField, password: newPasswordField, re_password: confirmPasswordField }),
);
export type ForgotInput = v.InferOutput<typeof ForgotSchema>;

/** /mine/password: the current password (spec §5: forms also check the old password), both new fields filled (public.input_full) and equal (public.password_not_equal), and the code. */
const amendFields = {
  old_password: currentPasswordField,
  auth_code: codeField,
  password: v.pipe(
    v.string("errors.input_full"),
    v.nonEmpty("errors.input_full"),
    v.maxLength(128, "errors.too_long"),
    printable,
    v.minLength(8, "errors.password_too_short"),
  ),
  re_password: v.pipe(v.string("errors.input_full"), v.nonEmpty("errors.input_full"), v.maxLength(128, "errors.too_long")),
};
export const AmendSchema = withMatchingPasswords(v.object(amendFields));
export type AmendInput = v.InferOutput<typeof AmendSchema>;

/**
 * POST /api/user/amend_password with the spec's parameters (new_password, auth_code, type): the
 * e-mailed code proves the mailbox, so the current password is optional; sent, it is checked.
 */
export const ApiAmendSchema = withMatchingPasswords(v.object({ ...amendFields, old_password: v.optional(currentPasswordField) }));
export type ApiAmendInput = v.InferOutput<typeof ApiAmendSchema>;

/*
 * The JSON API's names (spec §7) onto the forms' before `parseFields`: the calls post
 * new_password and secondary_password where the pages post password and re_password, and the
 * code calls post `to` where the pages post `account`.
 */
type CallFields = URLSearchParams;

/** forget_password (account, auth_code, new_password, secondary_password) and amend_password (old_password too): a missing secondary_password repeats new_password. */
export function passwordCallFields(body: CallFields): Record<string, string> {
  const password = body.get("new_password") ?? "";
  return {
    account: body.get("account") ?? "",
    auth_code: body.get("auth_code") ?? "",
    old_password: body.get("old_password") ?? "",
    password,
    re_password: body.get("secondary_password") ?? password,
  };
}

/** send_email / send_sms: type 2 ("other") asks for the signed-in user's own code, or a reset code. */
export const isOwnCodeCall = (body: CallFields) => body.get("type") === "2";

/** A reset code's call (ResetCodeSchema). */
export const resetCodeCallFields = (body: CallFields) => ({ account: body.get("to") ?? "" });

/** A registration code's call on `channel` (SendCodeSchema). */
export const registerCodeCallFields = (body: CallFields, channel: "email" | "mobile") => ({
  type: channel,
  account: body.get("to") ?? "",
  area_id: body.get("area_id") ?? "",
});
