import { useRouteLoaderData } from "@remix-run/react";

/**
 * The locale for unit words ("30 days") on this page: the language's own words with its number
 * locale's digits (`unitLocaleOf`, given by the root loader), else the fallback.
 */
export function useUnitLocale(fallback: string): string {
  const root = useRouteLoaderData("root") as { unitLocale?: string } | undefined;
  return root?.unitLocale ?? fallback;
}
