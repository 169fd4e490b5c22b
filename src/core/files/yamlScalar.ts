/** A YAML scalar as the task reader sees it: quotes removed. */
export function unquote(raw: string): string {
  const s = raw.trim();
  if (s.length >= 2 && s.startsWith("'") && s.endsWith("'")) return s.slice(1, -1).replace(/''/g, "'");
  if (s.length >= 2 && s.startsWith('"') && s.endsWith('"')) {
    try {
      return JSON.parse(s) as string;
    } catch {
      return s.slice(1, -1);
    }
  }
  return s;
}

const PLAIN = /^[A-Za-z_/][\w./@+-]*$/;

/** A new list item written like the list's last one (`like`): quoted the same way, plain when it can be. */
export function itemText(value: string, like: string | undefined): string {
  const quote = like?.trim()[0];
  if (quote === "'") return `'${value.replace(/'/g, "''")}'`;
  if (quote === '"' || !PLAIN.test(value)) return JSON.stringify(value);
  return value;
}
