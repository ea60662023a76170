/**
 * JSON calls of the search page (spec §7 "company search by name, currency search
 * (searchCurrency, abortable): paths not shown"), next to their neighbours:
 *   GET /api/company/searchCompany?name=…      companies by name (main site only; [] elsewhere)
 *   GET /v2/api/forex/searchCurrency?name=…    currency pairs by code: Id, ShowCode, ForexQuotations.Close
 * Both are read-only GETs, so a client may cancel an earlier one when the user types on.
 */
import { SearchQuerySchema } from "~/forms/search";
import { marketQuotes } from "~/services/market.server";
import { searchCompanies, searchPairs } from "~/services/search.server";
import { ok, parsed, query, type Routes } from "./common.server";

export const searchRoutes: Routes = {
  "/api/company/searchCompany": {
    GET: async (request, ctx) => {
      const input = parsed(ctx, SearchQuerySchema, query(request));
      if (input instanceof Response) return input;
      const { name } = input;
      return ok(ctx, { name, data: await searchCompanies(ctx, name) });
    },
  },
  "/v2/api/forex/searchCurrency": {
    GET: async (request, ctx) => {
      const input = parsed(ctx, SearchQuerySchema, query(request));
      if (input instanceof Response) return input;
      const { name } = input;
      const [pairs, market] = await Promise.all([searchPairs(ctx, name), marketQuotes(ctx)]);
      const data = pairs.map((i) => {
        const q = market.quotes.get(i.code);
        return {
          Id: i.id,
          Code: i.code,
          ShowCode: i.showCode,
          Logo: i.logo,
          PricePrecision: i.pricePrecision,
          MarketStatus: q?.MarketStatus ?? 0,
          ForexQuotations: q ? { Close: q.Close, Change: q.Change } : null,
        };
      });
      return ok(ctx, { name, data });
    },
  },
};
