/**
 * Wallet login (spec §2 /user/web3-login, §4, §5): choose a browser wallet; with its injected
 * EIP-1193 provider the page connects (eth_requestAccounts), asks the server for a nonce, builds
 * the EIP-4361 message (app/domain/web3.ts), has the wallet sign it (personal_sign) and posts it
 * here; the action checks it and starts a session like the password login. A missing wallet gets
 * its install message and official site. Without JavaScript the page says wallet login needs a
 * browser wallet and JavaScript, and links to e-mail login.
 */
import { data, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useActionData, useNavigation, useSearchParams, useSubmit } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "~/i18n/react";
import { useHydrated } from "~/components/hydrated";
import { PageHeader } from "~/components/layout";
import { RouteErrorBoundary } from "~/components/route-error";
import {
  WALLETS,
  buildLoginMessage,
  chainIdFor,
  findWalletProvider,
  installMessageKey,
  normalizeAddress,
  utf8Hex,
  type WalletChoice,
} from "~/domain/web3";
import { parseFields } from "~/forms/parse";
import { Web3LoginSchema } from "~/forms/web3";
import { readForm } from "~/lib/http.server";
import { safeRedirect } from "~/lib/redirect";
import { translateMessage } from "~/lib/messages";
import { siteOf, web3Login } from "~/services/web3.server";
import { redirectWithFlash, sessionSetCookie } from "~/services/web.server";
import web3StylesHref from "~/styles/web3.css";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "auth", "web3"] };

export const meta = titled("web3.title");

export const links: LinksFunction = () => [{ rel: "stylesheet", href: web3StylesHref }];

export async function loader({ context, request }: LoaderFunctionArgs) {
  const user = await context.user();
  if (user) throw redirect(safeRedirect(new URL(request.url).searchParams.get("from"), "/user"));
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const input = parseFields(Web3LoginSchema, form);
  if (!input.ok) return data({ error: Object.values(input.errors)[0] ?? "web3.login_failed" }, { status: 400 });
  const result = await web3Login(context, siteOf(request), input.value);
  if (!result.ok) return data({ error: result.errors.form ?? "web3.login_failed" }, { status: result.status });
  return redirectWithFlash(
    context,
    safeRedirect(form.get("from"), "/user"),
    { kind: "success", message: "auth.login_success" },
    { "Set-Cookie": await sessionSetCookie(context, result.value.token) },
  );
}

/** An injected EIP-1193 provider, as much of it as this page uses. */
interface Provider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
  providers?: Provider[];
}

type Injected = { ethereum?: Provider; okxwallet?: Provider; trustwallet?: Provider; coinbaseWalletExtension?: Provider };

/** Every injected provider: window.ethereum, the list some wallets put there when several are installed, wallet-specific globals. */
function injectedProviders(): { any: boolean; list: Provider[] } {
  const w = window as unknown as Injected;
  const list = [
    ...(Array.isArray(w.ethereum?.providers) ? w.ethereum.providers : []),
    w.ethereum,
    w.okxwallet,
    w.trustwallet,
    w.coinbaseWalletExtension,
  ].filter((p): p is Provider => Boolean(p) && typeof p?.request === "function");
  return { any: list.length > 0, list };
}

interface NonceAnswer {
  code: number;
  msg: string;
  data: { nonce: string; w_address: string; issued_at: string; expiration_time: string } | null;
}

type Step = { phase: "idle" } | { phase: "connecting" | "signing"; wallet: WalletChoice };

export default function Web3Login() {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const submit = useSubmit();
  const [params] = useSearchParams();
  const from = params.get("from") ?? "";
  const [step, setStep] = useState<Step>({ phase: "idle" });
  const [problem, setProblem] = useState<string | null>(null);
  const [missing, setMissing] = useState<{ wallet: WalletChoice; none: boolean } | null>(null);
  // The action's refusal shows until the next attempt starts.
  const [dismissed, setDismissed] = useState<typeof actionData>(undefined);
  const posting = navigation.state !== "idle";
  const busy = step.phase !== "idle" || posting;
  const error = problem ?? (actionData?.error && actionData !== dismissed && !busy ? translateMessage(t, actionData.error) : null);
  const emailLogin = `/login${from ? `?from=${encodeURIComponent(from)}` : ""}`;

  const stop = (text: string) => {
    setProblem(text);
    setStep({ phase: "idle" });
  };

  async function signIn(wallet: WalletChoice) {
    setProblem(null);
    setMissing(null);
    setDismissed(actionData);
    const injected = injectedProviders();
    const provider = findWalletProvider(injected.list, wallet);
    if (!provider) {
      setMissing({ wallet, none: !injected.any });
      return;
    }
    setStep({ phase: "connecting", wallet });
    let address: string | null = null;
    try {
      const accounts = await provider.request({ method: "eth_requestAccounts" });
      address = normalizeAddress(Array.isArray(accounts) ? accounts[0] : null);
    } catch {
      address = null;
    }
    if (!address) return stop(t("web3.connect_failed"));
    let chainId: number;
    try {
      chainId = chainIdFor(await provider.request({ method: "eth_chainId" }));
    } catch {
      chainId = chainIdFor(null);
    }
    let issued: NonceAnswer["data"] = null;
    try {
      const response = await fetch("/api/user/get_nonce", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ w_address: address }),
      });
      const answer = (await response.json()) as NonceAnswer;
      if (answer.code !== 1 || !answer.data) return stop(answer.msg || t("web3.nonce_failed"));
      issued = answer.data;
    } catch {
      return stop(t("web3.nonce_failed"));
    }
    let message: string;
    try {
      message = buildLoginMessage({
        domain: window.location.host,
        origin: window.location.origin,
        address,
        nonce: issued.nonce,
        chainId,
        issuedAt: new Date(issued.issued_at),
        expirationTime: new Date(issued.expiration_time),
      });
    } catch {
      return stop(t("web3.nonce_failed"));
    }
    setStep({ phase: "signing", wallet });
    let signature: unknown;
    try {
      signature = await provider.request({ method: "personal_sign", params: [utf8Hex(message), address] });
    } catch {
      return stop(t("web3.login_failed"));
    }
    if (typeof signature !== "string") return stop(t("web3.login_failed"));
    setStep({ phase: "idle" });
    submit({ w_address: address, signature, nonce: issued.nonce, message, from }, { method: "post", encType: "application/json" });
  }

  const status =
    step.phase === "connecting"
      ? t("web3.connecting", { wallet: step.wallet.name })
      : step.phase === "signing"
        ? t("web3.signing", { wallet: step.wallet.name })
        : posting
          ? t("web3.logging_in")
          : "";

  return (
    <div className="page narrow web3-login">
      <PageHeader title={t("web3.title")} back={emailLogin} />
      <p className="muted">{t("web3.intro")}</p>
      {/* The choices need the page's script: until it runs (and without JavaScript) the explanation shows. */}
      {hydrated ? (
        <>
          {error ? (
            <div className="form-errors" role="alert">
              <p>{error}</p>
            </div>
          ) : null}
          {missing ? (
            <div className="notice warn wallet-missing" role="alert">
              {missing.none ? <p>{t("web3.install_generic")}</p> : null}
              <p>{t(installMessageKey(missing.wallet))}</p>
              <a href={missing.wallet.site} target="_blank" rel="noopener noreferrer" className="button">
                {t("web3.install_link", { wallet: missing.wallet.name })}
              </a>
            </div>
          ) : null}
          <h2 className="wallet-choose">{t("web3.choose")}</h2>
          <ul className="wallet-choices">
            {WALLETS.map((wallet) => (
              <li key={wallet.id}>
                <button type="button" className="button wallet-choice" disabled={busy} onClick={() => void signIn(wallet)}>
                  <span className="wallet-mark" aria-hidden="true">
                    {wallet.name.slice(0, 1)}
                  </span>
                  <span>{wallet.name}</span>
                </button>
              </li>
            ))}
          </ul>
          <p className="muted small" role="status" aria-live="polite">
            {status}
          </p>
        </>
      ) : (
        <div className="notice warn" role="status">
          <p>{t("web3.needs_js")}</p>
        </div>
      )}
      <p className="center">
        <Link to={emailLogin}>{t("web3.email_instead")}</Link>
      </p>
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
