/**
 * The context of one HTTP request (AppContext, context.server.ts): the service context in the
 * request's language, plus the client (its throttle key and user agent), the CSP nonce of the
 * response, and the session token and signed-in user, each looked up at most once per request.
 * The Worker (app/server.ts) builds one per request through the server build.
 */
import { createServiceContext, type AppContext } from "~/context.server";
import { detectLanguage } from "~/i18n/i18n.server";
import { b64url } from "~/lib/encoding";
import { clientKeyOf } from "~/lib/http.server";
import { serves } from "~/lib/upstream-areas";
import { tokenFromRequest, userForToken, type SessionUser } from "~/services/session.server";
import { upstreamUserForToken } from "~/services/upstream/sessions.server";

export async function createAppContext(request: Request, env: Env, ctx: Pick<ExecutionContext, "waitUntil">): Promise<AppContext> {
  const base = await createServiceContext(env, { lang: await detectLanguage(request), waitUntil: (p) => ctx.waitUntil(p) });
  // Upstream mode serves an area once its adapter exists (lib/upstream-areas.ts, ADR 024); the
  // rest is hidden (its links are left out) and answers 404: serving this Worker's own D1 under
  // the backend's name would show users accounts that are not theirs.
  if (!serves(base.config.platform.kind, new URL(request.url).pathname)) {
    throw new Response("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
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
