/**
 * A small JSON scanner that remembers where every value and property key starts.
 * JSON.parse is used for speed on the happy path; this runs only when a file has a problem,
 * so a diagnostic can point at the offending key or at the syntax error itself.
 */
export type JsonPath = ReadonlyArray<string | number>;

export interface JsonSyntaxError {
  offset: number;
  message: string;
}

export interface LocatedJson {
  error?: JsonSyntaxError;
  /** Offset of the key (for object members) or of the value (for array items); the nearest existing ancestor otherwise. */
  offsetOf(path: JsonPath): number;
}

const key = (path: JsonPath) => path.join('\u0000');
const NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;

export function locateJson(text: string): LocatedJson {
  const offsets = new Map<string, number>();
  let i = 0;
  const fail = (message: string): never => {
    throw Object.assign(new Error(message), { offset: i });
  };
  const ws = () => {
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13 || c === 0xfeff) i++;
      else break;
    }
  };
  const describe = () => (i >= text.length ? 'end of file' : `'${text[i]}'`);
  const string = () => {
    if (text[i] !== '"') fail(`expected a string but found ${describe()}`);
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\' && i + 1 < text.length) {
        // JSON.parse rejects any other escape; report it here, where it is, not at the file's start.
        const valid = text[i + 1] === 'u' ? /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6)) : '"\\/bfnrt'.includes(text[i + 1]);
        if (!valid) fail('invalid escape sequence in string');
        i += text[i + 1] === 'u' ? 5 : 1;
      } else if (text.charCodeAt(i) < 32) fail('unescaped control character in string');
      i++;
    }
    if (i >= text.length) fail('unterminated string');
    i++;
  };
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail(`unexpected ${describe()}`);
  };
  const number = () => {
    // Sticky, not a 64-character slice: a longer number is valid JSON and must not end the scan.
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (!m) fail(`unexpected ${describe()}`);
    i += m![0].length;
  };
  const value = (path: (string | number)[]) => {
    ws();
    if (!offsets.has(key(path))) offsets.set(key(path), i);
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        const keyStart = i;
        string();
        const name = JSON.parse(text.slice(keyStart, i)) as string;
        offsets.set(key([...path, name]), keyStart);
        ws();
        if (text[i] !== ':') fail(`expected ':' after property name but found ${describe()}`);
        i++;
        value([...path, name]);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail(`expected ',' or '}' after property value but found ${describe()}`);
      }
    } else if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (let n = 0; ; n++) {
        value([...path, n]);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail(`expected ',' or ']' after array item but found ${describe()}`);
      }
    } else if (c === '"') string();
    else if (c === 't') literal('true');
    else if (c === 'f') literal('false');
    else if (c === 'n') literal('null');
    else number();
  };
  let error: JsonSyntaxError | undefined;
  try {
    value([]);
    ws();
    if (i < text.length) fail(`unexpected ${describe()} after the end of the JSON value`);
  } catch (e) {
    const err = e as Error & { offset?: number };
    error = { offset: err.offset ?? i, message: err.message };
  }
  return {
    error,
    offsetOf(path) {
      for (let n = path.length; n >= 0; n--) {
        const found = offsets.get(key(path.slice(0, n)));
        if (found !== undefined) return found;
      }
      return 0;
    },
  };
}
