/** What a command talks to; main passes the process's, tests their own. */
export interface CliIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The home folder the default config folder (`~/.nr`) is in. */
  readonly homeDir: string;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Whether stderr is a terminal: glyphs there, bracketed words otherwise. */
  readonly stderrIsTty: boolean;
  /** Asks on the terminal and resolves with the answer; undefined when stdin is not a terminal. */
  readonly prompt: ((question: string) => Promise<string>) | undefined;
  /** Waits between polls; tests pass a shorter one. Default: a timer. */
  readonly sleep?: (ms: number) => Promise<void>;
  /** Default: the system clock. */
  readonly now?: () => Date;
}
