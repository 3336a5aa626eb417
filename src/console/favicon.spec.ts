import { faviconIco } from './favicon';

describe('favicon.ico', () => {
  it('is one 16×16 32-bit image in an ICO container whose sizes add up', () => {
    const ico = faviconIco();
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2), ico.readUInt16LE(4)]).toEqual([0, 1, 1]);
    expect([ico[6], ico[7], ico.readUInt16LE(12)]).toEqual([16, 16, 32]);
    const size = ico.readUInt32LE(14);
    const offset = ico.readUInt32LE(18);
    expect(offset + size).toBe(ico.length);
    expect([ico.readUInt32LE(offset), ico.readInt32LE(offset + 4), ico.readInt32LE(offset + 8)]).toEqual([40, 16, 32]);
  });

  it('has transparent corners and an opaque middle', () => {
    const ico = faviconIco();
    const pixels = ico.readUInt32LE(18) + 40;
    const alpha = (x: number, row: number) => ico[pixels + (row * 16 + x) * 4 + 3];
    expect([alpha(0, 0), alpha(15, 15), alpha(8, 8)]).toEqual([0, 0, 255]);
  });
});
