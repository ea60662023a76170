/**
 * Turning a service's refusal (FieldErrors of i18n keys) into conform's reply, so the form shows
 * each error next to its field (errors of the whole form at the top) with the values kept and
 * secrets dropped.
 */
import type { Submission, SubmissionResult } from "@conform-to/react";
import type { FieldErrors } from "~/forms/parse";

export function replyWithErrors(
  submission: Submission<unknown>,
  errors: FieldErrors,
  hideFields: string[] = [],
): SubmissionResult<string[]> {
  const fieldErrors: Record<string, string[]> = {};
  const formErrors: string[] = [];
  for (const [name, key] of Object.entries(errors)) {
    if (!key) continue;
    if (name === "form") formErrors.push(key);
    else fieldErrors[name] = [key];
  }
  return submission.reply({ formErrors, fieldErrors, hideFields });
}

/**
 * A reply that marks only `names` as checked: a partial action (e.g. "send code") must not make
 * the form show "required" under fields the user has not reached yet.
 */
export function checkedOnly(result: SubmissionResult<string[]>, names: string[]): SubmissionResult<string[]> {
  return { ...result, fields: (result.fields ?? []).filter((f) => names.includes(f)) };
}
