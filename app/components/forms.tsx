import { useNavigation } from "@remix-run/react";
import { useEffect, useId, useState, type InputHTMLAttributes, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { EyeIcon, EyeOffIcon } from "~/components/icons";
import { translateMessage } from "~/lib/messages";

export type Errors = Partial<Record<string, string>> | undefined;

/** True once React has hydrated: JS-only enhancements render only then. */
export function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

export function FormErrors({ errors }: { errors: Errors }) {
  const { t } = useTranslation();
  const list = Object.values(errors ?? {}).filter(Boolean) as string[];
  if (list.length === 0) return null;
  return (
    <div className="form-errors" role="alert">
      <ul>
        {[...new Set(list)].map((e) => (
          <li key={e}>{translateMessage(t, e)}</li>
        ))}
      </ul>
    </div>
  );
}

type FieldProps = InputHTMLAttributes<HTMLInputElement> & {
  name: string;
  label: string;
  error?: string;
  hint?: ReactNode;
  addon?: ReactNode;
};

export function Field({ name, label, error, hint, addon, ...input }: FieldProps) {
  const { t } = useTranslation();
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  return (
    <div className={error ? "field has-error" : "field"}>
      <label htmlFor={id}>{label}</label>
      <div className="input-row">
        <input
          id={id}
          name={name}
          aria-invalid={error ? true : undefined}
          aria-describedby={[error ? errorId : null, hint ? hintId : null].filter(Boolean).join(" ") || undefined}
          {...input}
        />
        {addon}
      </div>
      {hint ? (
        <p className="hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={errorId}>
          {translateMessage(t, error)}
        </p>
      ) : null}
    </div>
  );
}

/** Password input with a show/hide toggle (the toggle appears once JavaScript is running). */
export function PasswordField(props: Omit<FieldProps, "type">) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const [visible, setVisible] = useState(false);
  return (
    <Field
      {...props}
      type={visible ? "text" : "password"}
      addon={
        hydrated ? (
          <button type="button" className="icon-button" aria-pressed={visible} aria-label={visible ? t("auth.hide_password") : t("auth.show_password")} onClick={() => setVisible((v) => !v)}>
            {visible ? <EyeOffIcon /> : <EyeIcon />}
          </button>
        ) : null
      }
    />
  );
}

export function SubmitButton({ children, intent, className = "button primary", formNoValidate, disabled }: { children: ReactNode; intent?: string; className?: string; formNoValidate?: boolean; disabled?: boolean }) {
  const navigation = useNavigation();
  const pending =
    navigation.state === "submitting" && (intent === undefined || navigation.formData?.get("intent") === intent);
  return (
    <button type="submit" name={intent ? "intent" : undefined} value={intent} className={className} disabled={disabled || pending} aria-busy={pending || undefined} formNoValidate={formNoValidate}>
      {pending ? <span className="spinner" aria-hidden="true" /> : null}
      {children}
    </button>
  );
}

/**
 * The send-code button: a submit button of the surrounding form (works without JavaScript)
 * that stays disabled while the server's 60-second resend interval runs, counting down live.
 */
export function CodeButton({ secondsLeft, intent = "send-code", label }: { secondsLeft: number; intent?: string; label?: string }) {
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
      {t(message)}
    </p>
  );
}
