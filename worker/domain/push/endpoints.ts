/**
 * Where a push may be sent. The Worker POSTs to whatever endpoint a browser handed it, so an endpoint is a
 * push service's URL only: https on port 443, no credentials, a host named by PUSH_SERVICE_HOSTS (never an IP
 * literal, a loopback or a private name). It is checked when a device subscribes and again before every push
 * (worker/push/queue.ts), so a row stored under older rules reaches nothing. docs/decisions/push-service-hosts.md.
 */

/** The browsers' push services: Chrome's (FCM), Firefox's (Mozilla autopush), Safari's (Apple), Edge's (WNS). */
export const DEFAULT_PUSH_SERVICE_HOSTS = [
  "fcm.googleapis.com",
  "updates.push.services.mozilla.com",
  "*.push.services.mozilla.com",
  "*.push.apple.com",
  "*.notify.windows.com",
];

/** Only the test tier's fake push service on this machine: listed by name in its configuration, any port, http too. */
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

/** Names that resolve inside a network, not on the internet (RFC 6761, RFC 6762, RFC 8375, common practice). */
const PRIVATE_SUFFIXES = ["localhost", "local", "internal", "intranet", "lan", "home", "corp", "private", "home.arpa"];

/** The URL parser writes every IPv4 form (decimal, hex, octal, shortened) as dotted decimal, and IPv6 in brackets. */
const isIpLiteral = (hostname: string) => hostname.startsWith("[") || /^\d+(\.\d+){3}$/.test(hostname);

function isPrivateName(hostname: string): boolean {
  const name = hostname.replace(/\.$/, "");
  return !name.includes(".") || PRIVATE_SUFFIXES.some((suffix) => name === suffix || name.endsWith(`.${suffix}`));
}

/** A host as the URL parser writes it, or `*.` and one: every name under that one (not the name itself). */
export function isHostEntry(entry: string): boolean {
  const name = entry.startsWith("*.") ? entry.slice(2) : entry;
  return name !== "" && URL.canParse(`https://${name}/`) && new URL(`https://${name}/`).hostname === name;
}

/** An entry a deployment may list: a public name (IP literals and private names only in the test tier). */
export const isPublicHostEntry = (entry: string) => {
  const name = entry.replace(/^\*\./, "");
  return !isIpLiteral(name) && !isPrivateName(name);
};

const matches = (entry: string, hostname: string) =>
  entry.startsWith("*.") ? hostname.endsWith(entry.slice(1)) : hostname === entry;

/** Whether a push may be sent to `endpoint`, given the configured hosts and APP_ENV. */
export function isPushServiceEndpoint(endpoint: string, hosts: readonly string[], appEnv: string): boolean {
  if (!URL.canParse(endpoint)) return false;
  const url = new URL(endpoint);
  if (url.username || url.password) return false;
  const host = url.hostname;
  if (appEnv === "test" && LOOPBACK_HOSTS.has(host) && hosts.includes(host))
    return url.protocol === "http:" || url.protocol === "https:";
  return (
    url.protocol === "https:" &&
    url.port === "" &&
    !isIpLiteral(host) &&
    !isPrivateName(host) &&
    hosts.some((entry) => matches(entry, host))
  );
}
