/**
 * Pieces of the loan screens: plain fields whose errors (i18n keys from the loan service) show
 * next to the field and are summarised with role="alert"; the status badge; the figures list;
 * and the signature pad (pointer events on a canvas; each finished stroke uploads the drawing as a
 * PNG ahead of the submit, posted as `sign`; without JavaScript the pad is absent and the typed
 * full name is the signature).
 */
import { useEffect, useRef, useState, type ReactNode, type SelectHTMLAttributes } from "react";
import { useTranslation } from "~/i18n/react";
import { PlainField, type PlainFieldProps } from "~/components/forms";
import { useHydrated } from "~/components/hydrated";
import { LOAN_STATUS_KEYS, LoanStatus } from "~/domain/loan";
import { translateMessage } from "~/lib/messages";
import type { LoanRecord } from "~/services/loan/queries.server";

/** A plain field of the loan forms (ids `loan-<name>`). */
export function LoanField(props: Omit<PlainFieldProps, "id">) {
  return <PlainField id={`loan-${props.name}`} {...props} />;
}

export function LoanSelect({
  name,
  label,
  error,
  options,
  ...select
}: { name: string; label: string; error?: string; options: { value: string; label: string }[] } & Omit<
  SelectHTMLAttributes<HTMLSelectElement>,
  "name" | "id"
>) {
  const { t } = useTranslation();
  const id = `loan-${name}`;
  return (
    <div className={error ? "field has-error" : "field"}>
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined} {...select}>
        <option value="">—</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {translateMessage(t, error)}
        </p>
      ) : null}
    </div>
  );
}

/** A loan's status (spec §4 Loan states), translated. */
export function LoanStatusBadge({ status }: Pick<LoanRecord, "status">) {
  const { t } = useTranslation();
  const tone = status === LoanStatus.Repaid ? "status-finished" : status === LoanStatus.Rejected ? "status-refused" : "status-unchecked";
  return <span className={`badge status-badge ${tone}`}>{t(LOAN_STATUS_KEYS[status] ?? "loan.status_1")}</span>;
}

/** A definition list of label → value rows. */
export function Figures({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="details loan-figures">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd className="num">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

type PadState =
  | { status: "empty" }
  | { status: "drawn" }
  | { status: "uploading" }
  | { status: "done"; id: string }
  | { status: "error"; message: string };

/** The signature pad (only with JavaScript): posts the stored PNG's id as `sign`. */
export function SignaturePad({ error, onBusy }: { error?: string; onBusy?: (busy: boolean) => void }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const canvas = useRef<HTMLCanvasElement>(null);
  const drawing = useRef(false);
  const [state, setState] = useState<PadState>({ status: "empty" });
  const generation = useRef(0);
  const uploading = state.status === "uploading";
  useEffect(() => onBusy?.(uploading), [uploading, onBusy]);

  useEffect(() => {
    const c = canvas.current;
    if (!c) return;
    const ratio = window.devicePixelRatio || 1;
    c.width = Math.round(c.clientWidth * ratio);
    c.height = Math.round(c.clientHeight * ratio);
    const g = c.getContext("2d");
    if (g) {
      g.scale(ratio, ratio);
      g.lineWidth = 2.5;
      g.lineCap = "round";
      g.lineJoin = "round";
      g.strokeStyle = getComputedStyle(c).color || "black";
    }
  }, [hydrated]);

  function point(e: React.PointerEvent<HTMLCanvasElement>) {
    const r = e.currentTarget.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  }

  function down(e: React.PointerEvent<HTMLCanvasElement>) {
    const g = e.currentTarget.getContext("2d");
    if (!g) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    drawing.current = true;
    const p = point(e);
    g.beginPath();
    g.moveTo(p.x, p.y);
    g.lineTo(p.x + 0.1, p.y + 0.1);
    g.stroke();
    setState({ status: "drawn" });
  }

  function move(e: React.PointerEvent<HTMLCanvasElement>) {
    if (!drawing.current) return;
    const g = e.currentTarget.getContext("2d");
    if (!g) return;
    const p = point(e);
    g.lineTo(p.x, p.y);
    g.stroke();
  }

  async function up() {
    if (!drawing.current) return;
    drawing.current = false;
    const c = canvas.current;
    if (!c) return;
    const mine = ++generation.current;
    setState({ status: "uploading" });
    const blob = await new Promise<Blob | null>((resolve) => c.toBlob(resolve, "image/png"));
    if (!blob) return setState({ status: "error", message: t("loan.signature_invalid") });
    try {
      const body = new FormData();
      body.append("file", blob, "signature.png");
      const res = await fetch("/api/common/image_upload?purpose=signature", { method: "POST", body, credentials: "same-origin" });
      const answer = (await res.json()) as { code: number; msg: string; data: { id?: string } | null };
      if (mine !== generation.current) return; // a newer stroke (or a clear) replaced this upload
      if (answer.code === 1 && answer.data?.id) setState({ status: "done", id: answer.data.id });
      else setState({ status: "error", message: answer.msg || t("errors.try_again") });
    } catch {
      if (mine === generation.current) setState({ status: "error", message: t("errors.network") });
    }
  }

  function clear() {
    generation.current += 1;
    const c = canvas.current;
    const g = c?.getContext("2d");
    if (c && g) g.clearRect(0, 0, c.width, c.height);
    setState({ status: "empty" });
  }

  if (!hydrated) return null;
  const shown = state.status === "error" ? state.message : error ? translateMessage(t, error) : null;
  return (
    <div className={shown ? "field signature-field has-error" : "field signature-field"}>
      <span className="label" id="signature-pad-label">
        {t("loan.sign")}
      </span>
      <canvas
        ref={canvas}
        className="signature-pad"
        role="img"
        aria-labelledby="signature-pad-label"
        aria-describedby="signature-pad-hint"
        data-state={state.status}
        onPointerDown={down}
        onPointerMove={move}
        onPointerUp={up}
        onPointerCancel={up}
      />
      <p className="hint" id="signature-pad-hint">
        {t("loan.sign_hint")}
      </p>
      <p className="hint" role="status" aria-live="polite">
        {state.status === "uploading" ? t("upload.uploading") : ""}
      </p>
      {state.status === "done" ? <input type="hidden" name="sign" value={state.id} /> : null}
      <button type="button" className="button" onClick={clear} disabled={state.status === "empty"}>
        {t("loan.clear")}
      </button>
      {shown ? <p className="field-error">{shown}</p> : null}
    </div>
  );
}
