/**
 * The one i18next namespace (locales/<lang>/common.json). A module of its own so that the
 * browser's i18n provider, on every page, does not bring the language table of ./config along.
 */
export const NAMESPACE = "common";
