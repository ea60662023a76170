/**
 * The root route's data (app/root.tsx's loader: language, locale, theme, flash, the signed-in
 * user…), read by the routes and the components below it. Its shape is the loader's own: root.tsx
 * merges it into RootData (declaration merging, as context.server.ts does for Remix's
 * AppLoadContext), so this module needs nothing from the route and components need not import it.
 */
import { useRouteLoaderData } from "@remix-run/react";
import { serves, type PlatformKind } from "./upstream-areas";

// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- root.tsx merges its loader's data into it
export interface RootData {}

/** The root route's data; undefined only while an error boundary renders without it. */
export function useRootData(): RootData | undefined {
  return useRouteLoaderData("root") as RootData | undefined;
}

/**
 * Whether this deployment serves a page (lib/upstream-areas.ts): links to what upstream mode does
 * not serve yet are left out, not shown broken.
 */
export function useServes(): (path: string) => boolean {
  const platform = (useRootData() as { platform?: PlatformKind } | undefined)?.platform ?? "local";
  return (path) => serves(platform, path);
}
