// The late fee is one rule (app/domain/loan.ts): the daily job's SQL, run here as production runs
// it, must charge each late day exactly dailyPenalty(principal, penalty_rate) and each loan
// penaltyFor(…, late days), and the due shown (dueNow) must agree — on random loans of many seeds
// (amounts from a cent to the largest loan, rates of 0 to 4 decimals with leading zeros, 0 to 60
// late days) and on the edge cases of rounding (exactly half a cent, just below and above it).
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createServiceContext } from "~/context.server";
import { DAY_MS, MAX_LOAN_AMOUNT, dailyPenalty, dueNow, parseRate, penaltyDays, penaltyFor, utcDay } from "~/domain/loan";
import { accrueLoanPenalties } from "~/services/loan/penalties.server";
import { createUser } from "./helpers";

const CENT = 10_000;
const LOANS = 40;
const SEEDS = 12;

/** A small seeded generator (mulberry32): the same seed gives the same loans. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Case = { amount: number; rate: string; dueAt: number };

function randomCase(next: () => number, now: number): Case {
  const int = (n: number) => Math.floor(next() * n);
  // amounts in cents, spread over every order of magnitude up to the largest loan
  const cents = Math.max(1, Math.min(MAX_LOAN_AMOUNT / CENT, Math.floor(10 ** (next() * 7.7))));
  // a rate of 0 to 4 decimals, sometimes with leading zeros, never above MAX_RATE (1000)
  const whole = next() < 0.2 ? 1000 : int(next() < 0.5 ? 100 : 1000);
  const decimals = whole === 1000 ? 0 : int(5);
  const frac = Array.from({ length: decimals }, () => String(int(10))).join("");
  // leading zeros, as an operator may type them ("0025"): at most 4 digits before the point
  const digits = next() < 0.15 ? Math.min(4, String(whole).length + 1 + int(3)) : 0;
  const rate = `${String(whole).padStart(digits, "0")}${frac ? `.${frac}` : ""}`;
  const lateDays = int(61) - 2; // a couple not yet due
  const dueAt = now - lateDays * DAY_MS - int(DAY_MS);
  return { amount: cents * CENT, rate, dueAt };
}

/** The rounding edges: principal × rate exactly half a cent, just below and just above it, the extremes. */
function edgeCases(now: number): Case[] {
  const due = (days: number) => now - days * DAY_MS;
  return [
    { amount: 1_000_000, rate: "50", dueAt: due(3) }, // 1 USD × 0.5 % = 0.005: half a cent, up to 0.01
    { amount: 1_000_000, rate: "49.9999", dueAt: due(3) }, // just below half: 0.00
    { amount: 1_000_000, rate: "50.0001", dueAt: due(3) }, // just above: 0.01
    { amount: 3_000_000, rate: "50", dueAt: due(2) }, // 0.015 → 0.02
    { amount: 10_000, rate: "0.0001", dueAt: due(5) }, // the smallest figures: 0
    { amount: 10_000, rate: "1000", dueAt: due(5) }, // a cent at 10 %/day: 0.001 → 0.00
    { amount: 50_000, rate: "1000", dueAt: due(5) }, // 0.005 → 0.01
    { amount: MAX_LOAN_AMOUNT, rate: "1000", dueAt: due(60) }, // the largest product the rules allow
    { amount: MAX_LOAN_AMOUNT, rate: "999.9999", dueAt: due(1) },
    { amount: MAX_LOAN_AMOUNT - CENT, rate: "0.0001", dueAt: due(1) },
    { amount: 333_330_000, rate: "25", dueAt: due(2) }, // 333.33 × 0.25 % = 0.833325 → 0.83
    { amount: 1_000_000_000, rate: "0025", dueAt: due(1) }, // leading zeros read as 25
    { amount: 1_000_000_000, rate: "0", dueAt: due(4) },
    { amount: 1_000_000_000, rate: "25", dueAt: now + DAY_MS }, // not yet due
    { amount: 1_000_000_000, rate: "25", dueAt: now - (now % DAY_MS) }, // due at today's first instant: not late yet
    { amount: 1_000_000_000, rate: "25", dueAt: now - (now % DAY_MS) - 1 }, // due at yesterday's last instant: one late day
  ];
}

let loanIds: number[] = [];

beforeAll(async () => {
  // one borrower per loan (a user has at most one open loan)
  const ids: number[] = [];
  for (let i = 0; i < LOANS; i++) {
    const user = await createUser();
    const row = await env.DB.prepare(
      `INSERT INTO loans (user_id, config_id, amount, loan_period, free_period, interest_rate, penalty_rate, interest_amount, status, agreement, request_id, reviewed_at, due_at, created_at)
       VALUES (?1, 1, 1000000, 7, 0, '5', '25', 0, 2, 'agreement', ?2, ?3, ?3, ?3) RETURNING id`,
    )
      .bind(user.id, crypto.randomUUID(), Date.now())
      .first<{ id: number }>();
    ids.push(row!.id);
  }
  loanIds = ids;
});

/** Puts the cases on the loans (no fees yet), runs the daily job as production does, and compares each loan with the domain. */
async function runAndCompare(cases: Case[], now: number) {
  expect(cases.length).toBeLessThanOrEqual(loanIds.length);
  const used = loanIds.slice(0, cases.length);
  await env.DB.batch([
    env.DB.prepare(`DELETE FROM loan_penalty_days WHERE loan_id IN (${loanIds.join(",")})`),
    env.DB.prepare(`UPDATE loans SET status = 3 WHERE id IN (${loanIds.join(",")})`),
    ...cases.map((c, i) =>
      env.DB.prepare("UPDATE loans SET amount = ?2, penalty_rate = ?3, due_at = ?4, penalty_amount = 0, status = 2 WHERE id = ?1").bind(
        used[i],
        c.amount,
        c.rate,
        c.dueAt,
      ),
    ),
  ]);
  // before the job runs, the due shown already counts the late days
  for (const c of cases) {
    const shown = dueNow({ amount: c.amount, interestAmount: 0, penaltyAmount: 0, penaltyRate: c.rate, dueAt: c.dueAt, status: 2 }, now);
    expect(shown.penalty, JSON.stringify(c)).toBe(penaltyFor(c.amount, c.rate, penaltyDays(c.dueAt, now)));
    expect(shown.dailyPenalty, JSON.stringify(c)).toBe(dailyPenalty(c.amount, c.rate));
  }
  await accrueLoanPenalties(await createServiceContext(env, { lang: "en" }), now);
  const { results: loans } = await env.DB.prepare(
    `SELECT id, penalty_amount AS penalty, (SELECT COUNT(*) FROM loan_penalty_days p WHERE p.loan_id = loans.id) AS days,
            (SELECT MIN(amount) FROM loan_penalty_days p WHERE p.loan_id = loans.id) AS minFee,
            (SELECT MAX(amount) FROM loan_penalty_days p WHERE p.loan_id = loans.id) AS maxFee,
            (SELECT MAX(day) FROM loan_penalty_days p WHERE p.loan_id = loans.id) AS lastDay
       FROM loans WHERE id IN (${used.join(",")})`,
  ).all<{ id: number; penalty: number; days: number; minFee: number | null; maxFee: number | null; lastDay: string | null }>();
  const byId = new Map(loans.map((l) => [l.id, l]));
  for (const [i, c] of cases.entries()) {
    const row = byId.get(used[i]!)!;
    const days = penaltyDays(c.dueAt, now);
    const fee = dailyPenalty(c.amount, c.rate);
    const label = JSON.stringify({ ...c, days, fee });
    expect(row.days, label).toBe(days);
    if (days > 0) {
      expect(row.minFee, label).toBe(fee);
      expect(row.maxFee, label).toBe(fee);
      expect(row.lastDay, label).toBe(utcDay(now));
    }
    expect(row.penalty, label).toBe(penaltyFor(c.amount, c.rate, days));
    // the due shown after the job is the same figure
    const shown = dueNow(
      { amount: c.amount, interestAmount: 0, penaltyAmount: row.penalty, penaltyRate: c.rate, dueAt: c.dueAt, status: 2 },
      now,
    );
    expect(shown.penalty, label).toBe(row.penalty);
  }
}

describe("late fee: the daily job's SQL and the domain rule agree", () => {
  it("on the rounding edges", async () => {
    const now = Date.now();
    await runAndCompare(edgeCases(now), now);
  });

  it(`on random loans of ${SEEDS} seeds`, async () => {
    for (let seed = 1; seed <= SEEDS; seed++) {
      const next = random(seed * 7919);
      // a different instant of the day each seed, so the due times fall on both sides of midnight
      const now = Date.UTC(2026, 0, 1) + seed * 37 * DAY_MS + Math.floor(next() * DAY_MS);
      await runAndCompare(
        Array.from({ length: LOANS }, () => randomCase(next, now)),
        now,
      );
    }
  });

  it("the random loans are loans operators may configure (valid rates, amounts within bounds)", () => {
    const next = random(1);
    for (let i = 0; i < 1000; i++) {
      const c = randomCase(next, Date.now());
      expect(parseRate(c.rate), c.rate).not.toBeNull();
      expect(c.amount).toBeGreaterThan(0);
      expect(c.amount).toBeLessThanOrEqual(MAX_LOAN_AMOUNT);
    }
  });
});
