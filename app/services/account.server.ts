/**
 * Read side of accounts: profile, balances, today's profit, and the company/settings/area data
 * that the shell and the sign-in screens need. Every user query is scoped by the owner's id.
 */
import { asc, eq } from "drizzle-orm";
import type { AppContext, ServiceContext } from "~/context.server";
import { areas, baseSettings, companies, users } from "~/db/schema";
import { utcDayRange } from "~/domain/day";
import { CHARGE_ACCOUNTS, CHARGE_KINDS, RESULT_KINDS, realisedResult, type DayEntries } from "~/domain/ledger";
import { toBalanceString, type Micros } from "~/domain/money";
import { profitPercent } from "~/domain/wallet";
import { MAIN_COMPANY_ID } from "~/lib/constants";
import { cached } from "~/services/cache.server";
import { userAccounts } from "~/services/ledger/accounts.server";
import { upstreamAssets } from "~/services/upstream/account.server";
import type { UpstreamRead } from "~/services/upstream/wire";
import { upstreamAreaList } from "~/services/upstream/accounts.server";
import { upstreamBasicInfo, upstreamCompany } from "~/services/upstream/market.server";

export async function areaList(ctx: ServiceContext) {
  if (ctx.config.platform.kind === "upstream") return upstreamAreaList(ctx);
  const rows = await ctx.db
    .select({ id: areas.id, code: areas.code, name: areas.name, globalCode: areas.globalCode })
    .from(areas)
    .orderBy(asc(areas.id));
  return rows.map((a) => ({ id: a.id, area_id: a.id, code: a.code, area_code: a.code, name: a.name, global_code: a.globalCode }));
}

export async function basicInfo(ctx: ServiceContext) {
  if (ctx.config.platform.kind === "upstream") return upstreamBasicInfo(ctx);
  return settingsCached(ctx, "basic", async () => {
    const [row] = await ctx.db.select().from(baseSettings).where(eq(baseSettings.companyId, MAIN_COMPANY_ID));
    return {
      service_link: row?.serviceLink ?? "",
      service_link_type: row?.serviceLinkType ?? 1,
      verify_reg_type: row?.verifyRegType ?? 1,
      trade_fee_type: row?.tradeFeeType ?? 2,
      micro_loss_level: row?.microLossLevel ?? 0,
    };
  });
}

/** Settings changed straight in D1 (not through /admin/settings, which bumps the counter) are picked up after a minute even without a bump. */
const SETTINGS_MAX_AGE_MS = 60_000;

/**
 * The base settings and the company change rarely: kept in the isolate's memory under the
 * "settings" counter (cache.server; an edit that bumps it is seen within the cache's bound, one
 * that does not within a minute). Local runs read them fresh, so tests and operators who change
 * them straight in the database see the change at once.
 */
function settingsCached<T>(ctx: ServiceContext, key: string, load: () => Promise<T>): Promise<T> {
  return ctx.config.isLocal ? load() : cached(ctx, "settings", key, load, { maxAgeMs: SETTINGS_MAX_AGE_MS });
}

export async function companyInfo(ctx: ServiceContext) {
  if (ctx.config.platform.kind === "upstream") return (await upstreamCompany(ctx))?.data ?? null;
  return settingsCached(ctx, "company", () => loadCompany(ctx));
}

async function loadCompany(ctx: ServiceContext) {
  const [c] = await ctx.db.select().from(companies).where(eq(companies.id, MAIN_COMPANY_ID));
  if (!c) return null;
  return {
    id: c.id,
    name: c.name,
    logo: c.logo,
    url: c.url,
    subject: c.subject,
    registered_address: c.registeredAddress,
    location: c.location,
    email: c.email,
    status: c.status,
    type: c.type,
    loss_url: c.lossUrl,
  };
}

/**
 * The spec's user (uid, email, invite_code, id, is_trader, is_demo), with the mobile number in
 * the spec's form: area code, '-', national number ("852-91234567").
 */
export async function userProfile(ctx: ServiceContext, userId: number) {
  const [u] = await ctx.db
    .select({
      id: users.id,
      uid: users.uid,
      email: users.email,
      mobile: users.mobile,
      areaCode: areas.globalCode,
      inviteCode: users.inviteCode,
      isTrader: users.isTrader,
      isDemo: users.isDemo,
    })
    .from(users)
    .leftJoin(areas, eq(areas.id, users.areaId))
    .where(eq(users.id, userId));
  if (!u) return null;
  return {
    id: u.id,
    uid: u.uid,
    email: u.email ?? "",
    mobile: specMobile(u.mobile, u.areaCode),
    invite_code: u.isDemo ? "" : u.inviteCode,
    is_trader: u.isTrader,
    is_demo: u.isDemo,
  };
}

/** "+85291234567" with area 852 → "852-91234567" (the spec's mobile form); without a known area, the number as stored. */
export function specMobile(e164: string | null, areaCode: string | null): string {
  if (!e164) return "";
  if (areaCode && e164.startsWith(`+${areaCode}`)) return `${areaCode}-${e164.slice(areaCode.length + 1)}`;
  return e164;
}

/** Public settings of GET /api/default/setting (spec §7): is_show_mobile says whether mobile registration is offered. */
const PUBLIC_SETTINGS: Record<string, (ctx: ServiceContext) => Promise<string>> = {
  is_show_mobile: async () => "1",
};

export async function publicSetting(ctx: ServiceContext, key: string): Promise<string | null> {
  const read = Object.hasOwn(PUBLIC_SETTINGS, key) ? PUBLIC_SETTINGS[key] : undefined;
  return read ? read(ctx) : null;
}

const TYPE_BY_KIND: Record<string, "change" | "micro" | "forex"> = { funding: "change", options: "micro", contract: "forex" };

export interface Balances {
  accounts: { kind: string; type: string; accountTypeId: number; currencyId: number; balance: Micros; lockBalance: Micros }[];
  total: Micros;
}

/** The three sub-accounts and the total (sum of balance + lockBalance, spec §9). */
export async function balances(ctx: ServiceContext, userId: number): Promise<Balances> {
  const rows = await userAccounts(ctx.d1, userId);
  const accounts = rows.map((r) => ({
    kind: r.kind,
    type: TYPE_BY_KIND[r.kind] ?? r.kind,
    accountTypeId: r.accountTypeId,
    currencyId: r.currencyId,
    balance: r.balance,
    lockBalance: r.lockBalance,
  }));
  return { accounts, total: accounts.reduce((s, a) => s + a.balance + a.lockBalance, 0) };
}

export async function walletBalances(ctx: ServiceContext, userId: number) {
  const b = await balances(ctx, userId);
  return {
    total: toBalanceString(b.total),
    list: b.accounts.map((a) => ({
      type: a.type,
      accountTypeId: a.accountTypeId,
      currencyId: a.currencyId,
      balance: toBalanceString(a.balance),
      lockBalance: toBalanceString(a.lockBalance),
    })),
  };
}

/**
 * Today's realised profit (micros): the day's result as app/domain/ledger.ts defines it
 * (realisedResult), over the ledger entries written within the current UTC day (app/domain/day.ts,
 * the day of the daily jobs). Two sums per kind: the user's own entries (all three sub-accounts,
 * both buckets: a margin or stake locked and released nets to zero), and what the charge
 * accounts took in the user's loan repayments.
 */
async function profitToday(ctx: ServiceContext, userId: number, now: number): Promise<Micros> {
  const { start, end } = utcDayRange(now);
  const marks = (list: readonly string[], from: number) => list.map((_, i) => `?${from + i}`).join(", ");
  const resultsFrom = 4;
  const chargesFrom = resultsFrom + RESULT_KINDS.length;
  const accountsFrom = chargesFrom + CHARGE_KINDS.length;
  const { results } = await ctx.d1
    .prepare(
      `SELECT t.kind, SUM(e.amount) AS own, 0 AS charges
         FROM accounts a
         JOIN ledger_entries e ON e.account_id = a.id
         JOIN ledger_transactions t ON t.id = e.transaction_id
        WHERE a.user_id = ?1 AND e.created_at >= ?2 AND e.created_at < ?3 AND t.kind IN (${marks(RESULT_KINDS, resultsFrom)})
        GROUP BY t.kind
       UNION ALL
       SELECT t.kind, 0 AS own, SUM(e.amount) AS charges
         FROM ledger_transactions t
         JOIN ledger_entries e ON e.transaction_id = t.id
         JOIN accounts a ON a.id = e.account_id
        WHERE t.user_id = ?1 AND t.created_at >= ?2 AND t.created_at < ?3 AND t.kind IN (${marks(CHARGE_KINDS, chargesFrom)})
          AND a.platform_code IN (${marks(CHARGE_ACCOUNTS, accountsFrom)})
        GROUP BY t.kind`,
    )
    .bind(userId, start, end, ...RESULT_KINDS, ...CHARGE_KINDS, ...CHARGE_ACCOUNTS)
    .all<DayEntries>();
  return realisedResult(results);
}

export interface Assets extends Balances {
  /** Today's realised profit (micros). */
  profit: Micros;
  /** profit / total × 100, 2 decimals (spec §9). */
  percent: string;
}

/**
 * The assets figures every screen shows (home, user centre, /mine/accounts, the API): the three
 * sub-accounts sorted by accountTypeId, the total (Σ balance + lockBalance), today's profit and
 * its percentage of the total. One function, so the screens always agree.
 */
export async function assetsOverview(ctx: ServiceContext, userId: number, now = Date.now()): Promise<Assets> {
  const [b, profit] = await Promise.all([balances(ctx, userId), profitToday(ctx, userId, now)]);
  return { ...b, profit, percent: profitPercent(profit, b.total) };
}

/**
 * The signed-in user's assets from whichever platform holds them (ADR 024): this one's ledger, or
 * the backend's figures in upstream mode, where they can also be missing (the backend is down) or
 * the backend's session over (the page sends the user to sign in again).
 */
export async function myAssets(ctx: AppContext, userId: number): Promise<UpstreamRead<Assets>> {
  if (ctx.config.platform.kind === "upstream") return upstreamAssets(ctx);
  return { ok: true, value: await assetsOverview(ctx, userId) };
}

/** Today's realised profit (the UTC day, docs/glossary.md) and its percentage of the total balance. */
export async function todayProfit(ctx: ServiceContext, userId: number, now = Date.now()) {
  const a = await assetsOverview(ctx, userId, now);
  return { profit: a.profit, percent: a.percent, total: a.total };
}

/** Remembers a signed-in user's language (for e-mails and their next devices). */
export async function setUserLanguage(ctx: ServiceContext, userId: number, lang: string) {
  // upstream mode: the backend holds the user and hears the language on every call (§7 `lang`)
  if (ctx.config.platform.kind === "upstream") return;
  await ctx.db.update(users).set({ lang }).where(eq(users.id, userId));
}
