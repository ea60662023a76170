/**
 * GET /dev/outbox — the latest e-mails and SMS of the embedded provider, only when the app runs
 * locally (ENVIRONMENT=local). JSON when asked with Accept: application/json.
 */
import { RouteErrorBoundary } from "~/components/route-error";
import { redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { pageMeta } from "~/lib/meta";
import { useLoaderData } from "@remix-run/react";
import { outboxMessages } from "~/services/notify.server";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin"] };

// A local developer tool (never on a deployed site): its title, as its page, is English only.
export const meta: MetaFunction = ({ matches }) => pageMeta(matches, () => ({ title: "Local outbox" }));

// The JSON form (Accept: application/json) is answered by the Worker entry (app/server.ts).
export async function loader({ context }: LoaderFunctionArgs) {
  if (!context.config.isLocal) throw redirect("/");
  return { messages: await outboxMessages(context.d1) };
}

export default function Outbox() {
  const { messages } = useLoaderData<typeof loader>();
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

export const ErrorBoundary = RouteErrorBoundary;
