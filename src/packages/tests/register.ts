// Package tests in the Test Explorer: the "Datagrok packages" controller (made at activation beside the
// function tests' "Datagrok functions": two branches of one Test Explorer, each with the run profiles
// that make sense for it), its tree, the Run profile (the whole `grok test`: the Node pass, then the
// browser pass), the Debug profile (`grok test --gui --debug`, the JavaScript debugger attached to the
// browser: debugBrowser.ts), the Node pass profile (`--node-only`: only the tests marked {node: true}, no browser; it
// runs continuously on save when asked), and `datagrok.packages.test`.
import * as vscode from 'vscode';
import type { DebugBrowser } from './debugBrowser';
import type { Services } from '../../services';
import { type PackageTestsResult, testCommand } from './testCommand';
import { PackageTestRunner, type Reported, type RunOptions } from './testRunner';
import { planUnits } from './runPlan';
import { NODE_TAG, PackageTestTree } from './testTree';

/** What the integration tests read. */
export interface PackageTests {
  readonly controller: vscode.TestController;
  readonly tree: PackageTestTree;
  readonly runProfile: vscode.TestRunProfile;
  readonly nodeProfile: vscode.TestRunProfile;
  readonly debugProfile: vscode.TestRunProfile;
  /** What each run reported for each test item (by item id), the last run's last word. */
  readonly reported: ReadonlyMap<string, Reported>;
  /** How many runs have started. */
  runs(): number;
  /** The debugger attaches the Debug profile asked for, and whether VS Code started each. */
  readonly attaches: readonly { config: DebugBrowser['attach']; started: boolean }[];
}

export function registerPackageTests(services: Services): PackageTests {
  const { connection, log, commands } = services;
  const controller = services.contributions.testController('packages');
  const tree = new PackageTestTree(controller);
  const attaches: { config: DebugBrowser['attach']; started: boolean }[] = [];
  const runner = new PackageTestRunner({
    tree,
    controller,
    log,
    credentials: async () => {
      const url = connection.baseUrl();
      const key = (await connection.hasActiveKey()) ? await connection.apiKeyFor(url) : undefined;
      if (!key) throw new Error(`Not signed in to ${url}: sign in (Datagrok: Sign In) first; package tests run on the server VS Code is signed in to.`);
      return { url, key };
    },
    attach: async (config) => {
      let session: vscode.DebugSession | undefined;
      const started = vscode.debug.onDidStartDebugSession((s) => {
        if (s.name === config.name) session = s;
      });
      try {
        const ok = await vscode.debug.startDebugging(vscode.workspace.getWorkspaceFolder(vscode.Uri.file(config.webRoot)), config);
        attaches.push({ config, started: ok });
        if (!ok) log.warn(`Package tests: the JavaScript debugger did not start (${config.name}, port ${config.port})`);
      } finally {
        started.dispose();
      }
      return () => {
        if (session) void vscode.debug.stopDebugging(session);
      };
    },
  });
  controller.resolveHandler = async (item) => {
    if (!item) await tree.ready();
  };
  controller.refreshHandler = () => tree.reload();

  const roots = () => {
    const items: vscode.TestItem[] = [];
    controller.items.forEach((i) => {
      items.push(i);
    });
    return items;
  };
  const publishSetting = (): boolean | undefined => {
    const value = vscode.workspace.getConfiguration('datagrok.packages.tests').get<string>('publish', 'auto');
    return value === 'always' ? true : value === 'never' ? false : undefined;
  };
  const handler = (profile: Omit<RunOptions, 'publish'>) => async (request: vscode.TestRunRequest, token: vscode.CancellationToken) => {
    const options: RunOptions = { ...profile, publish: publishSetting() };
    await tree.ready();
    if (!request.continuous) {
      await runner.run(request, planUnits(tree, request.include, roots()), options, token);
      return;
    }
    // Continuous run (as on save): each change to a package the request covers runs its part of the request.
    const asked = new Set(planUnits(tree, request.include, roots()).map((u) => u.packageDir));
    await new Promise<void>((resolve) => {
      let running = Promise.resolve();
      const watch = tree.onDidChange((dir) => {
        if (!asked.has(dir)) return;
        running = running.then(async () => {
          const units = planUnits(tree, request.include, roots()).filter((u) => u.packageDir === dir);
          if (!token.isCancellationRequested && units.length > 0) await runner.run(request, units, options, token);
        });
      });
      token.onCancellationRequested(() => {
        watch.dispose();
        resolve();
      });
    });
  };
  const runProfile = controller.createRunProfile('Run (grok test)', vscode.TestRunProfileKind.Run, handler({ nodeOnly: false }), true);
  const debugProfile = controller.createRunProfile('Debug (grok test --gui --debug)', vscode.TestRunProfileKind.Debug, handler({ nodeOnly: false, debug: true }), true);
  const nodeProfile = controller.createRunProfile('Node pass (grok test --node-only)', vscode.TestRunProfileKind.Run, handler({ nodeOnly: true }), false, NODE_TAG, true);

  services.context.subscriptions.push(
    tree,
    runProfile,
    debugProfile,
    nodeProfile,
    commands.register('datagrok.packages.test', (inv) => testCommand({ tree, runner, roots }, inv) as Promise<PackageTestsResult>),
  );
  return { controller, tree, runProfile, nodeProfile, debugProfile, reported: runner.reported, runs: () => runner.runCount, attaches };
}
