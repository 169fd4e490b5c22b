// A bundle with no character outside ASCII, and its source map moved to match. esbuild escapes
// strings and identifiers (charset=ascii) but leaves regular expression literals as written, and
// a few Chinese words in them make V8 hold the whole 2 MB source as a two-byte string, in the
// extension host and again in each worker: twice the memory, and a slower load.
import { decode, encode } from '@jridgewell/sourcemap-codec';

const hex = (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * Each character outside ASCII as `\uXXXX` (the same character in a string, a template or a
 * regular expression; a pair of them for a character outside the BMP, which a regular expression
 * with or without the u flag matches alike). `\字`, an identity escape, becomes `\uXXXX` alone.
 * The source map's generated columns after each escape move by what it added to its line.
 */
export function asciiBundle(code, map) {
  if (!/[\u0080-\uffff]/.test(code)) return { code, map };
  const lines = code.split('\n');
  const shifts = []; // per line: [column in the old line, columns added before what follows it]
  const out = lines.map((line, n) => {
    if (!/[\u0080-\uffff]/.test(line)) return line;
    let text = '';
    const moved = [];
    let added = 0;
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      if (c === '\\' && i + 1 < line.length) {
        const next = line[i + 1];
        if (next.charCodeAt(0) > 0x7f) {
          text += hex(next);
          added += 4;
        } else text += c + next;
        i++;
        moved.push([i + 1, added]);
        continue;
      }
      if (c.charCodeAt(0) > 0x7f) {
        text += hex(c);
        added += 5;
        moved.push([i + 1, added]);
      } else text += c;
    }
    shifts[n] = moved;
    return text;
  });
  if (!map) return { code: out.join('\n') };
  const parsed = JSON.parse(map);
  const mappings = decode(parsed.mappings);
  mappings.forEach((segments, n) => {
    const moved = shifts[n];
    if (!moved?.length) return;
    for (const segment of segments) {
      // What the escapes before this column added (the last shift at or before it).
      let lo = 0;
      let hi = moved.length - 1;
      let add = 0;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (moved[mid][0] <= segment[0]) {
          add = moved[mid][1];
          lo = mid + 1;
        } else hi = mid - 1;
      }
      segment[0] += add;
    }
  });
  parsed.mappings = encode(mappings);
  return { code: out.join('\n'), map: JSON.stringify(parsed) };
}
