#!/usr/bin/env node
// Draws the app icons of public/manifest.webmanifest (a white heart on the brand blue) with the project's own
// PNG encoder: nothing is downloaded. Run `node scripts/make-icons.mjs` after changing the drawing; the PNGs
// under public/icons/ are committed.
import { mkdirSync, writeFileSync } from "node:fs";
import { encodePng } from "./lib/png.mjs";

const BRAND = [0x0a, 0x6f, 0xd6]; // theme_color
const WHITE = [255, 255, 255];
const SAMPLES = 4; // 4×4 supersampling per pixel for smooth edges

/** The classic heart curve (x²+y²−1)³ − x²y³ ≤ 0; it spans about x ∈ [−1.14, 1.14], y ∈ [−1, 1.24]. */
const inHeart = (x, y) => (x * x + y * y - 1) ** 3 - x * x * y ** 3 <= 0;

/**
 * `heartWidth` is the heart's width as a share of the icon. A maskable icon may be cropped to a circle of
 * 80 % of its size (the safe zone), so its heart stays well inside that circle.
 */
function heartIcon(size, heartWidth) {
  const scale = (heartWidth * size) / 2.28; // pixels per unit of the curve
  const centreY = size / 2 + 0.12 * scale; // the curve's centre of height (y = 0.12) lands mid-icon
  return encodePng(size, size, (px, py) => {
    let hits = 0;
    for (let sy = 0; sy < SAMPLES; sy++) {
      for (let sx = 0; sx < SAMPLES; sx++) {
        const x = (px + (sx + 0.5) / SAMPLES - size / 2) / scale;
        const y = (centreY - (py + (sy + 0.5) / SAMPLES)) / scale; // image y grows downwards
        if (inHeart(x, y)) hits++;
      }
    }
    const share = hits / (SAMPLES * SAMPLES);
    return BRAND.map((c, i) => Math.round(c + (WHITE[i] - c) * share));
  });
}

const icons = {
  "icon-192.png": heartIcon(192, 0.6),
  "icon-512.png": heartIcon(512, 0.6),
  "maskable-512.png": heartIcon(512, 0.5), // inside the 80 % safe-zone circle with room to spare
  "apple-touch-icon.png": heartIcon(180, 0.55), // iOS rounds the corners itself
};

const directory = new URL("../public/icons/", import.meta.url);
mkdirSync(directory, { recursive: true });
for (const [name, png] of Object.entries(icons)) {
  writeFileSync(new URL(name, directory), png);
  console.log(`public/icons/${name}: ${png.length} bytes`);
}
