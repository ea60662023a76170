/**
 * MarketRoom: owns prices (feed, candles, the engine's clock). The live-market issue fills it;
 * the binding and its Durable Object migration exist from the foundation so deployments keep
 * a stable class history.
 */
import { Server } from "partyserver";

export class MarketRoom extends Server<Env> {
  static override options = { hibernate: true };

  override onRequest(): Response {
    return Response.json({ code: 0, msg: "market feed not started", data: null }, { status: 503 });
  }
}
