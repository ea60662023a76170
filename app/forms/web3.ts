/**
 * Web3 login fields (spec §7 get_nonce and web3_login; the signed EIP-4361 message as well),
 * shared by the JSON API and the page's action. Messages are the spec's §5 keys.
 */
import * as v from "valibot";
import { NONCE_RE, SIGNATURE_RE, normalizeAddress } from "~/domain/web3";
// Loads the shared setup (valibot's fallback message is a translatable key).
import "~/forms/fields";

/** A text field whose absence gets the field's own message (not a generic "bad request"). */
const text = (message: string) => v.optional(v.string(message), "");

/** A wallet address: 0x + 40 hex digits, in its stored form (lowercase). */
export const walletAddressField = v.pipe(
  text("web3.invalid_address"),
  v.trim(),
  v.nonEmpty("web3.invalid_address"),
  v.maxLength(64, "web3.invalid_address"),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const address = normalizeAddress(dataset.value);
    if (!address) {
      addIssue({ message: "web3.invalid_address" });
      return NEVER;
    }
    return address;
  }),
);

export const NonceRequestSchema = v.object({ w_address: walletAddressField });
export type NonceRequestInput = v.InferOutput<typeof NonceRequestSchema>;

export const Web3LoginSchema = v.object({
  w_address: walletAddressField,
  signature: v.pipe(text("web3.login_failed"), v.trim(), v.regex(SIGNATURE_RE, "web3.login_failed")),
  nonce: v.pipe(text("web3.nonce_not_found"), v.trim(), v.regex(NONCE_RE, "web3.nonce_not_found")),
  /** The signed text exactly (a form post may have turned its line ends into CRLF). */
  message: v.pipe(
    text("web3.login_failed"),
    v.nonEmpty("web3.login_failed"),
    v.transform((m) => m.replace(/\r\n/g, "\n")),
  ),
});
export type Web3LoginInput = v.InferOutput<typeof Web3LoginSchema>;
