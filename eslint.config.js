import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";

export default tseslint.config(
  {
    ignores: [
      "build/",
      ".wrangler/",
      "node_modules/",
      "test-results/",
      "tests/e2e/.artifacts/",
      "reports/",
      ".stryker-tmp/",
      "tests/bench/.state/",
      "tests/bench/.state-whip/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
    },
  },
  {
    // Type-aware rules: a promise nobody awaits or catches, a promise where a callback must return nothing, and a
    // switch over a union that forgets a case are bugs the types can see.
    files: ["**/*.{ts,tsx}"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/switch-exhaustiveness-check": ["error", { considerDefaultExhaustiveForUnions: true }],
    },
  },
  {
    // Hono's `c.var` builds a new object of every variable on each read (Object.fromEntries); the Worker reads them
    // on every request, so it asks for the one it needs: `c.get("session")`.
    files: ["worker/**/*.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "MemberExpression[property.name='var'][object.name='c']",
          message: 'Read one variable with c.get("name"): c.var copies them all.',
        },
      ],
    },
  },
  {
    // The domain is shared by the API, the pages and the cron: it knows nothing of the page, of HTTP or of how
    // events are delivered (commands publish DomainEvents; worker/events, worker/realtime and worker/push deliver them).
    files: ["worker/domain/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            // The locale files are data both sides read (the Worker bundles them all: API errors and emails).
            {
              regex: "^~/(?!locales/)|(^|/)app/(?!locales/)",
              message: "worker/domain must not import the Remix app: move what both use to shared/.",
            },
            {
              group: [
                "**/realtime/**",
                "@worker/realtime/*",
                "**/http/**",
                "@worker/http/*",
                "**/api/**",
                "@worker/api/*",
                "**/events/**",
                "@worker/events/*",
                "**/jobs/**",
                "@worker/jobs/*",
                "hono",
                "hono/*",
              ],
              message:
                "worker/domain must not import a transport: publish a DomainEvent (worker/domain/events.ts) instead.",
            },
            // worker/push (the web push sender) is a transport too; worker/domain/push is the domain's own.
            {
              regex: "^@worker/push/|(^|/)\\.\\./\\.\\./push/",
              message:
                "worker/domain must not import a transport: publish a DomainEvent (worker/domain/events.ts) instead.",
            },
          ],
        },
      ],
    },
  },
  {
    // What the page and the Worker share depends on neither.
    files: ["shared/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["~/*", "@worker/*", "**/app/**", "**/worker/**"],
              message: "shared/ must not import app/ or worker/.",
            },
          ],
        },
      ],
    },
  },
  // One import style per side (the layering rules above are no-restricted-imports; these are typescript-eslint's
  // rule of the same name, so both apply): the app imports its own files through ~/, the Worker's through @worker/
  // and shared/ through @shared/; the Worker imports its own files relatively, shared/ through @shared/ and the
  // locale files through ~/; shared/ imports itself relatively.
  {
    files: ["app/**/*.{ts,tsx}"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^\\.\\.?/",
              message: "In app/, import through ~/ (the app), @worker/ (the Worker) or @shared/ (shared/).",
            },
          ],
        },
      ],
    },
  },
  // A relative import that climbs out of worker/ (as many ../ as the file is deep, and one more) names another side.
  ...[0, 1, 2, 3].map((depth) => ({
    files: [`worker/${"*/".repeat(depth)}*.ts`],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            { regex: "^@worker/", message: "In worker/, import the Worker's own files relatively." },
            {
              regex: `^(\\.\\./){${depth + 1}}`,
              message: "In worker/, import shared/ through @shared/ and the locale files through ~/locales/.",
            },
          ],
        },
      ],
    },
  })),
  {
    files: ["shared/**/*.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        { patterns: [{ regex: "^@shared/", message: "In shared/, import shared/'s own files relatively." }] },
      ],
    },
  },
  {
    files: ["scripts/**/*.mjs", "tests/**/*.mjs", "*.js"],
    languageOptions: {
      globals: {
        console: "readonly",
        process: "readonly",
        Buffer: "readonly",
        URL: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        TextEncoder: "readonly",
        WebAssembly: "readonly",
        fetch: "readonly",
        performance: "readonly",
        WebSocket: "readonly",
      },
    },
  },
);
