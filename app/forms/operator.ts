/**
 * Commands of the operator's console (/admin/*), one schema each, parsed by the pages' actions
 * with `parseFields`: decisions on a queue item (approve, or reject with a reason), the one-click
 * item actions (mark read, try again, send again), the step-up code, the option terms and the
 * site settings. The schemas check the shape only (an intent the page offers, an id that is a
 * number) and hand the text fields on as typed, cut to the length the page reads: the rules that
 * need the database or give a field its message (a reason is required to reject, a ratio's
 * bounds, a link's scheme) stay the services' (their refusals name the field).
 */
import * as v from "valibot";
import { SETTINGS_LINK_MAX } from "~/domain/settings";
import { Intent } from "./intents";

/*
 * Conform reads an empty field as missing and leaves a missing key out of the object before
 * valibot's defaults apply, so every text below is `optional` and made "" (and cut) by the
 * object's own transform.
 */
const text = v.optional(v.string());
type Text = typeof text;

/**
 * A command whose fields are texts handed on as typed: "" when missing, at most `max` characters
 * (what the console's actions read before).
 */
function textCommand<const I extends string, const K extends string>(intent: I, names: readonly K[], max: number) {
  const entries = Object.fromEntries(names.map((name) => [name, text])) as Record<K, Text>;
  return v.pipe(
    v.object({ intent: v.literal(intent), ...entries }),
    v.transform((input) => {
      const typed = input as { intent: I } & Partial<Record<K, string>>;
      const out = { intent: typed.intent } as { intent: I } & Record<K, string>;
      for (const name of names) (out as Record<K, string>)[name] = (typed[name] ?? "").slice(0, max);
      return out;
    }),
  );
}

const intentOf = <const T extends readonly [Intent, ...Intent[]]>(intents: T) => v.picklist(intents, "errors.bad_request");

/** A database id (1 to 12 digits, above 0), as the console's lists post it. */
export const itemId = v.pipe(
  v.string("errors.bad_request"),
  v.regex(/^[0-9]{1,12}$/, "errors.bad_request"),
  v.transform(Number),
  v.check((n: number) => Number.isSafeInteger(n) && n > 0, "errors.bad_request"),
);

/** One action on one item of a console list (ItemAction: mark read, try again, send again). */
export function itemActionSchema<const T extends readonly [Intent, ...Intent[]]>(...intents: T) {
  return v.object({ intent: intentOf(intents), id: itemId });
}

/**
 * A decision on a review queue's item (ReviewForm): approve, or reject with a reason. An id that
 * is no number decides nothing (0: the service answers "not found").
 */
const decisionFields = { intent: intentOf([Intent.Approve, Intent.Reject]), id: text, reason: text };
const decisionOf = ({ intent, id = "", reason = "" }: v.InferOutput<v.ObjectSchema<typeof decisionFields, undefined>>) => ({
  intent,
  id: /^\d{1,15}$/.test(id) ? Number(id) : 0,
  reason,
});

export const DecisionSchema = v.pipe(v.object(decisionFields), v.transform(decisionOf));

/** A decision on a withdrawal: an approval carries the payout's transaction id (its format is checked against the request's network). */
export const WithdrawalDecisionSchema = v.pipe(
  v.object({ ...decisionFields, tx: text }),
  v.transform(({ tx = "", ...decision }) => ({ ...decisionOf(decision), tx: tx.slice(0, 200) })),
);

/** "<user id>-<submission>": a real-name request in the identity queue's forms. */
export const identityRequestKey = (userId: number, submission: number) => `${userId}-${submission}`;

/** A decision on a real-name request: its user and the submission it decides (a stale form decides nothing). */
export const IdentityDecisionSchema = v.pipe(
  v.object({
    intent: intentOf([Intent.Approve, Intent.Reject]),
    id: v.pipe(v.string("errors.bad_request"), v.regex(/^\d{1,15}-\d{1,9}$/, "errors.bad_request")),
    reason: text,
  }),
  v.transform(({ intent, id, reason = "" }) => {
    const [userId, submission] = id.split("-").map(Number) as [number, number];
    return { decision: intent === Intent.Approve ? ("approve" as const) : ("reject" as const), userId, submission, reason };
  }),
);

/** The step-up page: send a code to the operator, or confirm the one received. */
export const StepUpSchema = v.variant("intent", [
  v.object({ intent: v.literal(Intent.SendCode) }),
  v.pipe(
    v.object({ intent: v.literal(Intent.Verify), code: text }),
    v.transform(({ intent, code = "" }) => ({ intent, code: code.trim() })),
  ),
]);

/** The option terms: a duration added or edited, the preset stakes, what a wrong option costs. */
const OPTION_TEXT = 200;
export const OptionTermsSchema = v.variant("intent", [
  textCommand(Intent.OptionDurationSave, ["id", "seconds", "profit_ratio", "min_amount", "status"], OPTION_TEXT),
  textCommand(Intent.OptionStakesSave, ["amounts"], OPTION_TEXT),
  textCommand(Intent.OptionLossSave, ["loss_level"], OPTION_TEXT),
]);

/** The site settings, one section a form (each keeps what was typed when refused). */
const SETTING_TEXT = SETTINGS_LINK_MAX + 100;
export const SiteSettingsSchema = v.variant("intent", [
  textCommand(Intent.SettingsChat, ["service_link", "service_link_type"], SETTING_TEXT),
  textCommand(Intent.SettingsEmail, ["email"], SETTING_TEXT),
  textCommand(Intent.SettingsSite, ["status", "loss_url", "confirm_close"], SETTING_TEXT),
  textCommand(Intent.SettingsDemo, ["demo_funding", "demo_options", "demo_contract"], SETTING_TEXT),
]);
