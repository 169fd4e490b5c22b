import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { CONTEXT_DOCS, sectionsOf, tokensOf } from '../contextDocument';
import { t } from '../../core/port/messages';
import { ToolRefusal } from '../results';
import { checkProjectRoot } from '../specAccess';
import { defineTool } from '../tool';

const DOC_KEYS = [...CONTEXT_DOCS.keys()];

export const getContext = defineTool({
  name: 'loom_get_context',
  group: 'context',
  description: `A context document by parts. Without section: its outline (section titles and token sizes). With section: that section. full: the whole file. A document without ## sections comes whole (fallback "no-sections"). Documents: ${DOC_KEYS.join(', ')}.`,
  input: z.object({
    doc: z.string().describe(`Context document key: ${DOC_KEYS.join(', ')}`),
    section: z.string().optional().describe('Section title (omit for the outline)'),
    full: z.boolean().optional().describe('Return the whole file'),
    project_root: z.string().optional().describe('Project root (must be the repository this server serves)'),
  }),
  writes: [],
  run: (args, ctx) => {
    checkProjectRoot(ctx, args.project_root);
    const path = CONTEXT_DOCS.get(args.doc);
    if (!path) throw new ToolRefusal('unknown-doc', t('mcp.context.unknownDoc', { doc: args.doc, docs: DOC_KEYS.join(', ') }));
    let text: string;
    try {
      text = readFileSync(join(ctx.session.root, path), 'utf8');
    } catch {
      throw new ToolRefusal('doc-not-found', t('mcp.context.docMissing', { doc: args.doc, path }), t('mcp.context.docMissingHint', { path }));
    }
    const whole = { doc: args.doc, path, content: text, tokens: tokensOf(text) };
    if (args.full) return whole;
    const sections = sectionsOf(text);
    if (sections.length === 0) return { ...whole, fallback: 'no-sections' };
    if (args.section === undefined) {
      return { doc: args.doc, path, section_count: sections.length, total_tokens: tokensOf(text), sections: sections.map((s) => ({ title: s.title, tokens: tokensOf(s.content) })) };
    }
    const found = sections.find((s) => s.title === args.section) ?? sections.find((s) => s.title.toLowerCase() === args.section!.trim().toLowerCase());
    if (!found)
      throw new ToolRefusal('section-not-found', t('mcp.context.sectionMissing', { section: args.section, doc: args.doc }), t('mcp.context.sectionMissingHint'), {
        available_sections: sections.map((s) => s.title),
      });
    if (!found.content) return { ...whole, fallback: 'empty-section', requested_section: args.section };
    return { doc: args.doc, path, title: found.title, content: found.content, tokens: tokensOf(found.content) };
  },
});
