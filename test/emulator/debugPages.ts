// The platform's web page as far as debugging a package needs it (the extension's `datagrok` debug type):
// `GET /` loads every package the signed-in user sees and runs their `autostart`/`init` functions, and
// `GET /apps/<Package>` (as real servers address an app) loads that package and runs its app function
// (`//tags: app` or `//meta.role: app`). The browser is signed in as `grok test` signs one in: the `auth`
// cookie holding a session token of the dev-key login (`POST /api/users/login/dev`); without it the page is
// a 401 page. The page loads `dist/package.js` from the published files route (the cookie authorizes it,
// and its source map, there: `cookieSession`), with `grok`, `ui` and `DG` as small stand-ins, and writes
// each call's result into the page (`#results`, and `document.title` when all are done).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendBody } from './http';
import type { PackageFunction } from './package-annotations';
import type { PackageVersion, StoredPackage } from './package-store';
import { escapeHtml } from './pages';
import type { EmulatorState } from './state';

/** Whether the request carries the `auth` cookie of a live session (a browser signed in as grok test signs one in). */
export function cookieSession(state: EmulatorState, cookieHeader: string | undefined): boolean {
  for (const part of (cookieHeader ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === 'auth' && state.tokens.has(decodeURIComponent(value.join('=')))) return true;
  }
  return false;
}

const STANDINS =
  'window.grok={shell:{info:function(m){console.log(m)}}};window.ui={};' +
  'window.DG={Package:function(){this.webRoot="";this.name="";this.version="";this.init=function(){return Promise.resolve(null)}}};';

function filesUrl(p: StoredPackage, v: PackageVersion, file: string): string {
  return `/api/packages/published/files/${[p.name, v.version, v.buildHash, String(v.buildNumber)].map(encodeURIComponent).join('/')}/${file}`;
}

function html(title: string, body: string, script = ''): string {
  return (
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` + `<body><h1>${escapeHtml(title)}</h1>${body}${script}</body></html>`
  );
}

/** The page that loads `loads` and calls `calls` ([library global, export name, function name]). */
function runnerPage(title: string, loads: string[], calls: [string, string, string][]): string {
  const scripts = loads.map((src) => `<script src="${escapeHtml(src)}"></script>`).join('');
  const run =
    '<script>(async function(){var out=document.getElementById("results");var calls=' +
    JSON.stringify(calls).replace(/</g, '\\u003c') +
    ';for(var i=0;i<calls.length;i++){var c=calls[i];var li=document.createElement("li");' +
    'try{var lib=window[c[0]];var r=await lib[c[1]]();li.textContent=c[2]+": "+JSON.stringify(r===undefined?null:r)}' +
    'catch(e){li.textContent=c[2]+" failed: "+(e&&e.message||e)}out.appendChild(li)}document.title=title+" (done)"})();var title=' +
    JSON.stringify(title).replace(/</g, '\\u003c') +
    ';</script>';
  return html(title, '<ul id="results"></ul>', `<script>${STANDINS}</script>${scripts}${run}`);
}

const isApp = (f: PackageFunction) => f.role === 'app' || f.tags.includes('app');
const startsWithPlatform = (f: PackageFunction) => ['autostart', 'init'].some((t) => f.role === t || f.tags.includes(t));

/** Serves `/` and `/apps/<Package>`; false for any other request. */
export function serveDebugPage(state: EmulatorState, req: IncomingMessage, res: ServerResponse, rawPath: string): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const app = /^\/apps\/([^/]+)\/?$/.exec(rawPath);
  if (rawPath !== '/' && !app) return false;
  if (!cookieSession(state, req.headers.cookie)) {
    const body =
      '<p>Not signed in: this page needs the <code>auth</code> cookie of a session (a token of <code>POST /api/users/login/dev</code>), as <code>grok test</code> signs a browser in.</p>';
    sendBody(res, 401, html('401 Unauthorized — Datagrok emulator', body), 'text/html; charset=utf-8');
    return true;
  }
  const user = state.currentUser;
  const visible = [...state.packages.packages.values()].flatMap((p) => {
    const v = state.packages.visibleVersion(p, user);
    return v?.files.has('dist/package.js') ? [{ p, v }] : [];
  });
  if (app) {
    let name: string;
    try {
      name = decodeURIComponent(app[1]).toLowerCase();
    } catch {
      return false;
    }
    const found = visible.find(({ p }) => p.name.toLowerCase() === name);
    const fn = found?.v.functions.find(isApp);
    if (!found || !fn) {
      sendBody(
        res,
        404,
        html('Not found — Datagrok emulator', `<p>No published package ${escapeHtml(app[1])} with an app function (//tags: app).</p>`),
        'text/html; charset=utf-8',
      );
      return true;
    }
    const page = runnerPage(`${found.p.name} app`, [filesUrl(found.p, found.v, 'dist/package.js')], [[found.p.name.toLowerCase(), fn.exportName, fn.name]]);
    sendBody(res, 200, page, 'text/html; charset=utf-8');
    return true;
  }
  const calls = visible.flatMap(({ p, v }) =>
    v.functions.filter(startsWithPlatform).map<[string, string, string]>((f) => [p.name.toLowerCase(), f.exportName, `${p.name}:${f.name}`]),
  );
  const page = runnerPage(
    'Datagrok emulator',
    visible.map(({ p, v }) => filesUrl(p, v, 'dist/package.js')),
    calls,
  );
  sendBody(res, 200, page, 'text/html; charset=utf-8');
  return true;
}
