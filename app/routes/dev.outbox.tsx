/**
 * GET /dev/outbox — the latest e-mails and SMS of the embedded provider, only when the app runs
 * locally (ENVIRONMENT=local). JSON when asked with Accept: application/json.
 */
import { redirect, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { latestOutbox } from "~/services/notify.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (!context.config.isLocal) throw redirect("/");
  const rows = await latestOutbox(context.d1);
  const messages = rows.map((r) => ({ channel: r.channel, to: r.to, subject: r.subject, body: r.body, created: new Date(r.createdAt).toISOString() }));
  if ((request.headers.get("accept") ?? "").includes("application/json")) {
    return Response.json({ messages }, { headers: { "cache-control": "no-store" } });
  }
  return { messages };
}

export default function Outbox() {
  const { messages } = useLoaderData<typeof loader>() as { messages: { channel: string; to: string; subject: string; body: string; created: string }[] };
  return (
    <div className="page">
      <h1>Local outbox</h1>
      <p className="muted">Messages the embedded e-mail/SMS provider would have sent (local runs only).</p>
      {messages.length === 0 ? <p>No messages yet.</p> : null}
      <ol className="outbox">
        {messages.map((m, i) => (
          <li key={i} className="card">
            <p>
              <strong>{m.subject}</strong> → {m.to} ({m.channel})
            </p>
            <pre>{m.body}</pre>
            <time dateTime={m.created}>{m.created}</time>
          </li>
        ))}
      </ol>
    </div>
  );
}
