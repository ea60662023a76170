/**
 * Raw-SQL select lists read from the drizzle schema (app/db/columns.ts, issue 21): the SQL text a
 * statement gets, and the row type it is read as, come from one key list.
 */
import { blob, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { describe, expect, expectTypeOf, it } from "vitest";
import { columnList, columnListExcept, joinLists, nullable, renamedColumn, selectFields, type RowOf } from "~/db/columns";
import { funds, loans, transfers, users } from "~/db/schema";

describe("select lists from the schema", () => {
  it("names each column snake_case AS its camelCase key, in the order given", () => {
    const list = columnList(transfers, ["id", "fromKind", "toKind", "amount", "createdAt"]);
    expect(String(list)).toBe("id, from_kind AS fromKind, to_kind AS toKind, amount, created_at AS createdAt");
    expectTypeOf<RowOf<typeof list>>().toEqualTypeOf<
      Pick<typeof transfers.$inferSelect, "id" | "fromKind" | "toKind" | "amount" | "createdAt">
    >();
  });

  it("prefixes a table alias and quotes a column named like an SQLite keyword", () => {
    expect(String(columnList(funds, ["id", "desc", "liquidatedDamages"], "f"))).toBe(
      'f.id, f."desc", f.liquidated_damages AS liquidatedDamages',
    );
    // precision and status are not keywords: left bare, as the hand-written lists had them
    expect(String(columnList(funds, ["status", "sort"]))).toBe("status, sort");
  });

  it("lists every column but the ones named, in the schema's order", () => {
    const list = columnListExcept(funds, ["createdAt", "desc", "image"]);
    expect(String(list)).toBe(
      "id, title, currency_code AS currencyCode, dividend_percentage AS dividendPercentage, starting_sub_amount AS startingSubAmount, " +
        "lock_dividend_days AS lockDividendDays, max_sub_amount AS maxSubAmount, liquidated_damages AS liquidatedDamages, " +
        "auto_refund AS autoRefund, status, sort",
    );
    expectTypeOf<RowOf<typeof list>>().toEqualTypeOf<Omit<typeof funds.$inferSelect, "createdAt" | "desc" | "image">>();
  });

  it("renames a column and joins lists of several tables into one row type", () => {
    const list = joinLists(columnList(loans, ["id", "amount"], "l"), renamedColumn(loans, "createdAt", "subTime", "l"));
    expect(String(list)).toBe("l.id, l.amount, l.created_at AS subTime");
    expectTypeOf<RowOf<typeof list>>().toEqualTypeOf<{ id: number; amount: number } & { subTime: number }>();
  });

  it("types a LEFT JOINed table's columns as nullable, the SQL unchanged", () => {
    const list = joinLists(columnList(loans, ["id"], "l"), nullable(columnList(users, ["uid", "email"], "u")));
    expect(String(list)).toBe("l.id, u.uid, u.email");
    expectTypeOf<RowOf<typeof list>>().toEqualTypeOf<{ id: number } & { uid: string | null; email: string | null }>();
  });

  it("gives drizzle's select the same columns", () => {
    const fields = selectFields(loans, ["id", "dueAt"]);
    expect(Object.keys(fields)).toEqual(["id", "dueAt"]);
    expect(fields.dueAt).toBe(loans.dueAt);
  });

  it("refuses a column whose drizzle mode maps the driver's value (raw SQL would return it unmapped)", () => {
    const flags = sqliteTable("flags", {
      id: integer("id").primaryKey(),
      on: integer("on", { mode: "boolean" }).notNull(),
      at: integer("at", { mode: "timestamp_ms" }),
      meta: text("meta", { mode: "json" }),
      big: blob("big", { mode: "bigint" }),
      order: integer("order").notNull(),
      label: text("label").notNull(),
    });
    // @ts-expect-error a boolean-mode column cannot be read raw
    expect(() => columnList(flags, ["id", "on"])).toThrow(/flags\.on .*SQLiteBoolean/);
    // @ts-expect-error a timestamp-mode column cannot be read raw
    expect(() => columnList(flags, ["at"])).toThrow(/SQLiteTimestamp/);
    // @ts-expect-error a json-mode column cannot be read raw
    expect(() => columnList(flags, ["meta"], "x")).toThrow(/SQLiteTextJson/);
    // @ts-expect-error nor can "all but" leave one in
    expect(() => columnListExcept(flags, ["on", "at", "meta"])).toThrow(/SQLiteBigInt/);
    expect(String(columnListExcept(flags, ["on", "at", "meta", "big"]))).toBe('id, "order", label');
  });

  it("accepts every column of the schema's tables (none has a mapped mode today)", () => {
    for (const table of [funds, loans, transfers]) expect(() => columnListExcept(table, [])).not.toThrow();
  });
});
