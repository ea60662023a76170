/**
 * Contexts handed to services.
 *
 * - ServiceContext: what every use case needs (bindings, checked configuration, the database as
 *   drizzle and raw D1, a language and its t function). The rooms build one themselves, so
 *   services run without a Request (e.g. the market room's engine, the scheduled jobs).
 * - AppContext (per HTTP request, handed to loaders, actions and the JSON API): adds the client
 *   (its throttle key and user agent), the CSP nonce of this response, and the session token and
 *   user, each looked up at most once per request. The Worker builds it with createAppContext
 *   (services/app-context.server.ts), which looks the session up.
 *
 * The contexts sit below the services (every service takes one): this module imports no service
 * code, only the shape of the signed-in user (ADR 020).
 */
import { drizzle, type DrizzleD1Database } from "drizzle-orm/d1";
import * as schema from "~/db/schema";
import { readConfig, type Config } from "~/env.server";
import { fixedT, type ServerT } from "~/i18n/i18n.server";
import { DEFAULT_LANGUAGE, type LanguageCode } from "~/i18n/config";
import type { SessionUser } from "~/services/session.server";

export type Db = DrizzleD1Database<typeof schema>;

export interface ServiceContext {
  env: Env;
  waitUntil: (promise: Promise<unknown>) => void;
  config: Config;
  db: Db;
  d1: D1Database;
  lang: LanguageCode;
  t: ServerT;
  /** Tests only: the fetch that upstream mode's calls to the backend go through (else the Worker's own). */
  upstreamFetch?: typeof fetch;
}

export interface ClientInfo {
  /** The throttle key of the client (its address as Cloudflare reports it, an IPv6 address by its /64). */
  key: string;
  /** The client's address as Cloudflare reports it (null when it is not known, e.g. locally). */
  ip: string | null;
  userAgent: string;
}

export interface AppContext extends ServiceContext {
  client: ClientInfo;
  /** The CSP nonce of this response (Remix's hydration scripts carry it). */
  nonce: string;
  /** The session token of this request (cookie or authorization header), if any. */
  token: () => Promise<string | null>;
  /** The signed-in user, memoised for the request. */
  user: () => Promise<SessionUser | null>;
  /**
   * On a page's document request, the handles of the routes its address matches (app/server.ts):
   * the root loader sends only the message sections they name. Absent on data requests.
   */
  pageHandles?: unknown[];
}

declare module "@remix-run/server-runtime" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends AppContext {}
}

/**
 * One drizzle instance per D1 binding: building it walks the whole schema for its relational
 * config (15% of an order's CPU when it was built per request), and the binding outlives requests.
 */
const drizzles = new WeakMap<D1Database, Db>();
function drizzleOf(d1: D1Database): Db {
  let db = drizzles.get(d1);
  if (!db) drizzles.set(d1, (db = drizzle(d1, { schema })));
  return db;
}

/** A context for work that no request started (rooms, scheduled jobs). */
export async function createServiceContext(
  env: Env,
  options: { lang?: LanguageCode; waitUntil?: (p: Promise<unknown>) => void } = {},
): Promise<ServiceContext> {
  const lang = options.lang ?? DEFAULT_LANGUAGE;
  return {
    env,
    waitUntil: options.waitUntil ?? ((p) => void p.catch((error) => console.error("background work failed", error))),
    config: readConfig(env),
    db: drizzleOf(env.DB),
    d1: env.DB,
    lang,
    t: await fixedT(lang),
  };
}
