/**
 * The operator's content pages (news and announcements share them): the list, and the editor of
 * one language's text with the 18-language picker, the picture (news), and deleting with a
 * confirm step (a page of its own: works without JavaScript).
 */
import { getFormProps, useForm } from "@conform-to/react";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { PublishedDate } from "~/components/content";
import { Field, FormErrors, TextAreaField } from "~/components/fields";
import { SubmitButton } from "~/components/forms";
import { EmptyState } from "~/components/layout";
import { PhotoInput } from "~/components/photo-input";
import { Intent } from "~/forms/intents";
import { BODY_MAX, SUMMARY_MAX } from "~/domain/content";
import { LANGUAGES, type LanguageCode } from "~/i18n/config";
import { useRootData } from "~/lib/root-data";
import type { editorAction, editorLoader, listLoader } from "~/route-helpers/publish.server";

type Kind = "news" | "announcement";

function base(kind: Kind) {
  return kind === "news" ? "/admin/news" : "/admin/announcements";
}

function editHref(kind: Kind, id: number | null, lang: LanguageCode, confirm = false) {
  const q = new URLSearchParams();
  if (id !== null) q.set("id", String(id));
  q.set("lang", lang);
  if (confirm) q.set("confirm", "delete");
  return `${base(kind)}/edit?${q}`;
}

function languageLabel(code: string) {
  return LANGUAGES.find((l) => l.code === code)?.label ?? code;
}

export function ContentList() {
  const { t } = useTranslation();
  const { kind, items } = useLoaderData<ReturnType<typeof listLoader>>();
  const locale = useRootData()?.locale ?? "en-US";
  return (
    <section className="stack" aria-labelledby="content-list-title">
      <div className="record-head">
        <h2 id="content-list-title" className="section-title">
          {kind === "news" ? t("publish.news") : t("publish.announcements")}
        </h2>
        <Link to={editHref(kind, null, "en")} className="button primary">
          {kind === "news" ? t("publish.new_news") : t("publish.new_announcement")}
        </Link>
      </div>
      {items.length === 0 ? <EmptyState title={t("publish.none")} /> : null}
      <ul className="record-list">
        {items.map((item) => (
          <li key={item.id} className="card record">
            <div className="record-head">
              <Link to={editHref(kind, item.id, "en")}>{item.title}</Link>
              <PublishedDate ms={item.createdAt} locale={locale} />
            </div>
            <p className="muted small">
              {t("publish.languages_written")}: {item.languages.map(languageLabel).join(", ")}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function ContentEditor() {
  const { t } = useTranslation();
  const d = useLoaderData<ReturnType<typeof editorLoader>>();
  const { kind, id, lang, item } = d;
  const written = new Set<string>(item?.languages ?? []);
  return (
    <section className="stack content-editor" aria-labelledby="editor-title">
      <p>
        <Link to={base(kind)}>{kind === "news" ? t("publish.back_news") : t("publish.back_announcements")}</Link>
      </p>
      <h2 id="editor-title" className="section-title">
        {item ? item.englishTitle : kind === "news" ? t("publish.new_news") : t("publish.new_announcement")}
      </h2>
      {id !== null ? (
        <nav aria-label={t("publish.language")} className="language-picker">
          <ul>
            {LANGUAGES.map((l) => (
              <li key={l.code}>
                <Link
                  to={editHref(kind, id, l.code)}
                  aria-current={l.code === lang ? "page" : undefined}
                  lang={l.htmlLang}
                  className={written.has(l.code) ? "written" : undefined}
                >
                  {l.label}
                  {written.has(l.code) ? <span className="visually-hidden"> ({t("publish.written")})</span> : null}
                  {written.has(l.code) ? <span aria-hidden="true"> ✓</span> : null}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : (
        <p className="muted">{t("publish.english_first_hint")}</p>
      )}
      {d.confirm && id !== null ? <DeleteConfirm /> : <EditorForm key={`${id}-${lang}`} />}
    </section>
  );
}

function EditorForm() {
  const { t } = useTranslation();
  const { kind, id, lang, item } = useLoaderData<ReturnType<typeof editorLoader>>();
  const actionData = useActionData<ReturnType<typeof editorAction>>();
  const text = item?.text;
  const kept = actionData && "kept" in actionData ? actionData.kept : null;
  const [form, fields] = useForm({
    id: `content-${kind}-${id ?? "new"}-${lang}`,
    lastResult: actionData && "result" in actionData ? actionData.result : undefined,
    defaultValue: { title: text?.title ?? "", desc: text?.desc ?? "", content: text?.content ?? "", image: "" },
    shouldRevalidate: "onBlur",
  });
  const language = languageLabel(lang);
  return (
    <Form
      method="post"
      encType={kind === "news" ? "multipart/form-data" : undefined}
      className="form card"
      {...getFormProps(form)}
      noValidate={false}
    >
      <p className="muted">
        {t("publish.editing_in", { language })}
        {lang === "en" ? ` ${t("publish.english_fallback")}` : text ? "" : ` ${t("publish.not_written")}`}
      </p>
      <FormErrors form={form} />
      <Field field={fields.title} label={t("publish.title")} maxLength={200} required autoComplete="off" />
      {kind === "news" ? (
        <Field
          field={fields.desc}
          label={t("publish.summary")}
          maxLength={SUMMARY_MAX}
          autoComplete="off"
          hint={t("publish.summary_hint")}
        />
      ) : null}
      <TextAreaField field={fields.content} label={t("publish.body")} maxLength={BODY_MAX} hint={t("publish.body_hint")} rows={10} />
      {kind === "news" ? (
        <>
          {item?.logo ? <img className="photo-preview" src={item.logo} alt={t("publish.current_image")} /> : null}
          <PhotoInput
            name="image"
            label={t("publish.image")}
            purpose="news_image"
            required={false}
            error={fields.image.errors?.[0]}
            hint={t("publish.image_hint")}
            kept={kept}
          />
        </>
      ) : null}
      <div className="tiles">
        <SubmitButton intent={Intent.SaveContent}>{t("publish.save")}</SubmitButton>
        {id !== null ? (
          <Link to={editHref(kind, id, lang, true)} className="button danger">
            {t("publish.delete")}
          </Link>
        ) : null}
      </div>
    </Form>
  );
}

function DeleteConfirm() {
  const { t } = useTranslation();
  const { kind, id, lang, item } = useLoaderData<ReturnType<typeof editorLoader>>();
  return (
    <Form method="post" className="card stack" aria-labelledby="delete-title">
      <h3 id="delete-title">{t("publish.delete_confirm_title")}</h3>
      <p>{t("publish.delete_confirm_text", { title: item?.englishTitle ?? "" })}</p>
      <div className="tiles">
        <Link to={editHref(kind, id, lang)} className="button">
          {t("common.cancel")}
        </Link>
        <SubmitButton intent={Intent.DeleteContent} className="button danger">
          {t("publish.delete_confirm")}
        </SubmitButton>
      </div>
    </Form>
  );
}
