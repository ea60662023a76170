/**
 * Helpers of the JSON API (spec §7 calls, §8 envelope): every answer is {code, msg, data} with
 * msg in the `lang` header's language, and error maps translated too (no raw validation text).
 */
import type * as v from "valibot";
import type { AppContext } from "~/context.server";
import { parseFields, type FieldErrors } from "~/forms/parse";
import { ApiCode } from "~/lib/api-code";
import { BodyTooLarge, envelope, readFields } from "~/lib/http.server";
import { translateMessage } from "~/lib/messages";
import { sessionUserForWrite, type SessionAccounts, type SessionUser } from "~/services/session.server";

export type Handler = (request: Request, ctx: AppContext) => Promise<Response>;
export type Routes = Record<string, Partial<Record<"GET" | "POST", Handler>>>;

export function ok(ctx: AppContext, data: unknown, msgKey = "api.success") {
  return envelope(ApiCode.Ok, ctx.t(msgKey), data);
}

/** A refusal: the first error as msg, every error translated in data.errors, and what else the client must know. */
export function failure(ctx: AppContext, errors: FieldErrors, status = 400, extra: Record<string, unknown> = {}) {
  const translated: Record<string, string> = {};
  for (const [field, key] of Object.entries(errors)) if (key) translated[field] = translateMessage(ctx.t, key);
  const first = Object.values(translated)[0] ?? ctx.t("errors.try_again");
  // The envelope's code carries the outcome; HTTP statuses stay 200 for refusals clients show as toasts, except 429 and 404.
  return envelope(ApiCode.Error, first, { errors: translated, ...extra }, status === 429 || status === 404 ? status : 200);
}

export function invalidSession(ctx: AppContext) {
  return envelope(ApiCode.InvalidSession, ctx.t("errors.session_invalid"));
}

/** The request's fields (urlencoded, multipart or JSON; bounded, counted as read), or an error answer. */
export async function fields(request: Request, ctx: AppContext): Promise<URLSearchParams | Response> {
  try {
    return (await readFields(request)) ?? envelope(ApiCode.Error, ctx.t("errors.bad_request"), null, 400);
  } catch (error) {
    if (error instanceof BodyTooLarge) return envelope(ApiCode.Error, ctx.t("errors.too_large"), null, 413);
    throw error;
  }
}

export function query(request: Request): URLSearchParams {
  return new URL(request.url).searchParams;
}

/** The signed-in user of a call, or the 999 answer. */
export async function userOrInvalid(ctx: AppContext): Promise<SessionUser | Response> {
  return (await ctx.user()) ?? invalidSession(ctx);
}

/**
 * The user of a call that changes something. The spec sends these as GET; a GET authenticated by
 * the browser's cookie alone could be forged by another site (a link or a redirect), so GETs must
 * carry the token in the `authorization` header, as the spec's clients do. POSTs pass the
 * Worker's cross-site check first.
 */
export async function actingUserOrInvalid(request: Request, ctx: AppContext): Promise<SessionUser | Response> {
  if (request.method === "GET" && !request.headers.get("authorization")) return invalidSession(ctx);
  return userOrInvalid(ctx);
}

/**
 * The session of a write whose batch re-checks it (writeSessionGuard): the user from the
 * isolate's short cache, with the same rules as actingUserOrInvalid for GETs.
 */
export async function sessionForWrite(
  request: Request,
  ctx: AppContext,
): Promise<{ user: SessionUser; sessionId: string; accounts: SessionAccounts } | Response> {
  if (request.method === "GET" && !request.headers.get("authorization")) return invalidSession(ctx);
  const token = await ctx.token();
  const found = token ? await sessionUserForWrite(ctx.d1, token) : null;
  return found ?? invalidSession(ctx);
}

/** The call's parameters: the query for GET, the body (bounded) for POST. */
export async function params(request: Request, ctx: AppContext): Promise<URLSearchParams | Response> {
  return request.method === "GET" ? query(request) : fields(request, ctx);
}

/**
 * The call's input (query or body) through its command's schema in app/forms: the typed value,
 * or the refusal answer (each field's error translated, the first as msg).
 */
export function parsed<S extends v.GenericSchema>(
  ctx: AppContext,
  schema: S,
  data: URLSearchParams | Record<string, unknown>,
): v.InferOutput<S> | Response {
  const input = parseFields(schema, data);
  return input.ok ? input.value : failure(ctx, input.errors);
}
