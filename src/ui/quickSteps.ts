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

export interface PickUi extends StepUi {
  placeholder?: string;
  canSelectMany?: boolean;
  /** Stays open when focus moves elsewhere (default true). */
  ignoreFocusOut?: boolean;
}

/** A quick pick with the step's title, counter, placeholder and Back button, matching on descriptions and details too. */
export function stepPick<T extends vscode.QuickPickItem>(ui: PickUi): vscode.QuickPick<T> {
  const pick = vscode.window.createQuickPick<T>();
  setup(pick, ui);
  pick.placeholder = ui.placeholder;
  pick.canSelectMany = ui.canSelectMany ?? false;
  pick.ignoreFocusOut = ui.ignoreFocusOut ?? true;
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  if (pick.canSelectMany) {
    // A click on a row's checkbox leaves the keyboard focus on that checkbox, which takes Enter as
    // "untick" and keeps it from the pick: setting the selection of the input's text (the cursor at its
    // end) moves the focus back to the input, where Enter accepts what is ticked.
    // (QuickPick has `valueSelection` at run time in every release we support: it is the base class's; the
    // typings of 1.103 declare it on InputBox only.)
    // The cursor goes to the end of the text as the input has it (past the end is clamped there): this
    // side's `value` may lag behind the keys being typed. Only on a change of what is ticked.
    const input = pick as vscode.QuickPick<T> & { valueSelection?: readonly [number, number] };
    const END = 0x7fffffff;
    let ticked: readonly T[] = [];
    pick.onDidChangeSelection((items) => {
      if (items.length === ticked.length && items.every((item, i) => item === ticked[i])) return;
      ticked = items;
      input.valueSelection = [END, END];
    });
  }
  return pick;
}

type StepInput = vscode.QuickInput & { readonly onDidTriggerButton: vscode.Event<vscode.QuickInputButton> };

/**
 * Shows a step and settles with what `wire` finishes it with, or BACK when its Back button is pressed;
 * rejects with UserCancelled when it is dismissed first. `onHide` runs when it closes, either way.
 */
export function runStep<R>(input: StepInput, wire: (finish: (value: R) => void) => void, onHide?: () => void): Promise<R | Back> {
  return new Promise((resolve, reject) => {
    let done = false;
    const finish = (value: R | Back) => {
      done = true;
      resolve(value);
      input.dispose();
    };
    input.onDidTriggerButton((b) => {
      if (b === vscode.QuickInputButtons.Back) finish(BACK);
    });
    wire(finish);
    input.onDidHide(() => {
      onHide?.();
      if (!done) reject(new UserCancelled());
      input.dispose();
    });
    input.show();
  });
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
  // An empty box is not an error before anything was typed (Enter still checks it).
  if (box.value !== '') validate();
  return runStep<string>(box, (finish) => {
    box.onDidChangeValue(validate);
    box.onDidAccept(() => {
      validate();
      if (!box.validationMessage) finish(box.value);
    });
  });
}

/** A single-choice step. */
export function askChoice<T extends vscode.QuickPickItem>(items: T[], ui: StepUi & { placeholder?: string }): Promise<T | Back> {
  const pick = stepPick<T>(ui);
  pick.items = items;
  return runStep<T>(pick, (finish) => {
    pick.onDidAccept(() => {
      const picked = pick.selectedItems[0] ?? pick.activeItems[0];
      if (picked) finish(picked);
    });
  });
}
