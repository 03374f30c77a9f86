/**
 * An address no other route matches: "Page not found" in the person's language. A route of its own rather than
 * the root's boundary, so that the server and the browser hydrate the same matched routes (with no route matched,
 * Remix's lazy route discovery starts the browser with other matches than the server rendered, and the hydration
 * fails) and the root's loader runs as on every page.
 */
export { PageErrorBoundary as ErrorBoundary } from "~/components/route-error";

export function loader(): never {
  throw new Response(null, { status: 404 });
}

export default function NoSuchPage() {
  return null;
}
