/**
 * Pieces of the withdrawal pages: a payout method's one-line summary (addresses as the first 6
 * and last 4 characters, spec §9), the fee / received figures, the records list with status
 * badges, a copy button, and plain page links.
 */
import { Link } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { OrderTime } from "~/components/orders";
import { formatBalance, formatMoney, type Micros } from "~/domain/money";
import { DrawType, STATUS_KEYS, explorerUrl, shortAddress, withdrawFee, type WithdrawFigures } from "~/domain/withdraw";

export interface CurrencyView {
  id: number;
  drawType: number;
  code: string;
  protocol: string;
  drawRate: string;
  feeType: number;
  usdPrice: string;
  minAmount: Micros;
}

export interface MethodView {
  id: number;
  drawType: number;
  drawCurrencyId: number;
  code: string;
  protocol: string;
  dcAddress: string;
  bankName: string;
  bankAddress: string;
  bankSwift: string;
  payeeName: string;
  payeeAccount: string;
  createdAt: number;
}

export interface RecordView {
  id: number;
  type: number;
  currencyCode: string;
  amount: Micros;
  fee: Micros;
  realNumber: string;
  address: string;
  payeeAccount: string;
  memo: string;
  status: number;
  notes: string;
  /** A paid request: the payout's transaction id (a bank transfer's reference) and its network ('' for a bank). */
  txId: string | null;
  txNetwork: string | null;
  createdAt: number;
}

export function currencyLabel(c: { code: string; protocol: string }) {
  return c.protocol ? `${c.code} · ${c.protocol}` : c.code;
}

/** The method as one line: network and short address, or bank and short account. */
export function methodLine(m: MethodView) {
  return m.drawType === DrawType.Coin ? shortAddress(m.dcAddress) : `${m.bankName} · ${shortAddress(m.payeeAccount)}`;
}

export function usd(value: Micros, locale: string) {
  return `${formatMoney(value, locale, 2)} USD`;
}

/** A balance in USD, never shown larger than it is (app/domain/money.ts toBalanceString). */
export function balanceUsd(value: Micros, locale: string) {
  return `${formatBalance(value, locale)} USD`;
}

/** The fee, in words: "1.00 USD" (fixed) or "0.5%". */
export function FeeText({ currency, locale }: { currency: CurrencyView; locale: string }) {
  const { t } = useTranslation();
  if (currency.feeType === 1) return <>{t("withdraw.fee_fixed", { value: usd(withdrawFee(0, currency), locale) })}</>;
  return <>{t("withdraw.fee_rate", { value: percent(currency.drawRate) })}</>;
}

/** "0.005" → "0.5" (percent), exactly, by moving the decimal point. */
export function percent(rate: string): string {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(rate.trim());
  if (!m) return rate;
  const digits = (m[1] ?? "0") + (m[2] ?? "");
  const point = (m[1] ?? "0").length + 2;
  const padded = digits.padEnd(point, "0");
  const whole = padded.slice(0, point).replace(/^0+(?=\d)/, "");
  const frac = padded.slice(point).replace(/0+$/, "");
  return frac ? `${whole}.${frac}` : whole;
}

/** The figures before confirming: amount, fee (USD) and what the payee receives (payout currency). */
export function Figures({
  figures,
  currency,
  locale,
  id,
}: {
  figures: WithdrawFigures;
  currency: CurrencyView;
  locale: string;
  id?: string;
}) {
  const { t } = useTranslation();
  return (
    <dl className="preview-grid withdraw-figures" id={id} aria-live="polite">
      <div data-figure="amount">
        <dt>{t("withdraw.amount")}</dt>
        <dd className="num">{usd(figures.amount, locale)}</dd>
      </div>
      <div data-figure="fee">
        <dt>{t("withdraw.fee")}</dt>
        <dd className="num">{usd(figures.fee, locale)}</dd>
      </div>
      <div data-figure="received">
        <dt>{t("withdraw.received")}</dt>
        <dd className="num">
          {formatMoney(figures.received, locale, 2)} {currency.code}
        </dd>
      </div>
    </dl>
  );
}

export function StatusBadge({ status }: { status: number }) {
  const { t } = useTranslation();
  const tone = status === 1 ? "badge-live" : status === 2 ? "badge-stale" : "badge-reconnecting";
  return (
    <span className={`badge ${tone}`} data-status={status}>
      <span className="dot" aria-hidden="true" />
      {t(STATUS_KEYS[status] ?? "withdraw.status_review")}
    </span>
  );
}

/** A paid request's transaction id (a bank transfer's reference), with its explorer page where the network has one. */
export function PayoutTx({ txId, network }: { txId: string | null; network: string | null }) {
  const { t } = useTranslation();
  if (!txId) return null;
  const url = network ? explorerUrl(network, txId) : null;
  return (
    <div data-field="tx">
      <dt>{t(network ? "withdraw.tx_id" : "withdraw.bank_reference")}</dt>
      <dd className="mono break">
        {txId}
        {url ? (
          <>
            {" "}
            <a href={url} target="_blank" rel="noopener noreferrer" className="explorer-link">
              {t("withdraw.view_on_explorer")}
            </a>
          </>
        ) : null}
      </dd>
    </div>
  );
}

/** The records (spec §3 Withdraw record), newest first. */
export function RecordList({ records, locale }: { records: RecordView[]; locale: string }) {
  const { t } = useTranslation();
  return (
    <ul className="rows withdraw-records">
      {records.map((r) => (
        <li key={r.id} className="withdraw-record" data-record={r.id}>
          <div className="record-head">
            <strong className="num">{usd(r.amount, locale)}</strong>
            <StatusBadge status={r.status} />
          </div>
          <dl className="details record-details">
            <div>
              <dt>{t("withdraw.currency")}</dt>
              <dd>{r.currencyCode}</dd>
            </div>
            <div>
              <dt>{t("withdraw.fee")}</dt>
              <dd className="num">{usd(r.fee, locale)}</dd>
            </div>
            <div>
              <dt>{t("withdraw.received")}</dt>
              <dd className="num">
                {r.realNumber} {r.currencyCode}
              </dd>
            </div>
            <div>
              <dt>{r.type === DrawType.Coin ? t("wallet.address") : t("wallet.payee_account")}</dt>
              <dd className="mono">{shortAddress(r.type === DrawType.Coin ? r.address : r.payeeAccount)}</dd>
            </div>
            {r.notes ? (
              <div>
                <dt>{t("withdraw.notes")}</dt>
                <dd>{r.notes}</dd>
              </div>
            ) : null}
            <PayoutTx txId={r.txId} network={r.txNetwork} />
            <div>
              <dt>{t("withdraw.time")}</dt>
              <dd>
                <OrderTime ms={r.createdAt} locale={locale} />
              </dd>
            </div>
          </dl>
        </li>
      ))}
    </ul>
  );
}

/** Previous / next page links (plain links: they work without JavaScript). */
export function PageLinks({ page, lastPage, href }: { page: number; lastPage: number; href: (page: number) => string }) {
  const { t } = useTranslation();
  if (lastPage <= 1) return null;
  return (
    <nav className="pager" aria-label={t("withdraw.pages")}>
      {page > 1 ? (
        <Link to={href(page - 1)} className="button">
          {t("withdraw.previous_page")}
        </Link>
      ) : (
        <span />
      )}
      <span className="muted small">{t("withdraw.page_of", { page, last: lastPage })}</span>
      {page < lastPage ? (
        <Link to={href(page + 1)} className="button">
          {t("withdraw.next_page")}
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
