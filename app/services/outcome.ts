/**
 * What every service answers: its value, or a refusal. A refusal names message keys by field
 * ("form" when no single field owns it; "errors.lots_step|0.01" carries its argument) and the
 * HTTP status the JSON API answers with. Route actions map it onto their form, the API onto its
 * envelope (`failure` in app/api/common.server.ts).
 */
export type FieldErrors = Partial<Record<string, string>>;

export type Failure = { ok: false; errors: FieldErrors; status: number; captchaRequired?: boolean };

export type Outcome<T> = { ok: true; value: T } | Failure;

/** A refusal of the given fields (`captchaRequired`: sign-in asks for a captcha before the next try). */
export function fail(errors: FieldErrors, status = 400, captchaRequired = false): Failure {
  return captchaRequired ? { ok: false, errors, status, captchaRequired } : { ok: false, errors, status };
}

/** A refusal of the whole request (no field owns it). */
export function refuse(key: string, status = 400): Failure {
  return { ok: false, errors: { form: key }, status };
}
