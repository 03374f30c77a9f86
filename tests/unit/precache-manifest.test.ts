import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { precacheManifest } from "../../scripts/lib/precache-manifest.mjs";

let directory: string | null = null;
afterEach(() => {
  if (directory) rmSync(directory, { recursive: true, force: true });
  directory = null;
});

/** A built client holding these files (paths under it), each with some bytes. */
function client(paths: string[]) {
  directory = mkdtempSync(join(tmpdir(), "precache-"));
  for (const path of paths) {
    mkdirSync(join(directory, path, ".."), { recursive: true });
    writeFileSync(join(directory, path), `/* ${path} */`);
  }
  return directory;
}

describe("the service worker's precache manifest", () => {
  it("keeps the app's scripts, styles and offline page, and leaves out the video converter, hls.js, media and sw.js", () => {
    const urls = precacheManifest(
      client([
        "assets/entry.client-AbCdEf12.js",
        "assets/root-AbCdEf12.css",
        "assets/video-player-AbCdEf12.js",
        "assets/video-renditions-AbCdEf12.js",
        "assets/mediabunny-aac-encoder-AbCdEf12.js",
        "assets/hls-AbCdEf12.js",
        "offline.html",
        "sw.js",
        "media/a.mp4",
      ]),
    ).map((entry: { url: string }) => entry.url);
    expect(urls).toEqual([
      "/assets/entry.client-AbCdEf12.js",
      "/assets/root-AbCdEf12.css",
      "/assets/video-player-AbCdEf12.js",
      "/offline.html",
    ]);
  });

  it("revisions an unhashed file by its content, a hashed one by its name", () => {
    const entries = precacheManifest(client(["assets/entry.client-AbCdEf12.js", "offline.html"]));
    expect(entries[0]).toEqual({ url: "/assets/entry.client-AbCdEf12.js", revision: null });
    expect(entries[1]!.revision).toMatch(/^[0-9a-f]{16}$/);
  });
});
