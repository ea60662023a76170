/**
 * The real-name form (spec §2 /mine/auth, §5; field names are the §7 parameters): shared by the
 * page's action, the browser's native constraints and POST /api/user_real/real_name. The photos
 * are upload ids (or their /uploads/<id> URLs); the service checks that each one is a stored
 * identity photo of this user.
 */
import * as v from "valibot";
import {
  CARD_MAX,
  CARD_MIN,
  CARD_PATTERN,
  NAME_MAX,
  NAME_MIN,
  NAME_PATTERN,
  nameLength,
  normalizeCardId,
  normalizeName,
} from "~/domain/real-name";
import { printable } from "~/forms/fields";

const photo = (required: string) =>
  v.pipe(v.string(required), v.trim(), v.nonEmpty(required), v.maxLength(200, "identity.photo_invalid"), printable);

export const RealNameSchema = v.object({
  name: v.pipe(
    v.string("identity.name_required"),
    v.maxLength(NAME_MAX * 2, "identity.name_too_long"),
    printable,
    v.transform(normalizeName),
    v.nonEmpty("identity.name_required"),
    v.check((s) => nameLength(s) >= NAME_MIN, "identity.name_too_short"),
    v.check((s) => nameLength(s) <= NAME_MAX, "identity.name_too_long"),
    v.regex(NAME_PATTERN, "identity.name_invalid"),
  ),
  card_id: v.pipe(
    v.string("identity.card_required"),
    printable,
    v.transform(normalizeCardId),
    v.nonEmpty("identity.card_required"),
    v.minLength(CARD_MIN, "identity.card_invalid"),
    v.maxLength(CARD_MAX, "identity.card_invalid"),
    v.regex(CARD_PATTERN, "identity.card_invalid"),
  ),
  front_pic: photo("identity.front_required"),
  reverse_pic: photo("identity.reverse_required"),
});
export type RealNameInput = v.InferOutput<typeof RealNameSchema>;

/**
 * POST|GET /api/user_real/real_name's parameters with every field of the form present: one left
 * out is refused like an empty one ("enter your name"), not as a malformed request.
 */
export function realNameCallFields(params: URLSearchParams): Record<"name" | "card_id" | "front_pic" | "reverse_pic", string> {
  return {
    name: params.get("name") ?? "",
    card_id: params.get("card_id") ?? "",
    front_pic: params.get("front_pic") ?? "",
    reverse_pic: params.get("reverse_pic") ?? "",
  };
}
