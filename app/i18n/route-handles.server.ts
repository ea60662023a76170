/**
 * The handles of the routes a page's address matches (issue 22, messages by route): the Worker
 * (app/server.ts) asks for them on a document request, so that the root loader sends only the
 * message sections those routes name (app/i18n/sections.ts). With single fetch the page's data
 * is encoded before rendering starts, so the choice is made here, before the loaders run.
 */
import type { ServerBuild } from "@remix-run/cloudflare";
import { matchRoutes } from "@remix-run/react";

interface RouteNode {
  id: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  children: RouteNode[];
}

const trees = new WeakMap<ServerBuild["routes"], RouteNode[]>();

function tree(routes: ServerBuild["routes"]): RouteNode[] {
  let roots = trees.get(routes);
  if (!roots) {
    const nodes = new Map<string, RouteNode>();
    for (const r of Object.values(routes))
      nodes.set(r.id, { id: r.id, path: r.path, index: r.index, caseSensitive: r.caseSensitive, children: [] });
    roots = [];
    for (const r of Object.values(routes)) {
      const node = nodes.get(r.id)!;
      const parent = r.parentId ? nodes.get(r.parentId) : undefined;
      (parent ? parent.children : roots).push(node);
    }
    trees.set(routes, roots);
  }
  return roots;
}

/** The matched routes' handles, root first (undefined for a route without one). */
export function routeHandles(routes: ServerBuild["routes"], pathname: string): unknown[] {
  const matches = matchRoutes(tree(routes) as Parameters<typeof matchRoutes>[0], pathname) ?? [];
  return matches.map((m) => (routes[(m.route as unknown as RouteNode).id]?.module as { handle?: unknown } | undefined)?.handle);
}
