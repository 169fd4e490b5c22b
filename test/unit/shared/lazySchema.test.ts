import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { lazySchema } from '../../../src/shared/lazySchema';

const PROJECT = resolve(__dirname, '../../..');

test('lazySchema builds its schema with zod on the first call, once', () => {
  let built = 0;
  const schema = lazySchema((z) => {
    built++;
    return z.object({ id: z.string().min(1) });
  });
  assert.equal(built, 0);
  assert.deepEqual(schema().parse({ id: 'T1' }), { id: 'T1' });
  assert.equal(schema().safeParse({ id: '' }).success, false);
  assert.equal(schema(), schema());
  assert.equal(built, 1);
});

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

test('no module of the core or of src/shared imports zod itself, only its types (a value import loads zod with the extension)', () => {
  const valueImport = /^import\s+(?!type\b)[^;]*\bfrom\s+'zod(\/[^']*)?';/m;
  const offenders = [...sources(join(PROJECT, 'src/core')), ...sources(join(PROJECT, 'src/shared'))].filter((file) => valueImport.test(readFileSync(file, 'utf8')));
  assert.deepEqual(
    offenders.map((f) => relative(PROJECT, f)),
    [],
  );
});
