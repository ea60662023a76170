// Real-name rules (spec §5): which names and ID or passport numbers are accepted, how they are
// stored, and how a number is shown back masked.
import { describe, expect, it } from "vitest";
import { isValidCardId, isValidName, maskCardId, normalizeName, reviewStatusKey } from "~/domain/real-name";
import { parseFields } from "~/forms/parse";
import { RealNameSchema } from "~/forms/real-name";

const photos = { front_pic: "a", reverse_pic: "b" };

describe("real-name form", () => {
  it.each([
    "Zoë O'Brien",
    "王小明",
    "محمد علي",
    "Ngô Bảo Châu",
    "Д'Артаньян",
    "J. R. R. Tolkien",
    "नरेन्द्र मोदी",
    "Jean-Luc Picard",
    "O’Neil",
    "Ωμέγα",
  ])("accepts the name %s", (name) => {
    const parsed = parseFields(RealNameSchema, { name, card_id: "P1234567", ...photos });
    expect(parsed.ok).toBe(true);
  });

  it("stores names as NFC with single inner spaces, trimmed", () => {
    const decomposed = "Ngo\u0302 Ba\u0309o  Cha\u0302u ";
    const parsed = parseFields(RealNameSchema, { name: decomposed, card_id: "p1234567", ...photos });
    expect(parsed).toEqual({ ok: true, value: { name: "Ngô Bảo Châu", card_id: "P1234567", ...photos } });
    expect(normalizeName("  a   b ")).toBe("a b");
  });

  it.each([
    ["", "identity.name_required"],
    ["    ", "identity.name_required"],
    ["A", "identity.name_too_short"],
    ["A".repeat(61), "identity.name_too_long"],
    ["Ann\u0000Lee", "errors.invalid_characters"],
    ["Ann\tLee", "errors.invalid_characters"],
    ["Ann1", "identity.name_invalid"],
    ["Ann_Lee", "identity.name_invalid"],
    ["Ann 😀", "identity.name_invalid"],
    ["-Ann", "identity.name_invalid"],
    ["Ann\u200bLee", "identity.name_invalid"],
    ["\u202eAnn", "identity.name_invalid"],
    ["<b>Ann</b>", "identity.name_invalid"],
  ])("refuses the name %j with %s", (name, error) => {
    const parsed = parseFields(RealNameSchema, { name, card_id: "P1234567", ...photos });
    expect(parsed).toEqual({ ok: false, errors: { name: error } });
  });

  it("counts a name's length in characters, not UTF-16 units", () => {
    const sixty = "𠀀".repeat(60); // each outside the BMP
    expect(isValidName(sixty)).toBe(true);
    expect(isValidName(sixty + "𠀀")).toBe(false);
  });

  it.each([
    ["", "identity.card_required"],
    ["P123", "identity.card_invalid"],
    ["P".repeat(31), "identity.card_invalid"],
    ["P123 4567", "identity.card_invalid"],
    ["P1234567!", "identity.card_invalid"],
    ["Р1234567", "identity.card_invalid"], // a Cyrillic Р
  ])("refuses the number %j with %s", (card_id, error) => {
    expect(parseFields(RealNameSchema, { name: "Ann Lee", card_id, ...photos })).toEqual({ ok: false, errors: { card_id: error } });
  });

  it("stores numbers upper-cased and trimmed; 5 to 30 letters, digits or hyphens", () => {
    expect(parseFields(RealNameSchema, { name: "Ann Lee", card_id: " ab-12345 ", ...photos })).toMatchObject({
      ok: true,
      value: { card_id: "AB-12345" },
    });
    expect(isValidCardId("A1234")).toBe(true);
    expect(isValidCardId("A".repeat(30))).toBe(true);
  });

  it("needs both photos", () => {
    expect(parseFields(RealNameSchema, { name: "Ann Lee", card_id: "P1234567", front_pic: "", reverse_pic: " " })).toEqual({
      ok: false,
      errors: { front_pic: "identity.front_required", reverse_pic: "identity.reverse_required" },
    });
  });
});

describe("masked numbers and status labels", () => {
  it("shows the first 2 and last 2 characters", () => {
    expect(maskCardId("AB1234567")).toBe("AB*****67");
    expect(maskCardId("ABCDE")).toBe("AB*DE");
    expect(maskCardId("ABCD")).toBe("****");
  });

  it("labels every review status", () => {
    expect([0, 1, 2, 3].map(reviewStatusKey)).toEqual([
      "identity.status_none",
      "identity.status_waiting",
      "identity.status_certified",
      "identity.status_rejected",
    ]);
  });
});
