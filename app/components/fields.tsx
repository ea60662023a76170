/**
 * The fields of forms that conform runs (valibot schemas, client-side validation as the user
 * types): labelled fields whose errors are i18n keys (shown translated next to the field and
 * summarised at the top with role="alert"), the password field with its show/hide toggle, the
 * verification-code field, the new-password pair and the picture captcha. Everything renders on
 * the server and works without JavaScript. Plain POST forms use ~/components/forms and so never
 * download conform.
 */
import { getInputProps, getTextareaProps, type FieldMetadata, type FormMetadata } from "@conform-to/react";
import { Link } from "@remix-run/react";
import { useEffect, useState, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from "react";
import { useTranslation } from "~/i18n/react";
import { CodeButton } from "~/components/forms";
import { useHydrated } from "~/components/hydrated";
import { EyeIcon, EyeOffIcon } from "~/components/icons";
import { translateMessage } from "~/lib/messages";

// Forms of every schema share these components: the field's value type does not matter here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyField = FieldMetadata<any, any, string[]>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyForm = FormMetadata<any, string[]>;

/**
 * Every error of a form (its own and its fields'), once each, translated, with role="alert" —
 * after a submission only: while the user moves between fields, errors show next to the fields
 * they concern, and nothing above the form moves.
 */
export function FormErrors({ form }: { form: AnyForm }) {
  const { t } = useTranslation();
  if (form.status !== "error") return null;
  const list = [...(form.errors ?? []), ...Object.values(form.allErrors).flat()].filter(Boolean);
  if (list.length === 0) return null;
  return (
    <div className="form-errors" role="alert" id={form.errorId}>
      <ul>
        {[...new Set(list)].map((e) => (
          <li key={e}>{translateMessage(t, e)}</li>
        ))}
      </ul>
    </div>
  );
}

/**
 * After each server reply the secret fields are emptied: the other values survive an error,
 * passwords and captcha answers do not (as without JavaScript, where the page is new).
 */
export function useClearSecrets(form: AnyForm, reply: unknown, names: string[]) {
  const fields = names.join(",");
  const id = form.id;
  useEffect(() => {
    if (!reply) return;
    const element = document.getElementById(id);
    if (!(element instanceof HTMLFormElement)) return;
    for (const name of fields.split(",")) {
      const input = element.elements.namedItem(name);
      if (input instanceof HTMLInputElement) input.value = "";
    }
  }, [reply, fields, id]);
}

type InputType = "text" | "email" | "tel" | "password" | "search" | "url" | "number";

type FieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, "name" | "type" | "id" | "defaultValue" | "form"> & {
  field: AnyField;
  label: string;
  type?: InputType;
  hint?: ReactNode;
  addon?: ReactNode;
};

export function Field({ field, label, type = "text", hint, addon, ...input }: FieldProps) {
  const { key, ...props } = getInputProps(field, { type, ariaDescribedBy: hint ? field.descriptionId : undefined });
  return (
    <FieldShell field={field} label={label} hint={hint}>
      <div className="input-row">
        <input key={key} {...props} {...input} />
        {addon}
      </div>
    </FieldShell>
  );
}

/** A multi-line text field (conform), laid out like Field. */
export function TextAreaField({
  field,
  label,
  hint,
  ...textarea
}: Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "name" | "id" | "defaultValue" | "form"> & {
  field: AnyField;
  label: string;
  hint?: ReactNode;
}) {
  const { key, ...props } = getTextareaProps(field, { ariaDescribedBy: hint ? field.descriptionId : undefined });
  return (
    <FieldShell field={field} label={label} hint={hint}>
      <textarea key={key} {...props} {...textarea} />
    </FieldShell>
  );
}

/** A field's frame: its label, the control, the hint and the translated error, linked by ids. */
function FieldShell({ field, label, hint, children }: { field: AnyField; label: string; hint?: ReactNode; children: ReactNode }) {
  const { t } = useTranslation();
  const error = field.errors?.[0];
  return (
    <div className={error ? "field has-error" : "field"}>
      <label htmlFor={field.id}>{label}</label>
      {children}
      {hint ? (
        <p className="hint" id={field.descriptionId}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={field.errorId}>
          {translateMessage(t, error)}
        </p>
      ) : null}
    </div>
  );
}

/** Password input with a show/hide toggle (the toggle appears once JavaScript is running). */
export function PasswordField(props: Omit<FieldProps, "type" | "addon">) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const [visible, setVisible] = useState(false);
  return (
    <Field
      {...props}
      type={visible ? "text" : "password"}
      addon={
        hydrated ? (
          <button
            type="button"
            className="icon-button"
            aria-pressed={visible}
            aria-label={visible ? t("auth.hide_password") : t("auth.show_password")}
            onClick={() => setVisible((v) => !v)}
          >
            {visible ? <EyeOffIcon /> : <EyeIcon />}
          </button>
        ) : null
      }
    />
  );
}

/** A new password and its confirmation (register, forgot, /mine/password). */
export function NewPasswordFields({ password, confirm, label }: { password: AnyField; confirm: AnyField; label?: string }) {
  const { t } = useTranslation();
  return (
    <>
      <PasswordField field={password} label={label ?? t("auth.new_password")} hint={t("auth.password_hint")} autoComplete="new-password" />
      <PasswordField field={confirm} label={t("auth.confirm_password")} autoComplete="new-password" />
    </>
  );
}

/** The verification code with its send button (60 s countdown after a send). */
export function CodeField({ field, secondsLeft }: { field: AnyField; secondsLeft: number }) {
  const { t } = useTranslation();
  return (
    <Field
      field={field}
      label={t("auth.code")}
      inputMode="numeric"
      autoComplete="one-time-code"
      addon={<CodeButton secondsLeft={secondsLeft} />}
    />
  );
}

export interface CaptchaImage {
  id: string;
  b64s: string;
}

/** The picture captcha (single use): the image, the answer, its id, and a link to another picture. */
export function CaptchaField({ captcha, field, refreshTo }: { captcha: CaptchaImage; field: AnyField; refreshTo: string }) {
  const { t } = useTranslation();
  return (
    <>
      <Field
        field={field}
        label={t("auth.captcha")}
        autoComplete="off"
        autoCapitalize="characters"
        maxLength={6}
        required
        addon={<img className="captcha" src={captcha.b64s} alt={t("auth.captcha_alt")} width={150} height={50} />}
        hint={
          <Link to={refreshTo} reloadDocument className="small">
            {t("auth.captcha_refresh")}
          </Link>
        }
      />
      <input type="hidden" name="key" value={captcha.id} />
    </>
  );
}
