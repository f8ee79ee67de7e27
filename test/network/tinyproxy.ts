// A real forward proxy for the tests: Debian's tinyproxy on a loopback port, with its own config and
// log in a temp folder, started in the foreground and stopped by its PID. Optionally with basic
// authentication, or allowing CONNECT only to some ports (a proxy that refuses the tunnel).
import * as fs from 'node:fs';
import * as net from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, spawnGroup, stopGroup } from '../host/processes';

export interface ProxyOptions {
  /** Basic authentication: the proxy answers 407 without these credentials. */
  auth?: { user: string; password: string };
  /** Ports CONNECT may reach (tinyproxy's ConnectPort); absent: any port. */
  connectPorts?: number[];
}

export interface RunningProxy {
  /** http://127.0.0.1:P, without credentials. */
  url: string;
  /** 127.0.0.1:P */
  host: string;
  port: number;
  pid: number;
  logFile: string;
  /** The request lines the proxy received, e.g. `CONNECT host:443 HTTP/1.1`, `GET http://host/x HTTP/1.1`. */
  requests(): string[];
  /** Forgets the requests so far (the log is truncated). */
  clear(): void;
  stop(): Promise<void>;
}

/** Whether tinyproxy is installed (`.ci/run` installs it; `apt-get install tinyproxy`). */
export function hasTinyproxy(): boolean {
  return ['/usr/bin/tinyproxy', '/usr/sbin/tinyproxy', '/usr/local/bin/tinyproxy'].some((p) => fs.existsSync(p));
}

function connects(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function startTinyproxy(options: ProxyOptions = {}): Promise<RunningProxy> {
  if (!hasTinyproxy()) throw new Error('tinyproxy is not installed: run `apt-get install -y tinyproxy` (as .ci/run does)');
  const dir = fs.mkdtempSync(path.join(tmpdir(), 'dg-proxy-'));
  const logFile = path.join(dir, 'tinyproxy.log');
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const config = [
      `Port ${port}`,
      'Listen 127.0.0.1',
      'Timeout 600',
      'MaxClients 64',
      'LogLevel Connect',
      `LogFile "${logFile}"`,
      'DisableViaHeader Yes',
      ...(options.auth ? [`BasicAuth ${options.auth.user} ${options.auth.password}`] : []),
      ...(options.connectPorts ?? []).map((p) => `ConnectPort ${p}`),
      '',
    ].join('\n');
    const configFile = path.join(dir, 'tinyproxy.conf');
    fs.writeFileSync(configFile, config);
    const child = spawnGroup('tinyproxy', ['-d', '-c', configFile], { stdio: 'ignore' });
    let up = false;
    for (let i = 0; i < 100 && child.exitCode === null && !up; i++) {
      up = await connects(port);
      if (!up) await sleep(50);
    }
    if (!up) {
      await stopGroup(child);
      if (attempt < 3) continue;
      throw new Error(`tinyproxy did not start on port ${port}: ${fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').slice(-2000) : 'no log'}`);
    }
    const requests = () => {
      const text = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '';
      return [...text.matchAll(/Request \(file descriptor \d+\): (.+)$/gm)].map((m) => m[1].trim());
    };
    return {
      url: `http://127.0.0.1:${port}`,
      host: `127.0.0.1:${port}`,
      port,
      pid: child.pid!,
      logFile,
      requests,
      clear: () => fs.truncateSync(logFile, 0),
      stop: async () => {
        await stopGroup(child);
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
}
