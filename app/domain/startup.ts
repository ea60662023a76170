/**
 * The startup status check (spec §4): "if status is 0, the page redirects to loss_url; otherwise
 * the main-site flag is (type equals 0)". A closed company whose loss_url is missing or not an
 * http(s) address cannot send anyone anywhere: its visitors get a closed page instead.
 */
import { httpUrl } from "~/domain/content";

export const CompanyStatus = { Closed: 0, Open: 1 } as const;

/**
 * Null while the company is open (or unknown); when closed, where its visitors go (null: the
 * closed page). A loss_url on the host being asked (`host`) would send visitors back to this
 * same check in a loop, so they get the closed page instead.
 */
export function startupStatus(
  company: { status: number; loss_url: string } | null | undefined,
  host?: string,
): { lossUrl: string | null } | null {
  if (!company || company.status !== CompanyStatus.Closed) return null;
  const url = httpUrl(company.loss_url);
  return { lossUrl: url && url.host !== host?.toLowerCase() ? url.href : null };
}

/** Spec §4: the main-site flag. */
export function isMainSiteType(type: number | null | undefined): boolean {
  return type === 0;
}
