import type { PromptLanguage } from '../executing/dispatch/prompts/promptTemplates';

/**
 * The spec.md a new feature starts from: the sections loom's brainstorming stage fills (background,
 * options, requirements with `### REQ-001` lines, out of scope), in the user's language, so the
 * first Advance has a file to open and `@loom /brainstorm` a shape to draft into. Each place to fill
 * is a `TODO` line, the marker loom's own checkStageOutputs (artifact-checker.js `hasPlaceholder`)
 * refuses in a stage's outputs as ours does: an untouched template never leaves brainstorming, in
 * either tool. The note under the title names no marker, so a refusal points at a place to fill.
 */
const TEMPLATES: Readonly<Record<PromptLanguage, (title: string, specName: string, pipelineType: string) => string>> = {
  en: (title, specName, pipelineType) => `# Spec: ${title}

> Feature: \`${specName}\` · Pipeline: ${pipelineType}
>
> Fill in each section, or draft them with \`@loom /brainstorm\` in the Chat view.
> Until every placeholder line is replaced, leaving brainstorming is refused (by Loom and by loom's own CLI).

## Background

TODO: What the user needs, and why now.

## Options considered

1. TODO: **The chosen approach.** Why it fits.
2. TODO: An alternative, and why not.

## Requirements

### REQ-001 The first requirement

TODO: What the system does, observable from outside: inputs, outputs, errors.

## Out of scope

- TODO: What this feature deliberately does not do.
`,
  zh: (title, specName, pipelineType) => `# Spec：${title}

> Feature：\`${specName}\` · 流水线：${pipelineType}
>
> 逐节填写，或在 Chat 视图中用 \`@loom /brainstorm\` 起草。
> 在替换掉每一行占位内容之前，离开 brainstorming 会被拒绝（Loom 与 loom 自己的 CLI 都会拒绝）。

## 背景

TODO：用户需要什么、为什么是现在。

## 方案对比

1. TODO：**采用的方案。** 为什么合适。
2. TODO：另一个方案，以及不采用的原因。

## 需求

### REQ-001 第一条需求

TODO：系统从外部可观察到的行为：输入、输出、错误。

## 不在范围内

- TODO：本功能有意不做的事情。
`,
};

export function specTemplate(title: string, specName: string, pipelineType: string, language: PromptLanguage): string {
  return TEMPLATES[language](title.trim(), specName, pipelineType);
}
