/**
 * Copies a text (an address, an account number) with JavaScript, and says whether it worked;
 * without JavaScript there is no button and the text itself stays selectable.
 */
import { useEffect, useState } from "react";
import { useTranslation } from "~/i18n/react";
import { useHydrated } from "~/components/hydrated";

export function CopyButton({ text, label, doneLabel }: { text: string; label?: string; doneLabel?: string }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (state === "idle") return;
    const timer = setTimeout(() => setState("idle"), 2500);
    return () => clearTimeout(timer);
  }, [state]);
  if (!hydrated) return null;
  return (
    <>
      <button
        type="button"
        className="button small-button"
        onClick={() => {
          if (!navigator.clipboard) return setState("failed");
          navigator.clipboard.writeText(text).then(
            () => setState("copied"),
            () => setState("failed"),
          );
        }}
      >
        {label ?? t("wallet.copy")}
      </button>
      <span className="small muted" role="status" aria-live="polite">
        {state === "copied" ? (doneLabel ?? t("wallet.copied")) : state === "failed" ? t("deposit.copy_failed") : ""}
      </span>
    </>
  );
}
