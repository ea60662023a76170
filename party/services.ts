/**
 * The app's services as the rooms reach them. The Worker entry hands the rooms the services of
 * the Remix server build (one copy of every module and of its state in the Worker), instead of
 * the rooms importing app modules themselves, which would bundle a second copy of each
 * (docs/decisions/001-stack.md, addendum). Rooms import only types and pure domain modules.
 */
import type * as AppEntry from "~/entry.server";

export type Services = typeof AppEntry;

let provided: Services | null = null;

/** Called once by the Worker entry (app/server.ts) when its module loads. */
export function provideServices(services: Services) {
  provided = services;
}

export function services(): Services {
  if (!provided) throw new Error("services not provided: rooms run inside the Worker of app/server.ts");
  return provided;
}
