import assert from 'node:assert/strict';
import { test } from 'node:test';
import { standIn, type Commands } from '../../../src/host/standIn';

/** vscode.commands as the extension host keeps them: one handler per id, a second registration refused. */
function fakeCommands() {
  const handlers = new Map<string, (...args: unknown[]) => unknown>();
  const commands: Commands = {
    registerCommand(id, run) {
      if (handlers.has(id)) throw new Error(`command '${id}' already exists`);
      handlers.set(id, run);
      return { dispose: () => handlers.delete(id) };
    },
    executeCommand: async (id, ...args) => {
      const run = handlers.get(id);
      if (!run) throw new Error(`command '${id}' not found`);
      return run(...args);
    },
  };
  return { commands, handlers };
}

/** An extension that registers its real commands when it starts, as src/extension.ts does. */
function extension(commands: Commands, ids: string[]) {
  const calls: unknown[][] = [];
  let starts = 0;
  const start = () => {
    starts++;
    for (const id of ids) commands.registerCommand(id, (...args) => (calls.push([id, ...args]), `${id} ran`));
    return { registry: 'the registry', timings: { deferred: true } };
  };
  return { start, calls, starts: () => starts };
}

test('a command run before the extension started starts it once and runs the real command with its arguments', async () => {
  const { commands, handlers } = fakeCommands();
  const ext = extension(commands, ['loom.advance', 'loom.refresh']);
  const late = standIn(['loom.advance', 'loom.refresh'], commands, ext.start);
  assert.deepEqual([...handlers.keys()], ['loom.advance', 'loom.refresh']);
  assert.equal(ext.starts(), 0, 'nothing starts with activate()');

  assert.equal(await commands.executeCommand('loom.advance', { specDir: 'specs/a' }, 2), 'loom.advance ran');
  assert.deepEqual(ext.calls, [['loom.advance', { specDir: 'specs/a' }, 2]]);
  assert.equal(late.registered.length, 0, 'the stand-ins are gone');
  assert.equal(await commands.executeCommand('loom.refresh'), 'loom.refresh ran');
  late.start();
  assert.equal(ext.starts(), 1);
});

test('the API starts the extension on first use, but not for the `then` that await looks up', async () => {
  const { commands } = fakeCommands();
  const ext = extension(commands, ['loom.advance']);
  const late = standIn<{ registry: string; timings: { deferred: boolean } }>(['loom.advance'], commands, ext.start);
  assert.equal(await Promise.resolve(late.api), late.api, 'awaiting the API is not a use');
  assert.equal(ext.starts(), 0);
  assert.equal(late.api.registry, 'the registry');
  assert.ok('timings' in late.api);
  assert.deepEqual(Object.keys(late.api), ['registry', 'timings']);
  assert.equal(ext.starts(), 1);
});

test('a start that failed is reported to each later use, not tried again', async () => {
  const { commands } = fakeCommands();
  let starts = 0;
  const late = standIn(['loom.advance'], commands, () => {
    starts++;
    throw new Error('dist/extensionMain.js: Unexpected token');
  });
  await assert.rejects(Promise.resolve(commands.executeCommand('loom.advance')), /Unexpected token/);
  assert.throws(() => late.start(), /Unexpected token/);
  assert.equal(starts, 1);
});
