/**
 * Tiny hand-built JPEGs for the metadata tests: structurally valid segments (not a decodable picture), with
 * an optional Exif APP1 holding an Orientation tag and a GPS IFD whose latitude reference is "N".
 */
export const segment = (marker: number, payload: number[]) => [
  0xff,
  marker,
  (payload.length + 2) >> 8,
  (payload.length + 2) & 0xff,
  ...payload,
];
export const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

export const GPS_TAG = [0x88, 0x25];

export function exifPayload({ orientation, gps }: { orientation?: number; gps: boolean }): number[] {
  const entries: number[][] = [];
  if (orientation) entries.push([0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, orientation, 0x00, 0x00]);
  const gpsOffset = 8 + 2 + (entries.length + (gps ? 1 : 0)) * 12 + 4;
  if (gps) entries.push([...GPS_TAG, 0x00, 0x04, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, gpsOffset]);
  const gpsIfd = gps
    ? [
        0x00,
        0x01,
        0x00,
        0x01,
        0x00,
        0x02,
        0x00,
        0x00,
        0x00,
        0x02,
        ...ascii("N"),
        0x00,
        0x00,
        0x00,
        0x00,
        0x00,
        0x00,
        0x00,
      ]
    : [];
  return [
    ...ascii("Exif"),
    0,
    0,
    ...ascii("MM"),
    0x00,
    0x2a,
    0x00,
    0x00,
    0x00,
    0x08,
    0x00,
    entries.length,
    ...entries.flat(),
    0,
    0,
    0,
    0,
    ...gpsIfd,
  ];
}

export function buildJpeg(
  options: { orientation?: number; gps?: boolean; comment?: string; width?: number; height?: number } = {},
): Uint8Array {
  const { width = 3, height = 2 } = options;
  const bytes = [
    0xff,
    0xd8,
    ...segment(0xe0, [...ascii("JFIF"), 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]),
    ...(options.gps || options.orientation
      ? segment(0xe1, exifPayload({ orientation: options.orientation, gps: options.gps ?? false }))
      : []),
    ...segment(0xe1, ascii("http://ns.adobe.com/xap/1.0/\0<x:xmpmeta>GPSLatitude</x:xmpmeta>")),
    ...(options.comment ? segment(0xfe, ascii(options.comment)) : []),
    ...segment(0xc0, [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 1, 1, 0x11, 0]),
    ...segment(0xda, [1, 1, 0, 0, 0x3f, 0]),
    0x12,
    0x34,
    0x56,
    0xff,
    0xd9,
  ];
  return Uint8Array.from(bytes);
}

/** A real 1×1 PNG: signature, IHDR, IDAT, IEND (70 bytes). */
export const PNG_1x1 = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);

export const contains = (haystack: Uint8Array, needle: number[] | string) => {
  const bytes = typeof needle === "string" ? ascii(needle) : needle;
  outer: for (let i = 0; i + bytes.length <= haystack.length; i++) {
    for (let j = 0; j < bytes.length; j++) if (haystack[i + j] !== bytes[j]) continue outer;
    return true;
  }
  return false;
};
