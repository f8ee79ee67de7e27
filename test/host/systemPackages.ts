// The Debian packages the tests need, checked at the start of `npm test` and installed when run as root
// (otherwise it stops with the apt-get line to run), so that a new machine with only Node, npm and git
// runs the README's test line as CI does. `.ci/run` installs the same list before `npm ci` (a unit test
// keeps the two equal). Nothing here downloads from anywhere but Debian's own repositories.
//
//   node out/test/host/systemPackages.js
import { ensureAptPackages } from './provision';

/** Each package and what needs it. */
export const SYSTEM_PACKAGES: Readonly<Record<string, string>> = {
  chromium: 'the browser that drives the real VS Code (code-server)',
  'libkrb5-dev': "to build code-server's kerberos module",
  ripgrep: 'the oldest tested code-server would otherwise download it from GitHub',
  tinyproxy: 'the real forward proxy of the proxy tests',
  openssl: 'certificates of the TLS tests',
  'python3-pandas': 'the emulator runs Python scripts with it',
  'python3-matplotlib': 'the plots of Python scripts (graphics outputs)',
  'python3-nbformat': 'to check an exported Jupyter notebook',
};

if (require.main === module) {
  try {
    ensureAptPackages(Object.keys(SYSTEM_PACKAGES));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
