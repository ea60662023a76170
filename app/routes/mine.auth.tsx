/**
 * Real-name verification (spec §2 /mine/auth, §3 Auth info, §4, §5; issue 10 §4). Demo users are
 * refused ('only real account').
 *
 * - Not verified (or rejected, with the reason shown): a form with the name, the ID or passport
 *   number and the two photos. It posts multipart: without JavaScript the files are streamed to
 *   R2 by the action (readFormWithUploads); with JavaScript each photo is uploaded as soon as it
 *   is chosen and the form posts only its id (PhotoInput).
 * - Waiting for audit or certified: the details read-only (the number masked) and the photos,
 *   served only to their owner (and operators) by /uploads/:id.
 */
import { getFormProps, useForm } from "@conform-to/react";
import { getValibotConstraint } from "@conform-to/valibot";
import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import type { ServiceContext } from "~/context.server";
import { PrivateImage } from "~/components/admin";
import { Field, FormErrors } from "~/components/fields";
import { SubmitButton } from "~/components/forms";
import { PageHeader } from "~/components/layout";
import { PhotoInput } from "~/components/photo-input";
import { RouteErrorBoundary } from "~/components/route-error";
import { ReviewStatus, maskCardId, reviewStatusKey } from "~/domain/real-name";
import { Intent } from "~/forms/intents";
import type { FieldErrors } from "~/forms/parse";
import { submissionOf } from "~/forms/parse";
import { RealNameSchema } from "~/forms/real-name";
import { replyWithErrors } from "~/forms/reply";
import { identityOf, submitRealName } from "~/services/identity.server";
import { ownedUpload, readFormWithUploads, uploadFieldError, uploadIdOf, uploadUrl } from "~/services/uploads.server";
import { redirectWithFlash, requireRealUser } from "~/services/web.server";
import identityStylesHref from "~/styles/identity.css";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "auth", "identity", "upload", "user"] };

const PHOTOS = { front_pic: "identity", reverse_pic: "identity" } as const;

export const meta = titled("user.real_name");

export const links: LinksFunction = () => [{ rel: "stylesheet", href: identityStylesHref }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireRealUser(context, request);
  const row = await identityOf(context, user.id);
  const status = row?.reviewStatus ?? ReviewStatus.None;
  const shown = row && (status === ReviewStatus.Waiting || status === ReviewStatus.Certified);
  return {
    status,
    details: shown ? { name: row.name, cardId: maskCardId(row.cardId), front: row.frontUploadId, reverse: row.reverseUploadId } : null,
    reason: status === ReviewStatus.Rejected ? (row?.reason ?? "") : "",
    constraint: getValibotConstraint(RealNameSchema),
  };
}

/** The photos of a refused submission that are stored and usable: the form shows them again instead of asking for them anew. */
async function keptPhotos(context: ServiceContext, userId: number, form: URLSearchParams) {
  const kept: Partial<Record<keyof typeof PHOTOS, { id: string; url: string }>> = {};
  for (const name of Object.keys(PHOTOS) as (keyof typeof PHOTOS)[]) {
    const upload = await ownedUpload(context, userId, uploadIdOf(form.get(name)), "identity");
    if (upload) kept[name] = { id: upload.id, url: uploadUrl(upload.id) };
  }
  return kept;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireRealUser(context, request);
  let form: URLSearchParams;
  try {
    form = await readFormWithUploads(context, request, user.id, PHOTOS);
  } catch (error) {
    if (error instanceof Response && error.status === 413)
      return data({ result: { status: "error" as const, error: { "": ["errors.upload_too_large"] } } }, { status: 413 });
    throw error;
  }
  if (form.get("intent") !== Intent.RealName)
    return data({ result: { status: "error" as const, error: { "": ["errors.bad_request"] } } }, { status: 400 });
  const refused: FieldErrors = {};
  for (const name of Object.keys(PHOTOS)) {
    // A newly chosen file comes before a photo kept from the last try: the first value that is there counts.
    form.set(name, form.getAll(name).find(Boolean) ?? "");
    // A refused file ("!<error key>") answers with its own reason, not "required".
    const problem = uploadFieldError(form.get(name));
    if (problem) {
      refused[name] = problem;
      form.delete(name);
    }
  }
  const submission = submissionOf(RealNameSchema, form);
  if (submission.status !== "success" || Object.keys(refused).length > 0) {
    return data({ result: replyWithErrors(submission, refused), kept: await keptPhotos(context, user.id, form) }, { status: 400 });
  }
  const result = await submitRealName(context, user, submission.value);
  if (!result.ok)
    return data(
      { result: replyWithErrors(submission, result.errors), kept: await keptPhotos(context, user.id, form) },
      { status: result.status },
    );
  return redirectWithFlash(context, "/mine/auth", { kind: "success", message: "identity.submitted" });
}

export default function MineAuth() {
  const { t } = useTranslation();
  const { status, details, reason } = useLoaderData<typeof loader>();
  return (
    <div className="page narrow">
      <PageHeader title={t("user.real_name")} back="/user" />
      {details ? <Details status={status} details={details} /> : <RealNameForm reason={reason} />}
    </div>
  );
}

function Details({ status, details }: { status: number; details: { name: string; cardId: string; front: string; reverse: string } }) {
  const { t } = useTranslation();
  return (
    <section className="card identity-details" aria-labelledby="identity-status">
      <p id="identity-status" className={status === ReviewStatus.Certified ? "identity-status certified" : "identity-status"} role="status">
        {t(reviewStatusKey(status))}
      </p>
      <p className="muted small">{status === ReviewStatus.Certified ? t("identity.certified_hint") : t("identity.waiting_hint")}</p>
      <dl className="details">
        <div>
          <dt>{t("identity.name")}</dt>
          <dd>{details.name}</dd>
        </div>
        <div>
          <dt>{t("identity.card_id")}</dt>
          <dd className="num">{details.cardId}</dd>
        </div>
      </dl>
      <div className="identity-photos">
        <figure>
          <PrivateImage uploadId={details.front} alt={t("identity.front_pic")} />
          <figcaption>{t("identity.front_pic")}</figcaption>
        </figure>
        <figure>
          <PrivateImage uploadId={details.reverse} alt={t("identity.reverse_pic")} />
          <figcaption>{t("identity.reverse_pic")}</figcaption>
        </figure>
      </div>
    </section>
  );
}

function RealNameForm({ reason }: { reason: string }) {
  const { t } = useTranslation();
  const { constraint } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useForm({ id: "real-name", lastResult: actionData?.result, constraint, shouldRevalidate: "onBlur" });
  const kept = actionData && "kept" in actionData ? actionData.kept : null;
  return (
    <>
      {reason ? (
        <section className="card identity-rejected" aria-labelledby="identity-rejected-title">
          <h2 id="identity-rejected-title">{t("identity.status_rejected")}</h2>
          <p>{t("identity.rejected_reason", { reason })}</p>
          <p className="muted small">{t("identity.submit_again")}</p>
        </section>
      ) : (
        <p className="muted">{t("identity.intro")}</p>
      )}
      <Form method="post" encType="multipart/form-data" className="form" {...getFormProps(form)} noValidate={false}>
        <FormErrors form={form} />
        <Field field={fields.name} label={t("identity.name")} autoComplete="name" hint={t("identity.name_hint")} />
        <Field
          field={fields.card_id}
          label={t("identity.card_id")}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          hint={t("identity.card_hint")}
        />
        <PhotoInput
          name="front_pic"
          label={t("identity.front_pic")}
          purpose="identity"
          error={fields.front_pic.errors?.[0]}
          hint={t("upload.hint")}
          kept={kept?.front_pic}
        />
        <PhotoInput
          name="reverse_pic"
          label={t("identity.reverse_pic")}
          purpose="identity"
          error={fields.reverse_pic.errors?.[0]}
          hint={t("upload.hint")}
          kept={kept?.reverse_pic}
        />
        <SubmitButton intent={Intent.RealName}>{t("identity.submit")}</SubmitButton>
      </Form>
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
