import { useLoaderData } from "@remix-run/react";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import type { WatermarkSetting } from "@shared/contracts/watermarks";
import {
  WATERMARK_FILL,
  WATERMARK_FONT_FAMILY,
  WATERMARK_FONT_WEIGHT,
  WATERMARK_SHADOW,
  watermarkLayout,
} from "@shared/watermark";
import { FormNotice } from "~/components/forms";
import { IntentForm } from "~/components/profile/intent-form";
import { useFormFetcher } from "~/components/use-form-fetcher";

/** The preview's picture, in its own pixels: a photo 3:2, as phones take them. */
const PREVIEW_WIDTH = 600;
const PREVIEW_HEIGHT = 400;
/** About how wide a character of the mark's font is, per pixel of font size (the preview has no canvas to measure). */
const AVERAGE_CHARACTER_WIDTH = 0.56;

/**
 * Settings → Privacy and data → Watermark, for creators: whether the photos they upload from now on are served to
 * others marked with their profile address (docs/decisions/watermarks.md), with a preview of the mark.
 */
export function WatermarkSettings() {
  const { t } = useTranslation();
  const { watermark } = useLoaderData<{ watermark: WatermarkSetting | null }>();
  const { fetcher, container, result } = useFormFetcher();
  const checkboxId = useId();
  if (!watermark) return null;
  return (
    <section aria-labelledby="watermark-settings" className="max-w-lg space-y-3" ref={container}>
      <h3 id="watermark-settings" className="font-semibold">
        {t("Watermark")}
      </h3>
      <p className="text-slate-600 dark:text-slate-400">
        {t(
          "Photos you publish in posts and messages are shown to everyone else with your profile address in a corner. You always see your originals.",
        )}
      </p>
      <WatermarkPreview text={watermark.text} />
      <FormNotice result={result} saved={t("Saved.")} />
      <IntentForm fetcher={fetcher} intent="watermark-set" className="space-y-3">
        <div className="flex items-center gap-2">
          <input
            id={checkboxId}
            type="checkbox"
            name="on"
            value="1"
            defaultChecked={watermark.on}
            key={String(watermark.on)}
            className="h-4 w-4"
          />
          <label htmlFor={checkboxId}>{t("Mark my photos with my profile address")}</label>
        </div>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          {t("A change applies to photos you upload from now on: photos already uploaded stay as they are.")}
        </p>
        <button type="submit" className="btn-secondary w-auto" disabled={fetcher.state !== "idle"}>
          {t("Save")}
        </button>
      </IntentForm>
    </section>
  );
}

/**
 * The mark as fans see it, on a made-up photo: the same corner, size and colours the uploader's browser draws
 * (shared/watermark.ts). Left to right and in the bottom right corner in every language, as on the photos.
 */
function WatermarkPreview({ text }: { text: string }) {
  const { t } = useTranslation();
  // An id that url(#…) can name: React's have colons.
  const shadowId = `watermark${useId().replace(/[^a-zA-Z0-9_-]/g, "")}`;
  const layout = watermarkLayout(PREVIEW_WIDTH, PREVIEW_HEIGHT, text.length * AVERAGE_CHARACTER_WIDTH);
  return (
    <svg
      role="img"
      aria-label={t("Preview: a photo with {{address}} in its bottom right corner", { address: text })}
      viewBox={`0 0 ${PREVIEW_WIDTH} ${PREVIEW_HEIGHT}`}
      className="w-full max-w-sm rounded-lg"
    >
      <defs>
        <linearGradient id={`${shadowId}-sky`} x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#7dd3fc" />
          <stop offset="1" stopColor="#fde68a" />
        </linearGradient>
        <filter id={shadowId} x="-10%" y="-50%" width="120%" height="200%">
          <feDropShadow
            dx={layout.shadowOffset}
            dy={layout.shadowOffset}
            stdDeviation={layout.shadowBlur / 2}
            floodColor={WATERMARK_SHADOW}
          />
        </filter>
      </defs>
      <rect width={PREVIEW_WIDTH} height={PREVIEW_HEIGHT} fill={`url(#${shadowId}-sky)`} />
      <circle cx="470" cy="110" r="48" fill="#fef3c7" />
      <path d="M0 300 L150 190 L260 270 L380 160 L600 320 L600 400 L0 400 Z" fill="#166534" />
      <path d="M0 350 L200 280 L420 340 L600 300 L600 400 L0 400 Z" fill="#15803d" />
      <text
        x={layout.x}
        y={layout.y}
        textAnchor="end"
        dominantBaseline="text-after-edge"
        direction="ltr"
        fontFamily={WATERMARK_FONT_FAMILY}
        fontWeight={WATERMARK_FONT_WEIGHT}
        fontSize={layout.fontSize}
        fill={WATERMARK_FILL}
        filter={`url(#${shadowId})`}
      >
        {text}
      </text>
    </svg>
  );
}
