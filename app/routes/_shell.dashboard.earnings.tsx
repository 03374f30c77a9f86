import { redirect, type LoaderFunctionArgs } from "@remix-run/cloudflare";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/route-error";

/** The earnings tab's former address: links in older notifications and bookmarks still lead to it. */
export function loader({ request }: LoaderFunctionArgs) {
  return redirect(`/dashboard${new URL(request.url).search}`, 301);
}
