/// <reference types="@remix-run/cloudflare" />

// Single fetch types for loaders and actions (matches future.v3_singleFetch in remix.config.js).
declare module "@remix-run/server-runtime" {
  interface Future {
    v3_singleFetch: true;
  }
}

export {};
