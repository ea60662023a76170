// D1 in a process of its own, as on Cloudflare, where D1 runs on another machine and a statement
// is an `await` that leaves the object's thread free. Local D1 is SQLite inside the workerd
// process that runs the rooms, so every statement holds the rooms' only thread for as long as it
// runs (ADR 018): a figure about the rooms' own JavaScript cannot be read there.
//
// Here a second workerd (its own Miniflare, its own process and thread) holds the database and
// answers statements over loopback HTTP; the Worker's `DB` is a wrapped binding, evaluated inside
// the Worker's isolate, that speaks D1's API (prepare, bind, first, all, raw, run, batch, exec)
// over that connection. The Worker's build is unchanged: only the binding differs, as it differs
// between local and deployed D1. What the Worker's isolate still pays is what it pays on
// Cloudflare too: building the statements, awaiting the answer, parsing its JSON.
import { Miniflare } from "miniflare";

/** The worker of the D1 process: one POST per call, the statement(s) as JSON, D1's answer as JSON. */
const HOST = `
const bytes = (v) => (v && typeof v === "object" && "$bytes" in v ? Uint8Array.from(atob(v.$bytes), (c) => c.charCodeAt(0)) : v);
export default {
  async fetch(request, env) {
    const call = await request.json();
    const prep = (s) => env.DB.prepare(s.sql).bind(...s.params.map(bytes));
    try {
      let out;
      if (call.op === "batch") out = await env.DB.batch(call.statements.map(prep));
      else if (call.op === "exec") out = await env.DB.exec(call.sql);
      else {
        const st = prep(call);
        if (call.op === "all") out = await st.all();
        else if (call.op === "run") out = await st.run();
        else if (call.op === "raw") out = await st.raw(call.columnNames ? { columnNames: true } : undefined);
        else out = call.column === undefined ? await st.first() : await st.first(call.column);
      }
      return Response.json({ ok: true, out: out === undefined ? null : out });
    } catch (e) {
      return Response.json({ ok: false, message: String(e?.message ?? e), cause: e?.cause ? String(e.cause.message ?? e.cause) : null });
    }
  },
};
`;

/** The wrapped binding: D1's API inside the Worker's isolate, each call one request to HOST. */
const SHIM = `
const wire = (v) => {
  if (v instanceof ArrayBuffer) v = new Uint8Array(v);
  if (ArrayBuffer.isView(v)) {
    let s = "";
    for (const b of new Uint8Array(v.buffer, v.byteOffset, v.byteLength)) s += String.fromCharCode(b);
    return { $bytes: btoa(s) };
  }
  if (typeof v === "boolean") return v ? 1 : 0;
  if (v === undefined) throw new Error("D1_TYPE_ERROR: Type 'undefined' not supported for value 'undefined'");
  return v;
};
async function send(host, call) {
  const res = await host.fetch("http://d1/", { method: "POST", body: JSON.stringify(call) });
  const answer = await res.json();
  if (!answer.ok) throw new Error(answer.message, answer.cause ? { cause: new Error(answer.cause) } : undefined);
  return answer.out;
}
class Statement {
  constructor(host, sql, params = []) {
    this.host = host;
    this.sql = sql;
    this.params = params;
  }
  bind(...values) {
    return new Statement(this.host, this.sql, values.map(wire));
  }
  first(column) {
    return send(this.host, { op: "first", sql: this.sql, params: this.params, column });
  }
  all() {
    return send(this.host, { op: "all", sql: this.sql, params: this.params });
  }
  run() {
    return send(this.host, { op: "run", sql: this.sql, params: this.params });
  }
  raw(options) {
    return send(this.host, { op: "raw", sql: this.sql, params: this.params, columnNames: Boolean(options?.columnNames) });
  }
}
class Database {
  constructor(host) {
    this.host = host;
  }
  prepare(sql) {
    return new Statement(this.host, sql);
  }
  batch(statements) {
    return send(this.host, { op: "batch", statements: statements.map((s) => ({ sql: s.sql, params: s.params })) });
  }
  exec(sql) {
    return send(this.host, { op: "exec", sql });
  }
}
export default function (env) {
  return new Database(env.HOST);
}
`;

/**
 * Starts the D1 process on `persist` (the same layout Miniflare's own D1 uses there, so the
 * bench's fixtures, written through `db`, are what the Worker reads). Answers the Worker options
 * that bind `binding` to it (`workers` to add beside the Worker, `wrappedBindings` for it), the
 * database for the bench itself, and `dispose`.
 */
export async function startD1Process({ persist, binding, databaseId, compatibilityDate }) {
  const host = new Miniflare({
    name: "d1-host",
    modules: true,
    script: HOST,
    compatibilityDate,
    d1Databases: { DB: databaseId },
    d1Persist: persist,
    host: "127.0.0.1",
    port: 0,
  });
  const url = await host.ready;
  return {
    db: await host.getD1Database("DB"),
    shimWorker: {
      name: "d1-process",
      modules: true,
      script: SHIM,
      serviceBindings: { HOST: { external: { address: `127.0.0.1:${url.port}`, http: {} } } },
    },
    wrappedBindings: { [binding]: { scriptName: "d1-process" } },
    dispose: () => host.dispose(),
  };
}
