/**
 * Account identifiers in one canonical form (the form stored in D1, used for sign-in, codes and
 * every limit), so that spelling variants of one account are one account:
 *   e-mail: trimmed, NFKC, lower case;
 *   mobile: E.164, "+" + area code + national digits (separators and trunk zeros dropped),
 *           so "+852 9123-4567", "852-91234567" and area 852 with "91234567" are one number,
 *           and overlapping area codes (1 / 1242) give one number too.
 * Pure: no I/O.
 */

export type AccountRef = { kind: "email"; value: string } | { kind: "mobile"; value: string };

const EMAIL_RE = /^[^\s@\u0000-\u001f\u007f]{1,64}@[^\s@\u0000-\u001f\u007f]{1,253}\.[^\s@\u0000-\u001f\u007f.]{1,63}$/u;

/** The canonical e-mail, or null when it is not an e-mail address. */
export function canonicalEmail(input: string): string | null {
  const value = input.normalize("NFKC").trim().toLowerCase();
  if (value.length > 254 || !EMAIL_RE.test(value) || value.includes("..")) return null;
  return value;
}

/** Calling codes are 1–4 digits (ITU E.164). */
export function isAreaCode(code: string): boolean {
  return /^[1-9]\d{0,3}$/.test(code);
}

/** Separators people type inside phone numbers. */
const PHONE_SEPARATORS = /[\s\-().\u00a0]/g;

/**
 * The canonical mobile number from an area code and a national number as typed:
 * "+852" + "9123 4567" → "+85291234567". A national trunk prefix (leading zeros) is dropped.
 * Null when the digits cannot be a phone number (E.164 allows 15 digits in all).
 */
export function canonicalMobile(areaCode: string, national: string): string | null {
  const code = areaCode.replace(/^\+/, "").trim();
  if (!isAreaCode(code)) return null;
  const digits = national.normalize("NFKC").replace(PHONE_SEPARATORS, "");
  if (!/^\d+$/.test(digits)) return null;
  const nsn = digits.replace(/^0+/, "");
  if (nsn.length < 4 || code.length + nsn.length > 15) return null;
  return `+${code}${nsn}`;
}

/**
 * A mobile number written in full, in any of the forms clients send: "+85291234567",
 * "+852 9123-4567", "0085291234567", or the spec's "852-91234567" (area code, '-', number).
 */
export function canonicalInternational(input: string): string | null {
  const value = input.normalize("NFKC").trim();
  const dashed = /^\+?(\d{1,4})-([\d\s\-().\u00a0]+)$/.exec(value);
  if (dashed) return canonicalMobile(dashed[1]!, dashed[2]!);
  let digits = value.replace(PHONE_SEPARATORS, "");
  if (digits.startsWith("+")) digits = digits.slice(1);
  else if (digits.startsWith("00")) digits = digits.slice(2);
  if (!/^[1-9]\d{7,14}$/.test(digits)) return null;
  return `+${digits}`;
}

/**
 * What a sign-in's account field refers to. `type` is the client's login_type: "email" / "1",
 * "mobile" / "2", or empty to decide from the text (an "@" means e-mail).
 */
export function parseAccount(input: string, type: "email" | "mobile" | "" = ""): AccountRef | null {
  const kind = type || (input.includes("@") ? "email" : "mobile");
  if (kind === "email") {
    const value = canonicalEmail(input);
    return value ? { kind, value } : null;
  }
  const value = canonicalInternational(input);
  return value ? { kind: "mobile", value } : null;
}

/** The login_type values clients send (spec §7 loginForU): names or the numeric codes. */
export function loginType(value: string | undefined | null): "email" | "mobile" | "" | null {
  switch ((value ?? "").trim().toLowerCase()) {
    case "":
    case "0":
      return "";
    case "email":
    case "1":
      return "email";
    case "mobile":
    case "phone":
    case "2":
      return "mobile";
    default:
      return null;
  }
}

/** Strings a new password must not contain (NIST 800-63B: context-specific words). */
export function identifierWords(ref: { email?: string | null; mobile?: string | null }): string[] {
  const words: string[] = [];
  if (ref.email) {
    words.push(ref.email);
    const local = ref.email.split("@")[0] ?? "";
    if (local.length >= 4) words.push(local);
  }
  if (ref.mobile) {
    const digits = ref.mobile.replace(/\D/g, "");
    words.push(digits);
    if (digits.length > 8) words.push(digits.slice(-8));
  }
  return words;
}
