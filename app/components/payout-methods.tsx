/**
 * The saved payout methods page (spec §2 /mine/coin-address-list, /mine/bank-card-list): each
 * method as the first 6 and last 4 characters (spec §9), its detail with the full address and a
 * copy button, and deleting after a confirm step (`?id=&confirm=delete`, a page state).
 */
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { SubmitButton } from "~/components/forms";
import { ChevronIcon } from "~/components/icons";
import { EmptyState, PageHeader } from "~/components/layout";
import { CopyButton } from "~/components/copy-button";
import { currencyLabel, methodLine, type MethodView } from "~/components/withdraw";
import { DrawType } from "~/domain/withdraw";
import { Intent } from "~/forms/intents";
import type { methodsLoader } from "~/route-helpers/payout-methods.server";

export function MethodsPage() {
  const { t } = useTranslation();
  const d = useLoaderData<typeof methodsLoader>();
  const coin = d.drawType === DrawType.Coin;
  const path = coin ? "/mine/coin-address-list" : "/mine/bank-card-list";
  return (
    <div className="page narrow methods-page">
      <PageHeader
        title={coin ? t("wallet.coin_addresses") : t("wallet.bank_cards")}
        back="/mine/wallet"
        actions={
          <Link to={`/mine/withdraw-way?type=${d.drawType}`} className="button small-button">
            {t("wallet.add")}
          </Link>
        }
      />
      {d.notFound ? (
        <p className="form-errors" role="alert">
          {t("errors.not_found")}
        </p>
      ) : null}
      {d.detail ? <MethodDetail method={d.detail} path={path} confirmDelete={d.confirmDelete} /> : null}
      {d.methods.length === 0 ? (
        <EmptyState title={coin ? t("wallet.no_addresses") : t("wallet.no_accounts")}>
          <Link to={`/mine/withdraw-way?type=${d.drawType}`} className="button primary">
            {coin ? t("wallet.add_address") : t("wallet.add_account")}
          </Link>
        </EmptyState>
      ) : (
        <nav className="card" aria-label={coin ? t("wallet.coin_addresses") : t("wallet.bank_cards")}>
          <ul className="rows">
            {d.methods.map((m) => (
              <li key={m.id}>
                <Link to={`${path}?id=${m.id}`} className="row method-row" aria-current={d.detail?.id === m.id ? "true" : undefined}>
                  <span className="row-label">
                    <span className="mono">{methodLine(m)}</span>
                    <span className="small muted">{currencyLabel(m)}</span>
                  </span>
                  <ChevronIcon />
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      )}
    </div>
  );
}

function MethodDetail({ method, path, confirmDelete }: { method: MethodView; path: string; confirmDelete: boolean }) {
  const { t } = useTranslation();
  const coin = method.drawType === DrawType.Coin;
  const full = coin ? method.dcAddress : method.payeeAccount;
  return (
    <section className="card confirm-card" aria-labelledby="method-detail-title">
      <h2 id="method-detail-title">{currencyLabel(method)}</h2>
      <dl className="details">
        {coin ? null : (
          <>
            <div>
              <dt>{t("wallet.bank_name")}</dt>
              <dd>{method.bankName}</dd>
            </div>
            <div>
              <dt>{t("wallet.bank_address")}</dt>
              <dd>{method.bankAddress}</dd>
            </div>
            <div>
              <dt>{t("wallet.bank_swift")}</dt>
              <dd className="mono">{method.bankSwift}</dd>
            </div>
            <div>
              <dt>{t("wallet.payee_name")}</dt>
              <dd>{method.payeeName}</dd>
            </div>
          </>
        )}
        <div>
          <dt>{coin ? t("wallet.address") : t("wallet.payee_account")}</dt>
          <dd className="mono break" data-full-address>
            {full}
          </dd>
        </div>
      </dl>
      {confirmDelete ? (
        <div role="alertdialog" aria-labelledby="delete-method-title" className="confirm-card">
          <p id="delete-method-title">
            <strong>{coin ? t("wallet.delete_address_confirm") : t("wallet.delete_account_confirm")}</strong>
          </p>
          <p className="hint">{t("wallet.delete_hint")}</p>
          <Form method="post" action={path} className="tiles">
            <input type="hidden" name="id" value={String(method.id)} />
            <Link to={`${path}?id=${method.id}`} className="button">
              {t("common.cancel")}
            </Link>
            <SubmitButton intent={Intent.DeleteMethod} className="button danger">
              {t("wallet.delete")}
            </SubmitButton>
          </Form>
        </div>
      ) : (
        <div className="method-actions">
          <CopyButton text={full} />
          <Link to={`${path}?id=${method.id}&confirm=delete`} className="button danger">
            {t("wallet.delete")}
          </Link>
          <Link to={path} className="button">
            {t("common.close")}
          </Link>
        </div>
      )}
    </section>
  );
}
