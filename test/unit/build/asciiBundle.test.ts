import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decode } from '@jridgewell/sourcemap-codec';
import { build } from 'esbuild';
// @ts-expect-error -- a build script in plain JavaScript, without types
import { asciiBundle } from '../../../scripts/asciiBundle.mjs';

const run = (code: string): unknown => {
  const module = { exports: undefined as unknown };
  new Function('module', code)(module);
  return module.exports;
};

test('a bundle written in ASCII only means what it meant: strings, regular expressions, identity escapes and characters outside the BMP', () => {
  const code =
    String.raw`module.exports = [/结论[：:]\s*(\S+)/i.exec("结论：通过")[1], "\：".length, /\：/.test("："), "😀".length, /^😀$/u.test("😀"), /^.$/u.test("😀"), ` + '`第${1}轮`, "\\\\失败"];';
  const { code: ascii } = asciiBundle(code, undefined) as { code: string };
  assert.doesNotMatch(ascii, /[\u0080-\uffff]/);
  assert.deepEqual(run(ascii), run(code));
  assert.deepEqual(run(ascii), ['通过', 1, true, 2, true, true, '第1轮', '\\失败']);
});

test('the source map still points each piece of code at where it was written', async () => {
  const source = 'export const verdict = (s: string) => /结论[：:]\\s*(\\S+)/.exec(s)?.[1] ?? afterTheRegex(s);\nfunction afterTheRegex(s: string) { return s.includes("失败") ? "FAIL" : "PASS"; }\n';
  const result = await build({
    stdin: { contents: source, loader: 'ts', sourcefile: 'verdict.ts' },
    bundle: false,
    format: 'cjs',
    minifyWhitespace: true,
    sourcemap: 'external',
    outfile: 'out.js',
    write: false,
    logLevel: 'silent',
  });
  const js = result.outputFiles.find((f) => f.path.endsWith('.js'))!.text;
  const map = result.outputFiles.find((f) => f.path.endsWith('.map'))!.text;
  const ascii = asciiBundle(js, map) as { code: string; map: string };
  assert.doesNotMatch(ascii.code, /[\u0080-\uffff]/);
  /** Where the generated text at the first `needle` came from: [source line, column]. */
  const origin = (code: string, mapText: string, needle: string) => {
    const lines = code.split('\n');
    const line = lines.findIndex((l) => l.includes(needle));
    const column = lines[line].indexOf(needle);
    const segments = decode(JSON.parse(mapText).mappings)[line];
    const segment = segments.filter((s) => s[0] <= column).pop()!;
    return [segment[2], segment[3]];
  };
  for (const needle of ['afterTheRegex(s)', '"FAIL"', 'exec(s)']) {
    assert.deepEqual(origin(ascii.code, ascii.map, needle), origin(js, map, needle), needle);
  }
  assert.deepEqual(origin(ascii.code, ascii.map, 'afterTheRegex(s)'), [0, source.indexOf('afterTheRegex(s)')], 'the call after the regex, on the same line');
});
