import { readFileSync } from 'node:fs';
import { nodeCrypto } from '../nodeModules';

export function sha256OfFile(path: string): string | undefined {
  try {
    return nodeCrypto().createHash('sha256').update(readFileSync(path)).digest('hex');
  } catch {
    return undefined;
  }
}
