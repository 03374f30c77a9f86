import type { TFunction } from "i18next";

/** "1 view · 3 likes" of a story (a text for one of each, as mediaCountsText in app/lib/counts.ts). */
export function viewsAndLikesText(t: TFunction, views: number, likes: number): string {
  return [
    views === 1 ? t("1 view") : t("{{count}} views", { count: views }),
    likes === 1 ? t("1 like") : t("{{count}} likes", { count: likes }),
  ].join(" · ");
}
