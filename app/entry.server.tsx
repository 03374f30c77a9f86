import type { AppLoadContext, EntryContext } from "@remix-run/cloudflare";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToReadableStream } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { i18nForLanguage, translatorFor } from "@worker/domain/i18n";
import { provideMetaTranslations } from "~/i18n/meta";
import { NonceContext } from "~/lib/nonce";
import { InlineStylesContext } from "~/lib/inline-styles";
import styles from "~/tailwind.css?inline";

const ABORT_DELAY_MS = 5_000;

provideMetaTranslations(translatorFor);

/** Logs what went wrong on the server, but not answers such as 404 or 403 and not requests the visitor abandoned. */
export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted || (isRouteErrorResponse(error) && error.status < 500)) return;
  console.error(error);
}

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ABORT_DELAY_MS);
  const i18n = i18nForLanguage(loadContext.language);

  const body = await renderToReadableStream(
    <NonceContext.Provider value={loadContext.nonce}>
      <InlineStylesContext.Provider value={styles}>
        <I18nextProvider i18n={i18n}>
          <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY_MS} nonce={loadContext.nonce} />
        </I18nextProvider>
      </InlineStylesContext.Provider>
    </NonceContext.Provider>,
    {
      nonce: loadContext.nonce,
      signal: controller.signal,
      onError(error: unknown) {
        if (!controller.signal.aborted) console.error(error);
        responseStatusCode = 500;
      },
    },
  );
  void body.allReady.then(() => clearTimeout(timer));

  // Crawlers get the whole document at once; people get it streamed.
  if (isbot(request.headers.get("user-agent") || "")) await body.allReady;

  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  // Pages can show private data: never keep them in shared caches.
  if (!responseHeaders.has("Cache-Control")) responseHeaders.set("Cache-Control", "private, no-store");
  return new Response(body, { headers: responseHeaders, status: responseStatusCode });
}
