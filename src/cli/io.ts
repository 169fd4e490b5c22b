/** Where a CLI run writes: stdout and stderr, or a test's buffers. */
export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
  /**
   * A person's terminal is attached (stdin is a TTY): their word on a gate is theirs. Without one
   * (a script, CI, an agent's shell) `loom.approvals.requirePerson` refuses it.
   */
  terminal?: boolean;
  /** All of stdin, for a command that reads it (`stop-hook`); process.stdin by default. */
  readInput?: () => Promise<string>;
}
