'use strict';
// Test-only: registers the scripted "loom-test" language model through the finalized
// vscode.lm.registerLanguageModelChatProvider API (VS Code 1.104+).
const vscode = require('vscode');
const { reply, requests, state } = require('./script');

const MODEL = {
  id: 'loom-test-scripted',
  name: 'Loom Test Scripted',
  family: 'scripted',
  version: '1.0.0',
  maxInputTokens: 200000,
  maxOutputTokens: 16000,
  capabilities: { toolCalling: true },
  // Listed in the chat view's model picker, so @loom gets it as the model the user picked.
  isUserSelectable: true,
};

/** A request message as plain data: its text, how many tool results it carries and their text. */
function plain(message) {
  let text = '';
  let toolResults = 0;
  let toolText = '';
  const resultText = (part) => part.content.map((p) => (p && typeof p.value === 'string' ? p.value : '')).join('');
  for (const part of message.content) {
    if (part instanceof vscode.LanguageModelTextPart) text += part.value;
    else if (part instanceof vscode.LanguageModelToolResultPart) {
      toolResults++;
      toolText += resultText(part);
    } else if (part && typeof part.value === 'string') text += part.value;
    else if (part && part.callId && Array.isArray(part.content)) {
      toolResults++;
      toolText += resultText(part);
    }
  }
  return { role: message.role === vscode.LanguageModelChatMessageRole.Assistant ? 'assistant' : 'user', text, toolResults, toolText };
}

function activate(context) {
  let callIds = 0;
  const provider = {
    provideLanguageModelChatInformation() {
      return [MODEL];
    },
    async provideLanguageModelChatResponse(_model, messages, _options, progress, token) {
      if (token.isCancellationRequested) return;
      const next = reply(messages.map(plain));
      if (next.rateLimited) {
        // As Copilot's provider fails when the model's rate limit is used up.
        const e = new Error("Sorry, you have exhausted this model's rate limit. Please wait a moment before trying again.");
        e.name = 'ChatRateLimited';
        throw e;
      }
      if (next.hang) {
        // Answers only when cancelled (Loom: Stop Tasks), or after a minute.
        await new Promise((resolve) => {
          const timer = setTimeout(resolve, 60000);
          token.onCancellationRequested(() => (clearTimeout(timer), resolve()));
        });
        return;
      }
      // Stream the text in two pieces, as a real provider would.
      const half = Math.ceil(next.text.length / 2);
      if (next.text) progress.report(new vscode.LanguageModelTextPart(next.text.slice(0, half)));
      if (next.text.length > half) progress.report(new vscode.LanguageModelTextPart(next.text.slice(half)));
      for (const call of next.toolCalls) progress.report(new vscode.LanguageModelToolCallPart(`call-${++callIds}`, call.name, call.input));
    },
    async provideTokenCount(_model, text) {
      const s = typeof text === 'string' ? text : text.content.map((p) => (p && typeof p.value === 'string' ? p.value : '')).join('');
      return Math.ceil(s.length / 4);
    },
  };
  context.subscriptions.push(
    vscode.lm.registerLanguageModelChatProvider('loom-test', provider),
    vscode.commands.registerCommand('loomTest.requests', () => requests.slice()),
    vscode.commands.registerCommand('loomTest.setMode', (mode) => (state.mode = mode)),
  );
}

module.exports = { activate, deactivate() {} };
