import type { ReactNode } from "react";

/**
 * A person's handle, "@username", drawn as one left-to-right piece whatever the text around it: isolated (<bdi>)
 * and left to right (a username is a-z, digits, dots and underscores, never right to left, and may have no letter
 * at all), so in Arabic the "@" stays in front of the name ("@mia.rivers", not "mia.rivers@"). Every handle the
 * app shows goes through this component or through `withHandle`.
 */
export function Handle({ username }: { username: string }) {
  return <bdi dir="ltr">{`@${username}`}</bdi>;
}

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
