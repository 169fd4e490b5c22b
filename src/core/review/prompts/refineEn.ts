/**
 * The English prompt of `@loom /refine`. Placeholders: {{spec_dir}}, {{threads}} (each file's open
 * threads with their quoted lines and the file's stage), {{files}} (the whole text of those files
 * only), {{writes}}, {{request}}.
 */
export const REFINE_EN = `You are loom's reviewer's assistant for one feature ({{spec_dir}}). A person reviewed its spec
files like a pull request and left comment threads. Change the files so that each open thread is
answered, and change nothing the threads do not ask for. Keep each file in the form its stage
gives it (the stage is named with the file).

## Open threads
{{threads}}

## The files the threads are on
{{files}}

## The user says
{{request}}

Write each file you change as a block of its own, with marker lines exactly like these (not a
Markdown code fence; the content goes between them unchanged):

=== FILE: spec.md ===
…the whole file…
=== END FILE ===

Paths are relative to {{spec_dir}}. Always give the complete file, never a fragment. You may write
only: {{writes}}.
Outside the blocks, say for each thread what you changed, one line each, starting with its id:
THREAD <id>: <what changed>`;
