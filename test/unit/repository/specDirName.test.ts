import assert from 'node:assert/strict';
import { test } from 'node:test';
import { matchSpecDir } from '../../../src/core/repository/specDirName';

const DIRS = ['specs/2026-11-20+todo-crud', 'specs/2026-11-25+due-dates', 'specs/2026-11-28+tags', 'qa/2026-11-30+smoke', 'specs/2026-12-01+smoke'];

test('a spec is named by its directory, its folder name or its feature name', () => {
  for (const name of ['specs/2026-11-25+due-dates', 'specs/2026-11-25+due-dates/', '2026-11-25+due-dates', 'due-dates', './specs/2026-11-25+due-dates', 'specs\\2026-11-25+due-dates']) {
    assert.deepEqual(matchSpecDir(DIRS, name), { kind: 'found', specDir: 'specs/2026-11-25+due-dates' }, name);
  }
});

test('a feature name two specs share names both', () => {
  assert.deepEqual(matchSpecDir(DIRS, 'smoke'), { kind: 'ambiguous', specDirs: ['qa/2026-11-30+smoke', 'specs/2026-12-01+smoke'] });
});

test('a near miss is answered with the specs it may mean, closest first; anything else with none', () => {
  assert.deepEqual(matchSpecDir(DIRS, 'due-date'), { kind: 'unknown', suggestions: ['specs/2026-11-25+due-dates'] });
  assert.deepEqual(matchSpecDir(DIRS, 'todo'), { kind: 'unknown', suggestions: ['specs/2026-11-20+todo-crud'] });
  assert.deepEqual(matchSpecDir(DIRS, 'tgas'), { kind: 'unknown', suggestions: ['specs/2026-11-28+tags'] });
  assert.deepEqual(matchSpecDir(DIRS, 'login'), { kind: 'unknown', suggestions: [] });
  assert.deepEqual(matchSpecDir(DIRS, '..'), { kind: 'unknown', suggestions: [] });
});
