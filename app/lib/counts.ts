import type { TFunction } from "i18next";

/**
 * "1 photo · 3 videos": what a locked post or message holds, the kinds it has none of left out. Each count has
 * its own text for one (English's plural; the translations of the other count may avoid the plural, as
 * "Фото: {{count}}" does).
 */
export function mediaCountsText(t: TFunction, images: number, videos: number): string {
  const parts: string[] = [];
  if (images > 0) parts.push(images === 1 ? t("1 photo") : t("{{count}} photos", { count: images }));
  if (videos > 0) parts.push(videos === 1 ? t("1 video") : t("{{count}} videos", { count: videos }));
  return parts.join(" · ");
}
