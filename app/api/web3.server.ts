/** JSON calls of web3 login (spec §7): the same services and schemas as the page. */
import { parseFields } from "~/forms/parse";
import { NonceRequestSchema, Web3LoginSchema } from "~/forms/web3";
import { userProfile } from "~/services/account.server";
import { issueNonce, siteOf, web3Login } from "~/services/web3.server";
import { failure, fields, ok, type Routes } from "./common.server";

export const web3Routes: Routes = {
  /** A nonce for w_address, with the server's times to write into the message (ISO 8601). */
  "/api/user/get_nonce": {
    POST: async (request, ctx) => {
      const body = await fields(request, ctx);
      if (body instanceof Response) return body;
      const input = parseFields(NonceRequestSchema, body);
      if (!input.ok) return failure(ctx, input.errors);
      const result = await issueNonce(ctx, input.value);
      if (!result.ok) return failure(ctx, result.errors, result.status);
      const { nonce, address, issuedAt, expiresAt } = result.value;
      return ok(ctx, {
        nonce,
        w_address: address,
        issued_at: new Date(issuedAt).toISOString(),
        expiration_time: new Date(expiresAt).toISOString(),
      });
    },
  },
  /** w_address, signature, nonce and the signed EIP-4361 message: token and user. */
  "/api/user/web3_login": {
    POST: async (request, ctx) => {
      const body = await fields(request, ctx);
      if (body instanceof Response) return body;
      const input = parseFields(Web3LoginSchema, body);
      if (!input.ok) return failure(ctx, input.errors);
      const result = await web3Login(ctx, siteOf(request), input.value);
      if (!result.ok) return failure(ctx, result.errors, result.status);
      const user = await userProfile(ctx, result.value.userId);
      return ok(
        ctx,
        { token: result.value.token, user: user ? { ...user, w_address: input.value.w_address } : null },
        "auth.login_success",
      );
    },
  },
};
