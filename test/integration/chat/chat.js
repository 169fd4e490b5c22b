'use strict';
/** What both chat test files do as the user: talk to @loom in the chat view, and advance with confirmation. */
const vscode = require('vscode');
const { confirmInQuickPick } = require('../helpers');

/** The scripted model, picked in the chat view. */
const MODEL = { vendor: 'loom-test', id: 'loom-test-scripted' };

/** Sends one message to @loom from the chat view and resolves with the participant's result. */
async function chat(api, query, timeoutMs = 60000) {
  const done = new Promise((resolve) => {
    const sub = api.chat.onDidFinishTurn((result) => (sub.dispose(), resolve(result)));
  });
  await vscode.commands.executeCommand('workbench.action.chat.open', { query, isPartialQuery: false, modelSelector: MODEL });
  return Promise.race([done, new Promise((_, reject) => setTimeout(() => reject(new Error(`no answer to "${query}"`)), timeoutMs))]);
}

/** The requests the scripted model received to draft files. */
const authorRequests = async () => (await vscode.commands.executeCommand('loomTest.requests')).filter((r) => r.role === 'author');

/** Loom: Advance, accepting its quick-pick confirmation as a user would. */
const advanceConfirmed = (dir) => confirmInQuickPick(() => vscode.commands.executeCommand('loom.advance', { specDir: dir }));

/** Loom: Approve, accepting its quick-pick confirmation: a human-approval gate is passed by Approve only. */
const approveConfirmed = (dir) => confirmInQuickPick(() => vscode.commands.executeCommand('loom.approve', { specDir: dir }));

module.exports = { MODEL, chat, authorRequests, advanceConfirmed, approveConfirmed };
