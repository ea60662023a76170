/**
 * New accounts and their lookups (spec §2 registration): canonical identifiers (app/domain/identity.ts),
 * mobile numbers resolved against the area list, users inserted with their sub-accounts.
 */
import { and, desc, eq, or, sql } from "drizzle-orm";
import type { ServiceContext } from "~/context.server";
import { areas, baseSettings, users } from "~/db/schema";
import { canonicalInternational, canonicalMobile } from "~/domain/identity";
import { MAIN_COMPANY_ID } from "~/lib/constants";
import { ACCOUNT_KINDS } from "~/services/ledger/accounts.server";
import type { FieldErrors } from "~/services/outcome";
import { basicInfo } from "~/services/account.server";

export async function verifyRegType(ctx: ServiceContext): Promise<number> {
  if (ctx.config.platform.kind === "upstream") return (await basicInfo(ctx)).verify_reg_type;
  const [row] = await ctx.db
    .select({ v: baseSettings.verifyRegType })
    .from(baseSettings)
    .where(eq(baseSettings.companyId, MAIN_COMPANY_ID));
  return row?.v ?? 1;
}

export async function areaById(ctx: ServiceContext, areaId: number): Promise<{ id: number; code: string } | null> {
  const [row] = await ctx.db.select({ id: areas.id, code: areas.globalCode }).from(areas).where(eq(areas.id, areaId));
  return row ?? null;
}

/** The area whose calling code starts a canonical number (longest code first, so 1242 wins over 1). */
export async function areaForNumber(ctx: ServiceContext, e164: string): Promise<number | null> {
  const [row] = await ctx.db
    .select({ id: areas.id })
    .from(areas)
    .where(sql`${e164} LIKE '+' || ${areas.globalCode} || '%'`)
    .orderBy(desc(sql`length(${areas.globalCode})`), areas.id)
    .limit(1);
  return row?.id ?? null;
}

/** A mobile number from an area and a national number, or the spec's "852-91234567" form: canonical, with its area. */
export async function resolveMobile(
  ctx: ServiceContext,
  input: { account?: string; area_id?: number; mobile?: string },
): Promise<{ ok: true; value: string; areaId: number | null } | { ok: false; errors: FieldErrors }> {
  if (input.account && input.area_id) {
    const area = await areaById(ctx, input.area_id);
    if (!area) return { ok: false, errors: { area_id: "errors.required_area" } };
    const value = canonicalMobile(area.code, input.account);
    return value ? { ok: true, value, areaId: area.id } : { ok: false, errors: { account: "errors.invalid_mobile" } };
  }
  const value = input.mobile ? canonicalInternational(input.mobile) : null;
  if (!value) return { ok: false, errors: { account: "errors.invalid_mobile" } };
  return { ok: true, value, areaId: await areaForNumber(ctx, value) };
}

export function randomUid() {
  const n = crypto.getRandomValues(new Uint32Array(1))[0]! % 90_000_000;
  return String(10_000_000 + n);
}

export function randomInviteCode() {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  return [...crypto.getRandomValues(new Uint8Array(8))].map((b) => alphabet[b % alphabet.length]).join("");
}

/**
 * Inserts a user and opens the three sub-accounts in one batch (raw statements: the accounts
 * find their user by uid inside the same batch, which drizzle's insert builder cannot say). Retries a few times on the
 * (rare) collision of a random uid or invite code; a duplicate e-mail/mobile is reported.
 */
export async function insertUser(
  ctx: ServiceContext,
  fields: {
    email?: string | null;
    mobile?: string | null;
    areaId?: number | null;
    passwordHash?: string | null;
    referrerId?: number | null;
    isDemo?: boolean;
    demoId?: string | null;
    wallet?: string | null;
  },
): Promise<{ ok: true; id: number; uid: string } | { ok: false; duplicate: true }> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const uid = randomUid();
    const statements = [
      ctx.d1
        .prepare(
          `INSERT INTO users (uid, company_id, email, mobile, area_id, password_hash, invite_code, referrer_id, is_demo, demo_id, role, lang)
           VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, 'user', ?11)`,
        )
        .bind(
          uid,
          MAIN_COMPANY_ID,
          fields.email ?? null,
          fields.mobile ?? null,
          fields.areaId ?? null,
          fields.passwordHash ?? null,
          randomInviteCode(),
          fields.referrerId ?? null,
          fields.isDemo ? 1 : 0,
          fields.demoId ?? null,
          ctx.lang,
        ),
      ...ACCOUNT_KINDS.map((k) =>
        ctx.d1
          .prepare("INSERT INTO accounts (user_id, kind, account_type_id) VALUES ((SELECT id FROM users WHERE uid = ?1), ?2, ?3)")
          .bind(uid, k.kind, k.accountTypeId),
      ),
      // A wallet user's address is linked in the same batch: a wallet already linked aborts it all.
      ...(fields.wallet
        ? [
            ctx.d1
              .prepare("INSERT INTO user_wallets (address, user_id) VALUES (?1, (SELECT id FROM users WHERE uid = ?2))")
              .bind(fields.wallet, uid),
          ]
        : []),
    ];
    try {
      await ctx.d1.batch(statements);
    } catch (error) {
      const message = String((error as Error).message);
      if (
        message.includes("users.email") ||
        message.includes("users.mobile") ||
        message.includes("users.demo_id") ||
        message.includes("user_wallets.address")
      )
        return { ok: false, duplicate: true };
      if (message.includes("users.uid") || message.includes("users.invite_code")) continue;
      throw error;
    }
    const row = await ctx.d1.prepare("SELECT id FROM users WHERE uid = ?1").bind(uid).first<{ id: number }>();
    return { ok: true, id: row!.id, uid };
  }
  throw new Error("could not allocate a user id");
}

/**
 * A user whose only credential is a wallet (web3 login): made the way registration makes users
 * (uid, invite code, the three sub-accounts), without e-mail or password, with the lowercased
 * address linked in the same batch. `duplicate` when the address is already linked.
 */
export function createWalletUser(ctx: ServiceContext, address: string) {
  return insertUser(ctx, { wallet: address });
}

export async function accountExists(ctx: ServiceContext, target: { email?: string | null; mobile?: string | null }) {
  const conditions = [
    target.email ? eq(users.email, target.email) : undefined,
    target.mobile ? eq(users.mobile, target.mobile) : undefined,
  ].filter(Boolean);
  if (conditions.length === 0) return false;
  const [row] = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(or(...conditions))
    .limit(1);
  return Boolean(row);
}

/** A real (non-demo) user by canonical e-mail. */
export async function realUserByEmail(ctx: ServiceContext, email: string) {
  const [row] = await ctx.db
    .select({ id: users.id, email: users.email, mobile: users.mobile })
    .from(users)
    .where(and(eq(users.email, email), eq(users.isDemo, 0)));
  return row ?? null;
}
