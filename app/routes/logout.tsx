/** Logout: ends the session (D1 row revoked), clears the cookie, goes home with 'logout success'. */
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { logout } from "~/services/auth/sign-in.server";
import { accountHome, redirectWithFlash, sessionClearCookie } from "~/services/web.server";

export const loader = ({ context }: LoaderFunctionArgs) => redirect(accountHome(context));

export async function action({ context }: ActionFunctionArgs) {
  await logout(context, await context.token());
  return redirectWithFlash(
    context,
    "/",
    { kind: "success", message: "auth.logout_success" },
    { "Set-Cookie": await sessionClearCookie(context) },
  );
}
