/**
 * Raw-SQL select lists read from the drizzle schema (issue 21: each table is described once, in
 * schema.ts). `columnList(table, keys, alias)` is `alias.snake_name AS camelKey, ...` for the keys
 * given, built once at module load, and carries `Pick<typeof table.$inferSelect, K>` as its row
 * type (`RowOf<typeof LIST>`), so a statement's columns and the type its rows are read as come from
 * one key list and cannot drift. The list is a string: it drops into a statement as `${LIST}`.
 *
 * Raw `prepare()` returns what D1 stores; drizzle maps some columns on the way out (boolean,
 * timestamp, json, bigint and numeric modes, custom types). Such a column is refused, as a type
 * error at the call and a thrown error at module load: read it through drizzle instead.
 */
import { getTableColumns, getTableName, type InferSelectModel, type Table } from "drizzle-orm";

/** Column kinds whose value D1 returns as drizzle types it: a number, a string. */
const RAW_KINDS = ["SQLiteInteger", "SQLiteText", "SQLiteReal"] as const;
type RawKind = (typeof RAW_KINDS)[number];

declare const row: unique symbol;
/** An SQL select list whose rows read as `Row`. */
export type SelectList<Row> = string & { readonly [row]: Row };
/** The row type of a select list. */
export type RowOf<List> = List extends SelectList<infer Row> ? Row : never;

type Columns<T extends Table> = T["_"]["columns"];
/** The keys of a table's columns that raw SQL reads as drizzle types them. */
export type RawKey<T extends Table> = {
  [K in keyof Columns<T>]: Columns<T>[K]["_"]["columnType"] extends RawKind ? K : never;
}[keyof Columns<T>] &
  string;
type Row<T extends Table> = InferSelectModel<T>;

/** SQLite's keywords (sqlite.org/lang_keywords.html): a column named like one is quoted. */
const KEYWORDS = new Set(
  `ABORT ACTION ADD AFTER ALL ALTER ALWAYS ANALYZE AND AS ASC ATTACH AUTOINCREMENT BEFORE BEGIN BETWEEN BY CASCADE CASE CAST CHECK
  COLLATE COLUMN COMMIT CONFLICT CONSTRAINT CREATE CROSS CURRENT CURRENT_DATE CURRENT_TIME CURRENT_TIMESTAMP DATABASE DEFAULT
  DEFERRABLE DEFERRED DELETE DESC DETACH DISTINCT DO DROP EACH ELSE END ESCAPE EXCEPT EXCLUDE EXCLUSIVE EXISTS EXPLAIN FAIL FILTER
  FIRST FOLLOWING FOR FOREIGN FROM FULL GENERATED GLOB GROUP GROUPS HAVING IF IGNORE IMMEDIATE IN INDEX INDEXED INITIALLY INNER
  INSERT INSTEAD INTERSECT INTO IS ISNULL JOIN KEY LAST LEFT LIKE LIMIT MATCH MATERIALIZED NATURAL NO NOT NOTHING NOTNULL NULL NULLS
  OF OFFSET ON OR ORDER OTHERS OUTER OVER PARTITION PLAN PRAGMA PRECEDING PRIMARY QUERY RAISE RANGE RECURSIVE REFERENCES REGEXP
  REINDEX RELEASE RENAME REPLACE RESTRICT RETURNING RIGHT ROLLBACK ROW ROWS SAVEPOINT SELECT SET TABLE TEMP TEMPORARY THEN TIES TO
  TRANSACTION TRIGGER UNBOUNDED UNION UNIQUE UPDATE USING VACUUM VALUES VIEW VIRTUAL WHEN WHERE WINDOW WITH WITHOUT`.split(/\s+/),
);

/** An identifier as SQL needs it: bare when it can be, double-quoted otherwise. */
function identifier(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !KEYWORDS.has(name.toUpperCase()) ? name : `"${name.replaceAll('"', '""')}"`;
}

/** `alias.column AS as` (no AS when SQLite already names the result `as`). */
function selected(table: Table, key: string, as: string, alias?: string): string {
  const column = getTableColumns(table)[key];
  if (!column) throw new Error(`${getTableName(table)} has no column ${key}`);
  if (!(RAW_KINDS as readonly string[]).includes(column.columnType))
    throw new Error(
      `${getTableName(table)}.${column.name} is ${column.columnType}: drizzle maps its value, raw SQL would return it unmapped; read it through drizzle`,
    );
  if (alias !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(alias)) throw new Error(`not a table alias: ${alias}`);
  const name = `${alias === undefined ? "" : `${alias}.`}${identifier(column.name)}`;
  return column.name === as ? name : `${name} AS ${identifier(as)}`;
}

/** The select list of these columns of a table, in the order given (`alias.snake AS camel`). */
export function columnList<T extends Table, const K extends RawKey<T>>(
  table: T,
  keys: readonly K[],
  alias?: string,
): SelectList<Pick<Row<T>, K>> {
  return keys.map((key) => selected(table, key, key, alias)).join(", ") as SelectList<Pick<Row<T>, K>>;
}

/** Every column of a table but these, in the schema's order; a mapped column left in is refused. */
export function columnListExcept<T extends Table, const K extends keyof Columns<T> & string>(
  table: T,
  omit: readonly K[] & ([Exclude<keyof Columns<T>, K | RawKey<T>>] extends [never] ? unknown : "a column drizzle maps is left in"),
  alias?: string,
): SelectList<Omit<Row<T>, K>> {
  const keys = Object.keys(getTableColumns(table)).filter((key) => !(omit as readonly string[]).includes(key));
  return keys.map((key) => selected(table, key, key, alias)).join(", ") as SelectList<Omit<Row<T>, K>>;
}

/** One column read under another name (`alias.snake AS as`). */
export function renamedColumn<T extends Table, K extends RawKey<T>, const As extends string>(
  table: T,
  key: K,
  as: As,
  alias?: string,
): SelectList<{ [P in As]: Row<T>[K] }> {
  return selected(table, key, as, alias) as SelectList<{ [P in As]: Row<T>[K] }>;
}

type Joined<Lists extends readonly unknown[]> = Lists extends readonly [infer First, ...infer Rest] ? RowOf<First> & Joined<Rest> : unknown;

/** Several lists (of joined tables, say) as one, their row types intersected. */
export function joinLists<const Lists extends readonly SelectList<unknown>[]>(...lists: Lists): SelectList<Joined<Lists>> {
  return lists.join(", ") as SelectList<Joined<Lists>>;
}

/** The columns of a LEFT JOINed table: each may be null (no matching row). The SQL is the list's. */
export function nullable<Row>(list: SelectList<Row>): SelectList<{ [K in keyof Row]: Row[K] | null }> {
  return list as string as SelectList<{ [K in keyof Row]: Row[K] | null }>;
}

/** The same columns as a drizzle selection (`db.select(fields)`), typed as `columnList` types them. */
export function selectFields<T extends Table, const K extends RawKey<T>>(table: T, keys: readonly K[]): Pick<Columns<T>, K> {
  const columns = getTableColumns(table);
  return Object.fromEntries(keys.map((key) => [key, columns[key]])) as Pick<Columns<T>, K>;
}
