/**
 * Pieces of the copy-trading screens: the trader's avatar (or a default image), a figure with the
 * short explanation of how it is computed, signed rates and profits coloured up / down (with a
 * sign too: colour is never the only signal), and the tabs between the follow screens.
 */
import { NavLink } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "~/i18n/react";
import { hundredthsToPercent } from "~/domain/contract";
import { formatMoney, type Micros } from "~/domain/money";

export function TraderAvatar({ src, name }: { src: string | null; name: string }) {
  if (src) return <img className="avatar trader-avatar" src={src} alt="" width={44} height={44} loading="lazy" />;
  return (
    <span className="avatar trader-avatar default" aria-hidden="true">
      {[...name][0]?.toUpperCase() ?? "?"}
    </span>
  );
}

/** A rate in hundredths of a percent, signed, green when ≥ 0 and red below. */
export function Rate({ value }: { value: number }) {
  const text = hundredthsToPercent(value);
  return <span className={`num ${value >= 0 ? "up" : "down"}`}>{value > 0 ? `+${text}%` : `${text}%`}</span>;
}

/** Money (2 decimals), signed and coloured like a profit. */
export function SignedMoney({ value, locale }: { value: Micros; locale: string }) {
  const text = formatMoney(value, locale, 2);
  return <span className={`num ${value >= 0 ? "up" : "down"}`}>{value > 0 ? `+${text}` : text}</span>;
}

/** One figure of a summary: label, value and how it is computed. */
export function Figure({ label, explain, children }: { label: string; explain?: string; children: ReactNode }) {
  return (
    <div className="copy-figure">
      <dt>{label}</dt>
      <dd>{children}</dd>
      {explain ? <dd className="hint">{explain}</dd> : null}
    </div>
  );
}

/** The tabs between the follow screens: traders, the traders I follow, apply or my followers. */
export function FollowTabs({ isTrader }: { isTrader: boolean }) {
  const { t } = useTranslation();
  const links = [
    { to: "/follow/follow-list", label: t("copy.tab_following") },
    isTrader
      ? { to: "/follow/my-follower", label: t("copy.my_follower_title") }
      : { to: "/follow/trader-apply", label: t("copy.apply_title") },
    { to: "/rank", label: t("tabs.rank") },
  ];
  return (
    <nav className="segmented copy-tabs" aria-label={t("tabs.follow")}>
      {links.map((l) => (
        <NavLink key={l.to} to={l.to} prefetch="intent">
          {l.label}
        </NavLink>
      ))}
    </nav>
  );
}
