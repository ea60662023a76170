import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/**
 * Imports run one way (ARCHITECTURE.md; ADR 008, and ADR 020 for the table of every folder). At
 * run time: the Worker entry → routes, route-helpers, the JSON API → services → the contexts, db
 * → i18n → lib → domain; components and forms sit beside services and name their types only.
 * Each folder below lists what it may import as `~/x` (a relative `../…/x` into any other folder
 * is refused as well); anything else is reported, so a service moved into `services/<area>/` is
 * covered as it is and a new folder is refused until its place is written here. `types` may be
 * imported with `import type` only (erased from every bundle: no code runs upward).
 */
const FOLDERS = [
  "domain",
  "lib",
  "i18n",
  "env.server",
  "db",
  "context.server",
  "forms",
  "services",
  "components",
  "hooks",
  "route-helpers",
  "api",
  "routes",
  "root",
  "entry.server",
  "entry.client",
  "styles",
];
/** What the server side of the web layer (the JSON API, the routes' shared loaders and actions) builds on. */
const SERVER_BELOW = ["services", "forms", "context.server", "env.server", "db", "i18n", "lib", "domain"];
/** Pages add the UI. */
const BELOW_ROUTES = [...SERVER_BELOW, "components", "hooks", "styles"];

const PARTY = {
  group: ["**/party/*", "**/party/**", "../party", "../../party"],
  message: "app/ does not import party/: shared rules and the socket protocol live in app/domain/.",
};

const either = (folder) => [`~/${folder}`, `~/${folder}/**`];
const climbing = (folder) => [`../**/${folder}`, `../**/${folder}/**`];

/** The no-restricted-imports patterns of a folder of app/ that may import `may` (and `types` as types only). */
function direction(name, { may, types = [], extra = [] }) {
  const said = `${name} imports ${may.join(", ")}${types.length ? `, and types only from ${types.join(", ")}` : ""} (eslint.config.js, ADR 020).`;
  const refused = FOLDERS.filter((folder) => !may.includes(folder) && !types.includes(folder));
  const patterns = [
    PARTY,
    { group: ["~/*", ...[...may, ...types].map((folder) => `!~/${folder}`), ...refused.flatMap(climbing)], message: said },
    ...extra,
  ];
  if (types.length)
    patterns.push({ group: types.flatMap((folder) => [...either(folder), ...climbing(folder)]), allowTypeImports: true, message: said });
  return { "no-restricted-imports": ["error", { patterns }] };
}

const UI = {
  group: ["@remix-run/react"],
  message: "services and the layers below them do not import the web layer's hooks.",
};
const PURE = {
  group: ["*.server", "@remix-run/*", "partyserver", "drizzle-orm", "drizzle-orm/*", "react", "react-dom"],
  message: "app/domain/ holds pure rules: no I/O, no Remix, no rooms.",
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
  { files: ["app/domain/**/*.ts"], rules: direction("app/domain/", { may: ["domain"], extra: [PURE] }) },
  { files: ["app/lib/**/*.{ts,tsx}"], rules: direction("app/lib/", { may: ["lib", "domain"] }) },
  { files: ["app/i18n/**/*.{ts,tsx}"], rules: direction("app/i18n/", { may: ["i18n", "lib", "domain"] }) },
  { files: ["app/env.server.ts"], rules: direction("app/env.server.ts", { may: ["lib", "domain"] }) },
  {
    files: ["app/db/**/*.ts"],
    ignores: ["app/db/seed.ts"],
    rules: direction("app/db/", { may: ["db", "lib", "domain"] }),
  },
  {
    // The seed writes the demo world with the ledger's own account table; only scripts and tests import it.
    files: ["app/db/seed.ts"],
    rules: direction("the seed (app/db/seed.ts)", { may: ["db", "services", "lib", "domain"] }),
  },
  {
    files: ["app/context.server.ts"],
    rules: direction("app/context.server.ts", { may: ["db", "env.server", "i18n", "lib", "domain"], types: ["services"] }),
  },
  { files: ["app/forms/**/*.ts"], rules: direction("app/forms/", { may: ["forms", "i18n", "lib", "domain"], types: ["services"] }) },
  {
    files: ["app/services/**/*.ts"],
    rules: direction("app/services/", {
      may: ["services", "context.server", "env.server", "db", "i18n", "lib", "domain"],
      types: ["forms"],
      extra: [UI],
    }),
  },
  {
    files: ["app/components/**/*.{ts,tsx}", "app/hooks/**/*.{ts,tsx}"],
    rules: direction("app/components/ and app/hooks/", {
      may: ["components", "hooks", "forms", "i18n", "lib", "domain"],
      types: ["services", "route-helpers"],
    }),
  },
  {
    files: ["app/api/**/*.ts"],
    rules: direction("app/api/", { may: ["api", ...SERVER_BELOW] }),
  },
  {
    files: ["app/route-helpers/**/*.ts"],
    rules: direction("app/route-helpers/", { may: ["route-helpers", ...SERVER_BELOW] }),
  },
  {
    files: ["app/routes/**/*.{ts,tsx}", "app/root.tsx"],
    rules: direction("app/routes/ and app/root.tsx", { may: [...BELOW_ROUTES, "routes", "route-helpers", "root"] }),
  },
  {
    files: ["party/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: [
                "~/*",
                "!~/domain",
                "!~/lib",
                "!~/services",
                "!~/context.server",
                "!~/db",
                "!~/i18n",
                "!~/env.server",
                "!~/entry.server",
              ],
              message: "party/ imports app/domain/ and app/lib/ (and types from services, contexts, db, i18n, the entry).",
            },
            {
              group: [...["services", "context.server", "db", "i18n", "env.server", "entry.server"].flatMap(either)],
              message:
                "rooms reach services through party/services.ts (one copy of each module in the Worker); import types with `import type`.",
              allowTypeImports: true,
            },
            { group: ["@remix-run/react"], message: "rooms do not import the web layer's hooks." },
          ],
        },
      ],
    },
  },
  { files: ["public/sw.js"], languageOptions: { sourceType: "script", globals: { ...globals.serviceworker } } },
  {
    files: ["scripts/**/*.mjs", "bench/**/*.mjs", "*.config.{js,ts}", "tests/e2e/**/*.ts", "tests/unit/**/*.ts"],
    languageOptions: { globals: { ...globals.node } },
  },
);
