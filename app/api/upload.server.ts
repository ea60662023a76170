/** POST /api/common/image_upload (spec §7): multipart 'file', one file; answers its private url. */
import { readFormWithUploads, uploadFieldError, uploadUrl, type UploadPurpose } from "~/services/uploads.server";
import { failure, ok, query, userOrInvalid, type Routes } from "./common.server";

// (an avatar becomes public only once a trader chooses it: /follow/avatar/:id)
const PURPOSES: UploadPurpose[] = ["identity", "deposit_proof", "repayment_proof", "signature", "other", "avatar"];

export const uploadRoutes: Routes = {
  "/api/common/image_upload": {
    POST: async (request, ctx) => {
      const user = await userOrInvalid(ctx);
      if (user instanceof Response) return user;
      const asked = query(request).get("purpose") ?? "other";
      // News pictures become public (/news/image/:id): only operators store them.
      const purpose = PURPOSES.find((p) => p === asked) ?? (asked === "news_image" && user.role === "operator" ? "news_image" : "other");
      let form: URLSearchParams;
      try {
        form = await readFormWithUploads(ctx, request, user.id, { file: purpose });
      } catch (error) {
        if (error instanceof Response && error.status === 413) return failure(ctx, { file: "errors.upload_too_large" }, 413);
        throw error;
      }
      const value = form.get("file");
      const refused = uploadFieldError(value);
      if (refused) return failure(ctx, { file: refused }, refused === "errors.upload_quota" ? 429 : 400);
      if (!value) return failure(ctx, { file: "errors.upload_required" });
      return ok(ctx, { url: uploadUrl(value), id: value });
    },
  },
};
