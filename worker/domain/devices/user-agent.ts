import type { Translate } from "../i18n";

/** A browser and a system as a User-Agent names them: brand names, the same in every language. */
export interface Device {
  browser: string | null;
  system: string | null;
}

// Order matters: most browsers also claim to be Chrome and Safari, so the ones that add their own token come first;
// and Android, iPhone and iPad say "Linux" or "Mac OS X" too.
const BROWSERS: [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, "Edge"],
  [/\b(OPR|Opera)\//, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\b(Firefox|FxiOS)\//, "Firefox"],
  [/\b(Chrome|HeadlessChrome|CriOS|Chromium)\//, "Chrome"],
  [/\bSafari\//, "Safari"],
];
const SYSTEMS: [RegExp, string][] = [
  [/\bAndroid\b/, "Android"],
  [/\biPhone\b/, "iPhone"],
  [/\biPad\b/, "iPad"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bWindows\b/, "Windows"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bLinux\b/, "Linux"],
];

/**
 * The browser and system of a User-Agent, each null when it names none known. Deliberately coarse: it is what a
 * person recognises in a list of their devices ("Chrome on Android"), not a version or a model.
 */
export function deviceOfUserAgent(userAgent: string): Device {
  return {
    browser: BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1] ?? null,
    system: SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1] ?? null,
  };
}

/** "Chrome on Android", in the reader's language: how Settings and mails name a device. */
export function deviceLabel({ browser, system }: Device, t: Translate): string {
  if (browser && system) return t("{{browser}} on {{system}}", { browser, system });
  return browser ?? system ?? t("Unknown device");
}
