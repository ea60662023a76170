/**
 * POST /api/common/image_upload?purpose=… (spec §7): what the picture is for ("other" when not
 * said). Which purposes a user may ask for is the call's rule (news pictures only for operators).
 */
import * as v from "valibot";

export const UploadQuerySchema = v.pipe(
  v.object({ purpose: v.optional(v.string()) }),
  v.transform(({ purpose = "other" }) => ({ purpose })),
);
