import { useTranslation } from "~/i18n/react";

/**
 * The sanctioned-countries announcement (spec §1, §8 "Sanctioned countries notice"): services
 * are not provided to North Korea, Israel, China, Vanuatu and Cuba. Shown in the user's
 * language at the foot of home and on the registration form, where an account would be opened.
 */
export function SanctionsNotice({ className = "" }: { className?: string }) {
  const { t } = useTranslation();
  return (
    <aside className={`sanctions-notice muted small ${className}`.trim()} aria-label={t("notice.sanctions_title")}>
      <p>{t("notice.sanctions")}</p>
    </aside>
  );
}
