/**
 * The extension's manifest as the Marketplace and VS Code read it: the icon, the listing fields,
 * the settings a repository may not set in Restricted Mode, and the walkthrough's steps.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const nls = (file: string) => JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as Record<string, string>;

test('the icon is a 128×128 PNG', () => {
  const png = readFileSync(join(ROOT, manifest.icon));
  assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
  // IHDR: width and height, big-endian, at bytes 16 and 20.
  assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128]);
});

test('the listing fields the Marketplace shows are there', () => {
  for (const key of ['repository', 'bugs', 'homepage', 'keywords', 'galleryBanner', 'categories', 'qna']) assert.ok(Object.hasOwn(manifest, key), key);
  assert.deepEqual(manifest.extensionKind, ['workspace'], 'it needs the file system, git and child processes');
  assert.ok(manifest.categories.includes('AI'));
});

test('in Restricted Mode a repository cannot set a command or a path outside the workspace', () => {
  const restricted: string[] = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations;
  for (const key of ['loom.executing.testCommand', 'loom.worktree.location']) assert.ok(restricted.includes(key), key);
  const settings = Object.keys(manifest.contributes.configuration.properties);
  for (const key of restricted) assert.ok(settings.includes(key), `${key} is a setting`);
});

test('every walkthrough step has its text in English and Chinese, a picture that exists, and a button', () => {
  const [en, zh] = [nls('package.nls.json'), nls('package.nls.zh-cn.json')];
  const steps = manifest.contributes.walkthroughs[0].steps as { id: string; title: string; description: string; media: { image: string; altText: string } }[];
  assert.ok(steps.length >= 6);
  for (const step of steps) {
    for (const ref of [step.title, step.description, step.media.altText]) {
      const key = ref.replace(/^%|%$/g, '');
      assert.ok(en[key] && zh[key], `${key} in both languages`);
    }
    assert.ok(existsSync(join(ROOT, step.media.image)), step.media.image);
    assert.match(en[step.description.replace(/^%|%$/g, '')], /\]\(command:[\w.]+/, `${step.id} has a command button`);
  }
});

// The UI test's window is 1400×900; a picture of all of it, shown in the walkthrough's media column,
// is too small to read. Each step shows the part it is about (test/ui/firstHour.test.js crops them).
test('every walkthrough picture is the part of the window its step is about, not the whole window', () => {
  const steps = manifest.contributes.walkthroughs[0].steps as { id: string; media: { image: string } }[];
  for (const step of steps) {
    const png = readFileSync(join(ROOT, step.media.image));
    const [width, height] = [png.readUInt32BE(16), png.readUInt32BE(20)];
    assert.ok(width <= 900 && height <= 700, `${step.media.image} is ${width}×${height}: crop it to the part ${step.id} is about`);
    assert.ok(width >= 200 && height >= 100, `${step.media.image} is ${width}×${height}: large enough to read`);
  }
  assert.equal(new Set(steps.map((s) => s.media.image)).size, steps.length, 'each step has its own picture');
});

test('npm runs only the install scripts it was told to', () => {
  assert.deepEqual(manifest.allowScripts, { esbuild: true, '@vscode/vsce-sign': false });
});

test('engines.node is no older than the Node APIs the code calls', () => {
  // AbortSignal.any (the runs join a person's Stop with a timeout) came in Node 20.3.0.
  const uses = (dir: string): boolean =>
    readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true }).some(
      (e) => e.isFile() && e.name.endsWith('.ts') && readFileSync(join(e.parentPath, e.name), 'utf8').includes('AbortSignal.any('),
    );
  assert.ok(uses('src'), 'the check still has something to guard');
  const [major, minor] = /^>=(\d+)\.(\d+)/.exec(manifest.engines.node)?.slice(1).map(Number) ?? [0, 0];
  assert.ok(major > 20 || (major === 20 && minor >= 3), `engines.node is ${manifest.engines.node}; AbortSignal.any needs >=20.3`);
});
