// What a newcomer meets before any code runs: `npm ci` output and the extension's manifest.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as semver from 'semver';
import { WALKTHROUGH_STEP_CONTEXT } from '../../src/core/walkthroughSteps';

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(repoRoot, file), 'utf8'));

/** The oldest Node the project is developed on (`@types/node` ^20.19). */
const OLDEST_NODE = '20.19.0';

describe('npm ci on Node 20', () => {
  it('installs no package whose engines exclude Node 20 (no EBADENGINE warning)', () => {
    const lock = readJson('package-lock.json') as { packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean }> };
    const misfits: string[] = [];
    for (const [where, entry] of Object.entries(lock.packages)) {
      const range = !Array.isArray(entry.engines) ? entry.engines?.node : undefined;
      if (where === '' || !range) continue;
      if (!semver.satisfies(OLDEST_NODE, range)) misfits.push(`${where.replace(/^.*node_modules\//, '')} wants node ${range}`);
    }
    assert.ok(Object.keys(lock.packages).length > 50, 'package-lock.json lists the installed packages');
    assert.deepEqual(misfits, []);
  });
});

describe('Extension page (manifest)', () => {
  const manifest = readJson('package.json');

  it('names a 128×128 PNG icon that exists, with a gallery banner', () => {
    assert.equal(manifest.icon, 'media/icon.png');
    const png = fs.readFileSync(path.join(repoRoot, manifest.icon));
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
    assert.equal(png.toString('latin1', 12, 16), 'IHDR');
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128], 'width × height');
    assert.match(manifest.galleryBanner?.color ?? '', /^#[0-9a-f]{6}$/i);
    assert.ok(['dark', 'light'].includes(manifest.galleryBanner?.theme), `galleryBanner.theme ${manifest.galleryBanner?.theme}`);
  });

  it('keeps its categories and keywords', () => {
    assert.ok(manifest.categories.includes('Data Science'), `categories ${manifest.categories}`);
    assert.ok(manifest.keywords.includes('datagrok'), `keywords ${manifest.keywords}`);
  });
});

describe('Command titles', () => {
  type Command = { command: string; title: string; category?: string };
  type MenuItem = { command: string; group?: string };
  const contributes = readJson('package.json').contributes as { commands: Command[]; menus: Record<string, MenuItem[]> };

  it('every command has the category Datagrok and a title without "Datagrok:" (menus show the title alone); in the Explorer they sit together', () => {
    // VS Code shows the category only in the palette ("Datagrok: Push CSV as Table"); a menu shows the title,
    // so a prefix in some titles made the menus read "Open Connector File" beside "Datagrok: Download Connector File".
    for (const command of contributes.commands) {
      assert.equal(command.category, 'Datagrok', `${command.command} has the category Datagrok`);
      assert.doesNotMatch(command.title, /^Datagrok:/, `${command.command}: the category says Datagrok in the palette`);
    }
    // In the Explorer's context menu (shared with other extensions) our items are one group of their own.
    for (const item of (contributes.menus['explorer/context'] ?? []) as MenuItem[]) {
      assert.match(item.group ?? '', /^\d+_(datagrok|copypath)\b/, `${item.command} in the Explorer menu group ${item.group}`);
    }
  });

  it('every command reads "Datagrok: …" once in the palette', () => {
    for (const command of contributes.commands) {
      const label = command.category ? `${command.category}: ${command.title}` : command.title;
      assert.match(label, /^Datagrok: (?!Datagrok)/, command.command);
    }
  });
});

describe('Get Started walkthrough', () => {
  type Step = { id: string; title: string; description: string; media: { markdown?: string }; completionEvents: string[] };
  const contributes = readJson('package.json').contributes as { commands: { command: string }[]; walkthroughs: { id: string; title: string; steps: Step[] }[] };
  const commands = new Set(contributes.commands.map((command) => command.command));

  it('walks through sign in, push a CSV, run a function, open a file share', () => {
    const walkthrough = contributes.walkthroughs.find((w) => w.id === 'datagrok.getStarted');
    assert.ok(walkthrough, 'contributes.walkthroughs has datagrok.getStarted');
    assert.deepEqual(
      walkthrough.steps.map((step) => step.id),
      ['signIn', 'pushCsv', 'runFunction', 'openFileShare'],
    );
    const completedBy = walkthrough.steps.map((step) => step.completionEvents[0]);
    // Ticked after the real action succeeded (a context key the command layer sets), not on the click.
    assert.deepEqual(completedBy, [
      'onContext:datagrok.walkthrough.signedIn',
      'onContext:datagrok.walkthrough.pushed',
      'onContext:datagrok.walkthrough.ran',
      'onContext:datagrok.walkthrough.fileShareOpened',
    ]);
  });

  it('each step completes on a key a real command sets when it succeeds, links real commands and has its page under media/walkthrough/', () => {
    const setBy = new Map<string, string[]>();
    for (const [command, key] of WALKTHROUGH_STEP_CONTEXT) setBy.set(key, [...(setBy.get(key) ?? []), command]);
    for (const step of contributes.walkthroughs.flatMap((w) => w.steps)) {
      assert.ok(step.completionEvents.length > 0, `${step.id} has completion events`);
      for (const event of step.completionEvents) {
        const key = event.replace(/^onContext:/, '');
        assert.ok(setBy.has(key), `${step.id}: ${event} is not a key the command layer sets`);
        for (const command of setBy.get(key)!) assert.ok(commands.has(command), `${key} is set by ${command}, not a contributed command`);
      }
      const links = [...step.description.matchAll(/\(command:([\w.]+)\)/g)].map((m) => m[1]!);
      assert.ok(links.length > 0, `${step.id} has a button`);
      for (const link of links) assert.ok(commands.has(link), `${step.id} links ${link}, not a contributed command`);
      assert.match(step.media.markdown ?? '', /^media\/walkthrough\/[\w-]+\.md$/, step.id);
      assert.match(fs.readFileSync(path.join(repoRoot, step.media.markdown!), 'utf8'), /^# \S/, `${step.media.markdown} starts with a heading`);
    }
  });
});
