// npm run emulator -- --port P --key K [--data DIR] [--groups N] [--functions N] [--generation old|new|both] [--tls-cert PEM --tls-key PEM]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startEmulator } from './server';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      key: { type: 'string', default: 'demo-key' },
      data: { type: 'string' },
      groups: { type: 'string', default: '0' },
      functions: { type: 'string', default: '0' },
      generation: { type: 'string', default: 'both' },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log('Usage: npm run emulator -- [--port P] [--key K] [--data DIR] [--groups N] [--functions N] [--generation old|new|both] [--tls-cert CERT.pem --tls-key KEY.pem]');
    return;
  }
  const port = Number(values.port);
  const groups = Number(values.groups);
  const functions = Number(values.functions);
  const generation = values.generation;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a port number, got ${values.port}`);
  if (!Number.isInteger(groups) || groups < 0) throw new Error(`--groups must be a count, got ${values.groups}`);
  if (!Number.isInteger(functions) || functions < 0) throw new Error(`--functions must be a count, got ${values.functions}`);
  if (generation !== 'old' && generation !== 'new' && generation !== 'both') throw new Error('--generation must be old, new or both');

  if (!values['tls-cert'] !== !values['tls-key']) throw new Error('--tls-cert and --tls-key go together');
  const tls = values['tls-cert'] && values['tls-key'] ? { cert: readFileSync(values['tls-cert']), key: readFileSync(values['tls-key']) } : undefined;
  const emulator = await startEmulator({ port, key: values.key, dataDir: values.data, extraGroups: groups, extraFunctions: functions, generation, tls });
  console.log(`Datagrok emulator: ${emulator.baseUrl}`);
  console.log(`API key: ${emulator.key}`);

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    emulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e: unknown) => {
  console.error(`Datagrok emulator: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
