// Deposits through the real Worker: the page's multipart form (as posted without JavaScript),
// the quickCharge calls with a pre-uploaded proof, bad input, and the operator's review — approval
// credits the funding account exactly once under concurrency and needs a fresh step-up.
import { SELF, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createServiceContext } from "~/context.server";
import { approveDeposit } from "~/services/deposit.server";
import { checkInvariants, PlatformAccount } from "~/services/ledger/accounts.server";
import { sessionIdOf, userForToken } from "~/services/session.server";
import { ORIGIN, createUser, form, formErrors, get, sessionFor, signedSessionCookie, visibleText } from "./helpers";

const JPEG = () =>
  new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, ...Array(200).fill(7), 0xff, 0xd9]);
const NOT_AN_IMAGE = () => new TextEncoder().encode("MZ this is not a photo at all, just some bytes pretending");

type Api = { code: number; msg: string; data: Record<string, unknown> | null };

async function userWithCookie(options: { isDemo?: boolean; role?: "operator" } = {}) {
  const user = await createUser({ isDemo: options.isDemo });
  if (options.role) await env.DB.prepare("UPDATE users SET role = 'operator' WHERE id = ?1").bind(user.id).run();
  const token = await sessionFor(user.id);
  return { user, token, cookie: await signedSessionCookie(token) };
}

/** An operator whose session has (or has not) confirmed a fresh step-up. */
async function operator(stepUp = true) {
  const op = await userWithCookie({ role: "operator" });
  if (stepUp) {
    await env.DB.prepare("INSERT INTO operator_step_ups (session_id, verified_at) VALUES (?1, ?2)")
      .bind(await sessionIdOf(op.token), Date.now())
      .run();
  }
  return op;
}

function multipart(path: string, cookie: string, fields: Record<string, string>, file?: { name: string; bytes: Uint8Array<ArrayBuffer> }) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  if (file) fd.append(file.name, new Blob([file.bytes], { type: "image/jpeg" }), "proof.jpg");
  else fd.append("proofImg", new Blob([], { type: "application/octet-stream" }), "");
  return SELF.fetch(`${ORIGIN}${path}`, {
    method: "POST",
    body: fd,
    headers: { cookie, origin: ORIGIN, host: "localhost", "accept-language": "en" },
    redirect: "manual",
  });
}

async function uploadProof(cookie: string, bytes = JPEG()) {
  const fd = new FormData();
  fd.append("file", new Blob([bytes], { type: "image/jpeg" }), "proof.jpg");
  const res = await SELF.fetch(`${ORIGIN}/api/common/image_upload?purpose=deposit_proof`, {
    method: "POST",
    body: fd,
    headers: { cookie, origin: ORIGIN, "accept-language": "en" },
  });
  const body = (await res.json()) as { code: number; data: { id: string; url: string } };
  expect(body.code).toBe(1);
  return body.data;
}

async function api(
  path: string,
  cookie: string,
  fields: Record<string, string> = {},
  method: "GET" | "POST" = "POST",
  headers: Record<string, string> = {},
): Promise<Api> {
  const res =
    method === "POST"
      ? await form(path, fields, { cookie, headers })
      : await get(`${path}?${new URLSearchParams(fields).toString()}`, { cookie, headers });
  return (await res.json()) as Api;
}

async function depositsOf(userId: number) {
  const { results } = await env.DB.prepare(
    "SELECT id, type, status, amount, coin_count AS coinCount, currency_code AS currencyCode, remark, address, proof_upload_id AS proof FROM deposits WHERE user_id = ?1 ORDER BY id",
  )
    .bind(userId)
    .all<{
      id: number;
      type: number;
      status: number;
      amount: number;
      coinCount: string | null;
      currencyCode: string;
      remark: string;
      address: string;
      proof: string;
    }>();
  return results;
}

async function fundingBalance(accountId: number) {
  const row = await env.DB.prepare("SELECT balance FROM accounts WHERE id = ?1").bind(accountId).first<{ balance: number }>();
  return row!.balance;
}

async function pendingDeposit(amount = "250") {
  const u = await userWithCookie();
  const proof = await uploadProof(u.cookie);
  const res = await api("/api/quickCharge/submit", u.cookie, {
    number: amount,
    proofImg: proof.id,
    charge_id: "1",
    request_id: crypto.randomUUID(),
  });
  expect(res.code, res.msg).toBe(1);
  return { ...u, id: Number(res.data!.id) };
}

describe("deposit requests", () => {
  it("a coin deposit through the page without JavaScript: the photo streams in, Continue shows the USD figure of a coin count, confirming creates one unchecked request", async () => {
    const u = await userWithCookie();
    const page = await get("/mine/charge?type=0&charge_id=3", { cookie: u.cookie });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh"); // BTC's address, as text
    expect(html).toMatch(/<svg class="qr"[^>]*role="img"/); // its QR code, drawn on the server
    expect(html).toMatch(/<form [^>]*enctype="multipart\/form-data"/i); // the photo posts without JavaScript
    const requestId = /name="request_id" value="([^"]+)"/.exec(html)![1]!;

    const review = await multipart(
      "/mine/charge?type=0&charge_id=3",
      u.cookie,
      {
        intent: "review-deposit",
        request_id: requestId,
        charge_id: "3",
        number: "0.015",
        unit: "coin",
        address: "bc1qsenderaddress0000000000000000000000",
      },
      { name: "proofImg", bytes: JPEG() },
    );
    expect(review.status).toBe(200);
    const confirm = await review.text();
    expect(visibleText(confirm)).toContain("Check your deposit");
    expect(visibleText(confirm)).toContain("930.00 USD (0.015 BTC)"); // 0.015 × 62000
    expect(visibleText(confirm)).toContain("bc1qse…0000"); // the sending address, short
    expect(await depositsOf(u.user.id)).toHaveLength(0); // nothing created before confirming
    const proofId = /name="proofImg" value="([0-9a-f-]{36})"/.exec(confirm)![1]!;
    const served = await get(`/uploads/${proofId}`, { cookie: u.cookie });
    expect(served.status).toBe(200);

    const fields = {
      intent: "submit-deposit",
      request_id: requestId,
      charge_id: "3",
      number: "0.015",
      unit: "coin",
      address: "bc1qsenderaddress0000000000000000000000",
      proofImg: proofId,
    };
    const [first, second] = await Promise.all([
      form("/mine/charge?type=0&charge_id=3", fields, { cookie: u.cookie }),
      form("/mine/charge?type=0&charge_id=3", fields, { cookie: u.cookie }),
    ]);
    for (const res of [first, second]) {
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/mine/charge/records?type=0");
    }
    const rows = await depositsOf(u.user.id);
    expect(rows).toHaveLength(1); // a double submit creates one request
    expect(rows[0]).toMatchObject({ type: 0, status: 0, amount: 930_000_000, coinCount: "0.015", currencyCode: "BTC", proof: proofId });

    const records = visibleText(await (await get("/mine/charge/records", { cookie: u.cookie })).text());
    expect(records).toContain("930.00 USD");
    expect(records).toContain("Unchecked");
  });

  it("a bank deposit needs a chosen wire account; with one it is created", async () => {
    const u = await userWithCookie();
    const page = await (await get("/mine/charge?type=1", { cookie: u.cookie })).text();
    expect(visibleText(page)).toContain("HCBKHKHH");
    expect(visibleText(page)).toContain("012-345678-901");
    const missing = await multipart(
      "/mine/charge?type=1",
      u.cookie,
      { intent: "submit-deposit", request_id: crypto.randomUUID(), number: "500" },
      { name: "proofImg", bytes: JPEG() },
    );
    expect(missing.status).toBe(400);
    const html = await missing.text();
    expect(formErrors(html)).toContain("Choose the account you paid into");
    expect(html).toContain('value="500"'); // the amount is kept
    expect(await depositsOf(u.user.id)).toHaveLength(0);

    const ok = await multipart(
      "/mine/charge?type=1",
      u.cookie,
      { intent: "submit-deposit", request_id: crypto.randomUUID(), number: "500.25", wire_id: "2" },
      { name: "proofImg", bytes: JPEG() },
    );
    expect(ok.status).toBe(302);
    expect(ok.headers.get("location")).toBe("/mine/charge/records?type=1");
    expect(await depositsOf(u.user.id)).toMatchObject([{ type: 1, status: 0, amount: 500_250_000, currencyCode: "USD" }]);
  });

  it("the quickCharge calls: currencies, wire accounts, submit and wire_submit with a pre-uploaded proof (id or url), records paged and private", async () => {
    const u = await userWithCookie();
    const symbols = await api("/api/quickCharge/symbols", u.cookie, {}, "GET");
    expect(symbols.data).toContainEqual(
      expect.objectContaining({ id: 1, currency_code: "USDT", protocol_code: "TRC20", address: "TQ7vY3kCmhG8pN2xW5rLd9sJf4uBzE6aKt" }),
    );
    const wire = await api("/api/quickCharge/wire_info", u.cookie, { bank_coin: "USD" }, "GET");
    expect(wire.data).toContainEqual(
      expect.objectContaining({
        id: 1,
        bank_name: "Harbour Commercial Bank",
        bank_swift: "HCBKHKHH",
        payee_name: "Bourse Markets Ltd.",
        payee_account: "012-345678-901",
        bank_remark: expect.any(String),
      }),
    );
    const a = await uploadProof(u.cookie);
    const b = await uploadProof(u.cookie);
    const coin = await api("/api/quickCharge/submit", u.cookie, {
      number: "100",
      proofImg: a.url,
      address: "TSenderAddr123",
      charge_id: "1",
    });
    expect(coin.code, coin.msg).toBe(1);
    const bank = await api("/api/quickCharge/wire_submit", u.cookie, { number: "20.5", proofImg: b.id, wire_id: "1" });
    expect(bank.code, bank.msg).toBe(1);
    // a changing call sent as GET needs the authorization header (a cookie alone could be forged cross-site)
    const c = await uploadProof(u.cookie);
    const noHeader = await api("/api/quickCharge/submit", u.cookie, { number: "5", proofImg: c.id, charge_id: "2" }, "GET");
    expect(noHeader.code).toBe(999);
    const withHeader = await api("/api/quickCharge/submit", "", { number: "5", proofImg: c.id, charge_id: "2" }, "GET", {
      authorization: u.token,
    });
    expect(withHeader.code, withHeader.msg).toBe(1);

    const list = await api("/api/quickCharge/quick_ist", u.cookie, { page: "1" }, "GET");
    const data = list.data!.data as {
      number: string;
      type: number;
      currency_code: string;
      status: number;
      status_name: string;
      remark: string;
    }[];
    expect(data.map((r) => [r.number, r.type, r.currency_code, r.status_name])).toEqual([
      ["5.00", 0, "USDT", "Unchecked"],
      ["20.50", 1, "USD", "Unchecked"],
      ["100.00", 0, "USDT", "Unchecked"],
    ]);
    const coinOnly = await api("/api/quickCharge/quick_ist", u.cookie, { type: "0" }, "GET");
    expect((coinOnly.data!.data as unknown[]).length).toBe(2);

    // another user sees none of them, by call or by page
    const other = await userWithCookie();
    const theirs = await api("/api/quickCharge/quick_ist", other.cookie, { page: "1" }, "GET");
    expect(theirs.data!.data).toEqual([]);
    const theirPage = visibleText(await (await get("/mine/charge/records", { cookie: other.cookie })).text());
    expect(theirPage).toContain("No deposits yet");
    expect(theirPage).not.toContain("100.00 USD");
    expect((await get(a.url, { cookie: other.cookie })).status).toBe(404);
  });

  it("refuses another user's proof, a missing upload, and an identity document as proof; nothing is created", async () => {
    const owner = await userWithCookie();
    const proof = await uploadProof(owner.cookie);
    const thief = await userWithCookie();
    for (const proofImg of [proof.id, proof.url, crypto.randomUUID(), "../../etc/passwd"]) {
      const res = await api("/api/quickCharge/submit", thief.cookie, { number: "100", proofImg, charge_id: "1" });
      expect(res.code, proofImg).toBe(0);
      expect(res.msg).toContain("proof photo was not found");
    }
    const fd = new FormData();
    fd.append("file", new Blob([JPEG()], { type: "image/jpeg" }), "id.jpg");
    const idDoc = (await (
      await SELF.fetch(`${ORIGIN}/api/common/image_upload?purpose=identity`, {
        method: "POST",
        body: fd,
        headers: { cookie: thief.cookie, origin: ORIGIN },
      })
    ).json()) as { data: { id: string } };
    const res = await api("/api/quickCharge/submit", thief.cookie, { number: "100", proofImg: idDoc.data.id, charge_id: "1" });
    expect(res.msg).toContain("proof photo was not found");
    expect(await depositsOf(thief.user.id)).toHaveLength(0);
    expect(await depositsOf(owner.user.id)).toHaveLength(0);
  });

  it("answers bad input clearly and creates nothing", async () => {
    const u = await userWithCookie();
    const proof = await uploadProof(u.cookie);
    const coin = (fields: Record<string, string>) =>
      api("/api/quickCharge/submit", u.cookie, { charge_id: "1", proofImg: proof.id, number: "10", ...fields });
    const bank = (fields: Record<string, string>) =>
      api("/api/quickCharge/wire_submit", u.cookie, { wire_id: "1", proofImg: proof.id, number: "10", ...fields });
    const cases: [Promise<Api>, string, string][] = [
      [coin({ number: "0" }), "number", "greater than 0"],
      [coin({ number: "-5" }), "number", "at most 2 decimals"],
      [coin({ number: "ten" }), "number", "at most 2 decimals"],
      [coin({ number: "10.001" }), "number", "at most 2 decimals"],
      [coin({ number: "1e3" }), "number", "at most 2 decimals"],
      [coin({ number: "" }), "number", "Enter the deposit amount"],
      [coin({ number: "1000000.01" }), "number", "1,000,000 USD"],
      [coin({ number: "0.123456789", unit: "coin" }), "number", "at most 8 decimals"],
      [coin({ number: "0.00000001", unit: "coin", charge_id: "3" }), "number", "less than 0.01 USD"],
      [coin({ charge_id: "999" }), "charge_id", "Choose the currency"],
      [coin({ charge_id: "1 OR 1=1" }), "charge_id", "Choose the currency"],
      [coin({ address: "<script>alert(1)</script>" }), "address", "letters and digits"],
      [coin({ proofImg: "" }), "proofImg", "Add a photo"],
      [bank({ wire_id: "" }), "wire_id", "Choose the account you paid into"],
      [bank({ wire_id: "999" }), "wire_id", "Choose the account you paid into"],
      [bank({ proofImg: "" }), "proofImg", "Add a photo"],
    ];
    for (const [pending, field, text] of cases) {
      const res = await pending;
      expect(res.code, text).toBe(0);
      expect((res.data!.errors as Record<string, string>)[field], text).toContain(text);
    }
    // several refusals of one submission come back together
    const all = await bank({ wire_id: "", number: "0", proofImg: "" });
    expect(Object.keys(all.data!.errors as object).sort()).toEqual(["number", "proofImg", "wire_id"]);

    // the page: a file that is not a photo, and a missing photo, each next to the field
    const wrongType = await multipart(
      "/mine/charge?type=0",
      u.cookie,
      { intent: "submit-deposit", request_id: crypto.randomUUID(), charge_id: "1", number: "10" },
      { name: "proofImg", bytes: NOT_AN_IMAGE() as Uint8Array<ArrayBuffer> },
    );
    expect(wrongType.status).toBe(400);
    expect(formErrors(await wrongType.text())).toContain("JPEG, PNG or WebP");
    const noPhoto = await multipart("/mine/charge?type=0", u.cookie, {
      intent: "submit-deposit",
      request_id: crypto.randomUUID(),
      charge_id: "1",
      number: "10",
    });
    expect(noPhoto.status).toBe(400);
    expect(formErrors(await noPhoto.text())).toContain("Add a photo of your payment");
    const tooPrecise = await multipart(
      "/mine/charge?type=0",
      u.cookie,
      { intent: "review-deposit", request_id: crypto.randomUUID(), charge_id: "1", number: "10.999" },
      { name: "proofImg", bytes: JPEG() },
    );
    expect(tooPrecise.status).toBe(400);
    expect(formErrors(await tooPrecise.text())).toContain("at most 2 decimals");
    expect(await depositsOf(u.user.id)).toHaveLength(0);
  });

  it("demo users are refused the page and the calls ('only real account'); visitors are sent to log in", async () => {
    const demo = await userWithCookie({ isDemo: true });
    const page = await get("/mine/charge", { cookie: demo.cookie });
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe("/user");
    const post = await form("/mine/charge?type=1", { intent: "submit-deposit", number: "10", wire_id: "1" }, { cookie: demo.cookie });
    expect(post.status).toBe(302);
    expect(post.headers.get("location")).toBe("/user");
    const proof = await uploadProof(demo.cookie);
    const res = await api("/api/quickCharge/submit", demo.cookie, { number: "10", proofImg: proof.id, charge_id: "1" });
    expect(res.code).toBe(0);
    expect(res.msg).toContain("real account");
    expect(await depositsOf(demo.user.id)).toHaveLength(0);
    const visitor = await get("/mine/charge/records");
    expect(visitor.headers.get("location")).toBe("/login?from=%2Fmine%2Fcharge%2Frecords");
  });
});

describe("operator review of deposits", () => {
  it("/admin/deposits is 404 for a user and a visitor, reading and posting alike", async () => {
    const u = await userWithCookie();
    const d = await pendingDeposit();
    expect((await get("/admin/deposits", { cookie: u.cookie })).status).toBe(404);
    expect((await get("/admin/deposits")).status).toBe(404);
    expect((await form("/admin/deposits", { intent: "approve", id: String(d.id) }, { cookie: u.cookie })).status).toBe(404);
    expect((await depositsOf(d.user.id))[0]!.status).toBe(0);
  });

  it("shows pending requests with the user, the amount and the proof photo", async () => {
    const d = await pendingDeposit("321.09");
    const op = await operator();
    const html = await (await get("/admin/deposits", { cookie: op.cookie })).text();
    const text = visibleText(html);
    expect(text).toContain(`Deposit #${d.id}`);
    expect(text).toContain("321.09 USD");
    expect(text).toContain(d.user.uid);
    expect(text).toContain(d.user.email!);
    const proof = (await depositsOf(d.user.id))[0]!.proof;
    expect(html).toContain(`/uploads/${proof}`);
    expect((await get(`/uploads/${proof}`, { cookie: op.cookie })).status).toBe(200);
  });

  it("20 concurrent approvals credit the funding account exactly once, with one decision and the ledger balanced", async () => {
    const d = await pendingDeposit("250");
    const op = await operator();
    const before = await fundingBalance(d.user.accounts.funding);
    const externalBefore = await fundingBalance(PlatformAccount.ExternalDeposits.id);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => form("/admin/deposits", { intent: "approve", id: String(d.id) }, { cookie: op.cookie })),
    );
    for (const res of results) {
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/admin/deposits");
    }
    expect(await fundingBalance(d.user.accounts.funding)).toBe(before + 250_000_000);
    expect(await fundingBalance(PlatformAccount.ExternalDeposits.id)).toBe(externalBefore - 250_000_000);
    const decisions = await env.DB.prepare(
      "SELECT decision, operator_id AS op FROM operator_decisions WHERE subject = 'deposit' AND subject_id = ?1",
    )
      .bind(String(d.id))
      .all<{ decision: string; op: number }>();
    expect(decisions.results).toEqual([{ decision: "approve", op: op.user.id }]);
    const txs = await env.DB.prepare("SELECT COUNT(*) AS n FROM ledger_transactions WHERE idempotency_key = ?1")
      .bind(`deposit:${d.id}`)
      .first<{ n: number }>();
    expect(txs!.n).toBe(1);
    const row = await env.DB.prepare(
      "SELECT d.status, d.reviewed_by AS by, t.idempotency_key AS tx FROM deposits d JOIN ledger_transactions t ON t.id = d.ledger_tx WHERE d.id = ?1",
    )
      .bind(d.id)
      .first();
    expect(row).toEqual({ status: 1, by: op.user.id, tx: `deposit:${d.id}` });
    expect(await checkInvariants(env.DB)).toEqual({ unbalancedTransactions: 0, driftingAccounts: 0, negativeAccounts: 0 });

    // the user sees it finished; approving again changes nothing
    const records = visibleText(await (await get("/mine/charge/records", { cookie: d.cookie })).text());
    expect(records).toContain("Finished");
    await form("/admin/deposits", { intent: "approve", id: String(d.id) }, { cookie: op.cookie });
    expect(await fundingBalance(d.user.accounts.funding)).toBe(before + 250_000_000);
  });

  it("concurrent approvals and rejections decide once: the balance matches the one decision", async () => {
    const d = await pendingDeposit("75.5");
    const op = await operator();
    const other = await operator();
    const before = await fundingBalance(d.user.accounts.funding);
    await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        i % 2 === 0
          ? form("/admin/deposits", { intent: "approve", id: String(d.id) }, { cookie: (i % 4 === 0 ? op : other).cookie })
          : form(
              "/admin/deposits",
              { intent: "reject", id: String(d.id), reason: "No such payment" },
              { cookie: (i % 4 === 1 ? op : other).cookie },
            ),
      ),
    );
    const decisions = await env.DB.prepare("SELECT decision FROM operator_decisions WHERE subject = 'deposit' AND subject_id = ?1")
      .bind(String(d.id))
      .all<{ decision: string }>();
    expect(decisions.results).toHaveLength(1);
    const status = (await depositsOf(d.user.id))[0]!.status;
    const balance = await fundingBalance(d.user.accounts.funding);
    if (decisions.results[0]!.decision === "approve") {
      expect(status).toBe(1);
      expect(balance).toBe(before + 75_500_000);
    } else {
      expect(status).toBe(2);
      expect(balance).toBe(before);
    }
    expect(await checkInvariants(env.DB)).toEqual({ unbalancedTransactions: 0, driftingAccounts: 0, negativeAccounts: 0 });
  });

  it("a rejection needs a reason, moves no money, and shows the reason to the user; an invalid proof is marked invalid", async () => {
    const d = await pendingDeposit("40");
    const op = await operator(false); // rejecting moves no money: no step-up needed
    const noReason = await form("/admin/deposits", { intent: "reject", id: String(d.id), reason: "  " }, { cookie: op.cookie });
    expect(noReason.status).toBe(400);
    expect(visibleText(await noReason.text())).toContain("Give the reason for rejecting");
    expect((await depositsOf(d.user.id))[0]!.status).toBe(0);
    const before = await fundingBalance(d.user.accounts.funding);
    const rejected = await form(
      "/admin/deposits",
      { intent: "reject", id: String(d.id), reason: "Amount not received" },
      { cookie: op.cookie },
    );
    expect(rejected.status).toBe(302);
    expect(await fundingBalance(d.user.accounts.funding)).toBe(before);
    expect((await depositsOf(d.user.id))[0]).toMatchObject({ status: 2, remark: "Amount not received" });
    const records = visibleText(await (await get("/mine/charge/records", { cookie: d.cookie })).text());
    expect(records).toContain("Rejected");
    expect(records).toContain("Amount not received");
    // decided: an approval afterwards credits nothing
    const op2 = await operator();
    await form("/admin/deposits", { intent: "approve", id: String(d.id) }, { cookie: op2.cookie });
    expect(await fundingBalance(d.user.accounts.funding)).toBe(before);
    expect((await depositsOf(d.user.id))[0]!.status).toBe(2);

    const e = await pendingDeposit("15");
    await form(
      "/admin/deposits",
      { intent: "mark-invalid", id: String(e.id), reason: "This is a screenshot of a chat" },
      { cookie: op.cookie },
    );
    expect((await depositsOf(e.user.id))[0]).toMatchObject({ status: 3, remark: "This is a screenshot of a chat" });
    const api2 = await api("/api/quickCharge/quick_ist", e.cookie, {}, "GET");
    expect((api2.data!.data as { status_name: string }[])[0]!.status_name).toBe("Invalid");
  });

  it("approval without a fresh step-up is refused (sent to confirm one) and credits nothing; an expired one too", async () => {
    const d = await pendingDeposit("60");
    const op = await operator(false);
    const before = await fundingBalance(d.user.accounts.funding);
    const res = await form("/admin/deposits", { intent: "approve", id: String(d.id) }, { cookie: op.cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/admin/verify?from=%2Fadmin%2Fdeposits");
    const stale = await operator(false);
    await env.DB.prepare("INSERT INTO operator_step_ups (session_id, verified_at) VALUES (?1, ?2)")
      .bind(await sessionIdOf(stale.token), Date.now() - 16 * 60_000)
      .run();
    const res2 = await form("/admin/deposits", { intent: "approve", id: String(d.id) }, { cookie: stale.cookie });
    expect(res2.headers.get("location")).toContain("/admin/verify");
    expect(await fundingBalance(d.user.accounts.funding)).toBe(before);
    expect((await depositsOf(d.user.id))[0]!.status).toBe(0);
    const decisions = await env.DB.prepare("SELECT COUNT(*) AS n FROM operator_decisions WHERE subject = 'deposit' AND subject_id = ?1")
      .bind(String(d.id))
      .first<{ n: number }>();
    expect(decisions!.n).toBe(0);

    // a step-up that ends between the page and the click: the approval's own batch refuses it
    const ctx = await createServiceContext(env);
    const staleUser = (await userForToken(env.DB, stale.token))!;
    const refused = await approveDeposit(ctx, staleUser, await sessionIdOf(stale.token), d.id);
    expect(refused).toMatchObject({ ok: false, errors: { form: "admin.step_up_expired" } });
    expect(await fundingBalance(d.user.accounts.funding)).toBe(before);
    expect((await depositsOf(d.user.id))[0]!.status).toBe(0);
    const tx = await env.DB.prepare("SELECT COUNT(*) AS n FROM ledger_transactions WHERE idempotency_key = ?1")
      .bind(`deposit:${d.id}`)
      .first<{ n: number }>();
    expect(tx!.n).toBe(0);
    // and a user is no operator, whatever the service is handed
    await expect(approveDeposit(ctx, (await userForToken(env.DB, d.token))!, await sessionIdOf(d.token), d.id)).rejects.toThrow(
      "operator only",
    );
  });
});
