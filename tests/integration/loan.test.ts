// Loans through the real Worker and D1: KYC → operator approval → apply with a signed agreement →
// approval credits the funding account exactly once (also under concurrent approvals) → repayment
// with a proof → approval settles against the loan book, interest and penalty accounts. The daily
// penalty job is idempotent per day and catches up missed days; other users' ids answer 404; bad
// input changes nothing. Ledger invariants hold after every test.
import { SELF, env } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { createServiceContext } from "~/context.server";
import { DAY_MS, utcDay } from "~/domain/loan";
import { submitRepayment } from "~/services/loan/commands.server";
import { approveLoan, approveRepayment, decideKyc, rejectRepayment } from "~/services/loan/operator.server";
import { accrueLoanPenalties } from "~/services/loan/penalties.server";
import { agreementDigest } from "~/services/loan/queries.server";
import { checkInvariants, PlatformAccount } from "~/services/ledger/accounts.server";
import { sessionIdOf, userForToken, type SessionUser } from "~/services/session.server";
import { ORIGIN, accountBalances, createUser, form, get, sessionFor, signedSessionCookie, visibleText } from "./helpers";

const JPEG = () =>
  new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, ...Array(200).fill(7), 0xff, 0xd9]);
const PNG = () =>
  new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...Array(200).fill(3), 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);
type Api = { code: number; msg: string; data: Record<string, unknown> | null };

/** The agreement as the sign page showed it (the hidden fields a browser sends back). */
function hiddenAgreement(html: string) {
  return {
    shown_at: /name="shown_at" value="([^"]+)"/.exec(html)![1]!,
    shown_lang: /name="shown_lang" value="([^"]+)"/.exec(html)![1]!,
    terms: /name="terms" value="([^"]+)"/.exec(html)![1]!,
  };
}

async function userWithCookie(options: { isDemo?: boolean; role?: "operator" } = {}) {
  const user = await createUser({ isDemo: options.isDemo });
  if (options.role) await env.DB.prepare("UPDATE users SET role = 'operator' WHERE id = ?1").bind(user.id).run();
  const token = await sessionFor(user.id);
  const session = (await userForToken(env.DB, token)) as SessionUser;
  return { user, token, session, cookie: await signedSessionCookie(token) };
}

async function operator(stepUp = true) {
  const op = await userWithCookie({ role: "operator" });
  const sessionId = await sessionIdOf(op.token);
  if (stepUp)
    await env.DB.prepare("INSERT INTO operator_step_ups (session_id, verified_at) VALUES (?1, ?2)").bind(sessionId, Date.now()).run();
  return { ...op, sessionId };
}

async function upload(cookie: string, purpose: string, bytes: Uint8Array<ArrayBuffer> = JPEG(), type = "image/jpeg") {
  const fd = new FormData();
  fd.append("file", new Blob([bytes], { type }), "photo");
  const res = await SELF.fetch(`${ORIGIN}/api/common/image_upload?purpose=${purpose}`, {
    method: "POST",
    body: fd,
    headers: { cookie, origin: ORIGIN, "accept-language": "en" },
  });
  const body = (await res.json()) as { code: number; data: { id: string } };
  expect(body.code).toBe(1);
  return body.data.id;
}

async function api(path: string, cookie: string, fields: Record<string, string> = {}, method: "GET" | "POST" = "POST"): Promise<Api> {
  const res =
    method === "POST" ? await form(path, fields, { cookie }) : await get(`${path}?${new URLSearchParams(fields).toString()}`, { cookie });
  return (await res.json()) as Api;
}

const ctx = () => createServiceContext(env, { lang: "en" });
const KYC = {
  name: "Lovelace",
  last_name: "Ada",
  sex: "2",
  birthday: "1990/05/17",
  country: "United Kingdom",
  mobile: "+44 7700 900123",
  id_card_type: "2",
};

/** A user whose loan KYC the operator approved. */
async function verifiedBorrower() {
  const u = await userWithCookie();
  const hand = await upload(u.cookie, "identity");
  const sent = await api("/api/loan/kyc_submit", u.cookie, { ...KYC, hand_pic: hand });
  expect(sent.code, sent.msg).toBe(1);
  const op = await operator();
  expect((await decideKyc(await ctx(), op.session, u.user.id, true, "")).ok).toBe(true);
  return u;
}

async function loanRow(id: number) {
  return (await env.DB.prepare(
    "SELECT id, status, amount, interest_amount AS interest, penalty_amount AS penalty, due_at AS dueAt, agreement, signature_name AS signatureName, reason FROM loans WHERE id = ?1",
  )
    .bind(id)
    .first<{
      id: number;
      status: number;
      amount: number;
      interest: number;
      penalty: number;
      dueAt: number | null;
      agreement: string;
      signatureName: string;
      reason: string;
    }>())!;
}

async function platformBalance(id: number) {
  return (await env.DB.prepare("SELECT balance FROM accounts WHERE id = ?1").bind(id).first<{ balance: number }>())!.balance;
}

async function appliedLoan(u: Awaited<ReturnType<typeof verifiedBorrower>>, amount = "1000", configId = "1") {
  const res = await api("/api/loan/loan_submit", u.cookie, {
    config_id: configId,
    amount,
    signature_name: "Ada Lovelace",
    request_id: crypto.randomUUID(),
  });
  expect(res.code, res.msg).toBe(1);
  return Number(res.data!.id);
}

afterEach(async () => {
  expect(await checkInvariants(env.DB)).toEqual({ unbalancedTransactions: 0, driftingAccounts: 0, negativeAccounts: 0 });
});

describe("loan flow", () => {
  it("KYC → approve → apply → approve credits exactly the amount once → repay with a proof → approve settles principal, interest and penalty", async () => {
    const u = await verifiedBorrower();
    const info = await api("/api/loan/info", u.cookie, {}, "GET");
    expect(info.data).toMatchObject({ status: 2 });

    const id = await appliedLoan(u, "1000");
    const applied = await loanRow(id);
    expect(applied).toMatchObject({ status: 1, amount: 1_000_000_000, interest: 3_500_000, signatureName: "Ada Lovelace" });
    expect(applied.agreement).toContain("Ada Lovelace");
    expect(applied.agreement).toContain("1,000.00");
    expect(applied.agreement).toContain("0.25");

    const loansBefore = await platformBalance(PlatformAccount.Loans.id);
    const op = await operator();
    const c = await ctx();
    // two operators' approvals at once: one credits
    const results = await Promise.all([
      approveLoan(c, op.session, op.sessionId, id),
      approveLoan(c, op.session, op.sessionId, id),
      approveLoan(c, op.session, op.sessionId, id),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect((await accountBalances(u.user.accounts.funding)).balance).toBe(1_000_000_000);
    expect(await platformBalance(PlatformAccount.Loans.id)).toBe(loansBefore - 1_000_000_000);
    const approved = await loanRow(id);
    expect(approved.status).toBe(2);
    expect(approved.dueAt! - Date.now()).toBeGreaterThan(7 * DAY_MS - 60_000);

    const due = await api("/api/loan/repayment_info", u.cookie, { loan_id: String(id) }, "GET");
    expect(due.data).toMatchObject({ amount: "1000.00", interest_amount: "3.50", penalty_amount: "0.00", total: "1003.50" });

    const proof = await upload(u.cookie, "repayment_proof");
    const repaid = await api("/api/loan/repayment", u.cookie, { loan_id: String(id), charge_id: "1", proofImg: proof });
    expect(repaid.code, repaid.msg).toBe(1);
    expect((await loanRow(id)).status).toBe(4);
    // repaying again while under check is refused
    const again = await api("/api/loan/repayment", u.cookie, { loan_id: String(id), charge_id: "1", proofImg: proof });
    expect(again.code).toBe(0);
    expect(again.msg).toMatch(/not waiting for repayment/i);

    const repayment = (await env.DB.prepare("SELECT id, principal, interest, penalty FROM loan_repayments WHERE loan_id = ?1")
      .bind(id)
      .first<{ id: number; principal: number; interest: number; penalty: number }>())!;
    expect(repayment).toMatchObject({ principal: 1_000_000_000, interest: 3_500_000, penalty: 0 });
    const interestBefore = await platformBalance(PlatformAccount.LoanInterest.id);
    const externalBefore = await platformBalance(PlatformAccount.ExternalDeposits.id);
    const settled = await Promise.all([
      approveRepayment(c, op.session, op.sessionId, repayment.id),
      approveRepayment(c, op.session, op.sessionId, repayment.id),
    ]);
    expect(settled.filter((r) => r.ok)).toHaveLength(1);
    expect(await platformBalance(PlatformAccount.Loans.id)).toBe(loansBefore);
    expect(await platformBalance(PlatformAccount.LoanInterest.id)).toBe(interestBefore + 3_500_000);
    expect(await platformBalance(PlatformAccount.ExternalDeposits.id)).toBe(externalBefore - 1_003_500_000);
    const done = await env.DB.prepare("SELECT status, repayment_time AS t FROM loans WHERE id = ?1")
      .bind(id)
      .first<{ status: number; t: number }>();
    expect(done!.status).toBe(5);
    expect(done!.t).toBeGreaterThan(0);
    // the user's money is untouched by the settlement (paid from outside)
    expect((await accountBalances(u.user.accounts.funding)).balance).toBe(1_000_000_000);

    // the record list shows it repaid
    const list = await api("/api/loan/loan_list", u.cookie, { page: "1" }, "GET");
    expect((list.data!.data as { id: number; status: number; status_name: string }[])[0]).toMatchObject({
      id,
      status: 5,
      status_name: "Repaid",
    });
  });

  it("the read calls answer with the §3 field names: loan_config, config_info, get_date, loan_info, repayment_accounts", async () => {
    const u = await verifiedBorrower();
    const configs = await api("/api/loan/loan_config", u.cookie, {}, "GET");
    expect((configs.data as unknown as Record<string, unknown>[])[0]).toMatchObject({
      id: 1,
      loan_period: 7,
      min_amount: "100.00",
      max_amount: "2000.00",
      interest_rate: "5",
      interest_rate_percent: "0.05",
      free_period: 0,
      penalty_rate: "25",
    });
    expect((await api("/api/loan/config_info", u.cookie, { id: "2" }, "GET")).data).toMatchObject({
      id: 2,
      loan_period: 30,
      free_period: 3,
    });
    const missing = await SELF.fetch(`${ORIGIN}/api/loan/config_info?id=999`, { headers: { cookie: u.cookie, "accept-language": "en" } });
    expect(missing.status).toBe(404);
    expect((await api("/api/loan/get_date", u.cookie, { config_id: "2", amount: "5000" }, "GET")).data).toMatchObject({
      amount: "5000.00",
      interest_amount: "54.00",
      total: "5054.00",
      daily_penalty: "12.50",
    });
    const outOfBounds = await api("/api/loan/get_date", u.cookie, { config_id: "2", amount: "10000.01" }, "GET");
    expect(outOfBounds.code).toBe(0);
    const id = await appliedLoan(u, "150.50");
    const info = await api("/api/loan/loan_info", u.cookie, { id: String(id) }, "GET");
    expect(info.data).toMatchObject({
      id,
      amount: "150.50",
      loan_period: 7,
      interest_amount: "0.53",
      penalty_amount: "0.00",
      status: 1,
      status_name: "Awaiting review",
      signature: "Ada Lovelace",
    });
    expect(String(info.data!.agreement)).toContain("150.50 USD");
    const accounts = await api("/api/loan/repayment_accounts", u.cookie, {}, "GET");
    expect((accounts.data as unknown as Record<string, unknown>[]).length).toBeGreaterThan(0);
    expect((accounts.data as unknown as Record<string, unknown>[])[0]).toHaveProperty("address");
    // a changing call sent as GET without the authorization header is refused (cross-site links)
    const forged = await api("/api/loan/loan_submit", u.cookie, { config_id: "1", amount: "500", signature_name: "Ada Lovelace" }, "GET");
    expect(forged.code).toBe(999);
  });

  it("at most one open loan per user: a second application is refused with a clear message; a double-submitted form creates one loan", async () => {
    const u = await verifiedBorrower();
    const requestId = crypto.randomUUID();
    const fields = { config_id: "1", amount: "500", signature_name: "Ada Lovelace", request_id: requestId };
    const [a, b] = await Promise.all([api("/api/loan/loan_submit", u.cookie, fields), api("/api/loan/loan_submit", u.cookie, fields)]);
    expect(a.code).toBe(1);
    expect(b.code).toBe(1);
    expect(a.data!.id).toBe(b.data!.id);
    const other = await api("/api/loan/loan_submit", u.cookie, { ...fields, request_id: crypto.randomUUID() });
    expect(other.code).toBe(0);
    expect(other.msg).toMatch(/already have a loan/i);
    const n = await env.DB.prepare("SELECT COUNT(*) AS n FROM loans WHERE user_id = ?1").bind(u.user.id).first<{ n: number }>();
    expect(n!.n).toBe(1);
  });

  it("a rejected repayment proof puts the loan back to repay with the reason; the user can send another", async () => {
    const u = await verifiedBorrower();
    const id = await appliedLoan(u, "200");
    const op = await operator();
    const c = await ctx();
    expect((await approveLoan(c, op.session, op.sessionId, id)).ok).toBe(true);
    const proof = await upload(u.cookie, "repayment_proof");
    // the same proof sent twice at once: one repayment, the other refused
    const both = await Promise.all([
      submitRepayment(c, u.session, { loanId: id, chargeId: 1, proofImg: proof }),
      submitRepayment(c, u.session, { loanId: id, chargeId: 1, proofImg: proof }),
    ]);
    expect(both.filter((r) => r.ok)).toHaveLength(1);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM loan_repayments WHERE loan_id = ?1").bind(id).first()).toEqual({ n: 1 });
    const sent = both.find((r) => r.ok)!;
    if (!sent.ok) return;
    expect((await rejectRepayment(c, op.session, sent.value.id, "")).ok).toBe(false); // a reason is required
    expect((await rejectRepayment(c, op.session, sent.value.id, "Transfer not received")).ok).toBe(true);
    expect(await loanRow(id)).toMatchObject({ status: 2, reason: "Transfer not received" });
    expect((await submitRepayment(c, u.session, { loanId: id, chargeId: 1, proofImg: proof })).ok).toBe(true);
  });

  it("approving a loan needs a fresh step-up: without one nothing moves", async () => {
    const u = await verifiedBorrower();
    const id = await appliedLoan(u, "300");
    const op = await operator(false);
    const result = await approveLoan(await ctx(), op.session, op.sessionId, id);
    expect(result).toMatchObject({ ok: false, errors: { form: "admin.step_up_expired" } });
    expect((await loanRow(id)).status).toBe(1);
    expect((await accountBalances(u.user.accounts.funding)).balance).toBe(0);
  });
});

function multipart(path: string, cookie: string, fields: Record<string, string>, file?: { name: string; bytes: Uint8Array<ArrayBuffer> }) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  if (file) fd.append(file.name, new Blob([file.bytes], { type: "image/jpeg" }), "photo.jpg");
  return SELF.fetch(`${ORIGIN}${path}`, {
    method: "POST",
    body: fd,
    headers: { cookie, origin: ORIGIN, host: "localhost", "accept-language": "en" },
    redirect: "manual",
  });
}

describe("the pages without JavaScript", () => {
  it("KYC form (multipart) → waiting → operator approves on /admin/loans → terms and summary → agreement → typed-name signature → record → operator pays out (step-up) → repayment with a proof", async () => {
    const u = await userWithCookie();
    const bad = await multipart(
      "/loan",
      u.cookie,
      { intent: "loan-kyc", ...KYC, birthday: "1930/01/01" },
      { name: "hand_pic", bytes: JPEG() },
    );
    expect(bad.status).toBe(400);
    const badHtml = await bad.text();
    expect(visibleText(badHtml)).toContain("between 1950/01/01 and today");
    expect(badHtml).toContain('value="Lovelace"'); // the values are kept
    const sent = await multipart("/loan", u.cookie, { intent: "loan-kyc", ...KYC }, { name: "hand_pic", bytes: JPEG() });
    expect(sent.status).toBe(302);
    expect(visibleText(await (await get("/loan", { cookie: u.cookie })).text())).toContain("within 48 hours");

    const op = await operator();
    const opCookie = op.cookie;
    const queue = visibleText(await (await get("/admin/loans", { cookie: opCookie })).text());
    expect(queue).toContain("Ada Lovelace");
    expect((await form("/admin/loans", { intent: "approve", subject: "kyc", id: String(u.user.id) }, { cookie: opCookie })).status).toBe(
      302,
    );
    expect((await get("/loan", { cookie: u.cookie })).headers.get("location")).toBe("/loan/submit");

    const summary = visibleText(await (await get("/loan/submit?config_id=2&amount=5000", { cookie: u.cookie })).text());
    expect(summary).toContain("54.00 USD"); // 5000 × 0.04 % × (30 − 3)
    expect(summary).toContain("5,054.00 USD");
    const outOfBounds = visibleText(await (await get("/loan/submit?config_id=1&amount=5000", { cookie: u.cookie })).text());
    expect(outOfBounds).toContain("within this term's minimum and maximum");
    const empty = visibleText(await (await get("/loan/submit?config_id=1&amount=", { cookie: u.cookie })).text());
    expect(empty).toContain("Please enter the loan amount");
    const agreement = visibleText(await (await get("/loan/agreement?id=2&amount=5000.00", { cookie: u.cookie })).text());
    expect(agreement).toContain("Borrower: Ada Lovelace");
    expect(agreement).toContain("0.25% of the amount per day");

    const signPage = await (await get("/loan/sign?id=2&amount=5000.00", { cookie: u.cookie })).text();
    const requestId = /name="request_id" value="([^"]+)"/.exec(signPage)![1]!;
    const shown = hiddenAgreement(signPage);
    const unsigned = await form(
      "/loan/sign?id=2&amount=5000.00",
      { intent: "apply-loan", config_id: "2", amount: "5000.00", request_id: requestId, ...shown },
      { cookie: u.cookie },
    );
    expect(unsigned.status).toBe(400);
    expect(visibleText(await unsigned.text())).toContain("Please sign the agreement");

    // the operator changes the rate while the agreement is open: signing it is refused, nothing is stored
    await env.DB.prepare("UPDATE loan_configs SET interest_rate = '9' WHERE id = 2").run();
    const stale = await form(
      "/loan/sign?id=2&amount=5000.00",
      { intent: "apply-loan", config_id: "2", amount: "5000.00", request_id: requestId, signature_name: "ada lovelace", ...shown },
      { cookie: u.cookie },
    );
    expect(stale.status).toBe(409);
    const staleText = visibleText(await stale.text());
    expect(staleText).toContain("The loan terms changed since this agreement was shown");
    expect(staleText).toContain("0.09%"); // the page shows the new terms to read again
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM loans WHERE user_id = ?1").bind(u.user.id).first<{ n: number }>()).toEqual({
      n: 0,
    });
    await env.DB.prepare("UPDATE loan_configs SET interest_rate = '4' WHERE id = 2").run();

    // signed after switching the page to French: what was shown (in English) is what is stored
    const signed = await form(
      "/loan/sign?id=2&amount=5000.00",
      { intent: "apply-loan", config_id: "2", amount: "5000.00", request_id: requestId, signature_name: "ada lovelace", ...shown },
      { cookie: u.cookie, headers: { "accept-language": "fr" } },
    );
    expect(signed.status).toBe(302);
    expect(signed.headers.get("location")).toBe("/loan/record");
    // stored exactly as shown
    const stored = (await env.DB.prepare("SELECT agreement FROM loans WHERE user_id = ?1").bind(u.user.id).first<{ agreement: string }>())!
      .agreement;
    expect(await agreementDigest(stored)).toBe(shown.terms);
    expect(visibleText(await (await get("/loan/submit", { cookie: u.cookie })).text())).toContain("You already have a loan that is open");
    const recordRes = await get("/loan/record", { cookie: u.cookie });
    expect(recordRes.headers.get("cache-control")).toContain("no-store");
    const record = await recordRes.text();
    expect(visibleText(record)).toContain("Awaiting review");
    expect(record).not.toContain("/loan/repayment?loan_id="); // repay only at status 2

    const loan = (await env.DB.prepare("SELECT id FROM loans WHERE user_id = ?1").bind(u.user.id).first<{ id: number }>())!;
    // without a step-up the approval sends the operator to confirm first
    const noStepUp = await operator(false);
    const redirected = await form("/admin/loans", { intent: "approve", subject: "loan", id: String(loan.id) }, { cookie: noStepUp.cookie });
    expect(redirected.headers.get("location")).toMatch(/^\/admin\/verify/);
    expect((await form("/admin/loans", { intent: "approve", subject: "loan", id: String(loan.id) }, { cookie: opCookie })).status).toBe(
      302,
    );
    expect((await accountBalances(u.user.accounts.funding)).balance).toBe(5_000_000_000);
    expect(await (await get("/loan/record", { cookie: u.cookie })).text()).toContain(`/loan/repayment?loan_id=${loan.id}`);

    const repayPage = visibleText(await (await get(`/loan/repayment?loan_id=${loan.id}`, { cookie: u.cookie })).text());
    expect(repayPage).toContain("5,054.00 USD");
    const noProof = await multipart(`/loan/repayment?loan_id=${loan.id}`, u.cookie, { intent: "repay-loan", charge_id: "1" });
    expect(noProof.status).toBe(400);
    expect(visibleText(await noProof.text())).toContain("Add a photo of your transfer");
    const repaid = await multipart(
      `/loan/repayment?loan_id=${loan.id}`,
      u.cookie,
      { intent: "repay-loan", charge_id: "1" },
      { name: "proofImg", bytes: JPEG() },
    );
    expect(repaid.status).toBe(302);
    expect(visibleText(await (await get("/loan/record", { cookie: u.cookie })).text())).toContain("Repayment under check");
    const rep = (await env.DB.prepare("SELECT id FROM loan_repayments WHERE loan_id = ?1").bind(loan.id).first<{ id: number }>())!;
    expect((await form("/admin/loans", { intent: "approve", subject: "repayment", id: String(rep.id) }, { cookie: opCookie })).status).toBe(
      302,
    );
    expect(visibleText(await (await get("/loan/record", { cookie: u.cookie })).text())).toContain("Repaid");
    expect(visibleText(await (await get("/loan/submit", { cookie: u.cookie })).text())).not.toContain("already have a loan");
  });

  it("operators edit loan terms with validated bounds; non-operators get 404", async () => {
    const op = await operator();
    const refused = await form(
      "/admin/loans",
      {
        intent: "loan-config",
        subject: "config",
        id: "3",
        loan_period: "90",
        free_period: "100",
        min_amount: "1000",
        max_amount: "500",
        interest_rate: "3",
        penalty_rate: "25",
        status: "1",
      },
      { cookie: op.cookie },
    );
    expect(refused.status).toBe(400);
    const text = visibleText(await refused.text());
    expect(text).toContain("not more than the loan period");
    expect(text).toContain("At least the minimum");
    // what the operator typed is shown again, not the stored terms
    const html = await (
      await form(
        "/admin/loans",
        {
          intent: "loan-config",
          subject: "config",
          id: "3",
          loan_period: "91",
          free_period: "100",
          min_amount: "abc",
          max_amount: "2500.00",
          interest_rate: "6",
          penalty_rate: "25",
          status: "1",
        },
        { cookie: op.cookie },
      )
    ).text();
    for (const [name, value] of [
      ["loan_period", "91"],
      ["min_amount", "abc"],
      ["max_amount", "2500.00"],
      ["interest_rate", "6"],
    ])
      expect(html, name).toMatch(new RegExp(`name="${name}"[^>]*value="${value}"|value="${value}"[^>]*name="${name}"`));
    const unchanged = await env.DB.prepare("SELECT free_period AS f, max_amount AS m FROM loan_configs WHERE id = 3").first<{
      f: number;
      m: number;
    }>();
    expect(unchanged).toEqual({ f: 7, m: 50_000_000_000 });
    const user = await userWithCookie();
    expect((await get("/admin/loans", { cookie: user.cookie })).status).toBe(404);
  });
});

describe("late penalties (daily job)", () => {
  it("run twice the same day changes nothing the second time; a missed day is caught up once; days under check do not accrue", async () => {
    const u = await verifiedBorrower();
    const id = await appliedLoan(u, "1000");
    const op = await operator();
    const c = await ctx();
    const approvedAt = Date.now() - 10 * DAY_MS;
    expect((await approveLoan(c, op.session, op.sessionId, id, approvedAt)).ok).toBe(true);
    // due 7 days after approval: 3 late days up to today (UTC), one day's fee 2.50
    const run1 = Date.now();
    await accrueLoanPenalties(c, run1 - DAY_MS); // yesterday's run: 2 late days
    expect((await loanRow(id)).penalty).toBe(5_000_000);
    await accrueLoanPenalties(c, run1); // today: +1
    const after = await loanRow(id);
    expect(after.penalty).toBe(7_500_000);
    await accrueLoanPenalties(c, run1); // same day again: nothing
    expect((await loanRow(id)).penalty).toBe(7_500_000);
    const days = await env.DB.prepare("SELECT day FROM loan_penalty_days WHERE loan_id = ?1 ORDER BY day").bind(id).all<{ day: string }>();
    expect(days.results.map((d) => d.day)).toEqual([utcDay(run1 - 2 * DAY_MS), utcDay(run1 - DAY_MS), utcDay(run1)]);

    // a missed day (the job did not run yesterday) is caught up once, by the next run
    const u2 = await verifiedBorrower();
    const id2 = await appliedLoan(u2, "333.33");
    expect((await approveLoan(c, op.session, op.sessionId, id2, Date.now() - 9 * DAY_MS)).ok).toBe(true);
    await accrueLoanPenalties(c, run1);
    expect((await loanRow(id2)).penalty).toBe(2 * 830_000); // 2 late days × 0.83
    await accrueLoanPenalties(c, run1);
    expect((await loanRow(id2)).penalty).toBe(2 * 830_000);

    // the due shown and the repayment snapshot include the penalty
    const due = await api("/api/loan/repayment_info", u.cookie, { loan_id: String(id) }, "GET");
    expect(due.data).toMatchObject({ penalty_amount: "7.50", total: "1011.00" });
    const proof = await upload(u.cookie, "repayment_proof");
    expect((await submitRepayment(c, u.session, { loanId: id, chargeId: 1, proofImg: proof })).ok).toBe(true);
    await accrueLoanPenalties(c, run1 + DAY_MS); // under check: no accrual
    expect((await loanRow(id)).penalty).toBe(7_500_000);
    const r = (await env.DB.prepare("SELECT id, penalty FROM loan_repayments WHERE loan_id = ?1")
      .bind(id)
      .first<{ id: number; penalty: number }>())!;
    expect(r.penalty).toBe(7_500_000);
    const penaltiesBefore = await platformBalance(PlatformAccount.LoanPenalties.id);
    expect((await approveRepayment(c, op.session, op.sessionId, r.id)).ok).toBe(true);
    expect(await platformBalance(PlatformAccount.LoanPenalties.id)).toBe(penaltiesBefore + 7_500_000);
  });

  it("the daily cron runs the loan-penalties job", async () => {
    const { JOBS, DAILY } = await import("~/services/jobs.server");
    expect(Object.keys(JOBS[DAILY]!)).toContain("loan-penalties");
  });
});

describe("bad input and other users", () => {
  it("another user's loan id answers 404 on the page, the API and repayment; nothing changes", async () => {
    const owner = await verifiedBorrower();
    const id = await appliedLoan(owner, "400");
    const stranger = await userWithCookie();
    expect((await get(`/loan/repayment?loan_id=${id}`, { cookie: stranger.cookie })).status).toBe(404);
    expect((await get(`/loan/agreement?loan_id=${id}`, { cookie: stranger.cookie })).status).toBe(404);
    const info = await SELF.fetch(`${ORIGIN}/api/loan/loan_info?id=${id}`, {
      headers: { cookie: stranger.cookie, "accept-language": "en" },
    });
    expect(info.status).toBe(404);
    const proof = await upload(stranger.cookie, "repayment_proof");
    const res = await api("/api/loan/repayment", stranger.cookie, { loan_id: String(id), charge_id: "1", proofImg: proof });
    expect(res.code).toBe(0);
    expect((await loanRow(id)).status).toBe(1);
  });

  it("refuses amounts out of bounds, negative or non-numeric, a missing signature or a wrong typed name, and repaying a loan not at status 2", async () => {
    const u = await verifiedBorrower();
    for (const amount of ["99.99", "2000.01", "-5", "abc", ""]) {
      const res = await api("/api/loan/loan_submit", u.cookie, { config_id: "1", amount, signature_name: "Ada Lovelace" });
      expect(res.code, amount).toBe(0);
      expect(Object.keys((res.data as { errors: Record<string, string> }).errors)).toContain("amount");
    }
    const unsigned = await api("/api/loan/loan_submit", u.cookie, { config_id: "1", amount: "500" });
    expect(unsigned.code).toBe(0);
    expect(unsigned.msg).toMatch(/sign/i);
    const wrongName = await api("/api/loan/loan_submit", u.cookie, { config_id: "1", amount: "500", signature_name: "Someone Else" });
    expect(wrongName.code).toBe(0);
    const jpegSignature = await upload(u.cookie, "signature");
    const notPng = await api("/api/loan/loan_submit", u.cookie, { config_id: "1", amount: "500", sign: jpegSignature });
    expect(notPng.code).toBe(0);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM loans WHERE user_id = ?1").bind(u.user.id).first<{ n: number }>()).toEqual({
      n: 0,
    });

    // a drawn PNG signature works
    const png = await upload(u.cookie, "signature", PNG(), "image/png");
    const signed = await api("/api/loan/loan_submit", u.cookie, {
      config_id: "1",
      amount: "500",
      sign: png,
      request_id: crypto.randomUUID(),
    });
    expect(signed.code, signed.msg).toBe(1);
    // repaying at status 1 (awaiting review) is refused
    const proof = await upload(u.cookie, "repayment_proof");
    const early = await api("/api/loan/repayment", u.cookie, { loan_id: String(signed.data!.id), charge_id: "1", proofImg: proof });
    expect(early.code).toBe(0);
    expect((await loanRow(Number(signed.data!.id))).status).toBe(1);
  });

  it("KYC: birthdays out of range, a missing photo and missing fields are refused together; a demo user is refused; resubmission only after a rejection", async () => {
    const u = await userWithCookie();
    const early = await api("/api/loan/kyc_submit", u.cookie, { ...KYC, birthday: "1949/12/31" });
    expect(early.code).toBe(0);
    const errors = (early.data as { errors: Record<string, string> }).errors;
    expect(errors.birthday).toMatch(/1950/);
    expect(errors.hand_pic).toBeTruthy();
    const future = await api("/api/loan/kyc_submit", u.cookie, {
      ...KYC,
      birthday: utcDay(Date.now() + DAY_MS).replaceAll("-", "/"),
      hand_pic: await upload(u.cookie, "identity"),
    });
    expect((future.data as { errors: Record<string, string> }).errors.birthday).toBeTruthy();
    const empty = await api("/api/loan/kyc_submit", u.cookie, {});
    expect(Object.keys((empty.data as { errors: Record<string, string> }).errors)).toEqual(
      expect.arrayContaining(["name", "last_name", "sex", "birthday", "country", "mobile", "id_card_type", "hand_pic"]),
    );
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM loan_kyc WHERE user_id = ?1").bind(u.user.id).first()).toEqual({ n: 0 });

    const demo = await userWithCookie({ isDemo: true });
    const refused = await api("/api/loan/kyc_submit", demo.cookie, { ...KYC });
    expect(refused.code).toBe(0);
    expect(refused.msg).toMatch(/real account/i);
    const demoPage = await get("/loan", { cookie: demo.cookie });
    expect(demoPage.status).toBe(302);

    const hand = await upload(u.cookie, "identity");
    expect((await api("/api/loan/kyc_submit", u.cookie, { ...KYC, hand_pic: hand })).code).toBe(1);
    expect((await api("/api/loan/kyc_submit", u.cookie, { ...KYC, hand_pic: hand })).code).toBe(0); // waiting: no resubmission
    const op = await operator();
    expect((await decideKyc(await ctx(), op.session, u.user.id, false, "Photo is blurred")).ok).toBe(true);
    const page = visibleText(await (await get("/loan", { cookie: u.cookie })).text());
    expect(page).toContain("Photo is blurred");
    expect((await api("/api/loan/kyc_submit", u.cookie, { ...KYC, hand_pic: hand })).code).toBe(1);
    expect(await env.DB.prepare("SELECT status, submission FROM loan_kyc WHERE user_id = ?1").bind(u.user.id).first()).toEqual({
      status: 1,
      submission: 2,
    });
  });
});
