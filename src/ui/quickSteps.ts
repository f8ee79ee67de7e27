// Steps of a multi-step flow: an input box or a single-choice pick with a step counter and a Back button.
// Resolves with the answer, or BACK when the Back button was pressed; rejects with UserCancelled when dismissed.
import * as vscode from 'vscode';
import { UserCancelled } from '../core/commands';

export const BACK = Symbol('back');
export type Back = typeof BACK;

export interface StepUi {
  title: string;
  step?: number;
  totalSteps?: number;
  /** Shows a Back button. */
  back?: boolean;
}

function setup(input: vscode.QuickInput & { buttons: readonly vscode.QuickInputButton[] }, ui: StepUi): void {
  input.title = ui.title;
  input.step = ui.step;
  input.totalSteps = ui.totalSteps;
  input.ignoreFocusOut = true;
  if (ui.back) input.buttons = [vscode.QuickInputButtons.Back];
}

/** A text step; `validate` runs as the user types. */
export function askText(ui: StepUi & { prompt: string; value?: string; validate?: (value: string) => string | undefined }): Promise<string | Back> {
  const box = vscode.window.createInputBox();
  setup(box, ui);
  box.prompt = ui.prompt;
  box.value = ui.value ?? '';
  const validate = () => {
    box.validationMessage = ui.validate?.(box.value);
  };
  validate();
  return new Promise((resolve, reject) => {
    let done = false;
    const finish = (value: string | Back) => {
      done = true;
      resolve(value);
      box.dispose();
    };
    box.onDidChangeValue(validate);
    box.onDidTriggerButton((b) => {
      if (b === vscode.QuickInputButtons.Back) finish(BACK);
    });
    box.onDidAccept(() => {
      validate();
      if (!box.validationMessage) finish(box.value);
    });
    box.onDidHide(() => {
      if (!done) reject(new UserCancelled());
      box.dispose();
    });
    box.show();
  });
}

/** A single-choice step. */
export function askChoice<T extends vscode.QuickPickItem>(items: T[], ui: StepUi & { placeholder?: string }): Promise<T | Back> {
  const pick = vscode.window.createQuickPick<T>();
  setup(pick, ui);
  pick.placeholder = ui.placeholder;
  pick.items = items;
  return new Promise((resolve, reject) => {
    let done = false;
    const finish = (value: T | Back) => {
      done = true;
      resolve(value);
      pick.dispose();
    };
    pick.onDidTriggerButton((b) => {
      if (b === vscode.QuickInputButtons.Back) finish(BACK);
    });
    pick.onDidAccept(() => {
      const picked = pick.selectedItems[0] ?? pick.activeItems[0];
      if (picked) finish(picked);
    });
    pick.onDidHide(() => {
      if (!done) reject(new UserCancelled());
      pick.dispose();
    });
    pick.show();
  });
}
