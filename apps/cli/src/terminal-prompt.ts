import { createInterface } from 'node:readline/promises';

/** Asks on stderr and reads one line from stdin, which main has found to be a terminal. */
export async function terminalPrompt(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await rl.question(question);
  } finally {
    rl.close();
  }
}
