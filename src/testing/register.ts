// The function tests feature: parameter files with "$expect" as tests in VS Code's Test Explorer
// (controller "Datagrok functions", made at activation: src/start/lazyFeatures.ts), the commands
// datagrok.tests.run, datagrok.tests.acceptActual and datagrok.tests.turnIntoTest.
import * as vscode from 'vscode';
import type { Services } from '../services';
import { acceptActual, runTests, type Testing, turnIntoTest } from './commands';
import { type Actual, type Reported, selectCases, TestRunner } from './testRunner';
import { TestTree } from './testTree';

/** What the integration tests read: the controller, its run profile, the tree and the last answers. */
export interface FunctionTests {
  readonly controller: vscode.TestController;
  readonly runProfile: vscode.TestRunProfile;
  readonly tree: TestTree;
  readonly actuals: ReadonlyMap<string, Actual>;
  readonly reported: ReadonlyMap<string, Reported>;
}

export function registerTesting(services: Services): FunctionTests {
  const { context, connection, log, commands } = services;
  const controller = services.contributions.testController();
  const tree = new TestTree(controller);
  const deps = { tree, controller, catalog: services.platform.catalog, log, client: () => connection.client() };
  const runner = new TestRunner(deps);
  const t: Testing = { services, deps, runner };
  controller.resolveHandler = async (item) => {
    if (!item) await tree.ready();
  };
  controller.refreshHandler = () => tree.reload();
  const runProfile = controller.createRunProfile(
    'Run',
    vscode.TestRunProfileKind.Run,
    async (request, token) => {
      await tree.ready();
      await runner.run(request, selectCases(tree, request), token);
    },
    true,
  );
  context.subscriptions.push(
    tree,
    runProfile,
    commands.register('datagrok.tests.run', (inv) => runTests(t, inv)),
    commands.register('datagrok.tests.acceptActual', (inv) => acceptActual(t, inv)),
    commands.register('datagrok.tests.turnIntoTest', (inv) => turnIntoTest(t, inv)),
  );
  return { controller, runProfile, tree, actuals: runner.actuals, reported: runner.reported };
}
