/** One line of a CRI container log: `<RFC3339Nano> <stdout|stderr> <P|F>[:flags] <message>`. */
export interface CriLogLine {
  readonly timeMs: number;
  readonly stream: 'stdout' | 'stderr';
  /** A `P` line is a chunk of a longer line, continued by the next line of the same stream. */
  readonly partial: boolean;
  readonly message: string;
}

const LINE =
  /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})) (stdout|stderr) ([A-Z](?::[A-Za-z0-9]+)*)(?: (.*))?$/s;

/** The parts of a CRI log line, or undefined when the line is not in that format. */
export function parseCriLogLine(line: string): CriLogLine | undefined {
  const match = LINE.exec(line);
  if (match === null) return undefined;
  const [, time = '', stream, tag = '', message = ''] = match;
  const timeMs = Date.parse(time);
  if (Number.isNaN(timeMs)) return undefined;
  return {
    timeMs,
    stream: stream === 'stderr' ? 'stderr' : 'stdout',
    partial: tag.split(':').includes('P'),
    message,
  };
}
