/**
 * A photo slot of a form (identity documents, payment proofs): one file per slot.
 *
 * Without JavaScript it is a plain file input: the form posts multipart and the action streams
 * the file to R2 (readFormWithUploads). With JavaScript, choosing a photo downsizes it in the
 * browser when it is large (longest side ≤ 2560 px, JPEG), uploads it at once to
 * /api/common/image_upload, shows it, and the form then posts only the upload's id (a hidden
 * field of the same name), so submitting is quick on a slow network.
 */
import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "~/i18n/react";
import { useHydrated } from "~/components/hydrated";
import type { UploadPurpose } from "~/domain/uploads";
import { translateMessage } from "~/lib/messages";

const MAX_SIDE = 2560;
const DOWNSCALE_ABOVE_BYTES = 1_500_000;
export const PHOTO_ACCEPT = "image/jpeg,image/png,image/webp";

async function downscale(file: File): Promise<Blob> {
  if (file.size <= DOWNSCALE_ABOVE_BYTES || typeof createImageBitmap !== "function") return file;
  try {
    const bitmap = await createImageBitmap(file);
    const scale = Math.min(1, MAX_SIDE / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement("canvas");
    canvas.width = Math.round(bitmap.width * scale);
    canvas.height = Math.round(bitmap.height * scale);
    canvas.getContext("2d")?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close();
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.85));
    return blob && blob.size < file.size ? blob : file;
  } catch {
    // not an image the browser can read: the server decides (and says why)
    return file;
  }
}

type State =
  { status: "idle" } | { status: "uploading" } | { status: "done"; id: string; url: string } | { status: "error"; message: string };

export function PhotoInput({
  name,
  label,
  purpose,
  error,
  required = true,
  hint,
  kept,
}: {
  name: string;
  label: string;
  purpose: UploadPurpose;
  /** A server error (i18n key) for this field after a submit. */
  error?: string | null;
  required?: boolean;
  hint?: string;
  /** A photo already stored for this slot (e.g. after the form came back with an error): shown, and posted again unless replaced. */
  kept?: { id: string; url: string } | null;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [state, setState] = useState<State>(kept ? { status: "done", ...kept } : { status: "idle" });
  const keptId = kept?.id;
  const keptUrl = kept?.url;
  useEffect(() => {
    if (keptId && keptUrl) setState({ status: "done", id: keptId, url: keptUrl });
  }, [keptId, keptUrl]);
  const input = useRef<HTMLInputElement>(null);
  const hydrated = useHydrated();
  const shownError = state.status === "error" ? state.message : error ? translateMessage(t, error) : null;

  async function onChange(event: React.ChangeEvent<HTMLInputElement>) {
    const file = event.currentTarget.files?.[0];
    if (!file) return;
    setState({ status: "uploading" });
    try {
      const blob = await downscale(file);
      const body = new FormData();
      body.append("file", blob, file.name || "photo.jpg");
      const res = await fetch(`/api/common/image_upload?purpose=${purpose}`, { method: "POST", body, credentials: "same-origin" });
      const answer = (await res.json()) as { code: number; msg: string; data: { id?: string; url?: string } | null };
      if (answer.code === 1 && answer.data?.id && answer.data.url) {
        setState({ status: "done", id: answer.data.id, url: answer.data.url });
        if (input.current) input.current.value = "";
      } else setState({ status: "error", message: answer.msg || t("errors.try_again") });
    } catch {
      setState({ status: "error", message: t("errors.network") });
    }
  }

  const uploaded = state.status === "done" ? state : null;
  return (
    <div className={shownError ? "field photo-field has-error" : "field photo-field"}>
      <label htmlFor={id}>{label}</label>
      {uploaded ? <img className="photo-preview" src={uploaded.url} alt={label} /> : null}
      <input
        ref={input}
        id={id}
        type="file"
        // Without JavaScript a kept photo can still be replaced: the file (if one is chosen) comes first, the kept id after it.
        name={uploaded && hydrated ? undefined : name}
        accept={PHOTO_ACCEPT}
        required={required && !uploaded}
        onChange={onChange}
        aria-invalid={shownError ? true : undefined}
        aria-describedby={shownError ? `${id}-error` : hint ? `${id}-hint` : undefined}
      />
      {uploaded ? <input type="hidden" name={name} value={uploaded.id} /> : null}
      {hint ? (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      <p className="hint" role="status" aria-live="polite">
        {state.status === "uploading" ? t("upload.uploading") : uploaded ? t("upload.done") : ""}
      </p>
      {shownError ? (
        <p className="field-error" id={`${id}-error`}>
          {shownError}
        </p>
      ) : null}
    </div>
  );
}
