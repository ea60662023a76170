/**
 * The daily income of one subscription (spec §2 /mining/income?id, §3 Income record): paged
 * (interest, day, time), newest first, alternating row shading. Another user's subscription
 * answers 404 like a missing one.
 */
import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { ProfitMoney } from "~/components/fund";
import { EmptyState, PageHeader } from "~/components/layout";
import { OrderTime } from "~/components/orders";
import { RouteErrorBoundary } from "~/components/route-error";
import { Pager } from "~/components/wallet";
import { useRootData } from "~/lib/root-data";
import { idParam, pageNumber } from "~/forms/fund";
import { myIncome } from "~/services/fund/queries.server";
import { requireUser, valueOf } from "~/services/web.server";
import fundStylesHref from "~/styles/fund.css";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["accounts", "admin", "copy", "fund", "home", "orders", "trade", "wallet"] };

export const meta = titled("fund.income_title");

export const links: LinksFunction = () => [{ rel: "stylesheet", href: fundStylesHref }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(context, request);
  const url = new URL(request.url);
  const income = await valueOf(
    context,
    request,
    await myIncome(context, user.id, idParam(url.searchParams.get("id")), pageNumber(url.searchParams.get("page"))),
  );
  if (!income) throw new Response("Not Found", { status: 404, headers: { "cache-control": "private, no-store" } });
  return { income };
}

export default function IncomePage() {
  const { t } = useTranslation();
  const { income } = useLoaderData<typeof loader>();
  const locale = useRootData()?.locale ?? "en-US";
  const sub = income.sub;
  return (
    <div className="page narrow">
      <PageHeader title={t("fund.income_title")} back="/mining/record" />
      <p className="muted">
        {sub.title} · {t("fund.sum_profit")}: <ProfitMoney value={sub.sumProfit} currency={sub.currencyCode} locale={locale} />
      </p>
      {income.items.length === 0 ? (
        <EmptyState title={t("fund.income_empty")} />
      ) : (
        <ul className="income-list card" aria-label={t("fund.income_title")}>
          {income.items.map((i) => (
            <li key={i.id}>
              <span>
                <span className="num">{i.day}</span>
                <br />
                <span className="muted small">
                  <OrderTime ms={i.createdAt} locale={locale} />
                </span>
              </span>
              <span className="income-interest">
                +<ProfitMoney value={i.interest} currency={sub.currencyCode} locale={locale} />
              </span>
            </li>
          ))}
        </ul>
      )}
      <Pager
        page={income.page}
        lastPage={income.lastPage}
        href={(p) => `/mining/income?id=${sub.id}&page=${p}`}
        label={t("orders.pages")}
      />
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
