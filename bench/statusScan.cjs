// The floor of bench: status-scan and status-cold (plain JavaScript, so no TypeScript loader skews
// it): in a fresh process, reads and parses the files `loom-vscode status --json` needs for its
// answer on the generated repository (bench/generateRepository.ts: every spec at executing, its move
// to converge blocked by its missing handoffs/executing.json), and nothing else:
//   - lists specs/, each spec directory, and its tasks/ (the task list), task-states/ and handoffs/;
//   - reads and JSON.parses pipeline.state.json, task-states/*.state.json and handoffs/*.json
//     (the state, the task states, the handoffs whose freshness the move checks);
//   - reads test-report.md and traceability.json (outputs of executing the move checks for
//     placeholders) and .loom/workflow.yaml (the pipeline).
// That is what loom's own `status` reads (state, task states, handoffs), plus the two outputs.
'use strict';
const { readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

/** What the floor reads, as the bench line prints it. */
const FLOOR_READS =
  'specs/*/{pipeline.state.json,task-states/*.json,handoffs/*.json} parsed; specs/*/{test-report.md,traceability.json},.loom/workflow.yaml read; specs/*/{,tasks/,task-states/,handoffs/} listed';

function floor(root) {
  let bytes = 0;
  const read = (path, parse) => {
    const text = readFileSync(path, 'utf8');
    bytes += text.length;
    if (parse) JSON.parse(text);
  };
  read(join(root, '.loom', 'workflow.yaml'), false);
  const specs = join(root, 'specs');
  for (const spec of readdirSync(specs, { withFileTypes: true })) {
    if (!spec.isDirectory()) continue;
    const dir = join(specs, spec.name);
    readdirSync(dir, { withFileTypes: true });
    readdirSync(join(dir, 'tasks'));
    read(join(dir, 'pipeline.state.json'), true);
    for (const name of readdirSync(join(dir, 'task-states'))) read(join(dir, 'task-states', name), true);
    for (const name of readdirSync(join(dir, 'handoffs'))) read(join(dir, 'handoffs', name), true);
    read(join(dir, 'test-report.md'), false);
    read(join(dir, 'traceability.json'), false);
  }
  return bytes;
}

module.exports = { FLOOR_READS };

if (require.main === module) floor(process.argv[2]);
