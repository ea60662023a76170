/**
 * Outgoing e-mail and SMS go through one provider interface. The embedded default writes to a
 * local outbox table (listed at GET /dev/outbox when running locally); MAIL_PROVIDER=http
 * posts JSON to a provider endpoint with a bearer token (see README: Configuration).
 */
import type { ServiceContext } from "~/context.server";
import type { Config } from "~/env.server";
import { DEFAULT_LANGUAGE, isLanguage } from "~/i18n/config";
import { fixedT, type ServerT } from "~/i18n/i18n.server";

export interface OutgoingMessage {
  channel: "email" | "sms";
  to: string;
  subject: string;
  body: string;
}

export interface Notifier {
  send(message: OutgoingMessage): Promise<void>;
}

export class OutboxNotifier implements Notifier {
  constructor(private readonly db: D1Database) {}
  async send(m: OutgoingMessage) {
    await this.db
      .prepare("INSERT INTO outbox (channel, `to`, subject, body) VALUES (?1, ?2, ?3, ?4)")
      .bind(m.channel, m.to, m.subject, m.body)
      .run();
  }
}

export class HttpNotifier implements Notifier {
  constructor(private readonly config: Extract<Config["mail"], { provider: "http" }>) {}
  async send(m: OutgoingMessage) {
    const email = m.channel === "email";
    const response = await fetch(email ? this.config.url : this.config.smsUrl, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${email ? this.config.token : this.config.smsToken}`,
      },
      body: JSON.stringify(email ? { from: this.config.from, to: m.to, subject: m.subject, text: m.body } : { to: m.to, text: m.body }),
    });
    if (!response.ok) throw new Error(`${m.channel} provider answered ${response.status}`);
  }
}

export function notifier(config: Config, db: D1Database): Notifier {
  return config.mail.provider === "http" ? new HttpNotifier(config.mail) : new OutboxNotifier(db);
}

/**
 * A notice e-mailed to a user in their own language (not the request's), written by `compose`
 * with that language's t. Sent in the background: the change it tells of has committed already,
 * and a failure is logged, never thrown at the user's request.
 */
export function emailUser<R extends { email: string | null; lang: string }>(
  ctx: ServiceContext,
  what: string,
  recipient: () => Promise<R | null>,
  compose: (t: ServerT, recipient: R) => { subject: string; body: string },
) {
  const send = async () => {
    const to = await recipient();
    if (!to?.email) return;
    const t = await fixedT(isLanguage(to.lang) ? to.lang : DEFAULT_LANGUAGE);
    await notifier(ctx.config, ctx.d1).send({ channel: "email", to: to.email, ...compose(t, to) });
  };
  ctx.waitUntil(send().catch((error) => console.error(`${what} notice failed`, error)));
}

export interface OutboxRow {
  id: number;
  channel: string;
  to: string;
  subject: string;
  body: string;
  createdAt: number;
}

export async function latestOutbox(db: D1Database, limit = 50): Promise<OutboxRow[]> {
  const { results } = await db
    .prepare("SELECT id, channel, `to`, subject, body, created_at AS createdAt FROM outbox ORDER BY id DESC LIMIT ?1")
    .bind(limit)
    .all<OutboxRow>();
  return results;
}

/** The outbox as shown at /dev/outbox: to, subject, body, created time (newest first). */
export async function outboxMessages(db: D1Database, limit = 50) {
  const rows = await latestOutbox(db, limit);
  return rows.map((r) => ({
    channel: r.channel,
    to: r.to,
    subject: r.subject,
    body: r.body,
    created: new Date(r.createdAt).toISOString(),
  }));
}
