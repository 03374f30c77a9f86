// A minimal PNG encoder (8-bit RGB, no filtering) for the generated demo images: no image files to download.
import { deflateSync } from "node:zlib";

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, "ascii");
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** `pixel(x, y)` returns [r, g, b]. */
export function encodePng(width, height, pixel) {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) {
      const [r, g, b] = pixel(x, y);
      raw[row + 1 + x * 3] = r;
      raw[row + 2 + x * 3] = g;
      raw[row + 3 + x * 3] = b;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A soft diagonal gradient between two colours, with a few circles: recognisable, pleasant, tiny. */
export function demoImage(width, height, from, to, seed = 1) {
  const circles = Array.from({ length: 4 }, (_, i) => ({
    x: (((seed * 97 + i * 211) % 100) / 100) * width,
    y: (((seed * 53 + i * 149) % 100) / 100) * height,
    r: (0.08 + ((seed + i) % 5) * 0.04) * Math.min(width, height),
  }));
  return encodePng(width, height, (x, y) => {
    const t = (x / width + y / height) / 2;
    let color = from.map((c, i) => Math.round(c + (to[i] - c) * t));
    for (const circle of circles) {
      if ((x - circle.x) ** 2 + (y - circle.y) ** 2 < circle.r ** 2) color = color.map((c) => Math.min(255, c + 40));
    }
    return color;
  });
}
