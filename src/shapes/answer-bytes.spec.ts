import fc from 'fast-check';
import { piecesAsBytes } from './answer-bytes';

/** An answer's pieces as the writers make them: whole JSON texts, and the punctuation between them. */
const jsonPieces = (values: unknown[]): string[] => [
  '[',
  ...values.flatMap((v, i) => (i > 0 ? [',', JSON.stringify(v)] : [JSON.stringify(v)])),
  ']',
];

describe('piecesAsBytes', () => {
  it('gives the UTF-8 bytes of the joined text for any JSON values, short and long, in any characters', () => {
    const value = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.string({ unit: 'binary', minLength: 2000, maxLength: 9000 }),
      fc.jsonValue({ maxDepth: 2 }),
    );
    fc.assert(
      fc.property(fc.array(value, { maxLength: 40 }), (values) => {
        const pieces = jsonPieces(values);
        expect(piecesAsBytes(pieces).equals(Buffer.from(pieces.join(''), 'utf8'))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('keeps characters of two, three and four bytes whole across the runs it joins', () => {
    // ~90 K characters in pieces of ~500 to ~3 000: several runs, each ending after a piece full
    // of multi-byte text; the lone surrogates are written escaped, as JSON writes them.
    const values = Array.from({ length: 70 }, (_, i) => ['é', '€', '😀', '\ud800'][i % 4].repeat(499) + String(i));
    const pieces = jsonPieces(values);
    const bytes = piecesAsBytes(pieces);
    expect(bytes.equals(Buffer.from(pieces.join(''), 'utf8'))).toBe(true);
    expect(JSON.parse(bytes.toString('utf8'))).toEqual(values);
  });

  it('makes nothing of no pieces, and one piece as it is', () => {
    expect(piecesAsBytes([]).length).toBe(0);
    expect(piecesAsBytes(['{"a":"ü"}']).toString('utf8')).toBe('{"a":"ü"}');
  });
});
