// A host name for the local test servers that is not "localhost" or "127.0.0.1": requests to those are
// never proxied (as in VS Code), so a proxy test names the server datagrok-test.internal, which the
// proxy resolves to 127.0.0.1. When the name does not resolve yet, a line is added to /etc/hosts (CI
// runs as root) and removed again by the returned function.
import { lookup } from 'node:dns/promises';
import * as fs from 'node:fs';
import { TEST_HOST } from './certs';

const HOSTS = '/etc/hosts';
const LINE = `127.0.0.1 ${TEST_HOST} # datagrok-vscode tests`;

async function resolvesToLoopback(): Promise<boolean> {
  try {
    return (await lookup(TEST_HOST, { family: 4 })).address === '127.0.0.1';
  } catch {
    return false;
  }
}

/** Makes TEST_HOST resolve to 127.0.0.1; resolves with the function that undoes it (a no-op if nothing was added). */
export async function ensureTestHost(): Promise<() => void> {
  if (await resolvesToLoopback()) return () => undefined;
  try {
    fs.appendFileSync(HOSTS, `${fs.readFileSync(HOSTS, 'utf8').endsWith('\n') ? '' : '\n'}${LINE}\n`);
  } catch (error) {
    throw new Error(`${TEST_HOST} must resolve to 127.0.0.1 for the proxy tests: add "${LINE}" to ${HOSTS} (${(error as Error).message})`);
  }
  if (!(await resolvesToLoopback())) throw new Error(`${TEST_HOST} still does not resolve to 127.0.0.1 after adding it to ${HOSTS}`);
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    try {
      const lines = fs
        .readFileSync(HOSTS, 'utf8')
        .split('\n')
        .filter((l) => l !== LINE);
      fs.writeFileSync(HOSTS, lines.join('\n'));
    } catch {
      // best effort: a leftover line only maps a test name to the loopback address
    }
  };
  process.once('exit', remove);
  return remove;
}
