/**
 * Issue 36: the service's favicon, `GET /favicon.ico` — what every browser asks for on the
 * console, Swagger and the playground (a 404 in their logs otherwise). Drawn here rather than
 * kept as a binary file: a 16×16 32-bit icon, a green disc (the console's "OK" colour) with a
 * white check mark, in the ICO container (one BMP image: header, bottom-up BGRA rows, AND mask).
 */
const SIZE = 16;

/** The colour of pixel (x, y), y from the top, as [b, g, r, a]. */
function pixel(x: number, y: number): [number, number, number, number] {
  const cx = x + 0.5 - SIZE / 2;
  const cy = y + 0.5 - SIZE / 2;
  if (cx * cx + cy * cy > (SIZE / 2) ** 2) return [0, 0, 0, 0];
  // the check: a short stroke down-right, then a long one up-right
  const onShort = x >= 4 && x <= 7 && Math.abs(y - (x + 4)) <= 1;
  const onLong = x >= 7 && x <= 12 && Math.abs(y - (18 - x)) <= 1;
  return onShort || onLong ? [255, 255, 255, 255] : [0x3c, 0x9a, 0x2e, 255];
}

export function faviconIco(): Buffer {
  const pixels = Buffer.alloc(SIZE * SIZE * 4);
  for (let row = 0; row < SIZE; row++) {
    const y = SIZE - 1 - row; // BMP rows run bottom-up
    for (let x = 0; x < SIZE; x++) Buffer.from(pixel(x, y)).copy(pixels, (row * SIZE + x) * 4);
  }
  const mask = Buffer.alloc(SIZE * 4); // 1 bit per pixel, rows padded to 32 bits; all 0: alpha decides
  const header = Buffer.alloc(40);
  header.writeUInt32LE(40, 0); // BITMAPINFOHEADER
  header.writeInt32LE(SIZE, 4);
  header.writeInt32LE(SIZE * 2, 8); // the image and its mask
  header.writeUInt16LE(1, 12); // planes
  header.writeUInt16LE(32, 14); // bits per pixel
  header.writeUInt32LE(pixels.length + mask.length, 20);
  const image = Buffer.concat([header, pixels, mask]);
  const directory = Buffer.alloc(6 + 16);
  directory.writeUInt16LE(1, 2); // type: icon
  directory.writeUInt16LE(1, 4); // one image
  directory.writeUInt8(SIZE, 6);
  directory.writeUInt8(SIZE, 7);
  directory.writeUInt16LE(1, 10); // planes
  directory.writeUInt16LE(32, 12); // bits per pixel
  directory.writeUInt32LE(image.length, 14);
  directory.writeUInt32LE(directory.length, 18); // where the image starts
  return Buffer.concat([directory, image]);
}
