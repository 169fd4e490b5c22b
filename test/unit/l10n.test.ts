import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOG } from '../../src/core/messages/catalog';

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

/** Every `l10n.t(` left in the sources, with the file it is in. */
function l10nCalls(): string[] {
  const out: string[] = [];
  for (const file of [...sources('src'), ...sources('webview-ui')]) {
    const text = read(file);
    for (const m of text.matchAll(/\bl10n\s*\.\s*t\s*\(/g)) out.push(`${file}: ${text.slice(m.index, m.index + 60)}…`);
  }
  return out;
}

// One string mechanism: the host's sentences are keys of the core's catalog (src/core/messages/host*.ts),
// worded in the language VS Code reports (src/host/displayLanguage.ts), as the core, the CLI, MCP and the
// webviews word theirs. A second mechanism (vscode.l10n and its bundles) would word sentences twice.
test('no source calls vscode.l10n.t: the host words its sentences through the catalog', () => {
  assert.deepEqual(l10nCalls(), [], 'use t() from src/core/messages with a key in a host table');
  assert.equal((json('package.json') as { l10n?: string }).l10n, undefined, 'package.json has no l10n bundles to point at');
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
  const pkg = json('package.json') as { contributes: any; activationEvents: string[] };
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
});

test('one English wording has one Chinese wording across the catalog: a word is translated once', () => {
  // Where the English word names two things, each keeps its own: "open" the verb of a button, and
  // "open" the state of a requirement whose loop is not closed.
  const twoMeanings = new Set(['view.next.open']);
  const chinese = new Map<string, Map<string, string>>();
  for (const [key, entry] of Object.entries(CATALOG() as Readonly<Record<string, { en: string; zh: string }>>)) {
    if (twoMeanings.has(key)) continue;
    const seen = chinese.get(entry.en) ?? new Map<string, string>();
    seen.set(entry.zh, key);
    chinese.set(entry.en, seen);
  }
  const differ = [...chinese].filter(([, zh]) => zh.size > 1).map(([en, zh]) => `"${en}": ${[...zh].map(([w, k]) => `${k}=${w}`).join(', ')}`);
  assert.deepEqual(differ, []);
});
