/**
 * A person's handle, "@username", drawn as one left-to-right piece whatever the text around it: isolated (<bdi>)
 * and left to right (a username is a-z, digits, dots and underscores, never right to left, and may have no letter
 * at all), so in Arabic the "@" stays in front of the name ("@mia.rivers", not "mia.rivers@"). Every handle the
 * app shows goes through this component or through `withHandle` (./handle-sentence.tsx, a module of its own: the
 * feed's chunk carries only this).
 */
export function Handle({ username }: { username: string }) {
  return <bdi dir="ltr">{`@${username}`}</bdi>;
}
