// A private certificate authority and server certificates made at test time with openssl (Debian's):
// a good one, an expired one, one for another host name, and a self-signed one. Nothing downloaded.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

/** The host name the test certificates are issued for (see hosts.ts), besides 127.0.0.1. */
export const TEST_HOST = 'datagrok-test.internal';

export interface TestCertificates {
  dir: string;
  /** The private authority's certificate (PEM file). */
  caFile: string;
  /** Server certificates and their keys (PEM files), all signed by the authority except selfSigned. */
  good: { cert: string; key: string };
  expired: { cert: string; key: string };
  wrongHost: { cert: string; key: string };
  selfSigned: { cert: string; key: string };
  remove(): void;
}

function openssl(args: string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

function caConfig(dir: string): string {
  const file = path.join(dir, 'ca.cnf');
  fs.mkdirSync(path.join(dir, 'issued'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'index.txt'), '');
  fs.writeFileSync(path.join(dir, 'serial'), '1000\n');
  fs.writeFileSync(
    file,
    [
      '[ ca ]',
      'default_ca = test_ca',
      '[ test_ca ]',
      `dir = ${dir}`,
      'database = $dir/index.txt',
      'serial = $dir/serial',
      'new_certs_dir = $dir/issued',
      'certificate = $dir/ca.pem',
      'private_key = $dir/ca.key',
      'default_md = sha256',
      'policy = any',
      'copy_extensions = copy',
      'unique_subject = no',
      '[ any ]',
      'commonName = supplied',
      '',
    ].join('\n'),
  );
  return file;
}

/** A key and a CSR for `names`, then a certificate signed by the authority, valid between the dates. */
function issue(dir: string, config: string, name: string, names: string[], dates?: { start: string; end: string }): { cert: string; key: string } {
  const key = path.join(dir, `${name}.key`);
  const csr = path.join(dir, `${name}.csr`);
  const cert = path.join(dir, `${name}.pem`);
  const san = names.map((n) => (/^\d+\.\d+\.\d+\.\d+$/.test(n) ? `IP:${n}` : `DNS:${n}`)).join(',');
  openssl(
    [
      'req',
      '-new',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      csr,
      '-subj',
      `/CN=${names[0]}`,
      '-addext',
      `subjectAltName=${san}`,
    ],
    dir,
  );
  const validity = dates ? ['-startdate', dates.start, '-enddate', dates.end] : ['-days', '30'];
  openssl(['ca', '-batch', '-config', config, '-in', csr, '-out', cert, '-notext', ...validity], dir);
  return { cert, key };
}

export function makeCertificates(): TestCertificates {
  const dir = fs.mkdtempSync(path.join(tmpdir(), 'dg-certs-'));
  openssl(
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-days',
      '30',
      '-subj',
      '/CN=Datagrok Test Private CA',
    ],
    dir,
  );
  const config = caConfig(dir);
  const good = issue(dir, config, 'server', [TEST_HOST, '127.0.0.1']);
  const expired = issue(dir, config, 'expired', [TEST_HOST, '127.0.0.1'], { start: '20200101000000Z', end: '20200201000000Z' });
  const wrongHost = issue(dir, config, 'wrong-host', ['somewhere-else.example']);
  const selfSigned = { cert: path.join(dir, 'self.pem'), key: path.join(dir, 'self.key') };
  openssl(
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      selfSigned.key,
      '-out',
      selfSigned.cert,
      '-days',
      '30',
      '-subj',
      `/CN=${TEST_HOST}`,
      '-addext',
      `subjectAltName=DNS:${TEST_HOST},IP:127.0.0.1`,
    ],
    dir,
  );
  return {
    dir,
    caFile: path.join(dir, 'ca.pem'),
    good,
    expired,
    wrongHost,
    selfSigned,
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** The PEM files of a certificate pair, read for startEmulator({ tls }). */
export function readPair(pair: { cert: string; key: string }): { cert: Buffer; key: Buffer } {
  return { cert: fs.readFileSync(pair.cert), key: fs.readFileSync(pair.key) };
}
