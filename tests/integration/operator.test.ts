// The operator console's guard and the payout step-up, through the real Worker: 404 for everyone
// but operators, a fresh e-mail code before approvals, re-checked inside the approval's batch.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { decisionStatement, stepUpGuard, STEP_UP_TTL_MS } from "~/services/operator.server";
import { sessionIdOf } from "~/services/session.server";
import { createUser, form, get, latestCode, sessionFor, signedSessionCookie, visibleText } from "./helpers";

async function operator() {
  const user = await createUser();
  await env.DB.prepare("UPDATE users SET role = 'operator' WHERE id = ?1").bind(user.id).run();
  const token = await sessionFor(user.id);
  return { user, token, cookie: await signedSessionCookie(token) };
}

describe("operator console", () => {
  it("answers 404 under /admin to visitors and to users, and shows the queues to operators", async () => {
    const user = await createUser();
    const userCookie = await signedSessionCookie(await sessionFor(user.id));
    for (const path of ["/admin", "/admin/verify", "/admin/deposits", "/admin/withdrawals", "/admin/identity", "/admin/anything"]) {
      expect((await get(path)).status, path).toBe(404);
      expect((await get(path, { cookie: userCookie })).status, path).toBe(404);
    }
    expect((await form("/admin/verify", { intent: "send-code" }, { cookie: userCookie })).status).toBe(404);
    const op = await operator();
    const page = await get("/admin", { cookie: op.cookie });
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toContain("no-store");
    const text = visibleText(await page.text());
    expect(text).toContain("Operator console");
    expect(text).toContain("Deposits");
    expect(text).toContain("needs a fresh code");
  });

  it("a step-up needs the code just sent to the operator's e-mail; a wrong code starts nothing", async () => {
    const op = await operator();
    const sent = await form("/admin/verify?from=%2Fadmin%2Fwithdrawals", { intent: "send-code" }, { cookie: op.cookie });
    expect(sent.status).toBe(200);
    const code = await latestCode(op.user.email!);
    expect(code).toMatch(/^\d{6}$/);
    const wrong = await form(
      "/admin/verify?from=%2Fadmin%2Fwithdrawals",
      { intent: "verify", code: code === "000000" ? "111111" : "000000" },
      { cookie: op.cookie },
    );
    expect(wrong.status).toBe(400);
    const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM operator_step_ups WHERE session_id = ?1")
      .bind(await sessionIdOf(op.token))
      .first<{ n: number }>();
    expect(row!.n).toBe(0);
    const right = await form("/admin/verify?from=%2Fadmin%2Fwithdrawals", { intent: "verify", code: code! }, { cookie: op.cookie });
    expect(right.status).toBe(302);
    expect(right.headers.get("location")).toBe("/admin/withdrawals");
    // the code is single use
    const again = await form("/admin/verify", { intent: "verify", code: code! }, { cookie: op.cookie });
    expect(again.status).toBe(400);
    expect(visibleText(await (await get("/admin", { cookie: op.cookie })).text())).toContain("Confirmed for approvals until");
  });

  it("a foreign redirect target after the step-up goes to /admin instead", async () => {
    const op = await operator();
    await form("/admin/verify", { intent: "send-code" }, { cookie: op.cookie });
    const code = await latestCode(op.user.email!);
    const res = await form("/admin/verify?from=%2F%2Fevil.example", { intent: "verify", code: code! }, { cookie: op.cookie });
    expect(res.headers.get("location")).toBe("/admin");
  });

  it("the step-up guard aborts a batch once the step-up is older than its life, and a decision is taken once", async () => {
    const op = await operator();
    const sessionId = await sessionIdOf(op.token);
    const now = Date.now();
    await env.DB.prepare("INSERT INTO operator_step_ups (session_id, verified_at) VALUES (?1, ?2)")
      .bind(sessionId, now - STEP_UP_TTL_MS - 1)
      .run();
    const subjectId = `test-${crypto.randomUUID()}`;
    await expect(
      env.DB.batch([
        stepUpGuard(env.DB, sessionId, now),
        decisionStatement(env.DB, { operatorId: op.user.id, subject: "deposit", subjectId, decision: "approve" }),
      ]),
    ).rejects.toThrow();
    const none = await env.DB.prepare("SELECT COUNT(*) AS n FROM operator_decisions WHERE subject_id = ?1")
      .bind(subjectId)
      .first<{ n: number }>();
    expect(none!.n).toBe(0);
    await env.DB.prepare("UPDATE operator_step_ups SET verified_at = ?2 WHERE session_id = ?1").bind(sessionId, now).run();
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        env.DB.batch([
          stepUpGuard(env.DB, sessionId, now),
          decisionStatement(env.DB, { operatorId: op.user.id, subject: "deposit", subjectId, decision: i % 2 ? "approve" : "reject" }),
        ]),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const one = await env.DB.prepare("SELECT COUNT(*) AS n FROM operator_decisions WHERE subject_id = ?1")
      .bind(subjectId)
      .first<{ n: number }>();
    expect(one!.n).toBe(1);
  });
});
