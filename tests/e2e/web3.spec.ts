// Wallet login (spec §2 /user/web3-login): a test wallet injected into Chromium as an EIP-1193
// provider flagged as MetaMask, whose personal_sign is answered in Node by a viem key made here.
// Without a wallet the page names what to install; without JavaScript it explains what it needs.
import type { Page } from "@playwright/test";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { expect, test } from "./fixtures";

const short = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`;

/** Injects window.ethereum (isMetaMask) backed by the account; returns the addresses personal_sign was asked to sign for. */
async function injectTestWallet(page: Page, account: PrivateKeyAccount) {
  const asked: string[] = [];
  await page.exposeFunction("__testWalletSign", async (hex: string, address: string) => {
    asked.push(address);
    return account.signMessage({ message: { raw: hex as `0x${string}` } });
  });
  await page.addInitScript((address: string) => {
    const sign = (hex: string, signer: string) =>
      (window as unknown as { __testWalletSign: (hex: string, address: string) => Promise<string> }).__testWalletSign(hex, signer);
    (window as unknown as { ethereum: unknown }).ethereum = {
      isMetaMask: true,
      request: async ({ method, params }: { method: string; params?: unknown[] }) => {
        if (method === "eth_requestAccounts" || method === "eth_accounts") return [address];
        if (method === "eth_chainId") return "0x1";
        if (method === "personal_sign") return sign(String(params?.[0]), String(params?.[1]));
        throw Object.assign(new Error(`unsupported method ${method}`), { code: 4200 });
      },
    };
  }, account.address.toLowerCase());
  return asked;
}

test.describe("wallet login", () => {
  test("with a browser wallet: from the login page, sign in with MetaMask and land on the user centre", async ({ page }, info) => {
    test.skip(info.project.name === "mobile-nojs", "needs JavaScript");
    const account = privateKeyToAccount(generatePrivateKey());
    const asked = await injectTestWallet(page, account);
    await page.goto("/user");
    await expect(page).toHaveURL(/\/login\?from=%2Fuser$/);
    await page.getByRole("link", { name: "Log in with a wallet" }).click();
    await expect(page).toHaveURL(/\/user\/web3-login\?from=%2Fuser$/);
    await expect(page.getByRole("heading", { name: "Wallet login", level: 1 })).toBeVisible();
    await page.getByRole("button", { name: "MetaMask" }).click();
    await expect(page).toHaveURL(/\/user$/);
    await expect(page.getByRole("status").filter({ hasText: "Logged in" })).toBeVisible();
    await expect(page.getByText(short(account.address.toLowerCase()))).toBeVisible();
    await expect(page.getByText(/UID: \d{8}/)).toBeVisible();
    expect(asked).toEqual([account.address.toLowerCase()]);

    // Logged out and back in with the same wallet: the same user.
    const uid = (await page.getByText(/UID: \d{8}/).textContent())!.match(/\d{8}/)![0];
    await page.context().clearCookies();
    await page.goto("/user/web3-login");
    await page.getByRole("button", { name: "MetaMask" }).click();
    await expect(page).toHaveURL(/\/user$/);
    await expect(page.getByText(`UID: ${uid}`)).toBeVisible();
  });

  test("without a wallet: the install message for the chosen wallet with its official site", async ({ page }, info) => {
    test.skip(info.project.name === "mobile-nojs", "needs JavaScript");
    await page.goto("/user/web3-login");
    await page.getByRole("button", { name: "Trust Wallet" }).click();
    const alert = page.getByRole("alert");
    await expect(alert).toContainText("No browser wallet was found.");
    await expect(alert).toContainText("Trust Wallet is not installed.");
    await expect(alert.getByRole("link", { name: "Get Trust Wallet from its official site" })).toHaveAttribute(
      "href",
      "https://trustwallet.com/download",
    );
    await page.getByRole("button", { name: "MetaMask" }).click();
    await expect(alert).toContainText("MetaMask is not installed.");
    await expect(alert.getByRole("link", { name: "Get MetaMask from its official site" })).toHaveAttribute(
      "href",
      "https://metamask.io/download/",
    );
    await expect(page).toHaveURL(/\/user\/web3-login$/);
  });

  test("a wallet that refuses to connect or to sign: the spec's messages, and nothing happens", async ({ page }, info) => {
    test.skip(info.project.name === "mobile-nojs", "needs JavaScript");
    await page.addInitScript(() => {
      const w = window as unknown as { ethereum: unknown; refuse: string };
      w.refuse = "connect";
      w.ethereum = {
        isCoinbaseWallet: true,
        request: async ({ method }: { method: string }) => {
          const rejected = Object.assign(new Error("User rejected the request."), { code: 4001 });
          if (method === "eth_requestAccounts") {
            if (w.refuse === "connect") throw rejected;
            return ["0x00000000000000000000000000000000000000a1"];
          }
          if (method === "eth_chainId") return "0x1";
          if (method === "personal_sign") throw rejected;
          throw Object.assign(new Error(`unsupported method ${method}`), { code: 4200 });
        },
      };
    });
    await page.goto("/user/web3-login");
    await page.getByRole("button", { name: "Coinbase Wallet" }).click();
    await expect(page.getByRole("alert")).toHaveText("Could not connect to the wallet. Please try again.");
    await page.evaluate(() => ((window as unknown as { refuse: string }).refuse = "sign"));
    await page.getByRole("button", { name: "Coinbase Wallet" }).click();
    await expect(page.getByRole("alert")).toHaveText("Wallet login failed. Please try again.");
    await expect(page.getByRole("button", { name: "Coinbase Wallet" })).toBeEnabled();
    await expect(page).toHaveURL(/\/user\/web3-login$/);
  });

  test("without JavaScript: the page explains that wallet login needs a browser wallet and JavaScript, and links to e-mail login", async ({
    page,
  }, info) => {
    test.skip(info.project.name !== "mobile-nojs", "about the page without JavaScript");
    await page.goto("/login?from=%2Ftrade");
    await page.getByRole("link", { name: "Log in with a wallet" }).click();
    await expect(page).toHaveURL(/\/user\/web3-login\?from=%2Ftrade$/);
    await expect(page.getByText("Wallet login needs a browser wallet (such as MetaMask) and JavaScript.")).toBeVisible();
    await expect(page.getByRole("button", { name: "MetaMask" })).toHaveCount(0);
    await page.getByRole("link", { name: "Log in with e-mail instead" }).click();
    await expect(page).toHaveURL(/\/login\?from=%2Ftrade$/);
  });
});
