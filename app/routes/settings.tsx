/**
 * Display preferences: theme (light/dark) and whether asset figures are hidden. Plain form
 * posts that set a cookie and redirect back, so they work without JavaScript.
 */
import { readForm } from "~/lib/http.server";
import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { themeCookie } from "~/services/preferences.server";
import { safeRedirect } from "~/services/web.server";

export const HIDE_ASSETS_COOKIE = "hide_assets";

export const loader = () => redirect("/mine/system");

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const back = safeRedirect(form.get("redirectTo"), "/user");
  const headers = new Headers();
  switch (form.get("intent")) {
    case "theme": {
      const theme = form.get("theme") === "dark" ? "dark" : "light";
      headers.append("Set-Cookie", themeCookie(theme));
      break;
    }
    case "assets": {
      const hidden = form.get("hidden") === "1";
      headers.append("Set-Cookie", `${HIDE_ASSETS_COOKIE}=${hidden ? 1 : 0}; Path=/; Max-Age=31536000; SameSite=Lax; Secure`);
      break;
    }
    default:
      return new Response("Unknown setting", { status: 400 });
  }
  return redirect(back, { headers });
}
