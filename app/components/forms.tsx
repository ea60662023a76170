/**
 * Form building blocks every form shares, without conform (so a page with plain POST forms never
 * downloads it): the error summary and labelled input of plain forms, submit buttons that show
 * their pending state, the send-code button with its 60 s countdown, the invisible default
 * submit and the confirmation notice. Fields bound to conform are in ~/components/fields.
 * Everything renders on the server and works without JavaScript.
 */
import { useNavigation } from "@remix-run/react";
import { useEffect, useState, type InputHTMLAttributes, type ReactNode } from "react";
import { useTranslation } from "~/i18n/react";
import { Intent } from "~/forms/intents";
import { translateMessage } from "~/lib/messages";

/** A form's errors (i18n keys), once each, as one alert above its fields (forms without conform). */
export function ErrorSummary({ errors }: { errors: Partial<Record<string, string>> | null | undefined }) {
  const { t } = useTranslation();
  const list = [...new Set(Object.values(errors ?? {}).filter(Boolean) as string[])];
  if (list.length === 0) return null;
  return (
    <div className="form-errors" role="alert">
      <ul>
        {list.map((e) => (
          <li key={e}>{translateMessage(t, e)}</li>
        ))}
      </ul>
    </div>
  );
}

export type PlainFieldProps = { id: string; name: string; label: string; error?: string; hint?: ReactNode; children?: ReactNode } & Omit<
  InputHTMLAttributes<HTMLInputElement>,
  "name" | "id"
>;

/** A labelled input without conform (plain POST forms): its hint and error under it, tied by aria-describedby. */
export function PlainField({ id, name, label, error, hint, children, ...input }: PlainFieldProps) {
  const { t } = useTranslation();
  const described = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div className={error ? "field has-error" : "field"}>
      <label htmlFor={id}>{label}</label>
      <div className="input-row">
        <input id={id} name={name} aria-invalid={error ? true : undefined} aria-describedby={described} {...input} />
        {children}
      </div>
      {hint ? (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {translateMessage(t, error)}
        </p>
      ) : null}
    </div>
  );
}

export function SubmitButton({
  children,
  intent,
  className = "button primary",
  formNoValidate,
  disabled,
}: {
  children: ReactNode;
  intent?: string;
  className?: string;
  formNoValidate?: boolean;
  disabled?: boolean;
}) {
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && (intent === undefined || navigation.formData?.get("intent") === intent);
  return (
    <button
      type="submit"
      name={intent ? "intent" : undefined}
      value={intent}
      className={className}
      disabled={disabled || pending}
      aria-busy={pending || undefined}
      formNoValidate={formNoValidate}
    >
      {pending ? <span className="spinner" aria-hidden="true" /> : null}
      {children}
    </button>
  );
}

/**
 * The send-code button: a submit button of the surrounding form (works without JavaScript)
 * that stays disabled while the server's 60-second resend interval runs, counting down live.
 */
export function CodeButton({ secondsLeft, intent = Intent.SendCode, label }: { secondsLeft: number; intent?: string; label?: string }) {
  const { t } = useTranslation();
  const [left, setLeft] = useState(secondsLeft);
  useEffect(() => setLeft(secondsLeft), [secondsLeft]);
  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);
  return (
    <SubmitButton intent={intent} className="button code-button" formNoValidate disabled={left > 0}>
      <span aria-live="polite">{left > 0 ? t("auth.resend_in", { seconds: left }) : (label ?? t("auth.send_code"))}</span>
    </SubmitButton>
  );
}

/**
 * Pressing Enter submits a form with its first submit button. Forms whose first visible button
 * is "send code" start with this invisible one, so Enter does the form's main action.
 */
export function DefaultSubmit({ intent }: { intent: string }) {
  return <button type="submit" name="intent" value={intent} className="visually-hidden" tabIndex={-1} aria-hidden="true" />;
}

/** A confirmation line after an action (e.g. "code sent"), announced politely. */
export function Notice({ message }: { message: string | null | undefined }) {
  const { t } = useTranslation();
  if (!message) return null;
  return (
    <p className="notice" role="status">
      {translateMessage(t, message)}
    </p>
  );
}
