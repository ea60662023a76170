/**
 * Settlements the order engine parked (docs/decisions/010-contract-engine.md): what it could not
 * settle after its tries, for whom, why the database refused it, and whether the order or option
 * is still open. "Try again" hands one back to the engine (a plain form).
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { ItemAction } from "~/components/admin";
import { EmptyState } from "~/components/layout";
import { RouteErrorBoundary } from "~/components/route-error";
import { SETTLE_TRIES } from "~/domain/engine";
import { Intent } from "~/forms/intents";
import { itemActionSchema } from "~/forms/operator";
import { parseFields } from "~/forms/parse";
import { formatPrice } from "~/lib/format";
import { readForm } from "~/lib/http.server";
import { useRootData } from "~/lib/root-data";
import { deadLetters, parkedSettlements, requeueDeadLetter, retryParked } from "~/services/engine.server";
import { requireOperator } from "~/services/operator.server";
import { redirectWithFlash } from "~/services/web.server";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "auth", "engine", "orders", "settings"] };

export const meta = titled("engine.admin_nav", { console: true });

export async function loader({ context }: LoaderFunctionArgs) {
  const operator = await requireOperator(context);
  const [items, dead] = await Promise.all([parkedSettlements(context, operator), deadLetters(context, operator)]);
  return { items, dead };
}

const EngineActionSchema = itemActionSchema(Intent.EngineRetry, Intent.JobRequeue);

export async function action({ request, context }: ActionFunctionArgs) {
  const operator = await requireOperator(context);
  const parsed = parseFields(EngineActionSchema, await readForm(request));
  if (!parsed.ok) return data({ error: "errors.bad_request" }, { status: 400 });
  const { intent, id } = parsed.value;
  if (intent === Intent.JobRequeue) {
    const sent = await requeueDeadLetter(context, operator, id);
    return redirectWithFlash(
      context,
      "/admin/engine",
      sent ? { kind: "success", message: "engine.requeued" } : { kind: "error", message: "engine.not_parked" },
    );
  }
  const done = await retryParked(context, operator, id);
  return redirectWithFlash(
    context,
    "/admin/engine",
    done ? { kind: "success", message: "engine.retried" } : { kind: "error", message: "engine.not_parked" },
  );
}

/** The label of what the engine was doing (the order pages' close reasons where they exist). */
const REASON_KEYS: Record<string, string> = {
  stop_loss: "orders.reason_stop_loss",
  take_profit: "orders.reason_take_profit",
  liquidation: "orders.reason_liquidation",
  delivery: "orders.reason_delivery",
  trader_close: "orders.reason_trader_close",
  copy_stop: "orders.reason_copy_stop",
  fill: "engine.reason_fill",
  expiry: "engine.reason_expiry",
};

export default function AdminEngine() {
  const { t } = useTranslation();
  const { items, dead } = useLoaderData<typeof loader>();
  const locale = useRootData()?.locale ?? "en-US";
  const when = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "medium" });
  return (
    <section className="stack" aria-labelledby="engine-title">
      <h2 id="engine-title" className="section-title">
        {t("engine.parked_title")}
      </h2>
      <p className="muted">{t("engine.parked_intro", { tries: SETTLE_TRIES })}</p>
      {items.length === 0 ? <EmptyState title={t("engine.parked_none")} /> : null}
      <ul className="record-list">
        {items.map((p) => (
          <li key={p.id} className="card record" aria-labelledby={`parked-${p.id}`}>
            <p className="record-head" id={`parked-${p.id}`}>
              <span>{t(p.kind === "option" ? "engine.kind_option" : "engine.kind_contract", { id: p.itemId })}</span>
              <time dateTime={new Date(p.parkedAt).toISOString()} className="num">
                {when.format(p.parkedAt)}
              </time>
            </p>
            <dl className="rows">
              <div className="row">
                <dt className="row-label">{t("engine.user")}</dt>
                <dd className="row-value">
                  <span className="num">{p.uid ?? "—"}</span> · {p.email ?? "—"}
                </dd>
              </div>
              <div className="row">
                <dt className="row-label">{t("engine.action")}</dt>
                <dd className="row-value">
                  {t(REASON_KEYS[p.reason] ?? "engine.reason_other")} · {p.code ?? "—"} ·{" "}
                  <span className="num">{formatPrice(p.price, p.precision, locale)}</span>
                </dd>
              </div>
              <div className="row">
                <dt className="row-label">{t("engine.tries")}</dt>
                <dd className="row-value num">{p.tries}</dd>
              </div>
              <div className="row">
                <dt className="row-label">{t("engine.error")}</dt>
                <dd className="row-value">
                  <code>{p.error}</code>
                </dd>
              </div>
              <div className="row">
                <dt className="row-label">{t("engine.state")}</dt>
                <dd className="row-value">{t(p.open ? "engine.still_open" : "engine.no_longer_open")}</dd>
              </div>
            </dl>
            <ItemAction id={p.id} intent={Intent.EngineRetry} label={t("engine.retry")} />
          </li>
        ))}
      </ul>
      {dead.length > 0 ? (
        <>
          <h2 id="jobs-title" className="section-title">
            {t("engine.dead_title")}
          </h2>
          <p className="muted">{t("engine.dead_intro")}</p>
          <ul className="record-list" aria-labelledby="jobs-title">
            {dead.map((d) => (
              <li key={d.id} className="card record">
                <p className="record-head">
                  <code>{d.body}</code>
                  <time dateTime={new Date(d.createdAt).toISOString()} className="num">
                    {when.format(d.createdAt)}
                  </time>
                </p>
                <p className="muted small">
                  {t("engine.dead_attempts")}: <span className="num">{d.attempts}</span> · {d.reason}
                </p>
                <ItemAction id={d.id} intent={Intent.JobRequeue} label={t("engine.requeue")} />
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
