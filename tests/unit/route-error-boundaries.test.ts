import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const ROUTES = new URL("../../app/routes/", import.meta.url);
const routeFiles = readdirSync(ROUTES).filter((name) => name.endsWith(".tsx"));

/**
 * A failure stays inside its screen and says what happened in the person's language: each route module has an error
 * boundary, and it is the shared one (app/components/route-error.tsx), the layout's variant inside the layout.
 */
describe("every route's error boundary", () => {
  it.each(routeFiles.filter((name) => name !== "_shell.tsx"))("%s exports the shared one", (name) => {
    const source = readFileSync(new URL(name, ROUTES), "utf8");
    const expected = name.startsWith("_shell.") ? "RouteErrorBoundary" : "PageErrorBoundary";
    expect(source).toContain(`export { ${expected} as ErrorBoundary } from "~/components/route-error";`);
  });

  it("the layout wraps the shared one in its navigation", () => {
    expect(readFileSync(new URL("_shell.tsx", ROUTES), "utf8")).toMatch(
      /export function ErrorBoundary\(\) \{\s*return \(\s*<Shell>\s*<RouteErrorBoundary \/>/,
    );
  });
});
