import { lazy, Suspense, type ComponentProps } from "react";

/**
 * The composer and the owner's menu are for creators and their own posts only: loaded when first shown, so a
 * fan's first /home downloads none of their code (QUALITY.md's 120 KB budget).
 */
const ComposerChunk = lazy(() => import("./composer").then((module) => ({ default: module.Composer })));
const PostOwnerMenuChunk = lazy(() => import("./post-owner-menu").then((module) => ({ default: module.PostOwnerMenu })));
const ReportButtonChunk = lazy(() => import("../moderation/report-dialog").then((module) => ({ default: module.ReportButton })));

export function LazyComposer(props: ComponentProps<typeof ComposerChunk>) {
  return (
    <Suspense fallback={null}>
      <ComposerChunk {...props} />
    </Suspense>
  );
}

export function LazyPostOwnerMenu(props: ComponentProps<typeof PostOwnerMenuChunk>) {
  return (
    <Suspense fallback={null}>
      <PostOwnerMenuChunk {...props} />
    </Suspense>
  );
}

export function LazyReportButton(props: ComponentProps<typeof ReportButtonChunk>) {
  return (
    <Suspense fallback={null}>
      <ReportButtonChunk {...props} />
    </Suspense>
  );
}
