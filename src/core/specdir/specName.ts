/** `2026-11-20+user-login` → date `2026-11-20`, feature `user-login`; a name without a date is all feature. */
export function splitSpecName(name: string): { date?: string; feature: string } {
  const m = /^(\d{4}-\d{2}-\d{2})[+_-](.+)$/.exec(name);
  return m ? { date: m[1], feature: m[2] } : { feature: name };
}

/** The feature a spec directory is about, as people name it (`user-login`). */
export const featureOf = (specName: string) => splitSpecName(specName).feature;
