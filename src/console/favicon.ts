/**
 * The service's icon, `/favicon.ico`: a 16×16 Windows icon drawn here rather than shipped as a
 * binary file (nothing to copy into the build): a green disc, the "usable" of a status board, on
 * a transparent ground. Browsers ask for it on every page the service serves (console, docs,
 * playground); without it each visit logged a 404.
 */
const SIZE = 16;

export function faviconIco(): Buffer {
  const pixels = Buffer.alloc(SIZE * SIZE * 4); // BGRA, bottom row first
  const centre = (SIZE - 1) / 2;
  for (let row = 0; row < SIZE; row++) {
    for (let col = 0; col < SIZE; col++) {
      const distance = Math.hypot(col - centre, row - centre);
      const coverage = Math.max(0, Math.min(1, 7.5 - distance)); // a soft edge one pixel wide
      const at = (row * SIZE + col) * 4;
      pixels.set([0x32, 0x7d, 0x2e, Math.round(coverage * 255)], at); // #2e7d32
    }
  }
  const andMask = Buffer.alloc(SIZE * 4); // 16 rows of 32 bits, all 0: the alpha channel decides
  const header = Buffer.alloc(40);
  header.writeUInt32LE(40, 0); // BITMAPINFOHEADER
  header.writeInt32LE(SIZE, 4);
  header.writeInt32LE(SIZE * 2, 8); // colour rows and mask rows
  header.writeUInt16LE(1, 12);
  header.writeUInt16LE(32, 14);
  header.writeUInt32LE(pixels.length + andMask.length, 20);
  const image = Buffer.concat([header, pixels, andMask]);
  const dir = Buffer.alloc(6 + 16);
  dir.writeUInt16LE(1, 2); // type: icon
  dir.writeUInt16LE(1, 4); // one image
  dir.writeUInt8(SIZE, 6);
  dir.writeUInt8(SIZE, 7);
  dir.writeUInt16LE(1, 10); // planes
  dir.writeUInt16LE(32, 12); // bits per pixel
  dir.writeUInt32LE(image.length, 14);
  dir.writeUInt32LE(dir.length, 18);
  return Buffer.concat([dir, image]);
}
