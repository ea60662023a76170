/**
 * Real-name verification rules (spec §4, §5): the review states, what a name and an ID or
 * passport number may contain, and how a card number is shown (masked). Pure, no I/O.
 */

/** review_status: 0 none (no row), 1 waiting for audit, 2 certified, 3 rejected (may submit again). */
export const ReviewStatus = { None: 0, Waiting: 1, Certified: 2, Rejected: 3 } as const;
export type ReviewStatus = (typeof ReviewStatus)[keyof typeof ReviewStatus];

export const NAME_MIN = 2;
export const NAME_MAX = 60;
export const CARD_MIN = 5;
export const CARD_MAX = 30;

/**
 * A real name: letters of any script (with their combining marks), spaces, dots, hyphens and
 * apostrophes; it starts with a letter. Digits, symbols and control characters are refused.
 */
export const NAME_PATTERN = /^[\p{L}\p{M}][\p{L}\p{M} .'’-]*$/u;

/** An ID or passport number: Latin letters, digits and hyphens. */
export const CARD_PATTERN = /^[A-Za-z0-9-]+$/;

/** A name as stored: NFC, trimmed, inner runs of spaces made one. */
export function normalizeName(value: string): string {
  return value.normalize("NFC").trim().replace(/\s+/gu, " ");
}

/** The length of a name as a reader counts it (code points, not UTF-16 units). */
export function nameLength(value: string): number {
  return [...value].length;
}

export function isValidName(value: string): boolean {
  const n = nameLength(value);
  return n >= NAME_MIN && n <= NAME_MAX && NAME_PATTERN.test(value);
}

/** A card number as stored: trimmed, upper-cased. */
export function normalizeCardId(value: string): string {
  return value.trim().toUpperCase();
}

export function isValidCardId(value: string): boolean {
  return value.length >= CARD_MIN && value.length <= CARD_MAX && CARD_PATTERN.test(value);
}

/** A card number shown back: its first 2 and last 2 characters, the rest as '*' ("AB*****89"). */
export function maskCardId(value: string): string {
  if (value.length <= 4) return "*".repeat(value.length);
  return value.slice(0, 2) + "*".repeat(value.length - 4) + value.slice(-2);
}

/** The i18n key of a status label. */
export function reviewStatusKey(status: number): string {
  switch (status) {
    case ReviewStatus.Waiting:
      return "identity.status_waiting";
    case ReviewStatus.Certified:
      return "identity.status_certified";
    case ReviewStatus.Rejected:
      return "identity.status_rejected";
    default:
      return "identity.status_none";
  }
}
