import { useFetcher, useLocation } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { EyeIcon, EyeOffIcon, MoonIcon } from "~/components/icons";
import { Intent } from "~/forms/intents";
import { useRootData } from "~/lib/root-data";

/** Dark theme switch: a form post (no JavaScript needed); with JavaScript it applies at once. */
export function ThemeSwitch() {
  const { t } = useTranslation();
  const root = useRootData();
  const fetcher = useFetcher();
  const location = useLocation();
  const pending = fetcher.formData?.get("theme");
  const dark = pending ? pending === "dark" : root?.theme === "dark";
  return (
    <fetcher.Form
      method="post"
      action="/settings"
      className="row-form"
      onSubmit={() => {
        document.documentElement.dataset.theme = dark ? "light" : "dark";
      }}
    >
      <input type="hidden" name="intent" value={Intent.Theme} />
      <input type="hidden" name="theme" value={dark ? "light" : "dark"} />
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <button type="submit" className="row" role="switch" aria-checked={dark}>
        <MoonIcon />
        <span className="row-label">{t("user.dark_theme")}</span>
        <span className={dark ? "switch on" : "switch"} aria-hidden="true" />
      </button>
    </fetcher.Form>
  );
}

export function AssetsToggle({ hidden }: { hidden: boolean }) {
  const { t } = useTranslation();
  const fetcher = useFetcher();
  const location = useLocation();
  const pending = fetcher.formData?.get("hidden");
  const isHidden = pending ? pending === "1" : hidden;
  return (
    <fetcher.Form method="post" action="/settings" className="inline-form">
      <input type="hidden" name="intent" value={Intent.Assets} />
      <input type="hidden" name="hidden" value={isHidden ? "0" : "1"} />
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <button
        type="submit"
        className="icon-button"
        aria-pressed={isHidden}
        aria-label={isHidden ? t("user.show_assets") : t("user.hide_assets")}
      >
        {isHidden ? <EyeOffIcon /> : <EyeIcon />}
      </button>
    </fetcher.Form>
  );
}
