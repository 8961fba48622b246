import { exitCodeOf } from './error-mapping.js';
import { runOperator } from './operator.js';
import { parseOperatorOptions, USAGE } from './operator-options.js';

try {
  await runOperator(parseOperatorOptions(process.argv.slice(2)));
  process.exitCode = 0;
} catch (e: unknown) {
  const code = exitCodeOf(e);
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n${code === 2 ? USAGE : ''}`);
  process.exitCode = code;
}
