import { splitLinks } from "~/components/messages/text-links";

/**
 * A message's text as React text nodes (never HTML), its web addresses as links opening in a new tab that pass
 * no referrer or ranking to the site.
 */
export function LinkedText({ text }: { text: string }) {
  return (
    <>
      {splitLinks(text).map((part, index) =>
        "href" in part ? (
          <a
            key={index}
            href={part.href}
            target="_blank"
            rel="noopener noreferrer nofollow"
            className="break-all underline"
          >
            {part.text}
          </a>
        ) : (
          <span key={index}>{part.text}</span>
        ),
      )}
    </>
  );
}
