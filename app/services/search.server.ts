/**
 * The search page and its calls (spec §2 /product, §7): currency pairs by code, companies
 * (tenants) by name on the main site (type 0), one company's public card, and the chosen company
 * of the cookie. Every query binds the user's text as a parameter; nothing typed reaches the SQL.
 */
import type { ServiceContext } from "~/context.server";
import { COMPANY_RESULTS, companyIdFromCookie, nameKey, pairMatches, sameSiteImage, searchText } from "~/domain/company";
import { httpUrl } from "~/domain/content";
import { isMainSiteType } from "~/domain/startup";
import { companyInfo } from "~/services/account.server";
import { listInstruments } from "~/services/market.server";

/** Instruments whose code or shown code contains the text (ignoring case, spaces, '/', '_' and '-'). */
export async function searchPairs(ctx: ServiceContext, raw: string) {
  const text = searchText(raw);
  return (await listInstruments(ctx)).filter((i) => pairMatches(i, text));
}

/** What a visitor sees of a company (spec §3 Company: id, name, logo, url, subject, registered_address, location, email). */
export interface CompanyCard {
  id: number;
  name: string;
  logo: string;
  url: string;
  subject: string;
  registered_address: string;
  location: string;
  email: string;
}

/** A row as read (the same columns as the card, before the card cleans them). */
type CompanyRow = CompanyCard;

const COLUMNS = "id, name, logo, url, subject, registered_address, location, email";

/** Only what is safe to show: a same-site logo, an http(s) website, a plain e-mail address. */
function card(row: CompanyRow): CompanyCard {
  const email = row.email.trim();
  return {
    id: row.id,
    name: row.name,
    logo: sameSiteImage(row.logo),
    url: httpUrl(row.url)?.href ?? "",
    subject: row.subject,
    registered_address: row.registered_address,
    location: row.location,
    email: /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/.test(email) ? email : "",
  };
}

/** Spec §4: the main-site flag is the company's type 0; company search exists only there. */
export async function isMainSite(ctx: ServiceContext): Promise<boolean> {
  return isMainSiteType((await companyInfo(ctx))?.type);
}

/**
 * Companies whose name contains the text (ignoring case), open ones only (status 1),
 * by name; an empty text lists the first ones. Off the main site: none.
 */
export async function searchCompanies(ctx: ServiceContext, raw: string, limit = COMPANY_RESULTS): Promise<CompanyCard[]> {
  if (!(await isMainSite(ctx))) return [];
  const text = searchText(raw);
  // instr() rather than LIKE: D1 caps LIKE patterns at 50 bytes, and typed % and _ stay plain text.
  const { results } = await ctx.d1
    .prepare(`SELECT ${COLUMNS} FROM companies WHERE status = 1 AND instr(lower(name), ?1) > 0 ORDER BY name COLLATE NOCASE, id LIMIT ?2`)
    .bind(nameKey(text), limit)
    .all<CompanyRow>();
  return results.map(card);
}

/** One open company's card, or null (unknown, closed, or not the main site). */
export async function companyCard(ctx: ServiceContext, id: number | null): Promise<CompanyCard | null> {
  if (id === null || !(await isMainSite(ctx))) return null;
  const row = await ctx.d1.prepare(`SELECT ${COLUMNS} FROM companies WHERE id = ?1 AND status = 1`).bind(id).first<CompanyRow>();
  return row ? card(row) : null;
}

/** The company the visitor chose (cookie company_id), if it is still an open company. */
export async function chosenCompanyId(ctx: ServiceContext, request: Request): Promise<number | null> {
  const id = companyIdFromCookie(request.headers.get("cookie"));
  return (await companyCard(ctx, id))?.id ?? null;
}
