/**
 * New passwords (register, reset, change) are checked on the server only (NIST 800-63B
 * §5.1.1.2): at least 8 characters (the form schema), not a common or breached password, not
 * guessable from patterns (sequences, repeats, keyboard walks), and not built from the user's
 * own identifiers. zxcvbn-ts with its common dictionary does the estimate; it lives in the
 * Worker only (never in the browser bundle) and is built once per isolate, on first use.
 */
import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import * as common from "@zxcvbn-ts/language-common";

/** zxcvbn's score: 0–1 fall to an online attack in under 10^6 guesses; 2 and up are kept out of reach by the throttles. */
export const MIN_SCORE = 2;

let factory: ZxcvbnFactory | null = null;

function estimator() {
  factory ??= new ZxcvbnFactory({ dictionary: { ...common.dictionary }, graphs: common.adjacencyGraphs });
  return factory;
}

/** An i18n error key when the password must be refused, else null. */
export function passwordProblem(password: string, identifiers: string[]): string | null {
  const lower = password.normalize("NFKC").toLowerCase();
  const words = identifiers.map((w) => w.toLowerCase()).filter((w) => w.length >= 4);
  if (words.some((w) => lower.includes(w) || w.includes(lower))) return "errors.password_has_identifier";
  const result = estimator().check(password.slice(0, 128), words);
  if (result.sequence.some((m) => m.pattern === "dictionary" && m.dictionaryName === "userInputs")) return "errors.password_has_identifier";
  if (result.score < MIN_SCORE) return "errors.password_too_common";
  return null;
}
