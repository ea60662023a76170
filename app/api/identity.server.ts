/**
 * Real-name calls (spec §7): /api/user_real/real_name submits name, card_id and the two photos
 * (upload ids from /api/common/image_upload, or their /uploads/<id> URLs); /api/user_real/center
 * answers the Auth info (spec §3) with the card number masked and the photos as private URLs.
 */
import { realNameCallFields, RealNameSchema } from "~/forms/real-name";
import { authInfo, submitRealName } from "~/services/identity.server";
import { actingUserOrInvalid, failure, ok, params, parsed, userOrInvalid, type Handler, type Routes } from "./common.server";

/** Submits the verification. The spec lists it as POST/GET: a GET must carry the token in `authorization` (actingUserOrInvalid). */
const submit: Handler = async (request, ctx) => {
  const user = await actingUserOrInvalid(request, ctx);
  if (user instanceof Response) return user;
  if (user.isDemo) return failure(ctx, { form: "errors.only_real_account" }, 403);
  const body = await params(request, ctx);
  if (body instanceof Response) return body;
  // A field left out answers like an empty one ("enter your name"), not as a malformed request.
  const input = parsed(ctx, RealNameSchema, realNameCallFields(body));
  if (input instanceof Response) return input;
  const result = await submitRealName(ctx, user, input);
  if (!result.ok) return failure(ctx, result.errors, result.status);
  return ok(ctx, await authInfo(ctx, user.id), "identity.submitted");
};

/** The Auth info (read-only). */
const center: Handler = async (_request, ctx) => {
  const user = await userOrInvalid(ctx);
  if (user instanceof Response) return user;
  return ok(ctx, await authInfo(ctx, user.id));
};

export const identityRoutes: Routes = {
  "/api/user_real/real_name": { POST: submit, GET: submit },
  "/api/user_real/center": { GET: center, POST: center },
};
