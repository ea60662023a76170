/** The main site's company (tenant) id: type 0 in the companies table (spec §3). */
export const MAIN_COMPANY_ID = 1;
