/**
 * The context of one HTTP request (AppContext, context.server.ts): the service context in the
 * request's language, plus the client (its throttle key and user agent), the CSP nonce of the
 * response, and the session token and signed-in user, each looked up at most once per request.
 * The Worker (app/server.ts) builds one per request through the server build.
 */
import { createServiceContext, type AppContext } from "~/context.server";
import { ConfigError } from "~/env.server";
import { detectLanguage } from "~/i18n/i18n.server";
import { b64url } from "~/lib/encoding";
import { clientKeyOf } from "~/lib/http.server";
import { tokenFromRequest, userForToken, type SessionUser } from "~/services/session.server";
import { upstreamUserForToken } from "~/services/upstream/sessions.server";

export const UPSTREAM_NOT_SERVED =
  "PLATFORM=upstream is valid, but this page's area has no upstream adapter yet (ADR 024): it answers 503 rather than serve the local platform in the backend's place";

/**
 * The pages and calls upstream mode serves so far. Sessions and sign-in have their adapter
 * (services/upstream/sessions.server.ts), but no page a signed-in user lands on has one yet, so
 * the list stays empty until the first screens' adapters land with it.
 */
const UPSTREAM_SERVED: readonly RegExp[] = [];
export function upstreamServes(pathname: string): boolean {
  return UPSTREAM_SERVED.some((p) => p.test(pathname));
}

export async function createAppContext(request: Request, env: Env, ctx: Pick<ExecutionContext, "waitUntil">): Promise<AppContext> {
  const base = await createServiceContext(env, { lang: await detectLanguage(request), waitUntil: (p) => ctx.waitUntil(p) });
  // Upstream mode serves an area once its adapter exists (ADR 024); serving this Worker's own D1
  // under the backend's name would show users accounts that are not theirs.
  if (base.config.platform.kind === "upstream" && !upstreamServes(new URL(request.url).pathname)) {
    throw new ConfigError(UPSTREAM_NOT_SERVED);
  }
  // upstream mode's sessions map our token to the backend's user (ADR 024); the platform's are ours
  const signedIn = base.config.platform.kind === "upstream" ? upstreamUserForToken : userForToken;
  let tokenPromise: Promise<string | null> | undefined;
  let userPromise: Promise<SessionUser | null> | undefined;
  const token = () => (tokenPromise ??= tokenFromRequest(request, base.config));
  return {
    ...base,
    client: {
      key: clientKeyOf(request, base.config.upstreamSecret),
      ip: request.headers.get("cf-connecting-ip")?.trim().slice(0, 45) || null,
      userAgent: (request.headers.get("user-agent") ?? "").slice(0, 200),
    },
    nonce: b64url(crypto.getRandomValues(new Uint8Array(16))),
    token,
    user: () => (userPromise ??= token().then((tk) => (tk ? signedIn(env.DB, tk) : null))),
  };
}
