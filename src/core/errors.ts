/** Typed errors of the core. Each names the file or cause, so every surface can show it plainly. */
export class LoomError extends Error {
  constructor(
    message: string,
    readonly file?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** A state file exists but does not parse: it is reported and never overwritten. */
export class CorruptStateError extends LoomError {}

/** Another live process holds the spec's `.loom-run.lock`. */
export class SpecLockedError extends LoomError {
  constructor(
    message: string,
    file: string,
    readonly pid: number,
  ) {
    super(message, file);
  }
}

/** A transition that is not allowed or whose preconditions do not hold. */
export class TransitionRefusedError extends LoomError {
  constructor(
    message: string,
    readonly reasons: string[],
    /** What the pipeline found, for a surface that offers a remedy (open the file, approve again). */
    readonly details: { codes?: readonly string[]; file?: string; check?: unknown } = {},
  ) {
    super(message, details.file);
  }
}

/** A report or ledger a validator would rewrite exists but does not parse: it is left untouched. */
export class CorruptArtifactError extends LoomError {}

/** An override that cannot be recorded: no such finding, not an error, or no reason. */
export class OverrideRefusedError extends LoomError {}

/**
 * A file of a spec is larger than the reader was told to parse (the look's worker, whose heap is
 * small): the spec is read elsewhere instead. Not a problem of the spec, so never shown to the user.
 */
export class SpecFileTooLargeError extends LoomError {
  constructor(
    file: string,
    readonly bytes: number,
  ) {
    super(`${file} is ${bytes} bytes, more than this reader parses`, file);
  }
}
