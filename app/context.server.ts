/**
 * The per-request context handed to every loader, action and API handler: bindings, checked
 * configuration, the database (drizzle and raw D1 for the ledger's hot path), the language and
 * its t function, and the current user, looked up at most once per request.
 */
import { drizzle, type DrizzleD1Database } from "drizzle-orm/d1";
import * as schema from "~/db/schema";
import { readConfig, type Config } from "~/env.server";
import { detectLanguage, fixedT, type ServerT } from "~/i18n/i18n.server";
import type { LanguageCode } from "~/i18n/config";
import { tokenFromRequest, userForToken, type SessionUser } from "~/services/session.server";

export type Db = DrizzleD1Database<typeof schema>;

export interface AppContext {
  env: Env;
  waitUntil: (promise: Promise<unknown>) => void;
  config: Config;
  db: Db;
  d1: D1Database;
  lang: LanguageCode;
  t: ServerT;
  /** The session token of this request (cookie or authorization header), if any. */
  token: () => Promise<string | null>;
  /** The signed-in user, memoised for the request. */
  user: () => Promise<SessionUser | null>;
}

declare module "@remix-run/server-runtime" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends AppContext {}
}

export async function createAppContext(request: Request, env: Env, ctx: Pick<ExecutionContext, "waitUntil">): Promise<AppContext> {
  const config = readConfig(env);
  const lang = detectLanguage(request);
  const t = await fixedT(lang);
  let tokenPromise: Promise<string | null> | undefined;
  let userPromise: Promise<SessionUser | null> | undefined;
  const token = () => (tokenPromise ??= tokenFromRequest(request, config));
  return {
    env,
    waitUntil: (p) => ctx.waitUntil(p),
    config,
    db: drizzle(env.DB, { schema }),
    d1: env.DB,
    lang,
    t,
    token,
    user: () =>
      (userPromise ??= token().then((tk) => (tk ? userForToken(env.DB, tk) : null))),
  };
}
