/**
 * POST /api/common/image_upload?purpose=… (spec §7): what the picture is for. Anything else is
 * stored as "other"; news pictures (public once published) only for operators.
 */
import * as v from "valibot";
import type { UploadPurpose } from "~/services/uploads.server";

/** The purposes any signed-in user may ask for (an avatar becomes public only once a trader chooses it: /follow/avatar/:id). */
const USER_PURPOSES: readonly UploadPurpose[] = ["identity", "deposit_proof", "repayment_proof", "signature", "other", "avatar"];

export const UploadQuerySchema = v.pipe(
  v.object({ purpose: v.optional(v.string()) }),
  v.transform(({ purpose = "other" }) => ({ purpose })),
);

/** The purpose a picture is stored under, for this user. */
export function uploadPurposeOf(asked: string, isOperator: boolean): UploadPurpose {
  return USER_PURPOSES.find((p) => p === asked) ?? (asked === "news_image" && isOperator ? "news_image" : "other");
}
