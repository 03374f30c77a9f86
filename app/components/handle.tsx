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

/**
 * A person's name over their handle, each cut to one line: how every list of people (search, suggestions, fans,
 * subscriptions, blocked, viewers) and a post's author show someone. `nameId` names the name's element (a post's
 * label points at it). Place it in an element with `min-w-0` so that the lines can be cut.
 */
export function NameAndHandle({ name, username, nameId }: { name: string; username: string; nameId?: string }) {
  return (
    <>
      <span id={nameId} dir="auto" className="block truncate-text font-semibold">
        {name}
      </span>
      <span dir="ltr" className="block truncate-text text-sm text-slate-600 dark:text-slate-400">
        <Handle username={username} />
      </span>
    </>
  );
}
