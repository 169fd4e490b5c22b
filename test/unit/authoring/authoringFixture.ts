import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Draft } from '../../../src/core/authoring/draftBlocks';
import type { ChatMessage, ChatModel, ChatRequestOptions, ChatResponsePart } from '../../../src/core/executing/dispatch/chatModel';
import { createSpec } from '../../../src/core/repository/createSpec';

export const FIXTURE = join(__dirname, '..', '..', 'fixtures', 'authoring');
export const fixtureText = (name: string) => readFileSync(join(FIXTURE, name), 'utf8');

/** The fixture's good drafts for each command. */
export const GOOD: Record<'brainstorm' | 'expand' | 'plan', Draft[]> = {
  brainstorm: [
    { path: 'spec.md', content: fixtureText('spec.md'), complete: true },
    { path: 'requirements.json', content: fixtureText('requirements.brainstorm.json'), complete: true },
  ],
  expand: [{ path: 'requirements.json', content: fixtureText('requirements.expanded.json'), complete: true }],
  plan: [
    { path: 'plan.md', content: fixtureText('plan.md'), complete: true },
    { path: 'tasks/T1.md', content: fixtureText('tasks/T1.md'), complete: true },
    { path: 'tasks/T2.md', content: fixtureText('tasks/T2.md'), complete: true },
    { path: 'traceability.json', content: fixtureText('traceability.json'), complete: true },
  ],
};

export const block = (d: Pick<Draft, 'path' | 'content'>) => `=== FILE: ${d.path} ===\n${d.content}=== END FILE ===\n`;

/** A fresh repository with one spec at brainstorming; `files` are written into the spec. */
export function freshSpec(files: readonly Draft[] = []): { root: string; specDir: string; dir: string; cleanup(): void } {
  const root = mkdtempSync(join(tmpdir(), 'loom-authoring-'));
  const created = createSpec(root, 'tags', new Date('2026-11-30T09:00:00Z'));
  // These tests start before any spec.md: without New Feature's template, as a spec made by loom's CLI is.
  rmSync(join(created.dir, 'spec.md'));
  for (const f of files) {
    mkdirSync(join(created.dir, f.path, '..'), { recursive: true });
    writeFileSync(join(created.dir, f.path), f.content);
  }
  return { root, specDir: created.specDir, dir: created.dir, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** A model that answers from a queue and records every conversation it was sent. */
export class QueueModel implements ChatModel {
  readonly id = 'queue';
  readonly vendor = 'test';
  readonly family = 'queue';
  readonly maxInputTokens = 100000;
  readonly requests: ChatMessage[][] = [];
  constructor(private readonly replies: string[]) {}

  async *sendRequest(messages: readonly ChatMessage[], _options: ChatRequestOptions): AsyncIterable<ChatResponsePart> {
    this.requests.push([...messages]);
    const reply = this.replies.shift();
    if (reply === undefined) throw new Error('QueueModel: no reply left');
    // In uneven chunks, as a provider streams, so markers split across chunks are exercised.
    for (let i = 0; i < reply.length; i += 37) yield { type: 'text', value: reply.slice(i, i + 37) };
  }

  async countTokens(text: string): Promise<number> {
    return Math.ceil(text.length / 4);
  }
}
