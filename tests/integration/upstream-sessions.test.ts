// Upstream mode's sessions (issue 23, ADR 024) against a real §7 backend: this Worker in platform
// mode (SELF), reached through the §7 client exactly as a deployed front end reaches its backend.
// Sign-in goes through the platform's own sign-in service, which hands over to the upstream
// adapter; the backend's token stays server-side, sealed; a 999 or a sign-out ends our session.
import { SELF, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { login, logout } from "~/services/auth/sign-in.server";
import { pruneSessions } from "~/services/session.server";
import { callAsUser, upstreamTokenOf, upstreamUserForToken } from "~/services/upstream/sessions.server";
import { createUser } from "./helpers";
import { frontContext } from "./upstream-helpers";

async function backendUser(backendToken: string) {
  const res = await SELF.fetch(`http://backend.test/api/user/info?t=${Date.now()}`, { headers: { authorization: backendToken } });
  return (await res.json()) as { code: number; data: { uid: string } | null };
}

const sessionRows = async () => (await env.DB.prepare("SELECT COUNT(*) AS n FROM upstream_sessions").first<{ n: number }>())!.n;

async function signIn(password = "front-pass-1") {
  const user = await createUser({ password });
  const result = await login(await frontContext(), { account: user.email!, password });
  if (!result.ok) throw new Error(`sign-in refused: ${JSON.stringify(result.errors)}`);
  return { user, token: result.value.token };
}

describe("upstream sessions", () => {
  it("sign-in goes to the backend; our token maps to the backend's user, whose token is stored sealed", async () => {
    const { user, token } = await signIn();
    const signedIn = await upstreamUserForToken(env.DB, token);
    expect(signedIn).toMatchObject({ id: user.id, uid: user.uid, email: user.email, role: "user", isDemo: false });
    // the backend's token works against the backend, and the database holds it only sealed
    const backendToken = await upstreamTokenOf(env.DB, token);
    expect(backendToken).toBeTruthy();
    expect(backendToken).not.toBe(token);
    expect((await backendUser(backendToken!)).data?.uid).toBe(user.uid);
    const stored = await env.DB.prepare("SELECT id, upstream_token AS sealed FROM upstream_sessions WHERE uid = ?1")
      .bind(user.uid)
      .first<{ id: string; sealed: string }>();
    expect(stored!.sealed).not.toContain(backendToken!);
    expect(stored!.id).not.toBe(token);
    // no row of ours in the platform's own sessions for the front end's token
    expect(await env.DB.prepare("SELECT 1 FROM sessions WHERE id = ?1").bind(stored!.id).first()).toBeNull();
  });

  it("a wrong password: the backend's own message, and no session", async () => {
    const user = await createUser({ password: "front-pass-1" });
    const before = await sessionRows();
    const result = await login(await frontContext(), { account: user.email!, password: "not-the-password" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.form).toBe("errors.upstream_refused|Incorrect account or password.");
    expect(await sessionRows()).toBe(before);
  });

  it("a 999 from the backend ends our session as well", async () => {
    const { token } = await signIn();
    const backendToken = await upstreamTokenOf(env.DB, token);
    await SELF.fetch("http://backend.test/api/user/logout", { method: "POST", headers: { authorization: backendToken! } });
    const answer = await callAsUser(await frontContext(token), { method: "GET", path: "/api/user/info", read: true });
    expect(answer).toEqual({ ok: false, kind: "session_ended" });
    expect(await upstreamUserForToken(env.DB, token)).toBeNull();
  });

  it("a call as the user carries the backend's token, never ours", async () => {
    const { user, token } = await signIn();
    const answer = await callAsUser<{ uid: string }>(await frontContext(token), { method: "GET", path: "/api/user/info", read: true });
    expect(answer.ok && answer.data.uid).toBe(user.uid);
    // our token means nothing to the backend
    expect((await backendUser(token)).code).toBe(999);
  });

  it("sign-out ends the backend's session and ours", async () => {
    const { token } = await signIn();
    const backendToken = await upstreamTokenOf(env.DB, token);
    await logout(await frontContext(token), token);
    expect(await upstreamUserForToken(env.DB, token)).toBeNull();
    expect((await backendUser(backendToken!)).code).toBe(999);
  });

  it("the backend down, or an answer that is not a login: service unavailable, nothing stored", async () => {
    const user = await createUser({ password: "front-pass-1" });
    const before = await sessionRows();
    const down: typeof fetch = async () => {
      throw new TypeError("connection refused");
    };
    const strange: typeof fetch = async () => Response.json({ code: 1, msg: "", data: { token: "", user: {} } });
    for (const upstreamFetch of [down, strange]) {
      const result = await login(await frontContext(null, upstreamFetch), { account: user.email!, password: "front-pass-1" });
      expect(result).toMatchObject({ ok: false, status: 503, errors: { form: "errors.service_unavailable" } });
    }
    expect(await sessionRows()).toBe(before);
  });

  it("the daily prune drops expired sessions and those ended a day ago, and keeps live ones", async () => {
    const [live, expired, ended] = [await signIn(), await signIn(), await signIn()];
    const day = 24 * 60 * 60_000;
    const now = Date.now();
    await logout(await frontContext(ended.token), ended.token);
    await env.DB.prepare("UPDATE upstream_sessions SET revoked_at = ?1 WHERE revoked_at IS NOT NULL")
      .bind(now - 2 * day)
      .run();
    await env.DB.prepare("UPDATE upstream_sessions SET expires_at = ?1 WHERE uid = ?2")
      .bind(now - 1, expired.user.uid)
      .run();
    await pruneSessions(env.DB, now);
    const left = await env.DB.prepare("SELECT uid FROM upstream_sessions WHERE uid IN (?1, ?2, ?3)")
      .bind(live.user.uid, expired.user.uid, ended.user.uid)
      .all<{ uid: string }>();
    expect(left.results.map((r) => r.uid)).toEqual([live.user.uid]);
  });
});
