import type { PromptLanguage } from '../executing/dispatch/prompts/promptTemplates';

/**
 * The spec.md a new feature starts from: the sections loom's brainstorming stage fills (background,
 * options, requirements with `### REQ-001` lines, out of scope), in the user's language, so the
 * first Advance has a file to open and `@loom /brainstorm` a shape to draft into.
 */
const TEMPLATES: Readonly<Record<PromptLanguage, (title: string, specName: string, pipelineType: string) => string>> = {
  en: (title, specName, pipelineType) => `# Spec: ${title}

> Feature: \`${specName}\` · Pipeline: ${pipelineType}

## Background

What the user needs and why now. Draft this with \`@loom /brainstorm\` in the Chat view, or write it here.

## Options considered

1. **The chosen approach.** Why it fits.
2. An alternative, and why not.

## Requirements

### REQ-001 The first requirement

What the system does, observable from outside: inputs, outputs, errors.

## Out of scope

- What this feature deliberately does not do.
`,
  zh: (title, specName, pipelineType) => `# Spec：${title}

> Feature：\`${specName}\` · 流水线：${pipelineType}

## 背景

用户需要什么、为什么是现在。可在 Chat 视图中用 \`@loom /brainstorm\` 起草，或直接写在这里。

## 方案对比

1. **采用的方案。** 为什么合适。
2. 另一个方案，以及不采用的原因。

## 需求

### REQ-001 第一条需求

系统从外部可观察到的行为：输入、输出、错误。

## 不在范围内

- 本功能有意不做的事情。
`,
};

/** `language` is a locale such as VS Code's `env.language` (`zh-cn`, `en`); any Chinese locale gets the Chinese template. */
export function specTemplateLanguage(locale: string | undefined): PromptLanguage {
  return locale?.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

export function specTemplate(title: string, specName: string, pipelineType: string, language: PromptLanguage): string {
  return TEMPLATES[language](title.trim(), specName, pipelineType);
}
