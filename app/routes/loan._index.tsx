/**
 * /loan (spec §2, §4 Loan KYC status): 0 (none) or 3 (rejected, with the reason) shows the loan
 * KYC form; 1 shows "waiting for review" (within 48 hours); 2 goes to /loan/submit. Demo users
 * are refused. The form posts multipart: without JavaScript the photo streams to R2 in the
 * action (readFormWithUploads); with it, PhotoInput uploads ahead and posts the id. A refused
 * submission re-renders with the values kept and the errors next to the fields.
 */
import { data, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { LoanField, LoanSelect } from "~/components/loan";
import { ErrorSummary, SubmitButton } from "~/components/forms";
import { PageHeader } from "~/components/layout";
import { PhotoInput } from "~/components/photo-input";
import { RouteErrorBoundary } from "~/components/route-error";
import { KycStatus } from "~/domain/loan";
import { Intent } from "~/forms/intents";
import { KycSchema } from "~/forms/loan";
import { parseFields } from "~/forms/parse";
import { kycOf, kycStatus, submitKyc } from "~/services/loan/kyc.server";
import { fail, type FieldErrors } from "~/services/outcome";
import { ownedUpload, readFormWithUploads, uploadFieldError, uploadIdOf, uploadUrl } from "~/services/uploads.server";
import { redirectWithFlash, requireRealUser } from "~/services/web.server";
import loanStylesHref from "~/styles/loan.css";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "auth", "loan", "upload"] };

export const meta = titled("loan.title");

export const links: LinksFunction = () => [{ rel: "stylesheet", href: loanStylesHref }];

const FIELDS = ["name", "last_name", "sex", "birthday", "country", "mobile", "id_card_type"] as const;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireRealUser(context, request);
  const kyc = await kycOf(context, user.id);
  const status = kycStatus(kyc);
  if (status === KycStatus.Approved) throw redirect("/loan/submit");
  return { status, reason: status === KycStatus.Rejected ? (kyc?.reason ?? "") : "" };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireRealUser(context, request);
  let form: URLSearchParams;
  try {
    form = await readFormWithUploads(context, request, user.id, { hand_pic: "identity" });
  } catch (error) {
    if (error instanceof Response && error.status === 413)
      return data(
        { errors: { hand_pic: "errors.upload_too_large" } as FieldErrors, values: {} as Record<string, string>, kept: null },
        { status: 413 },
      );
    throw error;
  }
  if (form.get("intent") !== Intent.LoanKyc)
    return data({ errors: { form: "errors.bad_request" } as FieldErrors, values: {}, kept: null }, { status: 400 });
  // a newly chosen file first, else the photo kept from the last try
  const hand = form.getAll("hand_pic").find(Boolean) ?? "";
  const values: Record<string, string> = {};
  for (const name of FIELDS) values[name] = (form.get(name) ?? "").slice(0, 100);
  const command = parseFields(KycSchema, { ...values, hand_pic: hand });
  const result = command.ok ? await submitKyc(context, user, command.value) : fail(command.errors);
  if (!result.ok) {
    const refused = uploadFieldError(hand);
    const kept = refused ? null : await ownedUpload(context, user.id, uploadIdOf(hand), "identity");
    return data({ errors: result.errors, values, kept: kept ? { id: kept.id, url: uploadUrl(kept.id) } : null }, { status: result.status });
  }
  return redirectWithFlash(context, "/loan", { kind: "success", message: "loan.kyc_submitted" });
}

export default function LoanIndex() {
  const { t } = useTranslation();
  const { status, reason } = useLoaderData<typeof loader>();
  return (
    <div className="page narrow loan-page">
      <PageHeader title={t("loan.title")} back="/" actions={<Link to="/loan/record">{t("loan.record")}</Link>} />
      {status === KycStatus.Waiting ? (
        <section className="card" aria-labelledby="kyc-waiting">
          <h2 id="kyc-waiting">{t("loan.kyc_waiting")}</h2>
          <p className="muted">{t("loan.kyc_waiting_hint")}</p>
        </section>
      ) : (
        <KycForm reason={reason} />
      )}
    </div>
  );
}

function KycForm({ reason }: { reason: string }) {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const errors = actionData?.errors ?? {};
  const values = (actionData?.values ?? {}) as Record<string, string>;
  const v = (name: string) => values[name] ?? "";
  return (
    <>
      <h2 className="section-title">{t("loan.kyc_title")}</h2>
      {reason ? (
        <section className="card identity-rejected" aria-labelledby="kyc-rejected">
          <p id="kyc-rejected">{t("loan.kyc_rejected", { reason })}</p>
          <p className="muted small">{t("loan.kyc_submit_again")}</p>
        </section>
      ) : (
        <p className="muted">{t("loan.kyc_intro")}</p>
      )}
      <Form method="post" encType="multipart/form-data" className="form" key={JSON.stringify(values)}>
        {Object.keys(errors).length > 1 ? (
          <ErrorSummary errors={{ form: "loan.please_complete", ...errors }} />
        ) : (
          <ErrorSummary errors={errors} />
        )}
        <LoanField
          name="name"
          label={t("loan.last_name")}
          error={errors.name}
          defaultValue={v("name")}
          autoComplete="family-name"
          maxLength={60}
          required
        />
        <LoanField
          name="last_name"
          label={t("loan.first_name")}
          error={errors.last_name}
          defaultValue={v("last_name")}
          autoComplete="given-name"
          maxLength={60}
          required
        />
        <LoanSelect
          name="sex"
          label={t("loan.sex")}
          error={errors.sex}
          defaultValue={v("sex")}
          required
          options={[
            { value: "1", label: t("loan.sex_1") },
            { value: "2", label: t("loan.sex_2") },
          ]}
        />
        <LoanField
          name="birthday"
          label={t("loan.birthday")}
          error={errors.birthday}
          defaultValue={v("birthday")}
          placeholder="YYYY/MM/DD"
          inputMode="numeric"
          autoComplete="bday"
          hint={t("loan.birthday_hint")}
          required
        />
        <LoanField
          name="country"
          label={t("loan.country")}
          error={errors.country}
          defaultValue={v("country")}
          autoComplete="country-name"
          maxLength={60}
          required
        />
        <LoanField
          name="mobile"
          label={t("loan.mobile")}
          type="tel"
          error={errors.mobile}
          defaultValue={v("mobile")}
          autoComplete="tel"
          maxLength={20}
          required
        />
        <LoanSelect
          name="id_card_type"
          label={t("loan.id_card_type")}
          error={errors.id_card_type}
          defaultValue={v("id_card_type")}
          required
          options={[
            { value: "1", label: t("loan.id_card_type_1") },
            { value: "2", label: t("loan.id_card_type_2") },
          ]}
        />
        <PhotoInput
          name="hand_pic"
          label={t("loan.hand_pic")}
          purpose="identity"
          error={errors.hand_pic}
          hint={t("upload.hint")}
          kept={actionData?.kept ?? null}
        />
        <SubmitButton intent={Intent.LoanKyc}>{t("loan.kyc_submit")}</SubmitButton>
      </Form>
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
