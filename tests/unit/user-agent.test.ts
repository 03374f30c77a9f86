import { describe, expect, it } from "vitest";
import { deviceLabel, deviceOfUserAgent } from "../../worker/domain/devices/user-agent";

/** Real User-Agent strings of current browsers, each with the browser and system a person would name. */
const AGENTS: [string, string, string | null, string | null][] = [
  [
    "Chrome on Android",
    "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Mobile Safari/537.36",
    "Chrome",
    "Android",
  ],
  [
    "Safari on iPhone",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
    "Safari",
    "iPhone",
  ],
  [
    "Chrome on iPhone",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/125.0.6422.80 Mobile/15E148 Safari/604.1",
    "Chrome",
    "iPhone",
  ],
  [
    "Firefox on iPad",
    "Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/126.0 Mobile/15E148 Safari/605.1.15",
    "Firefox",
    "iPad",
  ],
  [
    "Safari on macOS",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
    "Safari",
    "macOS",
  ],
  [
    "Edge on Windows",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Safari/537.36 Edg/125.0.0.0",
    "Edge",
    "Windows",
  ],
  [
    "Opera on Windows",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 OPR/110.0.0.0",
    "Opera",
    "Windows",
  ],
  [
    "Samsung Internet on Android",
    "Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36",
    "Samsung Internet",
    "Android",
  ],
  ["Firefox on Linux", "Mozilla/5.0 (X11; Linux x86_64; rv:126.0) Gecko/20100101 Firefox/126.0", "Firefox", "Linux"],
  [
    "Chrome on ChromeOS",
    "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Safari/537.36",
    "Chrome",
    "ChromeOS",
  ],
  [
    "headless Chrome on Linux (the end-to-end tests' browser)",
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/125.0.0.0 Safari/537.36",
    "Chrome",
    "Linux",
  ],
  ["a command-line client", "curl/8.5.0", null, null],
  ["no User-Agent", "", null, null],
];

const t = ((key: string, values?: Record<string, string>) =>
  key.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values?.[name] ?? "")) as Parameters<typeof deviceLabel>[1];

describe("deviceOfUserAgent", () => {
  for (const [name, userAgent, browser, system] of AGENTS)
    it(name, () => {
      expect(deviceOfUserAgent(userAgent)).toEqual({ browser, system });
    });
});

describe("deviceLabel", () => {
  it("names the browser on the system, either alone, or an unknown device", () => {
    expect(deviceLabel({ browser: "Chrome", system: "Android" }, t)).toBe("Chrome on Android");
    expect(deviceLabel({ browser: "Firefox", system: null }, t)).toBe("Firefox");
    expect(deviceLabel({ browser: null, system: "Windows" }, t)).toBe("Windows");
    expect(deviceLabel({ browser: null, system: null }, t)).toBe("Unknown device");
  });
});
