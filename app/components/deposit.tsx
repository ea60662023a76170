/**
 * Pieces of the deposit screens: the platform's address with its QR code (drawn on the server)
 * and a copy button (with JavaScript; without it the address is selectable text), the status
 * badge of a record, and a record's amount (USD, with the coin count when one was typed).
 */
import { useTranslation } from "~/i18n/react";
import { CopyButton } from "~/components/copy-button";
import { Money } from "~/components/money";
import { QrCode } from "~/components/qr-code";
import { depositStatusKey, DepositStatus } from "~/domain/deposit";
import type { Micros } from "~/domain/money";
import type { QrPath } from "~/lib/qr.server";

/** The deposit address: QR code, the full address (selectable), its short form, and copy. */
export function AddressCard({ address, qr, title }: { address: string; qr: QrPath | null; title: string }) {
  const { t } = useTranslation();
  return (
    <section className="card deposit-address" aria-labelledby="deposit-address-title">
      <h2 id="deposit-address-title">{title}</h2>
      {qr ? <QrCode qr={qr} label={t("deposit.qr_label")} text={address} /> : null}
      <p className="address-text num" translate="no">
        <code>{address}</code>
      </p>
      <div className="input-row copy-row">
        <CopyButton text={address} label={t("deposit.copy_address")} />
      </div>
    </section>
  );
}

export function DepositStatusBadge({ status }: { status: number }) {
  const { t } = useTranslation();
  const tone =
    status === DepositStatus.Finished ? "status-finished" : status === DepositStatus.Unchecked ? "status-unchecked" : "status-refused";
  return <span className={`badge status-badge ${tone}`}>{t(depositStatusKey(status))}</span>;
}

/** A deposit's amount: USD at 2 decimals, and the coin count typed when there is one. */
export function DepositAmount({
  amount,
  coinCount,
  currencyCode,
  locale,
}: {
  amount: Micros;
  coinCount: string | null;
  currencyCode: string;
  locale: string;
}) {
  return (
    <>
      <Money value={amount} locale={locale} /> USD
      {coinCount ? <span className="muted small num">{` (${coinCount} ${currencyCode})`}</span> : null}
    </>
  );
}
