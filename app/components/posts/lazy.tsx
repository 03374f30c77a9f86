import { lazy, Suspense, useEffect, useState, type ComponentProps, type ReactNode } from "react";

/**
 * The composer and the owner's menu are for creators and their own posts only: loaded when first shown, so a
 * fan's first /home downloads none of their code (QUALITY.md's 120 KB budget). They appear once the page is
 * hydrated: a Suspense boundary still waiting for its chunk while the page hydrates would be thrown away and
 * rendered again by React whenever a context above it changes (error #421).
 */
function AfterHydration({ children }: { children: ReactNode }) {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated ? <Suspense fallback={null}>{children}</Suspense> : null;
}
const ComposerChunk = lazy(() =>
  import("~/components/posts/composer").then((module) => ({ default: module.Composer })),
);
const PostOwnerMenuChunk = lazy(() =>
  import("~/components/posts/post-owner-menu").then((module) => ({ default: module.PostOwnerMenu })),
);
const ReportButtonChunk = lazy(() =>
  import("~/components/moderation/report-dialog").then((module) => ({ default: module.ReportButton })),
);

export function LazyComposer(props: ComponentProps<typeof ComposerChunk>) {
  return (
    <AfterHydration>
      <ComposerChunk {...props} />
    </AfterHydration>
  );
}

export function LazyPostOwnerMenu(props: ComponentProps<typeof PostOwnerMenuChunk>) {
  return (
    <AfterHydration>
      <PostOwnerMenuChunk {...props} />
    </AfterHydration>
  );
}

export function LazyReportButton(props: ComponentProps<typeof ReportButtonChunk>) {
  return (
    <AfterHydration>
      <ReportButtonChunk {...props} />
    </AfterHydration>
  );
}
