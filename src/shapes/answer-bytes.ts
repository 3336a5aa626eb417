/**
 * How many characters of pieces are joined into one run before the run is written into the bytes:
 * runs this long are ordinary young objects, gone at the next collection, and few enough (~50 for
 * a bulk write's answer) that writing each costs little beside its copy.
 */
const RUN_CHARS = 16 * 1024;

/**
 * The UTF-8 bytes of the text `pieces` make together, without ever making that text (P372).
 * Joining a bulk write's ~800 KB answer into one string and then encoding it copied the answer
 * twice, the first time into fresh pages of the large-object space. Joined in runs of ~16 K
 * characters, each written into one buffer as it is made, the answer is copied once and encoded
 * once.
 *
 * The bytes are those of the joined text because no character is split between two runs: a piece
 * of an answer is one or more whole JSON tokens, never part of a string literal, and JSON text
 * holds no lone surrogate (JSON.stringify escapes them), so both halves of a pair are in one piece.
 */
export function piecesAsBytes(pieces: readonly string[]): Buffer {
  const runs: string[] = [];
  let bytes = 0;
  let start = 0;
  let chars = 0;
  for (let i = 0; i < pieces.length; i++) {
    chars += pieces[i].length;
    if (chars < RUN_CHARS && i < pieces.length - 1) continue;
    const run = i === start ? pieces[i] : pieces.slice(start, i + 1).join('');
    runs.push(run);
    bytes += Buffer.byteLength(run, 'utf8');
    start = i + 1;
    chars = 0;
  }
  const buffer = Buffer.allocUnsafe(bytes);
  let at = 0;
  for (const run of runs) at += buffer.write(run, at, 'utf8');
  // Counted and written by the same encoder, so they agree; were they ever not to, no answer may
  // carry the buffer's uninitialised memory.
  if (at !== bytes) throw new Error(`answer bytes: ${at} written of ${bytes} counted`);
  return buffer;
}
