/** A round avatar, decorative (the name stands next to it); without a picture, the first letter on a tinted disc. */
export function Avatar({ url, name, size = "h-10 w-10" }: { url: string; name: string; size?: string }) {
  if (url)
    return (
      <img src={url} alt="" className={`${size} shrink-0 rounded-full object-cover`} loading="lazy" decoding="async" />
    );
  return (
    <span
      aria-hidden="true"
      className={`${size} inline-flex shrink-0 items-center justify-center rounded-full bg-brand-100 font-semibold uppercase text-brand-700`}
    >
      {name.slice(0, 1) || "?"}
    </span>
  );
}

/** The ring around the avatar of someone with stories: coloured while some are unseen, grey once all are seen. */
export const storyRingClass = (unseen: boolean) =>
  `rounded-full p-0.5 ${unseen ? "bg-gradient-to-tr from-amber-400 via-pink-500 to-brand-600" : "bg-slate-300 dark:bg-slate-600"}`;
