/**
 * Display preferences: theme (light/dark) and whether asset figures are hidden. Plain form
 * posts that set a cookie and redirect back, so they work without JavaScript.
 */
import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { Intent } from "~/forms/intents";
import { readForm } from "~/lib/http.server";
import { safeRedirect } from "~/lib/redirect";
import { hideAssetsCookie, themeCookie } from "~/services/preferences.server";

export const loader = () => redirect("/mine/system");

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const back = safeRedirect(form.get("redirectTo"), "/user");
  switch (form.get("intent")) {
    case Intent.Theme:
      return redirect(back, { headers: { "Set-Cookie": await themeCookie.serialize(form.get("theme") === "dark" ? "dark" : "light") } });
    case Intent.Assets:
      return redirect(back, { headers: { "Set-Cookie": await hideAssetsCookie.serialize(form.get("hidden") === "1") } });
    default:
      throw new Response("Unknown setting", { status: 400 });
  }
}
