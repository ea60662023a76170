/**
 * Display preferences: theme (light/dark) and whether asset figures are hidden. Plain form
 * posts that set a cookie and redirect back, so they work without JavaScript.
 */
import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { PreferenceSchema } from "~/forms/account";
import { Intent } from "~/forms/intents";
import { parseFields } from "~/forms/parse";
import { readForm } from "~/lib/http.server";
import { safeRedirect } from "~/lib/redirect";
import { hideAssetsCookie, themeCookie } from "~/services/preferences.server";

export const loader = () => redirect("/mine/system");

export async function action({ request }: ActionFunctionArgs) {
  const parsed = parseFields(PreferenceSchema, await readForm(request));
  if (!parsed.ok) throw new Response("Unknown setting", { status: 400 });
  const command = parsed.value;
  const back = safeRedirect(command.redirectTo, "/user");
  switch (command.intent) {
    case Intent.Theme:
      return redirect(back, { headers: { "Set-Cookie": await themeCookie.serialize(command.theme) } });
    case Intent.Assets:
      return redirect(back, { headers: { "Set-Cookie": await hideAssetsCookie.serialize(command.hidden) } });
  }
}
