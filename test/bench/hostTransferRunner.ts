// The extension host's side of test/bench/hostTransfer.ts: loaded as the test runner
// (extensionTestsPath), it signs in to the bench's emulator and times, run after run, the commands a
// user runs — datagrok.files.download of a large file and datagrok.tables.open of a large table (saved
// to the extension's storage, too large for an editor) — against curl fetching the same route into a
// file from this same host, taking turns at going first, each after a sync. It samples the host's RSS
// while a command runs. The result goes to DATAGROK_BENCH_RESULT as JSON; the launcher prints and judges.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';

export interface HostTransferRun {
  /** Seconds of the command and of curl for the same bytes. */
  command: number;
  curl: number;
  /** Peak growth of this host's RSS while the command ran (bytes). */
  extraRss: number;
}

export interface HostTransfer {
  download: HostTransferRun[];
  /** The same download from the HTTPS emulator (when the launcher started one). */
  secureDownload: HostTransferRun[];
  secureDownloadedFile?: string;
  table: HostTransferRun[];
  /** The command's output files, for the launcher's integrity check. */
  downloadedFile?: string;
  tableFile?: string;
  error?: string;
}

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

function exec(file: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => execFile(file, args, (error, _stdout, stderr) => (error ? reject(new Error(`${file}: ${stderr || error.message}`)) : resolve())));
}

/** Seconds `work` took and the host's peak RSS growth meanwhile (sampled every 20 ms and at the end). */
async function measure(work: () => Thenable<unknown>): Promise<{ seconds: number; extraRss: number }> {
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const started = performance.now();
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - started) / 1000;
  peak = Math.max(peak, process.memoryUsage().rss);
  return { seconds, extraRss: peak - before };
}

/**
 * `runs` rounds of the command against curl, the order alternating; each first writes dirty pages back and
 * removes its own output (`clean.command`, `clean.curl`), so the command's last output stays for the integrity check.
 */
async function compare(runs: number, command: () => Thenable<unknown>, curlArgs: string[], clean: { command: () => void; curl: () => void }): Promise<HostTransferRun[]> {
  const results: HostTransferRun[] = [];
  for (let run = 0; run < runs; run++) {
    // Dirty pages written back first, then the output removed just before: each writes into memory the
    // kernel has just freed (see test/bench/transfer.ts on this VM's fresh pages).
    const timeCommand = async () => {
      await exec('sync', []);
      clean.command();
      return measure(command);
    };
    const timeCurl = async () => {
      await exec('sync', []);
      clean.curl();
      return (await measure(() => exec('curl', curlArgs))).seconds;
    };
    const commandFirst = run % 2 === 0;
    const first = commandFirst ? await timeCommand() : undefined;
    const curl = await timeCurl();
    const ours = first ?? (await timeCommand());
    results.push({ command: ours.seconds, curl, extraRss: ours.extraRss });
  }
  return results;
}

export async function run(): Promise<void> {
  const resultFile = env('DATAGROK_BENCH_RESULT');
  const result: HostTransfer = { download: [], secureDownload: [], table: [] };
  try {
    const url = env('DATAGROK_BENCH_URL');
    const key = env('DATAGROK_BENCH_KEY');
    const dir = env('DATAGROK_BENCH_DIR');
    const runs = Number(env('DATAGROK_BENCH_RUNS'));
    const [connector, filePath] = [env('DATAGROK_BENCH_CONNECTOR'), env('DATAGROK_BENCH_FILE')];
    const table = env('DATAGROK_BENCH_TABLE');
    await vscode.commands.executeCommand('datagrok.signIn', { url, apiKey: key });
    const auth = ['-H', `Authorization: Bearer ${key}`];
    const rm = (...files: string[]) => {
      for (const file of files) fs.rmSync(file, { force: true });
    };

    const target = path.join(dir, 'downloaded.bin');
    const curlTarget = path.join(dir, 'curl-download.bin');
    const fileUrl = `${url}/public/v1/files/${connector.replace(':', '.')}/${filePath.split('/').map(encodeURIComponent).join('/')}`;
    result.download = await compare(
      runs,
      () => vscode.commands.executeCommand('datagrok.files.download', { connector, path: filePath, target: vscode.Uri.file(target) }),
      ['-sS', '-f', '-o', curlTarget, ...auth, fileUrl],
      { command: () => rm(target), curl: () => rm(curlTarget) },
    );
    result.downloadedFile = target;
    rm(curlTarget);

    // tables.open saves the table in the extension's storage; too large for an editor, it stays there.
    let tableFile = '';
    const curlTable = path.join(dir, 'curl-table.csv');
    result.table = await compare(
      runs,
      async () => {
        tableFile = ((await vscode.commands.executeCommand('datagrok.tables.open', { name: table })) as vscode.Uri).fsPath;
      },
      ['-sS', '-f', '-o', curlTable, ...auth, `${url}/public/v1/tables/${encodeURIComponent(table.replace(':', '.'))}`],
      { command: () => rm(...(tableFile ? [tableFile] : [])), curl: () => rm(curlTable) },
    );
    result.tableFile = tableFile;
    rm(curlTable);

    // Over HTTPS, the path users take: the same download from the emulator serving TLS with a private
    // authority (trusted through datagrok.tls.caCertificates; curl --cacert).
    const secureUrl = process.env['DATAGROK_BENCH_HTTPS_URL'];
    if (secureUrl) {
      await vscode.commands.executeCommand('datagrok.signIn', { url: secureUrl, apiKey: key });
      const secureTarget = path.join(dir, 'downloaded-tls.bin');
      const curlSecure = path.join(dir, 'curl-download-tls.bin');
      result.secureDownload = await compare(
        runs,
        () => vscode.commands.executeCommand('datagrok.files.download', { connector, path: filePath, target: vscode.Uri.file(secureTarget) }),
        ['-sS', '-f', '--cacert', env('DATAGROK_BENCH_CA_FILE'), '-o', curlSecure, ...auth, fileUrl.replace(url, secureUrl)],
        { command: () => rm(secureTarget), curl: () => rm(curlSecure) },
      );
      result.secureDownloadedFile = secureTarget;
      rm(curlSecure);
    }
  } catch (error) {
    result.error = error instanceof Error ? (error.stack ?? error.message) : String(error);
  }
  fs.writeFileSync(resultFile, JSON.stringify(result));
}
