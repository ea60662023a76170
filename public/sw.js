/**
 * Bourse's service worker (issue 22, "installable and kind offline"). Plain JavaScript, served as
 * it is from public/ (no build step) with `Cache-Control: no-cache` (public/_headers), registered
 * by app/components/service-worker.ts once a page has loaded.
 *
 * It keeps exactly four kinds of things, in one cache named by VERSION:
 *   - the offline page of every language (/offline?lng=xx, public and the same for everyone) and
 *     the stylesheets it links, fetched without cookies at install;
 *   - the manifest and its icons;
 *   - the market logos (/logos/*) the pages have shown: offline, a logo never shown is a neutral
 *     mark, not a broken image (Chromium fetches lazy images further ahead when the network drops);
 *   - the client build's files (/build/*: named by their content, never changing), kept as the
 *     pages load them.
 * It never keeps a page, an API answer, page data or anything of the user. Page loads go to the
 * network; when the network fails, the answer is the offline page in the language of the user's
 * last page (each page says it: a "lang" message), else of the browser, else English. Everything
 * else (the JSON API, /v2/ws, page data, uploads, forms) is left to the browser untouched.
 *
 * Bump VERSION when this file's caching changes: the new worker drops every older cache.
 */
const VERSION = "v2";
const CACHE = `bourse-${VERSION}`;
const PREFIX = "bourse-";

/** The 18 languages (app/i18n/config.ts) and the browser language tags that map to them. */
const LANGUAGES = ["hk", "en", "jp", "kr", "th", "vn", "fr", "de", "ru", "spa", "pt", "ar", "it", "tr", "id", "my", "hi", "cs"];
const BY_TAG = {
  zh: "hk",
  en: "en",
  ja: "jp",
  ko: "kr",
  th: "th",
  vi: "vn",
  fr: "fr",
  de: "de",
  ru: "ru",
  es: "spa",
  pt: "pt",
  ar: "ar",
  it: "it",
  tr: "tr",
  id: "id",
  in: "id",
  my: "my",
  hi: "hi",
  cs: "cs",
};
const FALLBACK = "en";

const offlineUrl = (lang) => `/offline?lng=${lang}`;
/** The user's own offline page: a copy of their language's, made when a page says its language. */
const CURRENT = "/offline?lng=current";
const MANIFEST = "/manifest.webmanifest";
/** At most this many build files are kept (the oldest go first): older deploys' files fall out. */
const MAX_BUILD_FILES = 500;

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      const styles = new Set();
      // without cookies: the offline page never holds anything of a visitor
      await Promise.all(
        LANGUAGES.map(async (lang) => {
          const response = await fetch(offlineUrl(lang), { credentials: "omit", cache: "no-cache", redirect: "error" });
          if (!response.ok) throw new Error(`offline page ${lang}: ${response.status}`);
          const html = await response.clone().text();
          for (const match of html.matchAll(/href="(\/build\/[^"]+\.css)"/g)) styles.add(match[1]);
          await cache.put(offlineUrl(lang), response);
        }),
      );
      await cache.addAll([...styles, MANIFEST, ...(await manifestIcons())]);
      await self.skipWaiting();
    })(),
  );
});

/** The icons the manifest names (same origin only). */
async function manifestIcons() {
  try {
    const response = await fetch(MANIFEST, { cache: "no-cache" });
    const manifest = await response.json();
    return (Array.isArray(manifest.icons) ? manifest.icons : [])
      .map((icon) => new URL(icon.src, self.location.origin))
      .filter((url) => url.origin === self.location.origin)
      .map((url) => url.pathname);
  } catch {
    return [];
  }
}

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      // the user's language survives an update: read it from the older cache before dropping it
      let lang = null;
      for (const name of await caches.keys()) {
        if (!name.startsWith(PREFIX) || name === CACHE) continue;
        const old = await (await caches.open(name)).match(CURRENT);
        lang ??= old ? languageOfUrl(old.url) : null;
        await caches.delete(name);
      }
      if (lang) await remember(lang);
      await self.clients.claim();
    })(),
  );
});

function languageOfUrl(url) {
  try {
    const lang = new URL(url).searchParams.get("lng");
    return LANGUAGES.includes(lang) ? lang : null;
  } catch {
    return null;
  }
}

/** Makes the offline page of `lang` the user's own. */
async function remember(lang) {
  const cache = await caches.open(CACHE);
  const page = await cache.match(offlineUrl(lang));
  if (page) await cache.put(CURRENT, page);
}

self.addEventListener("message", (event) => {
  const data = event.data;
  if (data && data.type === "lang" && LANGUAGES.includes(data.lang)) event.waitUntil(remember(data.lang));
});

/** The browser's language among ours (navigator.languages), else English. */
function browserLanguage() {
  for (const tag of self.navigator.languages || []) {
    const lang = BY_TAG[String(tag).toLowerCase().split("-")[0]];
    if (lang) return lang;
  }
  return FALLBACK;
}

async function offlinePage() {
  const cache = await caches.open(CACHE);
  return (
    (await cache.match(CURRENT)) ??
    (await cache.match(offlineUrl(browserLanguage()))) ??
    (await cache.match(offlineUrl(FALLBACK))) ??
    Response.error()
  );
}

/** A page load: from the network, the offline page when that fails (never from a cache). */
async function navigate(event) {
  try {
    return await fetch(event.request);
  } catch {
    return offlinePage();
  }
}

/** A build file: from the cache, else the network (then kept). */
async function buildFile(event) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(event.request);
  if (hit) return hit;
  const response = await fetch(event.request);
  if (response.ok && response.type === "basic") event.waitUntil(keep(cache, event.request, response.clone()));
  return response;
}

async function keep(cache, request, response) {
  await cache.put(request, response);
  const files = (await cache.keys()).filter((r) => new URL(r.url).pathname.startsWith("/build/"));
  for (const old of files.slice(0, Math.max(0, files.length - MAX_BUILD_FILES))) await cache.delete(old);
}

/** The manifest and the app's icons (the manifest names /favicon.svg; public/icons/ holds the others). */
const isIcon = (pathname) => pathname === MANIFEST || pathname === "/favicon.svg" || pathname.startsWith("/icons/");

/** The manifest or an icon: from the network (they may change under their name), the kept copy when that fails. */
async function icon(event) {
  try {
    return await fetch(event.request);
  } catch {
    return (await (await caches.open(CACHE)).match(event.request)) ?? Response.error();
  }
}

const isLogo = (pathname) => pathname.startsWith("/logos/") && pathname.endsWith(".svg");

/** Stands in offline for a logo never kept: a plain disc, quiet in light and dark. */
const BLANK_LOGO =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><circle cx="12" cy="12" r="11" fill="#8a8f98" fill-opacity=".25"/></svg>';

/** A market logo: from the network (kept), the kept copy when that fails, else the blank mark. */
async function logo(event) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(event.request);
    if (response.ok && response.type === "basic") event.waitUntil(cache.put(event.request, response.clone()));
    return response;
  } catch {
    return (
      (await cache.match(event.request)) ??
      new Response(BLANK_LOGO, { headers: { "content-type": "image/svg+xml", "cache-control": "no-store" } })
    );
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") event.respondWith(navigate(event));
  else if (url.pathname.startsWith("/build/")) event.respondWith(buildFile(event));
  else if (isIcon(url.pathname)) event.respondWith(icon(event));
  else if (isLogo(url.pathname)) event.respondWith(logo(event));
});
