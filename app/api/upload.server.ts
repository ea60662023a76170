/** POST /api/common/image_upload (spec §7): multipart 'file', one file part; answers the stored upload's private url and id. */
import type { UploadPurpose } from "~/domain/uploads";
import { UploadQuerySchema } from "~/forms/upload";
import { readFileParts, uploadFieldError, uploadUrl } from "~/services/uploads.server";
import { failure, ok, parsed, query, userOrInvalid, type Routes } from "./common.server";

// (an avatar becomes public only once a trader chooses it: /follow/avatar/:id)
const PURPOSES: UploadPurpose[] = ["identity", "deposit_proof", "repayment_proof", "signature", "other", "avatar"];

export const uploadRoutes: Routes = {
  "/api/common/image_upload": {
    POST: async (request, ctx) => {
      const user = await userOrInvalid(ctx);
      if (user instanceof Response) return user;
      const input = parsed(ctx, UploadQuerySchema, query(request));
      if (input instanceof Response) return input;
      // News pictures become public (/news/image/:id): only operators store them.
      const asked = input.purpose;
      const purpose = PURPOSES.find((p) => p === asked) ?? (asked === "news_image" && user.role === "operator" ? "news_image" : "other");
      let stored: Map<string, string>;
      try {
        stored = await readFileParts(ctx, request, user.id, { file: purpose });
      } catch (error) {
        if (error instanceof Response && error.status === 413) return failure(ctx, { file: "errors.upload_too_large" }, 413);
        throw error;
      }
      // Only a file part stored just now answers: a text field, a JSON body or an id sent as text
      // (anyone's) is no upload, and the id answered is the stored upload's own.
      const value = stored.get("file") ?? null;
      const refused = uploadFieldError(value);
      if (refused) return failure(ctx, { file: refused }, refused === "errors.upload_quota" ? 429 : 400);
      if (!value) return failure(ctx, { file: "errors.upload_required" });
      return ok(ctx, { url: uploadUrl(value), id: value });
    },
  },
};
