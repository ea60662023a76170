/**
 * Instruments and categories as the screens and the JSON API see them. Live prices come from
 * the MarketRoom (live-market issue); until a quote exists the screens say so.
 */
import { asc } from "drizzle-orm";
import type { AppContext } from "~/context.server";
import { categories, instruments } from "~/db/schema";

export async function listCategories(ctx: AppContext) {
  return ctx.db.select({ id: categories.id, key: categories.key, name: categories.name }).from(categories).orderBy(asc(categories.sort), asc(categories.id));
}

export async function listInstruments(ctx: AppContext) {
  return ctx.db
    .select({
      id: instruments.id,
      code: instruments.code,
      showCode: instruments.showCode,
      categoryId: instruments.categoryId,
      logo: instruments.logo,
      pricePrecision: instruments.pricePrecision,
      sessionKind: instruments.sessionKind,
    })
    .from(instruments)
    .orderBy(asc(instruments.sort), asc(instruments.id));
}
