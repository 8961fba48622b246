/** Where the sandbox's one log stream goes: whole lines, without their newline. */
export type LogSink = (line: string) => void;

/**
 * The sandbox's one log stream: its own progress lines and those of every part it runs, each prefixed
 * with the part's name (`[sandbox] ready`, `[operator] info clone started vmid=1000`). The parts write
 * JSON lines; they are shown as `level message key=value…`, which is what a person reads them for.
 */
export class SandboxLog {
  constructor(private readonly sink: LogSink) {}

  /** A progress line of the sandbox itself. */
  progress(text: string): void {
    this.sink(`[sandbox] ${text}`);
  }

  /** Writes each whole line of `source`'s output; chunks may split lines anywhere. */
  lineWriter(source: string): { write(chunk: string): void; end(): void } {
    let pending = '';
    const emit = (line: string) => {
      if (line.trim() !== '') this.sink(`[${source}] ${readableLogLine(line)}`);
    };
    return {
      write: (chunk) => {
        const lines = (pending + chunk).split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) emit(line);
      },
      end: () => {
        emit(pending);
        pending = '';
      },
    };
  }
}

/** pino's numeric levels; the operator writes the names. */
const LEVEL_NAMES: Readonly<Record<number, string>> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};
/** Fields every line has, which say nothing about the event. */
const ROUTINE_FIELDS = new Set(['level', 'msg', 'time', 'pid', 'hostname', 'app', 'v']);

/** A JSON log line as `level message key=value…`; anything else as it is. */
function readableLogLine(line: string): string {
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch {
    return line;
  }
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return line;
  const fields = entry as Record<string, unknown>;
  const level = typeof fields.level === 'number' ? (LEVEL_NAMES[fields.level] ?? 'log') : fields.level;
  const parts = [typeof level === 'string' ? level : 'log', typeof fields.msg === 'string' ? fields.msg : ''];
  for (const [key, value] of Object.entries(fields)) {
    if (ROUTINE_FIELDS.has(key) || value === undefined) continue;
    parts.push(`${key}=${fieldText(value)}`);
  }
  return parts.filter((p) => p !== '').join(' ');
}

function fieldText(value: unknown): string {
  if (typeof value === 'string') return /\s/.test(value) || value === '' ? JSON.stringify(value) : value;
  // An error's stack would fill the screen; its message is what the line is read for.
  if (typeof value === 'object' && value !== null && 'message' in value && typeof value.message === 'string')
    return JSON.stringify(value.message);
  return JSON.stringify(value);
}
