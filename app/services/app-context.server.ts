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

export const UPSTREAM_NOT_SERVED =
  "PLATFORM=upstream is valid, but this version has no upstream adapters yet (ADR 024): pages answer 503 rather than serve the local platform in the backend's place";

export async function createAppContext(request: Request, env: Env, ctx: Pick<ExecutionContext, "waitUntil">): Promise<AppContext> {
  const base = await createServiceContext(env, { lang: await detectLanguage(request), waitUntil: (p) => ctx.waitUntil(p) });
  // Upstream mode is validated but not served yet (ADR 024): no area has its upstream adapter, and
  // serving this Worker's own D1 under the backend's name would show users accounts that are not theirs.
  if (base.config.platform.kind === "upstream") throw new ConfigError(UPSTREAM_NOT_SERVED);
  let tokenPromise: Promise<string | null> | undefined;
  let userPromise: Promise<SessionUser | null> | undefined;
  const token = () => (tokenPromise ??= tokenFromRequest(request, base.config));
  return {
    ...base,
    client: { key: clientKeyOf(request, base.config.upstreamSecret), userAgent: (request.headers.get("user-agent") ?? "").slice(0, 200) },
    nonce: b64url(crypto.getRandomValues(new Uint8Array(16))),
    token,
    user: () => (userPromise ??= token().then((tk) => (tk ? userForToken(env.DB, tk) : null))),
  };
}
