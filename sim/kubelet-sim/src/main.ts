import { randomBytes } from 'node:crypto';
import { readFileSync, unwatchFile, watchFile } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseCliOptions, parseTokenFile, USAGE, UsageError, type CliOptions } from './cli-options.js';
import type { KubeletSimToken } from './kubelet-auth.js';
import { startKubeletSim } from './kubelet-sim.js';
import { readRecordedDocuments, type RecordedDocuments } from './recorded-documents.js';

const TOKEN_FILE_POLL_MS = 1000;

async function main(argv: string[]): Promise<number> {
  let options: CliOptions;
  let fileTokens: KubeletSimToken[] = [];
  let recorded: RecordedDocuments | undefined;
  try {
    const parsed = parseCliOptions(argv);
    if (parsed === 'help') {
      process.stdout.write(USAGE);
      return 0;
    }
    options = parsed;
    if (options.tokenFile !== undefined) fileTokens = readTokenFile(options.tokenFile);
    if (options.recordedDir !== undefined) {
      recorded = await readRecordedDocuments(options.recordedDir).catch((e: unknown) => {
        throw new UsageError(`--recorded: ${e instanceof Error ? e.message : String(e)}`);
      });
    }
  } catch (e: unknown) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`kubelet-sim: ${e.message}\n\n${USAGE}`);
    return 2;
  }
  const generated: KubeletSimToken[] =
    options.tokens.length + fileTokens.length === 0 ? [{ token: randomBytes(24).toString('base64url') }] : [];
  const sim = await startKubeletSim({
    host: options.host,
    port: options.port,
    pods: options.pods,
    tokens: [...options.tokens, ...fileTokens, ...generated],
    ...(options.nodeName !== undefined ? { nodeName: options.nodeName } : {}),
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(recorded ? { recorded } : {}),
  });
  for (const [path, fault] of options.faults) sim.setFault(path, fault);
  if (options.caOut !== undefined) await writeFile(options.caOut, sim.caPem);
  const tokenFile = options.tokenFile;
  if (tokenFile !== undefined) {
    // Polling survives the rename a kubelet (or a Secret volume) does when it rotates a token.
    watchFile(tokenFile, { interval: TOKEN_FILE_POLL_MS }, () => {
      try {
        sim.setTokens([...options.tokens, ...readTokenFile(tokenFile)]);
        process.stdout.write(`kubelet-sim: tokens re-read from ${tokenFile}\n`);
      } catch (e: unknown) {
        process.stderr.write(
          `kubelet-sim: keeping the old tokens: ${e instanceof Error ? e.message : String(e)}\n`,
        );
      }
    });
  }
  const caHint = options.caOut === undefined ? '-k' : `--cacert ${options.caOut}`;
  const token = generated[0]?.token ?? '<token>';
  const out = [
    `kubelet-sim: kubelet simulator for node ${sim.node.nodeName} (${options.pods} pods${recorded ? ', serving recorded documents' : ''}) listening on ${sim.url}`,
    ...(options.caOut !== undefined
      ? [`serving certificate (self-signed, with its CA): ${resolve(options.caOut)}`]
      : []),
    ...(generated.length
      ? [`token (user system:serviceaccount:default:default; stats, metrics, pods): ${token}`]
      : []),
    ...options.faults.map(([path, fault]) => `fault on ${path}: ${JSON.stringify(fault)}`),
    `try: curl ${caHint} -H "Authorization: Bearer ${token}" ${sim.url}/stats/summary`,
  ];
  process.stdout.write(`${out.join('\n')}\n`);
  const stop = (): void => {
    if (tokenFile !== undefined) unwatchFile(tokenFile);
    void sim.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return -1;
}

function readTokenFile(path: string): KubeletSimToken[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e: unknown) {
    throw new UsageError(`--token-file: ${e instanceof Error ? e.message : String(e)}`);
  }
  const tokens = parseTokenFile(text, path);
  if (tokens.length === 0) throw new UsageError(`--token-file ${path} has no token`);
  return tokens;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (e: unknown) => {
    process.stderr.write(`kubelet-sim: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
