import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/**
 * Imports run one way (ARCHITECTURE.md): routes, api → services → domain; party → services'
 * public functions (through party/services.ts) and domain. app/ never imports party/ (only the
 * Worker entry, which exports the room classes); the domain imports nothing with I/O.
 */
const PARTY = {
  group: ["**/party/*", "**/party/**", "../party", "../../party"],
  message: "app/ does not import party/: shared rules and the socket protocol live in app/domain/.",
};
const UI = {
  group: ["~/routes/*", "~/components/*", "~/api/*", "~/root", "@remix-run/react"],
  message: "services and rooms do not import the web layer.",
};

export default tseslint.config(
  {
    ignores: ["build/**", "public/build/**", ".wrangler/**", "node_modules/**", "test-results/**", "playwright-report/**", "migrations/**"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    languageOptions: { globals: { ...globals.browser, ...globals.worker } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/ban-ts-comment": ["error", { "ts-expect-error": "allow-with-description" }],
      "no-control-regex": "off",
    },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    ignores: ["app/server.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [PARTY] }] },
  },
  {
    files: ["app/services/**/*.ts", "app/db/**/*.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [PARTY, UI] }] },
  },
  {
    files: ["app/domain/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            PARTY,
            UI,
            {
              group: [
                "~/services/*",
                "~/db/*",
                "~/api/*",
                "~/context.server",
                "~/env.server",
                "*.server",
                "@remix-run/*",
                "partyserver",
                "drizzle-orm",
                "drizzle-orm/*",
                "react",
                "react-dom",
              ],
              message: "app/domain/ holds pure rules: no I/O, no Remix, no rooms.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["party/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            UI,
            {
              group: ["~/services/*", "~/context.server", "~/db/*", "~/i18n/*"],
              message:
                "rooms reach services through party/services.ts (one copy of each module in the Worker); import types with `import type`.",
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  {
    files: ["scripts/**/*.mjs", "bench/**/*.mjs", "*.config.{js,ts}", "tests/e2e/**/*.ts", "tests/unit/**/*.ts"],
    languageOptions: { globals: { ...globals.node } },
  },
);
