/**
 * An interrupted request (the browser's AbortError, thrown when a navigation is aborted because
 * the user started another one). It is not a failure of the page: error boundaries that receive
 * one neither log it nor say "something went wrong"; the navigation that interrupted it renders.
 */
export function isAbortError(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { name?: unknown }).name === "AbortError";
}
