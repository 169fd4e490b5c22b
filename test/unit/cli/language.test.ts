/**
 * The CLI answers in the language asked for (`--lang`), else the terminal's (LC_ALL, LC_MESSAGES,
 * LANG); `--json` keeps its English keys and codes in either language.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { main } from '../../../src/cli/main';
import { cliLanguage } from '../../../src/cli/language';
import { setDisplayLanguage } from '../../../src/core/messages';

const FIXTURES = resolve(__dirname, '../../fixtures/cli');
const SMOKE = 'qa/2026-11-30+smoke';
const LOGIN = 'specs/2026-11-29+login';

const temps: string[] = [];
after(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
  setDisplayLanguage('en');
});

function copyFixture(): string {
  const dir = mkdtempSync(join(tmpdir(), 'loom-cli-lang-'));
  temps.push(dir);
  cpSync(join(FIXTURES, 'basic'), dir, { recursive: true });
  return dir;
}

async function cli(env: Record<string, string | undefined>, ...argv: string[]) {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) }, env);
  return { code, out, err };
}

test('--lang wins over the environment, LC_ALL over LC_MESSAGES over LANG', () => {
  assert.equal(cliLanguage(['status', '--lang', 'zh'], { LANG: 'en_US.UTF-8' }), 'zh');
  assert.equal(cliLanguage(['status', '--lang=en'], { LC_ALL: 'zh_CN.UTF-8' }), 'en');
  assert.equal(cliLanguage(['status'], { LC_MESSAGES: 'zh_CN.UTF-8', LANG: 'en_US.UTF-8' }), 'zh');
  assert.equal(cliLanguage(['status'], { LC_ALL: 'C', LANG: 'zh_CN.UTF-8' }), 'en');
  assert.equal(cliLanguage(['status'], {}), 'en');
});

test('status in English and in Chinese', async () => {
  const repo = copyFixture();
  const en = await cli({}, 'status', '--cwd', repo, '--spec-dir', LOGIN, '--lang', 'en');
  assert.equal(en.code, 0);
  assert.match(en.out, /^specs\/2026-11-29\+login {2}\[feature\] {2}stage: executing$/m);
  assert.match(en.out, /^ {2}tasks: 2\/3 done, T3 executing \(retry 2\)$/m);
  assert.match(en.out, /^ {2}→ converge \(forward\): blocked$/m);
  const zh = await cli({ LANG: 'zh_CN.UTF-8' }, 'status', '--cwd', repo, '--spec-dir', LOGIN);
  assert.equal(zh.code, 0);
  assert.match(zh.out, /^specs\/2026-11-29\+login {2}\[feature\] {2}阶段：executing$/m);
  assert.match(zh.out, /^ {2}任务：已完成 2\/3, T3 executing（第 2 次重试）$/m);
  assert.match(zh.out, /^ {2}→ converge（forward）：受阻$/m);
});

test('a refusal of advance in Chinese; --json keeps the English keys and codes', async () => {
  const repo = copyFixture();
  const zh = await cli({}, 'advance', '--cwd', repo, '--spec-dir', SMOKE, '--lang', 'zh');
  assert.equal(zh.code, 1);
  assert.match(zh.err, /qa\/2026-11-30\+smoke 无法从 brainstorming 进入 detail-expansion/);
  const json = await cli({ LC_ALL: 'zh_CN.UTF-8' }, 'advance', '--cwd', repo, '--spec-dir', SMOKE, '--json');
  assert.equal(json.code, 1);
  const doc = JSON.parse(json.out) as { error: string; code: string; codes: string[]; reasons: string[] };
  assert.equal(doc.code, 'transition-refused');
  assert.deepEqual(Object.keys(doc), ['error', 'code', 'codes', 'reasons']);
  assert.match(doc.error, /无法从 brainstorming 进入 detail-expansion/);
});

test('usage errors, --help and validate are worded in the chosen language', async () => {
  const repo = copyFixture();
  const bad = await cli({}, 'status', '--cwd', repo, '--lang', 'fr');
  assert.equal(bad.code, 2);
  assert.match(bad.err, /--lang must be one of en, zh, not fr/);
  const unknown = await cli({ LANG: 'zh_CN.UTF-8' }, 'frobnicate');
  assert.equal(unknown.code, 2);
  assert.match(unknown.err, /未知命令 frobnicate\n运行 "loom-vscode --help" 查看用法。/);
  const help = await cli({}, '--help', '--lang', 'zh');
  assert.match(help.out, /^用法：loom-vscode <命令>/m);
  const helpEn = await cli({}, '--help');
  assert.match(helpEn.out, /^Usage: loom-vscode <command> \[--cwd <repo>\] \[--json\] \[--lang en\|zh\]$/m);
  const clean = mkdtempSync(join(tmpdir(), 'loom-cli-lang-clean-'));
  temps.push(clean);
  cpSync(join(FIXTURES, 'clean'), clean, { recursive: true });
  const validate = await cli({}, 'validate', '--cwd', clean, '--lang', 'zh');
  assert.equal(validate.code, 0);
  assert.equal(validate.out, '未发现问题。\n');
});
