/**
 * `npm run schemas`: writes the JSON Schemas generated from src/core/files/ into schemas/.
 * Leaves schemas/pipeline.schema.json (loom's own file) alone.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { generateSchemas } from './schemaGeneration';

const schemasDir = resolve(__dirname, '..', 'schemas');
mkdirSync(schemasDir, { recursive: true });

for (const [file, text] of generateSchemas()) {
  const path = join(schemasDir, file);
  let current: string | undefined;
  try {
    current = readFileSync(path, 'utf8');
  } catch {
    current = undefined;
  }
  if (current === text) {
    console.log(`unchanged  schemas/${file}`);
    continue;
  }
  writeFileSync(path, text);
  console.log(`${current === undefined ? 'created   ' : 'updated   '} schemas/${file}`);
}
