import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const read = (p: string) => readFileSync(join(ROOT, p), 'utf8');
const json = (p: string) => JSON.parse(read(p)) as Record<string, unknown>;

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const p = `${dir}/${e.name}`;
    if (e.isDirectory()) out.push(...sources(p));
    else if (e.name.endsWith('.ts')) out.push(p);
  }
  return out;
}

/** Every `l10n.t('…')` of the extension host, with the file it is in. Prettier writes a message with an apostrophe in double quotes. */
function messages(): { file: string; text: string }[] {
  const out: { file: string; text: string }[] = [];
  for (const file of [...sources('src/host'), 'src/extension.ts', 'src/extensionEntry.ts']) {
    const text = read(file);
    for (const m of text.matchAll(/l10n\.t\(\s*('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")?/g)) {
      assert.ok(m[1], `${file}: l10n.t must be called with a string literal, so it can be translated (${text.slice(m.index, m.index + 60)}…)`);
      out.push({ file, text: m[1].slice(1, -1).replace(/\\(.)/g, '$1') });
    }
  }
  return out;
}

const placeholders = (s: string) => [...s.matchAll(/\{\d+\}/g)].map((m) => m[0]).sort();

test('every message of the host has a Simplified Chinese translation with the same placeholders', () => {
  const bundle = json('l10n/bundle.l10n.zh-cn.json');
  const all = messages();
  assert.ok(all.length > 50);
  const missing = [...new Set(all.map((m) => m.text))].filter((t) => !Object.hasOwn(bundle, t));
  assert.deepEqual(missing, [], 'add these to l10n/bundle.l10n.zh-cn.json');
  for (const [key, value] of Object.entries(bundle)) {
    assert.equal(typeof value, 'string');
    assert.deepEqual(placeholders(value as string), placeholders(key), `placeholders of "${key}"`);
  }
  const used = new Set(all.map((m) => m.text));
  assert.deepEqual(
    Object.keys(bundle).filter((k) => !used.has(k)),
    [],
    'translations no message uses any more',
  );
});

test('every %key% of package.json is in package.nls.json and package.nls.zh-cn.json', () => {
  const keys = [...read('package.json').matchAll(/"%([^%"]+)%"/g)].map((m) => m[1]);
  assert.ok(keys.length > 20);
  const en = json('package.nls.json');
  const zh = json('package.nls.zh-cn.json');
  assert.deepEqual(
    keys.filter((k) => !Object.hasOwn(en, k)),
    [],
    'missing in package.nls.json',
  );
  assert.deepEqual(Object.keys(en).sort(), Object.keys(zh).sort(), 'package.nls.zh-cn.json has the same keys as package.nls.json');
  assert.deepEqual(
    Object.keys(en).filter((k) => !keys.includes(k)),
    [],
    'unused keys in package.nls.json',
  );
});

test('package.json wires the view, the commands and the JSON Schemas that exist', () => {
  const pkg = json('package.json') as { contributes: any; activationEvents: string[]; l10n: string };
  const commands = pkg.contributes.commands.map((c: { command: string }) => c.command);
  for (const id of ['loom.advance', 'loom.approve', 'loom.markFailed', 'loom.recover', 'loom.newFeature', 'loom.openDashboard', 'loom.showTraceability', 'loom.refresh', 'loom.showLog']) {
    assert.ok(commands.includes(id), id);
  }
  for (const c of pkg.contributes.commands) assert.equal(c.category, 'Loom', c.command);
  const registered = new Set([...sources('src/host')].flatMap((f) => [...read(f).matchAll(/'(loom\.[A-Za-z]+)'/g)].map((m) => m[1])));
  for (const id of commands) assert.ok(registered.has(id), `${id} is contributed but not registered in src/host`);
  const schemas = new Set(readdirSync(join(ROOT, 'schemas')));
  for (const v of pkg.contributes.jsonValidation) assert.ok(schemas.has(v.url.replace('./schemas/', '')), v.url);
  assert.ok(pkg.activationEvents.includes('workspaceContains:.loom/workflow.yaml'));
  assert.equal(pkg.l10n, './l10n');
});
