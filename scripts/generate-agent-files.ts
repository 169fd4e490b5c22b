/**
 * `npm run agent-files`: writes the skills and agents Loom contributes to VS Code's agents
 * (src/core/agentHost) under plugin/, and removes the ones no longer generated. A unit test
 * (test/unit/agentHost/agentHostFiles.test.ts) fails while the files differ from what this writes.
 */
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { AGENT_HOST_DIR, agentHostFiles } from '../src/core/agentHost/agentHostFiles';

const root = resolve(__dirname, '..');
const files = agentHostFiles();

function walk(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [relative(root, join(dir, e.name)).split('\\').join('/')]));
}

for (const old of walk(join(root, AGENT_HOST_DIR))) {
  if (!files.has(old)) {
    rmSync(join(root, old));
    console.log(`removed    ${old}`);
  }
}
for (const [file, text] of files) {
  const path = join(root, file);
  let current: string | undefined;
  try {
    current = readFileSync(path, 'utf8');
  } catch {
    current = undefined;
  }
  if (current === text) continue;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  console.log(`${current === undefined ? 'created   ' : 'updated   '} ${file}`);
}
