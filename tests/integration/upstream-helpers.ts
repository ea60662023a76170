// Upstream mode's test set-up (ADR 024): this Worker in platform mode (SELF) is the §7 backend,
// reached through the §7 client exactly as a deployed front end reaches its backend; the front
// end's context runs the upstream adapters against it.
import { SELF, env } from "cloudflare:test";
import type { AppContext } from "~/context.server";
import type { LanguageCode } from "~/i18n/config";
import { createServiceContext } from "~/context.server";
import { login } from "~/services/auth/sign-in.server";
import { upstreamUserForToken } from "~/services/upstream/sessions.server";
import { createUser, fund } from "./helpers";

export const upstreamEnv = {
  ...env,
  PLATFORM: "upstream",
  UPSTREAM_API_URL: "http://backend.test",
  MARKET_FEED: "upstream",
  MARKET_UPSTREAM_URL: "ws://backend.test/v2/ws",
} as Env;

/** The backend: this Worker as the platform (its own env), over the Worker's fetch interface. */
export const backend: typeof fetch = (input, init) => SELF.fetch(new Request(input as RequestInfo, init));

/** The front end's context of one request: upstream mode, signed in with `token` (ours) or not. */
export async function frontContext(
  token: string | null = null,
  upstreamFetch: typeof fetch = backend,
  lang: LanguageCode = "en",
): Promise<AppContext> {
  const base = await createServiceContext(upstreamEnv, { lang });
  return {
    ...base,
    upstreamFetch,
    client: { key: "203.0.113.7", ip: "203.0.113.7", userAgent: "vitest front" },
    nonce: "test",
    token: async () => token,
    user: async () => (token ? upstreamUserForToken(env.DB, token) : null),
  };
}

/**
 * A user of the backend with money in one account, signed in on the front end: the user, our
 * token, the front end's context of their requests and their session as the front end sees it.
 */
export async function upstreamCustomer(account: "funding" | "options" | "contract", amount: number) {
  const user = await createUser({ password: "front-pass-1" });
  if (amount > 0) await fund(user.accounts[account], amount);
  const result = await login(await frontContext(), { account: user.email!, password: "front-pass-1" });
  if (!result.ok) throw new Error("sign-in refused");
  const token = result.value.token;
  return { user, token, front: await frontContext(token), session: (await upstreamUserForToken(env.DB, token))! };
}
