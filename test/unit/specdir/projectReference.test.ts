import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { projectReferencePaths, projectRootOf } from '../../../src/core/specdir/projectReference';

// loom 3 traceability.js projectRootForSpecDir / resolveProjectReference.
describe('projectReferencePaths', () => {
  const repo = join('/r', 'repo');
  const spec = join(repo, 'specs', '2026-01-01+login');

  it('tries the spec directory, then the repository that holds specs/', () => {
    assert.equal(projectRootOf(spec), repo);
    assert.deepEqual(projectReferencePaths(spec, ' tests\\a.test.ts '), [join(spec, 'tests/a.test.ts'), join(repo, 'tests/a.test.ts')]);
  });

  it('a spec directory not under specs/ is its own root, as for loom', () => {
    const qa = join(repo, 'qa', 'smoke');
    assert.equal(projectRootOf(qa), qa);
    assert.deepEqual(projectReferencePaths(qa, 'tests/a.test.ts'), [join(qa, 'tests/a.test.ts'), join(qa, 'tests/a.test.ts')]);
  });

  it('an absolute path is itself; a URL or an empty ref is no file', () => {
    assert.deepEqual(projectReferencePaths(spec, '/abs/a.test.ts'), ['/abs/a.test.ts']);
    assert.deepEqual(projectReferencePaths(spec, 'https://ci.example/run/1'), []);
    assert.deepEqual(projectReferencePaths(spec, '  '), []);
  });
});
