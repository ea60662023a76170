import { Link, NavLink } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "~/i18n/react";
import { BackIcon, FollowIcon, HomeIcon, OrderIcon, RankIcon, TradeIcon, UserIcon } from "~/components/icons";

import { useServes } from "~/lib/root-data";
import { TAB_PATHS } from "~/lib/tabs";

export { TAB_PATHS };

const TABS = [
  { to: "/", label: "tabs.market", Icon: HomeIcon, end: true },
  { to: "/trade", label: "tabs.trade", Icon: TradeIcon, end: false },
  { to: "/follow", label: "tabs.follow", Icon: FollowIcon, end: false },
  { to: "/rank", label: "tabs.rank", Icon: RankIcon, end: false },
  { to: "/order", label: "tabs.order", Icon: OrderIcon, end: false },
  { to: "/user", label: "tabs.user", Icon: UserIcon, end: false },
] as const;

/** Bottom tab bar on phones; a side rail on desktop widths. */
export function TabBar() {
  const { t } = useTranslation();
  const served = useServes();
  const tabs = TABS.filter((tab) => served(tab.to));
  // upstream mode before its areas are served: one tab is no navigation
  if (tabs.length < 2) return null;
  return (
    <nav className="tabbar" aria-label={t("tabs.label")}>
      {tabs.map(({ to, label, Icon, end }) => (
        <NavLink key={to} to={to} end={end} prefetch="intent" className={({ isActive }) => (isActive ? "tab active" : "tab")}>
          <Icon />
          <span>{t(label)}</span>
        </NavLink>
      ))}
    </nav>
  );
}

export function PageHeader({ title, back: wanted, actions }: { title: ReactNode; back?: string; actions?: ReactNode }) {
  const { t } = useTranslation();
  const served = useServes();
  // upstream mode: back to the user centre (or home) where the page it names is not served yet
  const back = wanted && !served(wanted.split("?")[0]!) ? (served("/user") ? "/user" : "/") : wanted;
  return (
    <header className="page-header">
      {back ? (
        <Link to={back} className="icon-button" aria-label={t("common.back")}>
          <BackIcon />
        </Link>
      ) : (
        <span className="icon-spacer" />
      )}
      <h1>{title}</h1>
      <div className="header-actions">{actions ?? <span className="icon-spacer" />}</div>
    </header>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty-state" role="status">
      <svg viewBox="0 0 64 64" width="64" height="64" aria-hidden="true">
        <rect x="12" y="14" width="40" height="36" rx="4" fill="none" stroke="currentColor" strokeWidth="2" />
        <path d="M20 26h24M20 34h16" stroke="currentColor" strokeWidth="2" />
      </svg>
      <p>{title}</p>
      {children}
    </div>
  );
}
