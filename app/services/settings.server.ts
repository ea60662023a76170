/**
 * The operator's site settings (/admin/settings): support chat, contact e-mail, open or closed,
 * demo starting balances. Each save is one D1 batch with the "settings" cache bump (cache.server),
 * so every isolate sees the change within the cache's bound and the one that made it at once.
 * The rules are in app/domain/settings.ts.
 */
import type { ServiceContext } from "~/context.server";
import { checkChatSettings, checkCompanyEmail, checkDemoBalances, checkSiteStatus, type DemoBalances } from "~/domain/settings";
import { CompanyStatus } from "~/domain/startup";
import { MAIN_COMPANY_ID } from "~/lib/constants";
import { bumpStatement, forgetVersions } from "~/services/cache.server";
import { assertOperator } from "~/services/operator.server";
import type { SessionUser } from "~/services/session.server";
import { type Outcome } from "~/services/outcome";

/** What the settings page shows, read fresh (never from the cache: the operator sees what is stored). */
export async function operatorSettings(ctx: ServiceContext, operator: SessionUser) {
  assertOperator(operator);
  const row = await ctx.d1
    .prepare(
      `SELECT s.service_link AS link, s.service_link_type AS type, c.email, c.status, c.loss_url AS lossUrl,
              s.demo_funding_balance AS funding, s.demo_options_balance AS options, s.demo_contract_balance AS contract
         FROM companies c JOIN base_settings s ON s.company_id = c.id WHERE c.id = ?1`,
    )
    .bind(MAIN_COMPANY_ID)
    .first<{ link: string; type: number; email: string; status: number; lossUrl: string } & DemoBalances>();
  if (!row) throw new Error("the main company has no settings row");
  const { link, type, email, status, lossUrl, ...demo } = row;
  return { chat: { link, type }, email, status, lossUrl, demo };
}

/** One statement on the main company's settings and the cache bump, in one batch; this isolate then reads the counters again. */
async function save(ctx: ServiceContext, sql: string, ...values: unknown[]) {
  await ctx.d1.batch([ctx.d1.prepare(sql).bind(MAIN_COMPANY_ID, ...values), bumpStatement(ctx.d1, "settings")]);
  forgetVersions();
}

export async function saveChatSettings(
  ctx: ServiceContext,
  operator: SessionUser,
  input: { link: string; type: string },
): Promise<Outcome<null>> {
  assertOperator(operator);
  const checked = checkChatSettings(input);
  if (!checked.ok) return { ok: false, errors: checked.errors, status: 400 };
  await save(
    ctx,
    "UPDATE base_settings SET service_link = ?2, service_link_type = ?3 WHERE company_id = ?1",
    checked.value.link,
    checked.value.type,
  );
  return { ok: true, value: null };
}

export async function saveCompanyEmail(ctx: ServiceContext, operator: SessionUser, input: string): Promise<Outcome<null>> {
  assertOperator(operator);
  const checked = checkCompanyEmail(input);
  if (!checked.ok) return { ok: false, errors: checked.errors, status: 400 };
  await save(ctx, "UPDATE companies SET email = ?2 WHERE id = ?1", checked.value);
  return { ok: true, value: null };
}

/**
 * Opens or closes the site. `siteHosts`: the hosts this site answers on (the request's, the
 * desktop host), which a loss URL must not point at. The confirmation is asked only to close an
 * open site (a closed site's loss URL can be changed without it).
 */
export async function saveSiteStatus(
  ctx: ServiceContext,
  operator: SessionUser,
  input: { status: string; lossUrl: string; confirmed: boolean; siteHosts: string[] },
): Promise<Outcome<{ status: number }>> {
  assertOperator(operator);
  const current = await ctx.d1.prepare("SELECT status FROM companies WHERE id = ?1").bind(MAIN_COMPANY_ID).first<{ status: number }>();
  const checked = checkSiteStatus({ ...input, wasClosed: current?.status === CompanyStatus.Closed });
  if (!checked.ok) return { ok: false, errors: checked.errors, status: 400 };
  await save(ctx, "UPDATE companies SET status = ?2, loss_url = ?3 WHERE id = ?1", checked.value.status, checked.value.lossUrl);
  return { ok: true, value: { status: checked.value.status } };
}

/** New demo accounts, and demo accounts reset from now on, start with these balances. */
export async function saveDemoBalances(
  ctx: ServiceContext,
  operator: SessionUser,
  input: Record<keyof DemoBalances, string>,
): Promise<Outcome<null>> {
  assertOperator(operator);
  const checked = checkDemoBalances(input);
  if (!checked.ok) return { ok: false, errors: checked.errors, status: 400 };
  const { funding, options, contract } = checked.value;
  await save(
    ctx,
    "UPDATE base_settings SET demo_funding_balance = ?2, demo_options_balance = ?3, demo_contract_balance = ?4 WHERE company_id = ?1",
    funding,
    options,
    contract,
  );
  return { ok: true, value: null };
}
