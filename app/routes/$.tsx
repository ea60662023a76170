/** Unknown paths redirect to / (spec §2). */
import { redirect } from "@remix-run/cloudflare";

export const loader = () => redirect("/");
export const action = () => redirect("/");
