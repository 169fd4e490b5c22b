/**
 * What the read-ahead thread is asked (readAheadWorker.ts): the spec directories the main thread
 * will read, in its order, and the folders of each whose files it reads (besides the directory's
 * own files).
 */
export interface ReadAheadRequest {
  dirs: readonly string[];
  folders: readonly string[];
  /** Folders of each whose entries are listed, not read (evidence logs can be large). */
  listedOnly: readonly string[];
  /** Files larger than this are left to the main thread: read ahead, they would only wait in memory. */
  maxFileBytes: number;
  /** How many specs past the main thread's the thread reads, at most: what it read waits in memory until asked for. */
  lead: number;
  /** Int32 [0]: the spec the main thread is on (-1 before the first); [1]: 1 once the main thread needs no more; [2]: the last spec the thread sent (-1 before the first); [3]: how many specs the thread read. */
  progress: SharedArrayBuffer;
  /** Who reads each spec (a ClaimQueue over `dirs`): the thread claims one before reading it, the main thread one it reached first, so no spec is read twice. */
  claims: SharedArrayBuffer;
  port: import('node:worker_threads').MessagePort;
}

/**
 * The files of `dirs[k]` read ahead: `paths[i]`'s text is `texts[i]`, its size, modification and
 * change time `stamps[3i…3i+2]`; and its folders (the spec directory first), each with its times
 * taken before its entries were listed.
 */
export interface ReadAheadBatch {
  k: number;
  paths: string[];
  texts: string[];
  stamps: Float64Array;
  folders: FolderReadAhead[];
}

/** A folder as the read-ahead thread found it: its times, then its entry names in the order the system lists them, and which of them are folders. */
export interface FolderReadAhead {
  path: string;
  mtimeMs: number;
  ctimeMs: number;
  names: string[];
  subfolders: string[];
}

/** Indices into `ReadAheadRequest.progress`. */
export const MAIN_AT = 0;
export const DONE = 1;
export const SENT = 2;
export const READ = 3;

/** The owners in `ReadAheadRequest.claims`. */
export const MAIN_THREAD = 1;
export const READ_AHEAD_THREAD = 2;
