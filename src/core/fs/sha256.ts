import { readFileOnce } from './requestReads';
import { nodeCrypto } from '../nodeModules';

/** A file's sha256, or undefined when it cannot be read; within a request its bytes are read once (readFileOnce). */
export function sha256OfFile(path: string): string | undefined {
  try {
    return nodeCrypto().createHash('sha256').update(readFileOnce(path)).digest('hex');
  } catch {
    return undefined;
  }
}
