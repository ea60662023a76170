/**
 * Local-only endpoints (the Worker routes them only when ENVIRONMENT=local):
 *   GET  /dev/outbox with Accept: application/json — the embedded provider's e-mails and SMS
 *        (the page at /dev/outbox shows the same list);
 *   POST /dev/market/price {"code": "<ShowCode or Code>", "price": <number> | null} — holds an
 *        instrument at a price (ticks keep flowing at it) until another call sets a new one or
 *        releases it with null.
 */
import * as v from "valibot";
import type { AppContext } from "~/context.server";
import { listInstruments, setScriptedPrice } from "~/services/market.server";
import { outboxMessages } from "~/services/notify.server";

const PriceBody = v.object({
  code: v.pipe(v.string(), v.nonEmpty(), v.maxLength(32)),
  price: v.nullable(v.pipe(v.number(), v.finite(), v.minValue(0), v.maxValue(1e12))),
});

export async function handleDevRequest(request: Request, ctx: AppContext): Promise<Response | null> {
  if (!ctx.config.isLocal) return null;
  const path = new URL(request.url).pathname;
  if (path === "/dev/outbox" && (request.headers.get("accept") ?? "").includes("application/json")) {
    return Response.json({ messages: await outboxMessages(ctx.d1) });
  }
  if (path === "/dev/market/price") return scriptedPrice(request, ctx);
  return null;
}

async function scriptedPrice(request: Request, ctx: AppContext): Promise<Response> {
  if (request.method !== "POST") return Response.json({ error: "POST a JSON body {code, price}" }, { status: 405 });
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return Response.json({ error: "body must be JSON {code, price}" }, { status: 400 });
  }
  const parsed = v.safeParse(PriceBody, body);
  if (!parsed.success || parsed.output.price === 0) return Response.json({ error: "expected {code: string, price: positive number | null}" }, { status: 400 });
  const wanted = parsed.output.code.toUpperCase();
  const instrument = (await listInstruments(ctx)).find((i) => i.showCode.toUpperCase() === wanted || i.code.toUpperCase() === wanted);
  if (!instrument) return Response.json({ error: "unknown instrument" }, { status: 404 });
  const ok = await setScriptedPrice(ctx, instrument.code, parsed.output.price);
  return Response.json({ ok, code: instrument.code, showCode: instrument.showCode, price: parsed.output.price }, { status: ok ? 200 : 400 });
}
