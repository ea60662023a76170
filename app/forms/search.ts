/**
 * The search page's calls (spec §7 searchCompany, searchCurrency): the text typed, cleaned as the
 * page cleans it (control characters and runs of spaces folded, bounded; "" when missing).
 */
import * as v from "valibot";
import { searchText } from "~/domain/company";

export const SearchQuerySchema = v.pipe(
  v.object({ name: v.optional(v.string()) }),
  v.transform(({ name }) => ({ name: searchText(name) })),
);
