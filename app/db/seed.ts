/**
 * The seed: one main company, base settings, areas, categories and instruments, news,
 * announcements, the platform's ledger accounts and the operator account. Every statement is
 * idempotent (INSERT OR IGNORE on fixed keys), so it runs on every `npm start` and changes
 * nothing the second time. Shared by scripts/seed.mjs (wrangler d1 execute) and the workerd
 * tests, so both see the same world.
 */
import {
  ANNOUNCEMENTS,
  AREAS,
  COMPANIES,
  CATEGORIES,
  CHARGE_CURRENCIES,
  FUNDS,
  INSTRUMENTS,
  LOAN_CONFIGS,
  NEWS,
  OPTION_AMOUNTS,
  OPTION_DURATIONS,
  WIRE_ACCOUNTS,
  WITHDRAW_CURRENCIES,
} from "~/db/seed-data";
import { checkEffectiveLeverage, parsePrice } from "~/domain/contract";
import { MICROS_PER_USD } from "~/domain/money";
import { ACCOUNT_KINDS, PlatformAccount } from "~/services/ledger/accounts.server";

export interface SeedOptions {
  operatorEmail: string;
  /** Output of hashPassword (PBKDF2 with the deployment's pepper). */
  operatorPasswordHash: string;
}

export const DEMO_STARTING_BALANCES = {
  funding: 10_000 * MICROS_PER_USD,
  options: 10_000 * MICROS_PER_USD,
  contract: 100_000 * MICROS_PER_USD,
};

function lit(value: string | number | null): string {
  if (value === null) return "NULL";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error("bad number in seed");
    return String(value);
  }
  return `'${value.replace(/'/g, "''")}'`;
}

function insert(table: string, row: Record<string, string | number | null>) {
  const cols = Object.keys(row);
  return `INSERT OR IGNORE INTO ${table} (${cols.map((c) => `"${c}"`).join(", ")}) VALUES (${cols.map((c) => lit(row[c]!)).join(", ")});`;
}

export function seedStatements(options: SeedOptions): string[] {
  const out: string[] = [];
  out.push(
    insert("companies", {
      id: 1,
      name: "Bourse",
      logo: "/icons/logo.svg",
      url: "https://bourse.local",
      subject: "Bourse Markets Ltd.",
      registered_address: "1 Harbour View, Central, Hong Kong",
      location: "Hong Kong",
      email: "support@bourse.local",
      status: 1,
      type: 0,
    }),
  );
  out.push(
    insert("base_settings", {
      company_id: 1,
      service_link: "",
      service_link_type: 1,
      verify_reg_type: 1,
      trade_fee_type: 2,
      micro_loss_level: 0,
      demo_funding_balance: DEMO_STARTING_BALANCES.funding,
      demo_options_balance: DEMO_STARTING_BALANCES.options,
      demo_contract_balance: DEMO_STARTING_BALANCES.contract,
    }),
  );
  for (const a of AREAS) out.push(insert("areas", { id: a.id, code: a.code, name: a.name, global_code: a.globalCode }));
  for (const c of CATEGORIES) out.push(insert("categories", { id: c.id, key: c.key, name: c.name, sort: c.sort }));
  for (const i of INSTRUMENTS) {
    // an instrument whose positions would be liquidated a tick after opening is never seeded
    const price = parsePrice(i.basePrice, i.pricePrecision);
    if (
      price === null ||
      checkEffectiveLeverage({ marginMode: i.marginMode, pricePrecision: i.pricePrecision, leverages: i.multiples }, price) !== "ok"
    ) {
      throw new Error(`seed instrument ${i.code}: its effective leverage at ${i.basePrice} passes the platform's maximum`);
    }
    out.push(
      insert("instruments", {
        id: i.id,
        code: i.code,
        show_code: i.showCode,
        logo: i.logo,
        category_id: i.categoryId,
        price_precision: i.pricePrecision,
        lot_step: i.lotStep,
        min_lots: i.minLots,
        contract_size: i.contractSize,
        fee_rate: i.feeRate,
        margin_mode: i.marginMode,
        multiples: JSON.stringify(i.multiples),
        session_kind: i.sessionKind,
        base_price: i.basePrice,
        annual_volatility: i.annualVolatility,
        status: i.status,
        sort: i.sort,
        delivery_days: i.deliveryDays ?? 0,
      }),
    );
  }
  for (const d of OPTION_DURATIONS) {
    out.push(
      insert("option_durations", {
        id: d.id,
        seconds: d.seconds,
        profit_ratio: d.profitRatio,
        min_amount: Number(d.minAmount) * MICROS_PER_USD,
        sort: d.sort,
        status: 1,
      }),
    );
  }
  for (const a of OPTION_AMOUNTS) out.push(insert("option_amounts", { id: a.id, amount: Number(a.amount) * MICROS_PER_USD, sort: a.sort }));
  for (const c of CHARGE_CURRENCIES) {
    out.push(
      insert("charge_currencies", {
        id: c.id,
        currency_code: c.currencyCode,
        protocol_code: c.protocolCode,
        address: c.address,
        usd_price: c.usdPrice,
        status: 1,
        sort: c.sort,
      }),
    );
  }
  for (const w of WIRE_ACCOUNTS) {
    out.push(
      insert("wire_accounts", {
        id: w.id,
        bank_name: w.bankName,
        bank_address: w.bankAddress,
        bank_swift: w.bankSwift,
        payee_name: w.payeeName,
        payee_account: w.payeeAccount,
        bank_remark: w.bankRemark,
        status: 1,
        sort: w.sort,
      }),
    );
  }
  for (const c of LOAN_CONFIGS) {
    out.push(
      insert("loan_configs", {
        id: c.id,
        loan_period: c.loanPeriod,
        min_amount: Number(c.minAmount) * MICROS_PER_USD,
        max_amount: Number(c.maxAmount) * MICROS_PER_USD,
        interest_rate: c.interestRate,
        free_period: c.freePeriod,
        penalty_rate: c.penaltyRate,
        status: 1,
        sort: c.sort,
      }),
    );
  }
  for (const f of FUNDS) {
    out.push(
      insert("funds", {
        id: f.id,
        title: f.title,
        image: f.image,
        currency_code: f.currencyCode,
        dividend_percentage: f.dividendPercentage,
        starting_sub_amount: Number(f.startingSubAmount) * MICROS_PER_USD,
        lock_dividend_days: f.lockDividendDays,
        max_sub_amount: Number(f.maxSubAmount) * MICROS_PER_USD,
        desc: f.desc,
        liquidated_damages: f.liquidatedDamages,
        auto_refund: f.autoRefund,
        status: 1,
        sort: f.sort,
      }),
    );
  }
  for (const c of WITHDRAW_CURRENCIES) {
    out.push(
      insert("withdraw_currencies", {
        id: c.id,
        draw_type: c.drawType,
        code: c.code,
        protocol: c.protocol,
        draw_rate: c.drawRate,
        fee_type: c.feeType,
        usd_price: c.usdPrice,
        min_amount: Number(c.minAmount) * MICROS_PER_USD,
        status: 1,
        sort: c.sort,
      }),
    );
  }
  for (const n of NEWS) {
    out.push(
      insert("news", {
        id: n.id,
        category_id: 1,
        title: n.title,
        desc: n.desc,
        logo: n.logo,
        content: n.content,
        created_at: Date.parse(n.createdAt),
      }),
    );
  }
  for (const a of ANNOUNCEMENTS) {
    out.push(insert("announcements", { id: a.id, title: a.title, content: a.content, created_at: Date.parse(a.createdAt) }));
  }
  for (const c of COMPANIES) {
    out.push(
      insert("companies", {
        id: c.id,
        name: c.name,
        logo: c.logo,
        url: c.url,
        subject: c.subject,
        registered_address: c.registeredAddress,
        location: c.location,
        email: c.email,
        status: c.status,
        type: c.type,
      }),
    );
  }
  for (const p of Object.values(PlatformAccount)) {
    out.push(insert("accounts", { id: p.id, platform_code: p.code, kind: "platform", account_type_id: 0 }));
  }
  out.push(
    insert("users", {
      uid: "10000001",
      company_id: 1,
      email: options.operatorEmail.toLowerCase(),
      password_hash: options.operatorPasswordHash,
      invite_code: "OPERATOR",
      role: "operator",
      lang: "en",
    }),
  );
  for (const k of ACCOUNT_KINDS) {
    out.push(
      `INSERT OR IGNORE INTO accounts (user_id, kind, account_type_id) SELECT id, ${lit(k.kind)}, ${k.accountTypeId} FROM users WHERE email = ${lit(options.operatorEmail.toLowerCase())};`,
    );
  }
  return out;
}
