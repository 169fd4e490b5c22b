import { t } from '../core/port/messages';

export { splitSpecName } from '../core/port/files';

/** "just now", "5m ago", "2h ago", "3d ago" — short enough for a tree row. */
export function relativeTime(iso: string | undefined, now = Date.now()): string | undefined {
  if (!iso) return undefined;
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return undefined;
  const minutes = Math.floor(Math.max(0, now - time) / 60000);
  if (minutes < 1) return t('host.general.justNow');
  if (minutes < 60) return t('host.general.mAgo', { minutes });
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return t('host.general.hAgo', { hours });
  const days = Math.floor(hours / 24);
  if (days < 60) return t('host.general.dAgo', { days });
  return new Date(time).toISOString().slice(0, 10);
}

/** `2026-11-29T10:05:00.000Z` → the user's local `2026-11-29 18:05`. */
export function localTime(iso: string | undefined): string {
  if (!iso) return '-';
  const t = new Date(iso);
  if (Number.isNaN(t.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${t.getFullYear()}-${pad(t.getMonth() + 1)}-${pad(t.getDate())} ${pad(t.getHours())}:${pad(t.getMinutes())}`;
}

/** A moment as a person says it: `14:02` today, else the local `2026-11-28 14:02`. */
export function clockTime(iso: string, now = new Date()): string {
  const t = new Date(iso);
  if (Number.isNaN(t.getTime())) return iso;
  const sameDay = t.getFullYear() === now.getFullYear() && t.getMonth() === now.getMonth() && t.getDate() === now.getDate();
  return sameDay ? localTime(iso).slice(11) : localTime(iso);
}

/** Markdown text with its special characters escaped, for tooltips and rendered views. */
export function md(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+!|<>]/g, (c) => `\\${c}`);
}
