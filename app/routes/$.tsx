/**
 * Paths nobody knows redirect to / (spec §2). Every screen the spec names has its own route now,
 * so no row of the user centre and no home shortcut lands here (a workerd test walks them).
 */
import { redirect } from "@remix-run/cloudflare";

export const loader = () => redirect("/");

export const action = () => redirect("/");
