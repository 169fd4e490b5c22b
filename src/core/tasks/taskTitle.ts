const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A task's heading without its own id in front: loom's task files start `# T1: Due dates` or, in
 * Chinese, `# T1：截止日期` (a full-width colon), and every view shows the id in a column or
 * label of its own. Undefined when nothing but the id is left.
 */
export function taskTitleWithoutId(id: string, title: string | undefined): string | undefined {
  if (!title) return undefined;
  const rest = title.replace(new RegExp(`^${escape(id)}(?![\\p{L}\\p{N}_])[\\s:：.．、,，;；|\\-–—]*`, 'u'), '').trim();
  return rest && rest !== id ? rest : undefined;
}
