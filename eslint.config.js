import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["build/**", "public/build/**", ".wrangler/**", "node_modules/**", "test-results/**", "playwright-report/**", "migrations/**"] },
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
    files: ["scripts/**/*.mjs", "bench/**/*.mjs", "*.config.{js,ts}", "tests/e2e/**/*.ts", "tests/unit/**/*.ts"],
    languageOptions: { globals: { ...globals.node } },
  },
);
