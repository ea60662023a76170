/**
 * Private uploads (issue 10 §5): identity documents, payment proofs, signatures.
 *
 * - The bytes stream to R2 under a server-generated key; they are never held whole: parts of
 *   PART_BYTES go up as an R2 multipart upload, counted as they arrive, so a 10 MB phone photo
 *   costs one part of memory and an oversized body stops at the first byte past the limit.
 * - The quota is reserved before any byte is read: the row is inserted (status 0) only if the
 *   user's uploads of the last day, counting reserved ones at their maximum size, leave room, in
 *   one statement, so a parallel burst cannot pass it.
 * - The type comes from the content, never from the name or the declared type: JPEG, PNG or WebP
 *   by their signatures at the start AND their end markers (a file with something appended after
 *   the image, as polyglots have, is refused; WebP's RIFF length must match the size).
 * - Files are served by /uploads/:id only to their owner and operators, as the sniffed type,
 *   with nosniff, a sandboxing CSP and no-store (app/routes/uploads.$id.tsx).
 */
import {
  unstable_composeUploadHandlers,
  unstable_createMemoryUploadHandler,
  unstable_parseMultipartFormData,
  MaxPartSizeExceededError,
} from "@remix-run/cloudflare";
import type { ServiceContext } from "~/context.server";
import type { UploadPurpose } from "~/domain/uploads";
import { readForm } from "~/lib/http.server";

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** R2 multipart parts (all but the last) must be at least 5 MiB. */
const PART_BYTES = 5 * 1024 * 1024;
export const UPLOAD_QUOTA = { perDay: 40, bytesPerDay: 400 * 1024 * 1024 };
const DAY_MS = 86_400_000;

export type UploadError = "errors.upload_type" | "errors.upload_too_large" | "errors.upload_empty" | "errors.upload_quota";
export type ImageType = "image/jpeg" | "image/png" | "image/webp";

export type StoreResult = { ok: true; id: string; contentType: ImageType; size: number } | { ok: false; error: UploadError };

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const PNG_IEND = [0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82];

function startsWith(bytes: Uint8Array, sig: number[], offset = 0) {
  return bytes.length >= offset + sig.length && sig.every((b, i) => bytes[offset + i] === b);
}

/** The image type of a file from its first bytes (at least 12), or null. */
export function sniffImageType(head: Uint8Array): ImageType | null {
  if (startsWith(head, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(head, PNG_SIGNATURE)) return "image/png";
  if (startsWith(head, [0x52, 0x49, 0x46, 0x46]) && startsWith(head, [0x57, 0x45, 0x42, 0x50], 8)) return "image/webp";
  return null;
}

/** Whether the file ends where its format says it ends (nothing appended after the image). */
export function endsWell(type: ImageType, head: Uint8Array, tail: Uint8Array, size: number): boolean {
  switch (type) {
    case "image/jpeg":
      return tail.length >= 2 && tail[tail.length - 2] === 0xff && tail[tail.length - 1] === 0xd9;
    case "image/png":
      return tail.length >= 8 && PNG_IEND.every((b, i) => tail[tail.length - 8 + i] === b);
    case "image/webp": {
      const riff = (head[4]! | (head[5]! << 8) | (head[6]! << 16) | (head[7]! << 24)) >>> 0;
      return riff + 8 === size;
    }
  }
}

/** The id of an upload from what a form or a client sends: the id itself or its URL (/uploads/<id>). */
export function uploadIdOf(value: string | null | undefined): string | null {
  const v = (value ?? "").trim();
  const m = /^(?:(?:https?:\/\/[^/]+)?\/uploads\/)?([0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12})$/i.exec(v);
  return m ? m[1]!.toLowerCase() : null;
}

export function uploadUrl(id: string) {
  return `/uploads/${id}`;
}

async function reserve(
  ctx: ServiceContext,
  userId: number,
  purpose: UploadPurpose,
  now: number,
): Promise<{ id: string; key: string } | null> {
  const id = crypto.randomUUID();
  const key = `u/${userId}/${id}`;
  const row = await ctx.d1
    .prepare(
      `INSERT INTO uploads (id, user_id, purpose, r2_key, status, created_at)
       SELECT ?1, ?2, ?3, ?4, 0, ?5
        WHERE (SELECT COUNT(*) FROM uploads WHERE user_id = ?2 AND created_at > ?6) < ?7
          AND (SELECT COALESCE(SUM(CASE WHEN status = 0 THEN ?8 ELSE size END), 0) FROM uploads WHERE user_id = ?2 AND created_at > ?6) + ?8 <= ?9
       RETURNING id`,
    )
    .bind(id, userId, purpose, key, now, now - DAY_MS, UPLOAD_QUOTA.perDay, MAX_UPLOAD_BYTES, UPLOAD_QUOTA.bytesPerDay)
    .first<{ id: string }>();
  return row ? { id, key } : null;
}

async function refuse(ctx: ServiceContext, id: string, error: UploadError): Promise<StoreResult> {
  await ctx.d1.prepare("UPDATE uploads SET status = 2 WHERE id = ?1").bind(id).run();
  return { ok: false, error };
}

/**
 * Stores one file for a user: quota reserved first, bytes streamed to R2 in parts, type checked
 * from the content. Anything refused leaves no object behind.
 */
export async function storeUpload(
  ctx: ServiceContext,
  userId: number,
  purpose: UploadPurpose,
  body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
  now = Date.now(),
): Promise<StoreResult> {
  const slot = await reserve(ctx, userId, purpose, now);
  if (!slot) {
    await drain(body);
    return { ok: false, error: "errors.upload_quota" };
  }
  const bucket = ctx.env.UPLOADS;
  let multipart: R2MultipartUpload | null = null;
  const parts: R2UploadedPart[] = [];
  let buffer: Uint8Array[] = [];
  let buffered = 0;
  let size = 0;
  let head: Uint8Array = new Uint8Array(0);
  let tail: Uint8Array = new Uint8Array(0);
  let type: ImageType | null = null;

  const flush = async (final: boolean) => {
    const chunk = concat(buffer, buffered);
    buffer = [];
    buffered = 0;
    if (!multipart && final) return chunk;
    multipart ??= await bucket.createMultipartUpload(slot.key, { httpMetadata: { contentType: type ?? "application/octet-stream" } });
    parts.push(await multipart.uploadPart(parts.length + 1, chunk));
    return null;
  };
  const abort = async (error: UploadError) => {
    if (multipart) await multipart.abort().catch(() => {});
    return refuse(ctx, slot.id, error);
  };

  try {
    for await (const piece of iterate(body)) {
      if (piece.byteLength === 0) continue;
      size += piece.byteLength;
      if (size > MAX_UPLOAD_BYTES) {
        return await abort("errors.upload_too_large");
      }
      if (head.length < 16) head = concat([head, piece.subarray(0, 16 - head.length)], Math.min(16, head.length + piece.byteLength));
      if (!type && head.length >= 12) {
        type = sniffImageType(head);
        if (!type) return await abort("errors.upload_type");
      }
      tail = lastBytes(tail, piece, 16);
      buffer.push(piece);
      buffered += piece.byteLength;
      if (buffered >= PART_BYTES) await flush(false);
    }
  } catch (error) {
    if (multipart) await (multipart as R2MultipartUpload).abort().catch(() => {});
    await refuse(ctx, slot.id, "errors.upload_type");
    throw error;
  }
  if (size === 0) return abort("errors.upload_empty");
  if (!type) type = sniffImageType(head);
  if (!type || !endsWell(type, head, tail, size)) return abort("errors.upload_type");
  const whole = await flush(true);
  if (whole) await bucket.put(slot.key, whole, { httpMetadata: { contentType: type } });
  else await multipart!.complete(parts);
  await ctx.d1.prepare("UPDATE uploads SET status = 1, size = ?2, content_type = ?3 WHERE id = ?1").bind(slot.id, size, type).run();
  return { ok: true, id: slot.id, contentType: type, size };
}

/** A stored upload of this user (status 1), optionally of one purpose; null for anything else. */
export async function ownedUpload(ctx: ServiceContext, userId: number, id: string | null, purpose?: UploadPurpose) {
  if (!id) return null;
  const row = await ctx.d1
    .prepare("SELECT id, purpose, content_type AS contentType, size FROM uploads WHERE id = ?1 AND user_id = ?2 AND status = 1")
    .bind(id, userId)
    .first<{ id: string; purpose: string; contentType: string; size: number }>();
  if (!row || (purpose && row.purpose !== purpose)) return null;
  return row;
}

/** The object of an upload for its owner or an operator; null (a 404) for everyone else. */
export async function readUpload(ctx: ServiceContext, viewer: { id: number; role: string } | null, id: string) {
  if (!viewer || !uploadIdOf(id)) return null;
  const row = await ctx.d1
    .prepare(
      "SELECT r2_key AS key, content_type AS contentType, size FROM uploads WHERE id = ?1 AND status = 1 AND (user_id = ?2 OR ?3 = 'operator')",
    )
    .bind(id.toLowerCase(), viewer.id, viewer.role)
    .first<{ key: string; contentType: string; size: number }>();
  if (!row) return null;
  const object = await ctx.env.UPLOADS.get(row.key);
  return object ? { body: object.body, contentType: row.contentType, size: row.size } : null;
}

/**
 * A form posted with files (the no-JavaScript path of the deposit, identity and repayment
 * forms): text fields are read as usual (bounded); each file field listed in `files` is streamed
 * to R2 as that purpose and replaced in the result by its upload id. A file field left empty
 * reads as "". A refused file reads as "!<error key>" (see uploadFieldError). Other file fields
 * are refused as too large for the text limit. The request is checked before: at most
 * (files × 10 MB + 64 KB) declared.
 */
export async function readFormWithUploads(
  ctx: ServiceContext,
  request: Request,
  userId: number,
  files: Record<string, UploadPurpose>,
): Promise<URLSearchParams> {
  return (await readUploads(ctx, request, userId, files)).form;
}

/**
 * The file parts alone of a multipart request, stored as readFormWithUploads stores them: each
 * listed field's upload id ("!<error key>" when refused). A field that came as text, a file
 * input left empty or a body that is not multipart has no entry: only a file part can answer
 * with an upload (POST /api/common/image_upload).
 */
export async function readFileParts(
  ctx: ServiceContext,
  request: Request,
  userId: number,
  files: Record<string, UploadPurpose>,
): Promise<Map<string, string>> {
  return (await readUploads(ctx, request, userId, files)).stored;
}

async function readUploads(
  ctx: ServiceContext,
  request: Request,
  userId: number,
  files: Record<string, UploadPurpose>,
): Promise<{ form: URLSearchParams; stored: Map<string, string> }> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.includes("multipart/form-data")) return { form: await readForm(request), stored: new Map() };
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > Object.keys(files).length * MAX_UPLOAD_BYTES + 64 * 1024) throw new Response("Request too large", { status: 413 });
  const stored = new Map<string, string>();
  const fileHandler = async ({ name, filename, data }: { name: string; filename?: string; data: AsyncIterable<Uint8Array> }) => {
    if (filename === undefined) return undefined;
    const purpose = Object.hasOwn(files, name) ? files[name] : undefined;
    if (!purpose || stored.has(name)) {
      await drain(data);
      return undefined;
    }
    if (filename === "") {
      await drain(data);
      return "";
    }
    const result = await storeUpload(ctx, userId, purpose, data);
    const value = result.ok ? result.id : `!${result.error}`;
    stored.set(name, value);
    return value;
  };
  let form: FormData;
  try {
    form = await unstable_parseMultipartFormData(
      request,
      unstable_composeUploadHandlers(fileHandler, unstable_createMemoryUploadHandler({ maxPartSize: 16 * 1024 })),
    );
  } catch (error) {
    if (error instanceof MaxPartSizeExceededError) throw new Response("Request too large", { status: 413 });
    return { form: new URLSearchParams(), stored };
  }
  const out = new URLSearchParams();
  for (const [k, v] of form.entries()) if (typeof v === "string") out.append(k, v.normalize("NFC"));
  return { form: out, stored };
}

/** The error key of a file field read by readFormWithUploads ("!errors.upload_type" → that key), or null. */
export function uploadFieldError(value: string | null): UploadError | null {
  return value?.startsWith("!") ? (value.slice(1) as UploadError) : null;
}

async function* iterate(body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  if (Symbol.asyncIterator in body) {
    yield* body as AsyncIterable<Uint8Array>;
    return;
  }
  const reader = (body as ReadableStream<Uint8Array>).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

async function drain(body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>) {
  try {
    for await (const _ of iterate(body)) void _;
  } catch {
    // the client went away: nothing to keep
  }
}

function concat(chunks: Uint8Array[], total: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    out.set(c.subarray(0, total - offset), offset);
    offset += Math.min(c.byteLength, total - offset);
    if (offset >= total) break;
  }
  return out;
}

function lastBytes(previous: Uint8Array, piece: Uint8Array, n: number): Uint8Array {
  if (piece.byteLength >= n) return piece.slice(piece.byteLength - n);
  const joined = concat([previous, piece], previous.byteLength + piece.byteLength);
  return joined.slice(Math.max(0, joined.byteLength - n));
}
