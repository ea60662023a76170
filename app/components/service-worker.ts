/**
 * The service worker (public/sw.js: the offline pages, icons and /build/* files, never a page or
 * anything private) is registered once the page has loaded and hydrated, off the page's own way:
 * a browser without service workers, a refused registration or a failure changes nothing for the
 * page. Each page then tells it the language it is in, so that a page that cannot load offline is
 * answered by the offline page of that language.
 */
import { useEffect } from "react";

export const SERVICE_WORKER_URL = "/sw.js";

function register(lang: string) {
  navigator.serviceWorker.register(SERVICE_WORKER_URL).catch((error: unknown) => console.warn("service worker not registered", error));
  void navigator.serviceWorker.ready.then((registration) => registration.active?.postMessage({ type: "lang", lang }));
}

export function useServiceWorker(lang: string) {
  useEffect(() => {
    if (!("serviceWorker" in navigator)) return;
    if (document.readyState === "complete") {
      register(lang);
      return;
    }
    const onLoad = () => register(lang);
    window.addEventListener("load", onLoad, { once: true });
    return () => window.removeEventListener("load", onLoad);
  }, [lang]);
}
