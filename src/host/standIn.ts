/**
 * What stands in for the extension between activate() and the moment its bundle has loaded, when
 * the entry starts it a moment later (see src/extensionEntry.ts): a command for each of the
 * extension's commands, which starts it and runs the real one, and an API object whose first use
 * starts it. Nothing here imports `vscode`: the entry hands in what it needs of it.
 */

export interface Disposable {
  dispose(): void;
}

/** What a stand-in needs of vscode.commands. */
export interface Commands {
  registerCommand(id: string, run: (...args: unknown[]) => unknown): Disposable;
  executeCommand(id: string, ...args: unknown[]): Thenable<unknown>;
}

export interface StandIn<T extends object> {
  /** The extension's API: its first use (other than `then`, which `await` looks up) starts it. */
  readonly api: T;
  /** Starts the extension unless it has started (the entry calls it a moment after activate()). */
  start(): T;
  /** The stand-in commands still registered (none once the extension has started). */
  readonly registered: Disposable[];
}

/**
 * Registers a stand-in for each of `commandIds` and returns them with a lazy API. `start` loads
 * and activates the extension, which registers the real commands: the stand-ins are disposed
 * first, as VS Code refuses a second registration of an id. A stand-in that runs before then
 * starts the extension and hands its arguments to the real command.
 */
export function standIn<T extends object>(commandIds: readonly string[], commands: Commands, start: () => T): StandIn<T> {
  let started: T | undefined;
  let failure: unknown;
  const registered: Disposable[] = [];
  const begin = (): T => {
    if (started) return started;
    if (failure !== undefined) throw failure;
    for (const d of registered.splice(0)) d.dispose();
    try {
      started = start();
    } catch (e) {
      failure = e; // a start that failed is not tried again by every later use
      throw e;
    }
    return started;
  };
  for (const id of commandIds) {
    registered.push(
      commands.registerCommand(id, (...args: unknown[]) => {
        begin();
        return commands.executeCommand(id, ...args);
      }),
    );
  }
  const api = new Proxy({} as T, {
    // `await api` and `Promise.resolve(api)` look for a `then`; VS Code does when activate() returns.
    get: (_, key) => (key === 'then' ? undefined : Reflect.get(begin(), key)),
    has: (_, key) => key in begin(),
    ownKeys: () => Reflect.ownKeys(begin()),
    getOwnPropertyDescriptor: (_, key) => {
      const d = Reflect.getOwnPropertyDescriptor(begin(), key);
      return d && { ...d, configurable: true }; // a proxy may not report a property its target lacks as fixed
    },
  });
  return { api, start: begin, registered };
}
