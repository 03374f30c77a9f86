import type { ReactNode } from "react";
import { Handle } from "~/components/handle";

/**
 * A translated sentence with a handle in it ("Tip to @mia.rivers", "Block @mia.rivers?"), the handle drawn by
 * `Handle`: t(…) was given the username (the translation writes the "@") or "@username" (the caller did).
 * A sentence without the handle (a translation that left it out) is shown as it is.
 */
export function withHandle(sentence: string, username: string): ReactNode {
  const handle = `@${username}`;
  const at = sentence.indexOf(handle);
  if (at < 0) return sentence;
  return (
    <>
      {sentence.slice(0, at)}
      <Handle username={username} />
      {sentence.slice(at + handle.length)}
    </>
  );
}
