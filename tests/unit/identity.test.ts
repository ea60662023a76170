import { describe, expect, it } from "vitest";
import { canonicalEmail, canonicalInternational, canonicalMobile, identifierWords, loginType, parseAccount } from "~/domain/identity";

describe("one canonical form per account identifier", () => {
  it("e-mail: trimmed, lower case, NFKC; not an address → null", () => {
    expect(canonicalEmail("  Alice.Smith@Example.COM ")).toBe("alice.smith@example.com");
    expect(canonicalEmail("ａｌｉｃｅ@example.com")).toBe("alice@example.com");
    expect(canonicalEmail("alice@example")).toBeNull();
    expect(canonicalEmail("a..b@example.com")).toBeNull();
    expect(canonicalEmail("852-91234567@a")).toBeNull();
  });

  it("mobile: every spelling of one number is one E.164 string", () => {
    const spellings = [
      canonicalMobile("852", "9123 4567"),
      canonicalMobile("+852", "9123-4567"),
      canonicalInternational("+852 9123 4567"),
      canonicalInternational("852-91234567"),
      canonicalInternational("0085291234567"),
      canonicalInternational("+85291234567"),
    ];
    expect(new Set(spellings)).toEqual(new Set(["+85291234567"]));
  });

  it("drops a national trunk zero and sees overlapping area codes as one number", () => {
    expect(canonicalMobile("44", "07700 900123")).toBe("+447700900123");
    expect(canonicalMobile("1", "242 555 1234")).toBe(canonicalMobile("1242", "5551234"));
  });

  it("refuses what cannot be a phone number", () => {
    expect(canonicalMobile("852", "12")).toBeNull();
    expect(canonicalMobile("852", "12ab5678")).toBeNull();
    expect(canonicalMobile("0", "91234567")).toBeNull();
    expect(canonicalMobile("852", "1234567890123456")).toBeNull();
    expect(canonicalInternational("91234567@a")).toBeNull();
  });

  it("reads the login_type clients send: names, the spec's numbers, or nothing", () => {
    expect(loginType("1")).toBe("email");
    expect(loginType("2")).toBe("mobile");
    expect(loginType("")).toBe("");
    expect(loginType("fax")).toBeNull();
    expect(parseAccount("Bob@Example.com")).toEqual({ kind: "email", value: "bob@example.com" });
    expect(parseAccount("+852 9123 4567")).toEqual({ kind: "mobile", value: "+85291234567" });
    expect(parseAccount("852-91234567@a", "mobile")).toBeNull();
  });

  it("a user's own identifiers, for the new-password check", () => {
    expect(identifierWords({ email: "alice.smith@example.com", mobile: "+85291234567" })).toEqual([
      "alice.smith@example.com",
      "alice.smith",
      "85291234567",
      "91234567",
    ]);
  });
});
