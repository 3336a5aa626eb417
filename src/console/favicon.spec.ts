import { faviconIco } from './favicon';

describe('the favicon', () => {
  it('is one 16×16 32-bit icon whose directory points at its bitmap', () => {
    const ico = faviconIco();
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2), ico.readUInt16LE(4)]).toEqual([0, 1, 1]);
    expect([ico.readUInt8(6), ico.readUInt8(7), ico.readUInt16LE(12)]).toEqual([16, 16, 32]);
    const size = ico.readUInt32LE(14);
    const offset = ico.readUInt32LE(18);
    expect(offset + size).toBe(ico.length);
    expect([ico.readUInt32LE(offset), ico.readInt32LE(offset + 4), ico.readInt32LE(offset + 8)]).toEqual([40, 16, 32]);
    // The centre pixel is opaque green, a corner transparent.
    const pixel = (row: number, col: number) => [...ico.subarray(offset + 40 + (row * 16 + col) * 4, offset + 44 + (row * 16 + col) * 4)];
    expect(pixel(8, 8)).toEqual([0x32, 0x7d, 0x2e, 255]);
    expect(pixel(0, 0)[3]).toBe(0);
  });
});
