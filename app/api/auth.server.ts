/** JSON calls of sign-in and accounts (spec §7): the same services and schemas as the forms. */
import { DemoLoginQuerySchema } from "~/forms/account";
import {
  ApiAmendSchema,
  ForgotSchema,
  isOwnCodeCall,
  LoginSchema,
  passwordCallFields,
  registerCodeCallFields,
  RegisterSchema,
  resetCodeCallFields,
  ResetCodeSchema,
  SendCodeSchema,
} from "~/forms/auth";
import { createCaptcha } from "~/services/codes.server";
import { Limits, hit } from "~/services/rate-limit.server";
import { amendPassword, resetPassword, sendAmendCode, sendResetCode } from "~/services/auth/passwords.server";
import { demoLogin, login, logout, register, sendRegisterCode } from "~/services/auth/sign-in.server";
import type { Failure } from "~/services/outcome";
import { userProfile } from "~/services/account.server";
import { failure, fields, ok, parsed, query, userOrInvalid, type Routes } from "./common.server";
import type { AppContext } from "~/context.server";

function refused(ctx: AppContext, outcome: Failure) {
  return failure(ctx, outcome.errors, outcome.status, outcome.captchaRequired ? { captcha_required: true } : {});
}

export const authRoutes: Routes = {
  "/api/captcha": {
    GET: async (_request, ctx) => {
      if (!(await hit(ctx.d1, `captcha:c:${ctx.client.key}`, Limits.captchaPerClient)))
        return failure(ctx, { form: "errors.too_many_requests" }, 429);
      return ok(ctx, await createCaptcha(ctx.d1));
    },
  },
  "/api/user/loginForU": {
    POST: async (request, ctx) => {
      const body = await fields(request, ctx);
      if (body instanceof Response) return body;
      const input = parsed(ctx, LoginSchema, body);
      if (input instanceof Response) return input;
      const result = await login(ctx, input);
      if (!result.ok) return refused(ctx, result);
      return ok(ctx, { token: result.value.token, user: await userProfile(ctx, result.value.userId) }, "auth.login_success");
    },
  },
  "/api/user/logout": {
    POST: async (_request, ctx) => {
      await logout(ctx, await ctx.token());
      return ok(ctx, null, "auth.logout_success");
    },
  },
  "/api/user/createAccountDemoForU": {
    GET: async (request, ctx) => {
      const input = parsed(ctx, DemoLoginQuerySchema, query(request));
      if (input instanceof Response) return input;
      const result = await demoLogin(ctx, input.demo_id);
      if (!result.ok) return refused(ctx, result);
      return ok(ctx, { token: result.value.token, demo_id: result.value.demoId, user: await userProfile(ctx, result.value.userId) });
    },
  },
  "/api/user/register": {
    POST: async (request, ctx) => {
      const body = await fields(request, ctx);
      if (body instanceof Response) return body;
      const input = parsed(ctx, RegisterSchema, body);
      if (input instanceof Response) return input;
      const result = await register(ctx, input);
      if (!result.ok) return refused(ctx, result);
      return ok(ctx, { token: result.value.token, user: await userProfile(ctx, result.value.user.id) }, "auth.register_success");
    },
  },
  "/api/notify/send_email": { POST: (r, c) => sendCodeCall(r, c, "email") },
  "/api/notify/send_sms": { POST: (r, c) => sendCodeCall(r, c, "mobile") },
  "/api/user/forget_password": {
    POST: async (request, ctx) => {
      const body = await fields(request, ctx);
      if (body instanceof Response) return body;
      const input = parsed(ctx, ForgotSchema, passwordCallFields(body));
      if (input instanceof Response) return input;
      const result = await resetPassword(ctx, input);
      if (!result.ok) return refused(ctx, result);
      return ok(ctx, null, "auth.password_changed");
    },
  },
  "/api/user/amend_password": {
    POST: async (request, ctx) => {
      const user = await userOrInvalid(ctx);
      if (user instanceof Response) return user;
      const body = await fields(request, ctx);
      if (body instanceof Response) return body;
      // spec: new_password, auth_code, type 'email' (the code went to the user's mailbox); an
      // old_password sent as well is checked
      const input = parsed(ctx, ApiAmendSchema, passwordCallFields(body));
      if (input instanceof Response) return input;
      const result = await amendPassword(ctx, user, input);
      if (!result.ok) return refused(ctx, result);
      return ok(ctx, { token: result.value.token }, "auth.password_changed");
    },
  },
};

/** send_email / send_sms: type 1 is a registration code; type 2 ("other") is the signed-in user's own code, or a reset code. */
async function sendCodeCall(request: Request, ctx: AppContext, channel: "email" | "mobile") {
  const body = await fields(request, ctx);
  if (body instanceof Response) return body;
  if (isOwnCodeCall(body)) {
    const user = await ctx.user();
    if (user) {
      const result = await sendAmendCode(ctx, user);
      return result.ok ? ok(ctx, { seconds: result.value.seconds }, "auth.code_sent") : refused(ctx, result);
    }
    const input = parsed(ctx, ResetCodeSchema, resetCodeCallFields(body));
    if (input instanceof Response) return input;
    const result = await sendResetCode(ctx, input);
    return result.ok ? ok(ctx, { seconds: result.value.seconds }, "auth.code_sent") : refused(ctx, result);
  }
  const input = parsed(ctx, SendCodeSchema, registerCodeCallFields(body, channel));
  if (input instanceof Response) return input;
  const result = await sendRegisterCode(ctx, input);
  return result.ok ? ok(ctx, { seconds: result.value.seconds }, "auth.code_sent") : refused(ctx, result);
}
