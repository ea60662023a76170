/**
 * Page titles and descriptions: "<page> · Bourse", "<page> · <console> · Bourse" on the operator
 * console, "Bourse" alone on the home page; a description on public pages. Meta functions read
 * the page's language from the root loader's data (its messages, chosen on the server) and the
 * record from the route's own loader data: they never fetch.
 */
import type { MetaDescriptor } from "@remix-run/cloudflare";
import { interpolate, lookup, rootMessages } from "~/lib/messages";

export const BRAND = "Bourse";
const SEPARATOR = " · ";

/** A translation of the page's language: the key's text with {{name}} filled in ("" when missing). */
export type MetaT = (key: string, values?: Record<string, string | number>) => string;

/** What a meta function's `matches` holds that this needs (Remix's MetaMatches fit it). */
type Matches = readonly { id: string; data?: unknown }[];

export interface PageMeta {
  /** The page's own title, translated (null: the brand alone). */
  title: string | null;
  /** A sentence for search results and link previews (public pages). */
  description?: string | null;
  /** An operator console page: the console's name goes between the page and the brand. */
  console?: boolean;
}

function rootOf(matches: Matches): { lang?: string; messages?: string; locale?: string } {
  const data = matches.find((m) => m.id === "root")?.data;
  return data && typeof data === "object" ? (data as { lang?: string; messages?: string; locale?: string }) : {};
}

export function translator(messages: unknown): MetaT {
  return (key, values) => interpolate(lookup((messages ?? {}) as Record<string, unknown>, key) ?? "", values);
}

/** The title and description of a page, built from the root's language and the page's data. */
export function pageMeta(matches: Matches, build: (t: MetaT, locale: string) => PageMeta): MetaDescriptor[] {
  const root = rootOf(matches);
  const t = translator(rootMessages(root));
  const page = build(t, root.locale ?? "en-US");
  const parts = [page.title, page.console ? t("admin.title") : null, BRAND].filter((p): p is string => Boolean(p));
  const tags: MetaDescriptor[] = [{ title: parts.join(SEPARATOR) }];
  if (page.description) tags.push({ name: "description", content: page.description });
  return tags;
}

/** A meta function for a page titled by one translation key (and described by another). */
export function titled(titleKey: string, options: { description?: string; console?: boolean } = {}) {
  return ({ matches }: { matches: Matches }): MetaDescriptor[] =>
    pageMeta(matches, (t) => ({
      title: t(titleKey),
      description: options.description ? t(options.description) : null,
      console: options.console,
    }));
}
