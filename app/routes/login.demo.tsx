/** The mock-account login (a POST): resumes this browser's demo user or creates one (spec §2, §6). */
import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { DemoLoginSchema } from "~/forms/account";
import { parseFields } from "~/forms/parse";
import { readForm } from "~/lib/http.server";
import { safeRedirect } from "~/lib/redirect";
import { demoLogin } from "~/services/auth/sign-in.server";
import { demoCookie, redirectWithFlash, sessionSetCookie } from "~/services/web.server";

export const loader = () => redirect("/login");

export async function action({ request, context }: ActionFunctionArgs) {
  const parsed = parseFields(DemoLoginSchema, await readForm(request));
  const from = parsed.ok ? parsed.value.from : undefined;
  const stored = await demoCookie.parse(request.headers.get("cookie")).catch(() => null);
  const result = await demoLogin(context, typeof stored === "string" ? stored : null);
  if (!result.ok) {
    return redirectWithFlash(context, "/login", { kind: "error", message: Object.values(result.errors)[0] ?? "errors.try_again" });
  }
  const headers = new Headers();
  headers.append("Set-Cookie", await sessionSetCookie(context, result.value.token));
  headers.append("Set-Cookie", await demoCookie.serialize(result.value.demoId));
  return redirectWithFlash(context, safeRedirect(from, "/"), { kind: "success", message: "auth.demo_ready" }, headers);
}
