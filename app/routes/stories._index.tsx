import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { StoryReel } from "@shared/contracts/stories";
import { getHighlightReel } from "@worker/domain/stories/highlights";
import { getStoryReel, listStoriesBar } from "@worker/domain/stories/stories";
import { AppError } from "@worker/domain/shared/errors";
import { parseIdText } from "@worker/domain/shared/validation";
import { Icon } from "~/components/shell/icons";
import { StoryViewer } from "~/components/stories/story-viewer";
import { safeLocalPath } from "@shared/local-path";
import { requireViewer } from "~/lib/forms.server";
import { pageMeta, titleTag } from "~/i18n/meta";

export { PageErrorBoundary as ErrorBoundary } from "~/components/route-error";

export const meta = pageMeta((t) => [titleTag(t("Stories"))]);

/** A reel, or null when there is none for this viewer (a 404 of the domain). */
async function reelOrNull<T>(load: Promise<T>): Promise<T | null> {
  try {
    return await load;
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") return null;
    throw error;
  }
}

/**
 * /stories (spec §2: no layout): `?user=` opens that creator's stories, then the next creators of the bar;
 * `?highlight=` plays one highlight; neither starts at the bar's first creator with unseen stories. `?back=`
 * is where closing returns (a local path; Home otherwise).
 */
export async function loader({ context, request }: LoaderFunctionArgs) {
  const { user } = requireViewer(context, request);
  const url = new URL(request.url);
  const closeTo = safeLocalPath(url.searchParams.get("back"));
  const db = context.domain.db;
  const highlightParam = url.searchParams.get("highlight");
  if (highlightParam !== null) {
    const id = parseIdText(highlightParam);
    const highlight = id === null ? null : await reelOrNull(getHighlightReel(db, user, id));
    const reel: StoryReel | null = highlight ? { creator: highlight.creator, stories: highlight.stories } : null;
    return data(
      { reel, queue: [] as string[], closeTo, title: highlight?.highlight.title ?? null, selfId: user.id },
      { status: reel ? 200 : 404 },
    );
  }
  const bar = await listStoriesBar(db, user);
  const asked = url.searchParams.get("user")?.toLowerCase().slice(0, 64) ?? null;
  const start = asked ?? (bar.find((item) => item.unseen > 0) ?? bar[0])?.creator.username ?? null;
  const reel = start === null ? null : await reelOrNull(getStoryReel(db, user, start));
  const index = bar.findIndex((item) => item.creator.username === start);
  // After this creator come the bar's next ones; a creator who is not in the bar (opened from a profile) is alone.
  const queue = index < 0 ? [] : bar.slice(index + 1).map((item) => item.creator.username);
  return data({ reel, queue, closeTo, title: null, selfId: user.id }, { status: reel || asked === null ? 200 : 404 });
}

export default function StoriesPage() {
  const { t } = useTranslation();
  const { reel, queue, closeTo, title, selfId } = useLoaderData<typeof loader>();
  if (reel)
    return (
      <StoryViewer
        key={`${reel.creator.id}:${title ?? ""}`}
        initial={reel}
        queue={queue}
        selfId={selfId}
        closeTo={closeTo}
        title={title}
      />
    );
  return (
    <main className="flex min-h-screen flex-col bg-slate-950 text-white">
      <div className="flex justify-end p-4">
        <Link to={closeTo} aria-label={t("Close stories")} className="rounded-full p-2 hover:bg-white/10">
          <Icon name="close" />
        </Link>
      </div>
      <div className="flex flex-1 flex-col items-center justify-center gap-3 p-6 text-center">
        <h1 className="text-2xl font-bold">{t("No stories right now")}</h1>
        <p className="max-w-sm text-slate-300">{t("Stories from creators you follow show here for 24 hours.")}</p>
      </div>
    </main>
  );
}
