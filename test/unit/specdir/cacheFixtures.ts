import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after } from 'node:test';
import type { SpecCacheStore } from '../../../src/core/specdir/specCache';

/** What the parse and evaluation cache tests share: the fixture repository, and a store in memory. */
export const FIXTURE_REPO = resolve(__dirname, '../../fixtures/files/repo');
export const FIXTURE_SPEC = 'specs/2026-11-20+user-login';

/**
 * A scratch folder removed when the file's tests end, and copies of the fixture repository in it
 * that a test may change.
 */
export function scratchRepos(prefix: string): { scratch: string; copyRepo: () => string } {
  const scratch = mkdtempSync(join(tmpdir(), prefix));
  after(() => rmSync(scratch, { recursive: true, force: true }));
  let n = 0;
  return {
    scratch,
    copyRepo: () => {
      const repo = join(scratch, `repo-${n++}`);
      cpSync(FIXTURE_REPO, repo, { recursive: true });
      return repo;
    },
  };
}

/** A store in memory that counts what it is asked, so a test sees what was read and written. */
export class CountingStore implements SpecCacheStore {
  readonly files = new Map<string, string>();
  reads = 0;
  writes = 0;
  read(key: string) {
    this.reads++;
    return this.files.get(key);
  }
  write(key: string, data: string) {
    this.writes++;
    this.files.set(key, data);
  }
  remove(key: string) {
    this.files.delete(key);
  }
}

// Files written by the test are seconds old at most: a clock ten seconds ahead lets the caches keep
// them (a fresh file is otherwise not kept: its timestamp could hide a second change).
export const later = () => Date.now() + 10_000;
