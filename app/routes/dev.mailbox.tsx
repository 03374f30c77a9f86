import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { Fragment } from "react";
import { useTranslation } from "react-i18next";
import { isDevMailboxEnabled, listDevMail } from "@worker/domain/mail/dev-mailbox";
import { pageMeta, titleTag } from "~/i18n/meta";

export { PageErrorBoundary as ErrorBoundary } from "~/components/route-error";

export const meta = pageMeta((t) => [titleTag(t("Development mailbox"))]);

/** /dev/mailbox: every email the app "sent" while MAIL_DRIVER=dev. Does not exist in production. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  if (!isDevMailboxEnabled(context.domain.config)) throw new Response("Not found", { status: 404 });
  const to = new URL(request.url).searchParams.get("to");
  return { to, messages: await listDevMail(context.domain.db, to) };
}

/** Turns the URLs in a plain-text email into links, leaving everything else as text. */
function Linkified({ text }: { text: string }) {
  const parts = text.split(/(https?:\/\/\S+)/g);
  return (
    <>
      {parts.map((part, index) =>
        /^https?:\/\//.test(part) ? (
          <a key={index} href={part} className="link break-all">
            {part}
          </a>
        ) : (
          <Fragment key={index}>{part}</Fragment>
        ),
      )}
    </>
  );
}

export default function DevMailbox() {
  const { t } = useTranslation();
  const { to, messages } = useLoaderData<typeof loader>();
  return (
    <main className="mx-auto max-w-3xl space-y-4 p-6">
      <h1 className="text-2xl font-bold">{t("Development mailbox")}</h1>
      <form method="get" className="flex gap-2">
        <label htmlFor="mailbox-to" className="sr-only">
          {t("Recipient")}
        </label>
        <input id="mailbox-to" name="to" defaultValue={to ?? ""} placeholder={t("Recipient")} className="input" />
        <button type="submit" className="btn-secondary">
          {t("Filter")}
        </button>
        {to ? (
          <Link to="/dev/mailbox" className="btn-secondary">
            {t("All")}
          </Link>
        ) : null}
      </form>
      {messages.length === 0 ? <p className="text-slate-600 dark:text-slate-400">{t("No messages yet.")}</p> : null}
      <ol className="space-y-4">
        {messages.map((mail) => (
          <li key={mail.id} className="rounded-xl p-4 ring-1 ring-slate-200 dark:ring-slate-800" data-testid="mail">
            <p className="text-xs text-slate-500">
              {mail.to_address} · {new Date(mail.created_at).toLocaleString()}
            </p>
            <h2 className="font-semibold">{mail.subject}</h2>
            <p className="mt-2 whitespace-pre-wrap text-sm">
              <Linkified text={mail.text_body} />
            </p>
          </li>
        ))}
      </ol>
    </main>
  );
}
