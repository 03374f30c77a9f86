/** A round avatar; without a picture, the first letter on a tinted disc. Decorative unless given `alt`. */
export function Avatar({ url, name, size = "h-10 w-10", alt = "" }: { url: string; name: string; size?: string; alt?: string }) {
  if (url) return <img src={url} alt={alt} className={`${size} shrink-0 rounded-full object-cover`} loading="lazy" decoding="async" />;
  return (
    <span aria-hidden={alt ? undefined : true} role={alt ? "img" : undefined} aria-label={alt || undefined} className={`${size} inline-flex shrink-0 items-center justify-center rounded-full bg-brand-100 font-semibold uppercase text-brand-700`}>
      {name.slice(0, 1) || "?"}
    </span>
  );
}
